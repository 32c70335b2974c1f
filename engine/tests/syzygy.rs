//! Syzygy tablebases through UCI, with the twenty 3- and 4-piece tables the
//! tests need, committed in `tests/data/syzygy` (its README says where they
//! come from). The tables' verdicts are checked with shakmaty-syzygy, the
//! reader the engine uses, on positions where the answer is known.

mod common;

use std::path::PathBuf;

use common::*;
use shakmaty_syzygy::{Tablebase, Wdl};

/// The folder of the test tables.
fn tables() -> String {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/syzygy");
    dir.to_string_lossy().into_owned()
}

fn engine_with_tables(dir: &str) -> Engine {
    let mut e = Engine::new();
    e.send(&format!("setoption name SyzygyPath value {dir}"));
    let said = e.sync();
    assert!(
        said.iter().any(|l| l.contains("found 20 Syzygy files")),
        "{said:?}"
    );
    e
}

fn tbhits(s: &Search) -> u64 {
    s.lines
        .iter()
        .filter_map(|l| {
            let words: Vec<&str> = l.split_whitespace().collect();
            let i = words.iter().position(|w| *w == "tbhits")?;
            words.get(i + 1)?.parse().ok()
        })
        .max()
        .unwrap_or(0)
}

/// Plays the engine against itself from `fen` (depth-limited searches) until
/// the game ends or `max_plies`; the moves played.
fn self_play(e: &mut Engine, fen: &str, max_plies: usize) -> (Vec<String>, shakmaty::Chess) {
    use shakmaty::Position as _;
    let mut moves: Vec<String> = Vec::new();
    let mut pos = chess(fen);
    while moves.len() < max_plies && !pos.is_game_over() {
        if moves.is_empty() {
            e.send(&format!("position fen {fen}"));
        } else {
            e.send(&format!("position fen {fen} moves {}", moves.join(" ")));
        }
        let s = e.go("go depth 4");
        check_search(&pos, &s);
        pos = play(&pos, &s.bestmove).unwrap();
        moves.push(s.bestmove);
    }
    (moves, pos)
}

/// Won KQvK and KRvK are mated within the plies the DTZ tables give (both
/// sides following them: the fastest win against the longest defence), and
/// the score shown is a tablebase win.
#[test]
fn won_endings_are_converted_as_fast_as_the_tables_allow() {
    use shakmaty::Position as _;
    let dir = tables();
    let mut tb = Tablebase::<shakmaty::Chess>::new();
    tb.add_directory(&dir).unwrap();
    let mut e = engine_with_tables(&dir);
    for fen in [
        "8/8/8/4k3/8/8/8/3QK3 w - - 0 1",
        "8/8/3k4/8/8/8/8/R3K3 w - - 0 1",
    ] {
        let start = chess(fen);
        let dtz = tb.probe_dtz(&start).unwrap().ignore_rounding().0;
        assert!(dtz > 0, "{fen}: DTZ {dtz}");
        e.send(&format!("position fen {fen}"));
        let s = e.go("go depth 3");
        match s.last_score() {
            Some(Score::Cp(cp)) => assert!(cp > 19_000, "{fen}: cp {cp}"),
            Some(Score::Mate(m)) => assert!(m > 0, "{fen}: mate {m}"),
            None => panic!("{fen}: no score: {:?}", s.lines),
        }
        let (moves, end) = self_play(&mut e, fen, 120);
        eprintln!("{fen}: DTZ {dtz}, mated in {} plies", moves.len());
        assert!(end.is_checkmate(), "{fen}: not mated after {moves:?}");
        assert!(
            moves.len() as i32 <= dtz,
            "{fen}: mate took {} plies, DTZ is {dtz}: {moves:?}",
            moves.len()
        );
    }
    e.quit();
}

/// Drawn KBvKP and KNvKP: the side with the piece is not shown as winning,
/// and the tables agree that the position is a draw.
#[test]
fn drawn_endings_are_not_won() {
    let dir = tables();
    let mut tb = Tablebase::<shakmaty::Chess>::new();
    tb.add_directory(&dir).unwrap();
    let mut e = engine_with_tables(&dir);
    for fen in [
        "8/8/4k3/8/8/8/5p2/B4K2 w - - 0 1",
        "8/8/4k3/8/2N5/8/6p1/6K1 w - - 0 1",
    ] {
        let wdl = tb.probe_wdl_after_zeroing(&chess(fen)).unwrap();
        assert_eq!(wdl, Wdl::Draw, "{fen}");
        e.send(&format!("position fen {fen}"));
        let s = e.go("go depth 8");
        check_search(&chess(fen), &s);
        assert_eq!(s.last_score(), Some(Score::Cp(0)), "{fen}: {:?}", s.lines);
    }
    e.quit();
}

/// Captures into the tables are probed in the search: `tbhits` grows.
#[test]
fn the_search_probes_after_captures() {
    let dir = tables();
    let mut e = engine_with_tables(&dir);
    // KRPvKR: 5 pieces, outside the tables; every capture enters them.
    // The root is outside the tables, so every hit is a probe inside the
    // search (with either evaluation: the net finds Kxf1's won ending
    // sooner, and probes less before the search ends).
    let fen = "8/8/4k3/4p3/8/3R4/4K3/5r2 w - - 0 1";
    for eval in ["classical", "nnue"] {
        e.send(&format!("setoption name Evaluation value {eval}"));
        e.send(&format!("position fen {fen}"));
        let s = e.go("go depth 8");
        check_search(&chess(fen), &s);
        assert!(
            tbhits(&s) > 0,
            "{eval}: tbhits {}: {:?}",
            tbhits(&s),
            s.lines
        );
        assert_eq!(s.bestmove, "e2f1", "{eval}: {:?}", s.lines);
    }
    // Without tables: no hits.
    e.send("setoption name SyzygyPath value <empty>");
    let s = e.go("go depth 8");
    assert_eq!(tbhits(&s), 0);
    e.quit();
}

/// A folder that does not exist, one without tables, and a corrupt table:
/// an `info string` that says so, and the engine plays on.
#[test]
fn bad_tablebase_folders_and_files_are_reported_not_fatal() {
    let mut e = Engine::new();
    e.send("setoption name SyzygyPath value /nonexistent/syzygy");
    let said = e.sync();
    assert!(
        said.iter()
            .any(|l| l.starts_with("info string") && l.contains("not a folder")),
        "{said:?}"
    );
    let dir = std::env::temp_dir().join(format!("borrow-syzygy-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    e.send(&format!(
        "setoption name SyzygyPath value {}",
        dir.display()
    ));
    let said = e.sync();
    assert!(
        said.iter().any(|l| l.contains("holds no Syzygy tables")),
        "{said:?}"
    );
    // A table of the right name and nonsense inside.
    std::fs::write(dir.join("KQvK.rtbw"), vec![0x55u8; 4096]).unwrap();
    std::fs::write(dir.join("KQvK.rtbz"), vec![0xaau8; 4096]).unwrap();
    e.send(&format!(
        "setoption name SyzygyPath value {}",
        dir.display()
    ));
    e.sync();
    let fen = "8/8/8/4k3/8/8/8/3QK3 w - - 0 1";
    e.send(&format!("position fen {fen}"));
    let s = e.go("go depth 5");
    check_search(&chess(fen), &s);
    let _ = std::fs::remove_dir_all(&dir);
    e.quit();
}
