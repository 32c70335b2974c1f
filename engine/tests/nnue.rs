//! The learned evaluation through UCI: the `Evaluation` and `EvalFile`
//! options, a net file that is missing, the wrong size or garbage (an `info
//! string`, and the built-in net plays on), `eval` showing both
//! evaluations, and a search with each.

mod common;

use common::*;

/// The `eval` line's numbers: (the evaluation in use, its name, the other's
/// name, the other's value).
fn eval_line(e: &mut Engine) -> (i32, String, String, i32) {
    e.send("eval");
    let lines = e.sync();
    let line = lines
        .iter()
        .find(|l| l.starts_with("eval "))
        .unwrap_or_else(|| panic!("no eval line in {lines:?}"));
    // "eval 24 (side to move, classical; nnue 9)"
    let words: Vec<&str> = line
        .split(|c: char| c.is_whitespace() || c == '(' || c == ')' || c == ',' || c == ';')
        .filter(|w| !w.is_empty())
        .collect();
    (
        words[1].parse().unwrap_or_else(|_| panic!("{line}")),
        words[5].to_owned(),
        words[6].to_owned(),
        words[7].parse().unwrap_or_else(|_| panic!("{line}")),
    )
}

#[test]
fn evaluation_and_eval_file_are_declared() {
    let mut e = Engine::new();
    e.send("uci");
    let lines = e.read_until(LINE_TIMEOUT, "uciok", |l| l == "uciok");
    let combo = lines
        .iter()
        .find(|l| l.starts_with("option name Evaluation type combo default "))
        .unwrap_or_else(|| panic!("no Evaluation combo in {lines:?}"));
    assert!(
        combo.contains("var nnue") && combo.contains("var classical"),
        "{combo}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l == "option name EvalFile type string default <empty>"),
        "{lines:?}"
    );
    e.quit();
}

#[test]
fn eval_shows_both_evaluations_and_follows_the_option() {
    let mut e = Engine::new();
    e.send("position fen 4k3/7p/8/8/8/8/8/QQQ1K3 w - - 0 1");
    e.send("setoption name Evaluation value classical");
    let (classical, used, other, nnue) = eval_line(&mut e);
    assert_eq!((used.as_str(), other.as_str()), ("classical", "nnue"));
    // Three queens up: both see a won game.
    assert!(classical > 1000 && nnue > 1000, "{classical} {nnue}");
    e.send("setoption name Evaluation value nnue");
    let (n, used, other, c) = eval_line(&mut e);
    assert_eq!((used.as_str(), other.as_str()), ("nnue", "classical"));
    assert_eq!((n, c), (nnue, classical));
    // The side to move's view: Black to move sees it the other way round.
    e.send("position fen 4k3/7p/8/8/8/8/8/QQQ1K3 b - - 0 1");
    let (n_black, _, _, _) = eval_line(&mut e);
    assert!(n_black < -1000, "{n_black}");
    e.quit();
}

#[test]
fn against_a_bare_king_eval_shows_the_mop_up_the_search_uses() {
    let mut e = Engine::new();
    e.send("setoption name Evaluation value nnue");
    e.send("position fen 4k3/8/8/8/8/8/8/QQQ1K3 w - - 0 1");
    let (used_value, used, other, _) = eval_line(&mut e);
    assert_eq!((used.as_str(), other.as_str()), ("classical", "nnue"));
    e.send("eval");
    let lines = e.sync();
    assert!(
        lines
            .iter()
            .any(|l| l.contains("against a bare king the net defers")),
        "{lines:?}"
    );
    // The hand-crafted value is the one `Evaluation classical` shows.
    e.send("setoption name Evaluation value classical");
    let (classical, used, _, _) = eval_line(&mut e);
    assert_eq!((used.as_str(), classical), ("classical", used_value));
    e.quit();
}

#[test]
fn bad_net_files_are_refused_and_the_built_in_net_stays() {
    let dir = std::env::temp_dir().join(format!("borrow-nnue-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let short = dir.join("short.nnue");
    std::fs::write(&short, [1u8; 1000]).unwrap();
    let missing = dir.join("missing.nnue");

    let mut e = Engine::new();
    e.send("position fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
    e.send("setoption name Evaluation value nnue");
    let (built_in, _, _, _) = eval_line(&mut e);
    for (file, why) in [
        (&short, "1000 bytes"),
        (&missing, "cannot read"),
        (&dir, "not a regular file"),
    ] {
        let said =
            e.info_strings_after(&format!("setoption name EvalFile value {}", file.display()));
        assert!(
            said.iter()
                .any(|l| l.contains(why) && l.contains("built-in net stays")),
            "{}: {said:?}",
            file.display()
        );
        assert_eq!(eval_line(&mut e).0, built_in);
        // And it still plays.
        let s = e.go("go depth 4");
        assert_ne!(s.bestmove, "0000", "{}", e.context());
    }

    // A good file: the built-in net written out again loads, and scores
    // the same.
    let copy = dir.join("copy.nnue");
    std::fs::write(
        &copy,
        engine::evaluator::Evaluator::built_in_net().to_bytes(),
    )
    .unwrap();
    let said = e.info_strings_after(&format!("setoption name EvalFile value {}", copy.display()));
    assert!(said.iter().any(|l| l.contains("loaded")), "{said:?}");
    assert_eq!(eval_line(&mut e).0, built_in);
    e.quit();
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn both_evaluations_search_and_answer_with_a_legal_move() {
    for eval in ["nnue", "classical"] {
        let mut e = Engine::new();
        e.send(&format!("setoption name Evaluation value {eval}"));
        e.send("position startpos moves e2e4 e7e5 g1f3");
        let s = e.go("go depth 8");
        let best = s.bestmove.clone();
        let pos = play_all(
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            &["e2e4", "e7e5", "g1f3"],
        );
        assert!(play(&pos, &best).is_ok(), "{eval}: illegal {best}");
        let said = e.info_strings_after("setoption name Evaluation value hce");
        assert!(
            said.iter().any(|l| l.contains("not an evaluation")),
            "{said:?}"
        );
        e.quit();
    }
}
