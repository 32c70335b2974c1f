//! The UCI parser fed arbitrary lines: it never panics, and what it reads
//! is consistent with the line (a `position` keeps its moves, a `go` its
//! numbers, `setoption` a name without surrounding spaces).

#![no_main]

use engine::uci::{Command, parse};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    // The engine reads bytes and replaces invalid UTF-8; so do we.
    let text = String::from_utf8_lossy(data);
    for line in text.split('\n') {
        let cmd = parse(line);
        let words: Vec<&str> = line.split_ascii_whitespace().collect();
        match &cmd {
            Command::Empty => assert!(words.is_empty(), "{line:?}"),
            Command::Position { fen, moves } => {
                assert_eq!(words[0], "position");
                if let Some(fen) = fen {
                    assert!(!fen.is_empty());
                    assert!(!fen.split_ascii_whitespace().any(|w| w == "moves"));
                }
                let after: Vec<&str> = match words.iter().position(|&w| w == "moves") {
                    Some(i) => words[i + 1..].to_vec(),
                    None => Vec::new(),
                };
                assert_eq!(moves, &after, "{line:?}");
            }
            Command::Go(go) => {
                assert_eq!(words[0], "go");
                // No parameter is invented; one whose value does not parse is skipped
                // (the rest of the go still runs).
                let given: std::collections::HashSet<&str> = words[1..].iter().copied().collect();
                let has = |w: &str| given.contains(w);
                assert!(go.wtime.is_none() || has("wtime"), "{line:?}");
                assert!(go.btime.is_none() || has("btime"), "{line:?}");
                assert!(go.winc.is_none() || has("winc"), "{line:?}");
                assert!(go.binc.is_none() || has("binc"), "{line:?}");
                assert!(go.movestogo.is_none() || has("movestogo"), "{line:?}");
                assert!(go.movetime.is_none() || has("movetime"), "{line:?}");
                assert!(go.depth.is_none() || has("depth"), "{line:?}");
                assert!(go.nodes.is_none() || has("nodes"), "{line:?}");
                assert!(go.mate.is_none() || has("mate"), "{line:?}");
                assert_eq!(has("infinite"), go.infinite, "{line:?}");
                assert_eq!(has("ponder"), go.ponder, "{line:?}");
                for m in &go.searchmoves {
                    assert!(has(m.as_str()), "{line:?}");
                }
            }
            Command::SetOption { name, value } => {
                assert!(!name.is_empty());
                assert_eq!(name.trim_ascii(), name.as_str());
                if let Some(v) = value {
                    assert_eq!(v.trim_ascii(), v.as_str());
                }
            }
            Command::Perft(d) => assert!(*d <= 12),
            Command::Invalid(why) => assert!(!why.is_empty()),
            Command::BadPosition(why) => {
                assert_eq!(words[0], "position", "{line:?}");
                assert!(!why.is_empty());
            }
            _ => {}
        }
        let _ = format!("{cmd:?}");
    }
});
