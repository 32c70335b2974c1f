//! The UCI handshake, the options, and positions: scripted conversations
//! with the real `borrow` binary (helpers in `common`).

mod common;

use common::*;

// ---------------------------------------------------------------------------
// The handshake and the options.

#[test]
fn uci_lists_identity_and_every_option_then_uciok() {
    let mut e = Engine::new();
    e.send("uci");
    let lines = e.read_until(LINE_TIMEOUT, "uciok", |l| l == "uciok");
    assert!(lines[0].starts_with("id name Borrow"), "{lines:?}");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("id author ") && l.len() > "id author ".len()),
        "{lines:?}"
    );
    let options: Vec<&String> = lines.iter().filter(|l| l.starts_with("option ")).collect();
    assert_eq!(
        lines.len(),
        options.len() + 3,
        "only id, option and uciok lines: {lines:?}"
    );
    let expect = [
        "option name Hash type spin default 16 min 1 max 65536",
        "option name Threads type spin default 1 min 1 max 256",
        "option name MultiPV type spin default 1 min 1 max 256",
        "option name Ponder type check default false",
        "option name Move Overhead type spin default 10 min 0 max 5000",
        "option name Clear Hash type button",
        "option name OwnBook type check default false",
        "option name BookFile type string default <empty>",
        "option name BookDepth type spin default 20 min 1 max 1000",
        "option name UCI_Chess960 type check default false",
        "option name SyzygyPath type string default <empty>",
        "option name SyzygyProbeDepth type spin default 1 min 1 max 100",
        "option name Syzygy50MoveRule type check default true",
        "option name SyzygyProbeLimit type spin default 7 min 0 max 7",
        "option name UCI_ShowWDL type check default false",
        "option name UCI_LimitStrength type check default false",
        "option name UCI_Elo type spin default 1350 min 1350 max 2450",
        "option name EvalFile type string default <empty>",
    ];
    for want in expect {
        assert!(
            options.iter().any(|l| *l == want),
            "missing '{want}' in {options:?}"
        );
    }
    let combo = options
        .iter()
        .find(|l| l.starts_with("option name AttackMethod type combo default "))
        .unwrap_or_else(|| panic!("no AttackMethod combo in {options:?}"));
    let words: Vec<&str> = combo.split_ascii_whitespace().collect();
    assert_eq!(words[6], Method::default().name(), "{combo}");
    let vars: Vec<&str> = words
        .windows(2)
        .filter(|w| w[0] == "var")
        .map(|w| w[1])
        .collect();
    let all: Vec<&str> = Method::ALL.iter().map(|m| m.name()).collect();
    assert_eq!(vars, all, "{combo}");
    let eval = format!(
        "option name Evaluation type combo default {} var nnue var classical",
        engine::evaluator::Evaluator::default_kind().name()
    );
    assert!(
        options.iter().any(|l| **l == eval),
        "missing '{eval}' in {options:?}"
    );
    // The two combos beside the listed options.
    assert_eq!(
        options.len(),
        expect.len() + 2,
        "unexpected options: {options:?}"
    );

    // Every listed option is accepted under the listed name.
    for (set, what) in [
        ("setoption name Hash value 16", "Hash"),
        ("setoption name Threads value 1", "Threads"),
        ("setoption name MultiPV value 1", "MultiPV"),
        ("setoption name Ponder value false", "Ponder"),
        ("setoption name Move Overhead value 10", "Move Overhead"),
        ("setoption name Clear Hash", "Clear Hash"),
        ("setoption name AttackMethod value magic", "AttackMethod"),
        ("setoption name OwnBook value false", "OwnBook"),
        ("setoption name BookFile value <empty>", "BookFile"),
        ("setoption name BookDepth value 20", "BookDepth"),
        ("setoption name Evaluation value classical", "Evaluation"),
        ("setoption name EvalFile value <empty>", "EvalFile"),
    ] {
        let said = e.info_strings_after(set);
        assert!(said.is_empty(), "{what} refused: {said:?}");
    }
    assert!(e.sync().is_empty(), "isready answers just readyok");
    e.quit();
}

#[test]
fn isready_answers_readyok_at_once_and_twice() {
    let mut e = Engine::new();
    assert!(e.sync().is_empty());
    e.send("isready");
    e.send("isready");
    let lines = e.read_until(LINE_TIMEOUT, "first readyok", |l| l == "readyok");
    assert_eq!(lines, ["readyok"]);
    e.read_until(LINE_TIMEOUT, "second readyok", |l| l == "readyok");
    e.quit();
}

// ---------------------------------------------------------------------------
// Positions, and legal best moves in them.

#[test]
fn position_forms_give_the_right_position_and_a_legal_bestmove() {
    let kiwipete = format!("position fen {KIWIPETE}");
    let cases: [(&str, &str, &[&str]); 7] = [
        ("position startpos", STARTPOS, &[]),
        ("position startpos moves", STARTPOS, &[]),
        (
            "position startpos moves e2e4 e7e5",
            STARTPOS,
            &["e2e4", "e7e5"],
        ),
        (
            "position startpos moves e2e4 c7c5 g1f3 d7d6 f1b5 c8d7 e1g1",
            STARTPOS,
            &["e2e4", "c7c5", "g1f3", "d7d6", "f1b5", "c8d7", "e1g1"],
        ),
        (&kiwipete, KIWIPETE, &[]),
        (
            "position fen 4k3/8/8/8/8/8/4P3/4K3 w - -",
            "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1",
            &[],
        ),
        (
            "position fen 4k3/1P6/8/8/8/8/8/4K3 w - - 0 1 moves b7b8q e8d7",
            "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1",
            &["b7b8q", "e8d7"],
        ),
    ];
    let mut e = Engine::new();
    for (command, fen, moves) in cases {
        let pos = play_all(fen, moves);
        let said = e.info_strings_after(command);
        assert!(said.is_empty(), "'{command}': {said:?}");
        let shown = e.fen();
        assert!(
            same_position(&shown, &fen_of(&pos)),
            "'{command}': engine has {shown}, expected {}",
            fen_of(&pos)
        );
        let s = e.go("go depth 5");
        check_search(&pos, &s);
        assert_eq!(s.max_depth(), 5, "{:?}", s.lines);
    }
    e.quit();
}

#[test]
fn ucinewgame_and_repeated_searches_stay_legal() {
    let mut e = Engine::new();
    let mut moves: Vec<String> = Vec::new();
    // Play a short game against itself: each bestmove must be legal in the
    // position reached by the moves so far.
    for _ in 0..12 {
        let pos = play_all(
            STARTPOS,
            &moves.iter().map(String::as_str).collect::<Vec<_>>(),
        );
        if pos.legal_moves().is_empty() {
            break;
        }
        e.send(&format!("position startpos moves {}", moves.join(" ")));
        let s = e.go("go depth 4");
        check_search(&pos, &s);
        moves.push(s.bestmove);
    }
    e.send("ucinewgame");
    e.send("position startpos");
    check_search(&chess(STARTPOS), &e.go("go depth 4"));
    e.quit();
}

// ---------------------------------------------------------------------------
// Options in use.

#[test]
fn multipv_3_reports_three_distinct_lines() {
    let mut e = Engine::new();
    e.send("setoption name MultiPV value 3");
    e.send("position startpos");
    let s = e.go("go depth 5");
    for depth in 1..=5 {
        let at: Vec<&Info> = s
            .infos
            .iter()
            .filter(|i| i.depth == Some(depth) && !i.bound && !i.pv.is_empty())
            .collect();
        let ids: Vec<u32> = at.iter().map(|i| i.multipv.unwrap()).collect();
        assert_eq!(ids, [1, 2, 3], "depth {depth}: {:?}", s.lines);
        let mut firsts: Vec<&str> = at.iter().map(|i| i.pv[0].as_str()).collect();
        firsts.sort_unstable();
        firsts.dedup();
        assert_eq!(
            firsts.len(),
            3,
            "depth {depth}: first moves not distinct: {:?}",
            s.lines
        );
    }
    check_search(&chess(STARTPOS), &s);

    // Fewer legal moves than lines: only as many lines as moves.
    let two_moves = "k7/8/8/8/8/8/r7/1K6 w - - 0 1"; // Kxa2 and Kc1
    let pos = chess(two_moves);
    let n = pos.legal_moves().len();
    assert_eq!(n, 2);
    e.send(&format!("position fen {two_moves}"));
    let s = e.go("go depth 3");
    check_search(&pos, &s);
    let most = s.infos.iter().filter_map(|i| i.multipv).max().unwrap();
    assert_eq!(most as usize, n, "{:?}", s.lines);

    // Lines come best first at every depth, even where the search of a later
    // line finds more than an earlier one did (KRK: mates among plain scores).
    let krk = "8/8/8/R7/3K4/8/8/3k4 w - - 0 1";
    e.send("setoption name MultiPV value 4");
    e.send(&format!("position fen {krk}"));
    let s = e.go("go depth 7");
    check_search(&chess(krk), &s);
    let value = |sc: &Score| match *sc {
        Score::Mate(m) if m > 0 => 100_000 - m,
        Score::Mate(m) => -100_000 - m,
        Score::Cp(cp) => cp,
    };
    for depth in 1..=7 {
        let scores: Vec<i32> = s
            .infos
            .iter()
            .filter(|i| i.depth == Some(depth) && !i.bound && !i.pv.is_empty())
            .filter_map(|i| i.score.as_ref().map(value))
            .collect();
        assert!(
            scores.windows(2).all(|w| w[0] >= w[1]),
            "depth {depth}: {scores:?}\n{:?}",
            s.lines
        );
    }
    e.quit();
}

#[test]
fn threads_2_returns_legal_moves() {
    let mut e = Engine::new();
    e.send("setoption name Threads value 2");
    e.send(&format!("position fen {KIWIPETE}"));
    check_search(&chess(KIWIPETE), &e.go("go depth 6"));
    e.send("position startpos moves e2e4");
    let s = e.go("go movetime 200");
    check_search(&play_all(STARTPOS, &["e2e4"]), &s);
    e.send(&format!("position fen {MATE_IN_2}"));
    let s = e.go("go depth 6");
    check_search(&chess(MATE_IN_2), &s);
    assert_eq!(s.last_score(), Some(Score::Mate(2)));
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(100));
    e.send("stop");
    check_search(&chess(MATE_IN_2), &e.bestmove(ACT));
    e.quit();
}

#[test]
fn hash_resize_and_clear_hash_then_search() {
    let mut e = Engine::new();
    e.send("position startpos");
    check_search(&chess(STARTPOS), &e.go("go depth 5"));
    assert!(
        e.info_strings_after("setoption name Hash value 64")
            .is_empty()
    );
    check_search(&chess(STARTPOS), &e.go("go depth 5"));
    assert!(e.info_strings_after("setoption name Clear Hash").is_empty());
    check_search(&chess(STARTPOS), &e.go("go depth 5"));
    assert!(
        e.info_strings_after("setoption name Hash value 1")
            .is_empty()
    );
    check_search(&chess(STARTPOS), &e.go("go depth 5"));
    e.quit();
}

/// The engine's peak resident memory so far, in MiB (`VmHWM`).
#[cfg(target_os = "linux")]
fn peak_mib(e: &Engine) -> f64 {
    let status = std::fs::read_to_string(format!("/proc/{}/status", e.child.id()))
        .expect("the engine is running");
    let line = status
        .lines()
        .find(|l| l.starts_with("VmHWM:"))
        .expect("VmHWM");
    let kib: f64 = line
        .split_whitespace()
        .nth(1)
        .and_then(|n| n.parse().ok())
        .expect("VmHWM: <n> kB");
    kib / 1024.0
}

/// Memory follows `Hash`: the default table is never made when `Hash` is set
/// before the first `isready`, and a resize frees the old table before it
/// makes the new one (a match runner measuring the engine sees only the
/// table it asked for).
#[cfg(target_os = "linux")]
#[test]
fn memory_is_the_hash_asked_for_plus_a_little() {
    let mut e = Engine::new();
    e.send("uci");
    e.read_until(LINE_TIMEOUT, "uciok", |l| l == "uciok");
    // `info_strings_after` ends with `isready`: the table is made there.
    assert!(
        e.info_strings_after("setoption name Hash value 1")
            .is_empty()
    );
    e.send("position startpos");
    check_search(&chess(STARTPOS), &e.go("go depth 6"));
    let small = peak_mib(&e);
    assert!(small < 12.0, "Hash 1: peak {small:.1} MiB");
    for mb in [64.0, 128.0] {
        let set = format!("setoption name Hash value {mb}");
        assert!(e.info_strings_after(&set).is_empty());
        check_search(&chess(STARTPOS), &e.go("go depth 6"));
        let peak = peak_mib(&e);
        assert!(
            peak >= mb && peak < mb + 12.0,
            "Hash {mb}: peak {peak:.1} MiB"
        );
    }
    e.quit();
}

/// A `Hash` the machine cannot give is refused with a message, not an abort.
/// The address space is limited so that the test never allocates much.
#[cfg(target_os = "linux")]
#[test]
fn hash_larger_than_memory_is_refused_not_fatal() {
    let mut cmd = Command::new("sh");
    cmd.args(["-c", "ulimit -v 2000000 && exec \"$0\"", BIN]);
    let mut e = Engine::spawn(cmd);
    let said = e.info_strings_after("setoption name Hash value 8192");
    assert_eq!(said.len(), 1, "{said:?}");
    assert!(said[0].contains("Hash"), "{said:?}");
    e.send("position startpos");
    check_search(&chess(STARTPOS), &e.go("go depth 4"));
    e.quit();
}

#[test]
fn every_attack_method_searches_identically() {
    let mut e = Engine::new();
    let mut seen: Vec<(Method, String, u64)> = Vec::new();
    for &m in Method::ALL {
        let said = e.info_strings_after(&format!("setoption name AttackMethod value {}", m.name()));
        assert!(said.is_empty(), "{m}: {said:?}");
        e.send("ucinewgame");
        e.send("position startpos");
        let s = e.go("go depth 6");
        check_search(&chess(STARTPOS), &s);
        let nodes = s.last_pv().unwrap().nodes.unwrap();
        seen.push((m, s.bestmove, nodes));
    }
    let (_, best, nodes) = &seen[0];
    for (m, b, n) in &seen {
        assert_eq!((b, n), (best, nodes), "{m} differs: {seen:?}");
    }
    // Aliases and any case are accepted too; a bad name is refused.
    assert!(
        e.info_strings_after("setoption name AttackMethod value HQ")
            .is_empty()
    );
    let said = e.info_strings_after("setoption name AttackMethod value nonsense");
    assert_eq!(said.len(), 1);
    assert!(
        said[0].contains("nonsense") && said[0].contains(Method::default().name()),
        "{said:?}"
    );
    e.quit();
}

// ---------------------------------------------------------------------------
// Chess960.

/// Chess960 start position 226 in Shredder-FEN: the king on f1 between rooks
/// on e1 and g1, so castling king side at once swaps king and rook.
const CHESS960: &str = "bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w GEge - 0 1";

#[test]
fn chess960_castling_is_the_king_taking_its_rook() {
    let mut e = Engine::new();
    e.send("setoption name UCI_Chess960 value true");
    // Read as the king taking its rook, and written back in the FEN's form.
    e.send(&format!("position fen {CHESS960} moves f1g1 f8g8"));
    let after = play_all(CHESS960, &["f1g1", "f8g8"]);
    assert_eq!(
        e.fen(),
        "bqnbrrkn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRRKN w - - 2 2"
    );
    assert!(same_position(&e.fen(), &fen_of(&after)));
    // Written so in `bestmove` and the PV.
    let fen = "4k3/8/8/8/8/8/8/1R2K2R w HB - 0 1";
    e.send(&format!("position fen {fen}"));
    let s = e.go("go depth 3 searchmoves e1h1");
    check_search(&chess(fen), &s);
    assert_eq!(s.bestmove, "e1h1");
    assert!(
        s.infos
            .iter()
            .any(|i| i.pv.first().map(String::as_str) == Some("e1h1"))
    );
    // Off again: the king's two-square move, as standard chess writes it.
    e.send("setoption name UCI_Chess960 value false");
    let s = e.go("go depth 3 searchmoves e1g1");
    assert_eq!(s.bestmove, "e1g1");
    e.quit();
}

/// `UCI_ShowWDL`: `wdl W D L` after the score, per mille, summing to 1000,
/// a win certain at a mate, the side a queen up mostly winning; none when off.
#[test]
fn show_wdl_adds_win_draw_loss_per_mille() {
    let wdl = |s: &Search| -> Vec<[u32; 3]> {
        s.lines
            .iter()
            .filter_map(|l| {
                let words: Vec<&str> = l.split_whitespace().collect();
                let i = words.iter().position(|w| *w == "wdl")?;
                let n: Vec<u32> = words[i + 1..i + 4]
                    .iter()
                    .map(|w| w.parse().unwrap())
                    .collect();
                Some([n[0], n[1], n[2]])
            })
            .collect()
    };
    let mut e = Engine::new();
    e.send("position startpos");
    assert!(wdl(&e.go("go depth 4")).is_empty());
    e.send("setoption name UCI_ShowWDL value true");
    let s = e.go("go depth 4");
    let lines = wdl(&s);
    assert!(!lines.is_empty(), "{:?}", s.lines);
    assert!(
        lines.iter().all(|w| w.iter().sum::<u32>() == 1000),
        "{lines:?}"
    );
    // White a queen up.
    e.send("position fen rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    let w = *wdl(&e.go("go depth 4")).last().unwrap();
    assert!(w[0] > 900 && w[2] < 20, "{w:?}");
    e.send(&format!("position fen {MATE_IN_1}"));
    assert_eq!(wdl(&e.go("go depth 3")).last(), Some(&[1000, 0, 0]));
    e.quit();
}

#[test]
fn help_lists_the_commands() {
    let mut e = Engine::new();
    e.send("help");
    let lines = e.sync();
    for cmd in ["position", "go", "setoption", "perft", "eval", "genfens"] {
        assert!(
            lines.iter().any(|l| l.trim_start().starts_with(cmd)),
            "'{cmd}' missing from help: {lines:?}"
        );
    }
    assert!(
        !lines
            .iter()
            .any(|l| l.contains("not understood") || l.contains("ignored")),
        "{lines:?}"
    );
    e.quit();
}
