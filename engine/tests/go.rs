//! `go` and its parameters, acting during a search, mates: scripted
//! conversations with the real `borrow` binary (helpers in `common`).

mod common;

use common::*;

// ---------------------------------------------------------------------------
// The parameters of `go`.

#[test]
fn go_with_clocks_stops_by_itself() {
    let mut e = Engine::new();
    e.send("position startpos");
    let s = e.go("go wtime 2000 btime 2000 winc 20 binc 20 movestogo 10");
    check_search(&chess(STARTPOS), &s);
    assert!(s.elapsed < Duration::from_secs(5), "{:?}", s.elapsed);

    // Black to move uses black's clock: 300 ms left means a quick move even
    // though white has plenty.
    e.send("position startpos moves e2e4");
    let s = e.go("go wtime 600000 btime 300 winc 0 binc 0");
    check_search(&play_all(STARTPOS, &["e2e4"]), &s);
    assert!(
        s.elapsed < ACT,
        "black's 300 ms clock ignored: {:?}",
        s.elapsed
    );

    // And white's clock for white.
    e.send("position startpos");
    let s = e.go("go wtime 300 btime 600000");
    check_search(&chess(STARTPOS), &s);
    assert!(
        s.elapsed < ACT,
        "white's 300 ms clock ignored: {:?}",
        s.elapsed
    );
    e.quit();
}

#[test]
fn go_movetime_uses_about_that_time() {
    let mut e = Engine::new();
    e.send("position startpos");
    let s = e.go("go movetime 300");
    check_search(&chess(STARTPOS), &s);
    assert!(
        s.elapsed >= Duration::from_millis(150),
        "stopped early: {:?}",
        s.elapsed
    );
    assert!(s.elapsed < ACT, "{:?}", s.elapsed);
    e.quit();
}

#[test]
fn go_depth_searches_exactly_that_deep() {
    let mut e = Engine::new();
    for depth in [1, 3, 6] {
        e.send("position startpos moves d2d4");
        let s = e.go(&format!("go depth {depth}"));
        check_search(&play_all(STARTPOS, &["d2d4"]), &s);
        assert_eq!(s.max_depth(), depth, "{:?}", s.lines);
    }
    e.quit();
}

#[test]
fn go_nodes_stops_near_the_node_limit() {
    let mut e = Engine::new();
    e.send("position startpos");
    let s = e.go("go nodes 3000");
    check_search(&chess(STARTPOS), &s);
    let most = s.infos.iter().filter_map(|i| i.nodes).max().unwrap();
    // The limit is checked every 1024 nodes (after the first iteration).
    assert!(
        most <= 3000 + 1024,
        "searched {most} nodes for 'nodes 3000'"
    );
    e.quit();
}

#[test]
fn go_mate_finds_the_mate_and_stops() {
    let mut e = Engine::new();
    e.send(&format!("position fen {MATE_IN_2}"));
    let s = e.go("go mate 2");
    let pos = chess(MATE_IN_2);
    check_search(&pos, &s);
    assert_eq!(s.last_score(), Some(Score::Mate(2)), "{:?}", s.lines);
    assert!(
        all_replies_mated(&play(&pos, &s.bestmove).unwrap(), 1),
        "{} does not mate in 2",
        s.bestmove
    );

    e.send(&format!("position fen {MATE_IN_3}"));
    let s = e.go("go mate 3");
    check_search(&chess(MATE_IN_3), &s);
    assert_eq!(s.last_score(), Some(Score::Mate(3)), "{:?}", s.lines);
    e.quit();
}

#[test]
fn go_infinite_waits_for_stop() {
    let mut e = Engine::new();
    e.send("position startpos");
    e.send("go infinite");
    e.expect_no(Duration::from_millis(300), "bestmove before stop", |l| {
        l.starts_with("bestmove")
    });
    e.send("stop");
    let s = e.bestmove(ACT);
    check_search(&chess(STARTPOS), &s);

    // Even with a depth limit reached at once, `infinite` waits for `stop`.
    e.send("go depth 2 infinite");
    e.expect_no(Duration::from_millis(300), "bestmove before stop", |l| {
        l.starts_with("bestmove")
    });
    e.send("stop");
    check_search(&chess(STARTPOS), &e.bestmove(ACT));
    e.quit();
}

#[test]
fn go_ponder_then_ponderhit_plays_on_our_clock() {
    let mut e = Engine::new();
    let moves = ["e2e4", "e7e5", "g1f3"];
    e.send("position startpos moves e2e4 e7e5 g1f3");
    e.send("go ponder wtime 1000 btime 1000 winc 10 binc 10");
    e.expect_no(
        Duration::from_millis(400),
        "bestmove while pondering",
        |l| l.starts_with("bestmove"),
    );
    e.send("ponderhit");
    let s = e.bestmove(ACT);
    check_search(&play_all(STARTPOS, &moves), &s);
    e.quit();
}

#[test]
fn go_ponder_then_stop() {
    let mut e = Engine::new();
    e.send("position startpos moves d2d4 g8f6");
    e.send("go ponder wtime 1000 btime 1000");
    e.expect_no(
        Duration::from_millis(300),
        "bestmove while pondering",
        |l| l.starts_with("bestmove"),
    );
    e.send("stop");
    check_search(&play_all(STARTPOS, &["d2d4", "g8f6"]), &e.bestmove(ACT));
    e.quit();
}

#[test]
fn go_ponder_with_a_depth_limit_still_waits_for_ponderhit() {
    let mut e = Engine::new();
    e.send("position startpos");
    e.send("go ponder depth 2 wtime 1000 btime 1000");
    e.expect_no(
        Duration::from_millis(300),
        "bestmove while pondering",
        |l| l.starts_with("bestmove"),
    );
    e.send("ponderhit");
    check_search(&chess(STARTPOS), &e.bestmove(ACT));
    e.quit();
}

#[test]
fn go_searchmoves_restricts_the_root() {
    let mut e = Engine::new();
    e.send("position startpos");
    let s = e.go("go depth 5 searchmoves a2a3 h2h3");
    check_search(&chess(STARTPOS), &s);
    assert!(
        ["a2a3", "h2h3"].contains(&s.bestmove.as_str()),
        "{}",
        s.bestmove
    );
    for info in s.infos.iter().filter(|i| !i.pv.is_empty()) {
        assert!(
            ["a2a3", "h2h3"].contains(&info.pv[0].as_str()),
            "{:?}",
            info.pv
        );
    }

    // The mate is not among the allowed moves: the allowed one is played.
    e.send(&format!("position fen {MATE_IN_1}"));
    let s = e.go("go depth 4 searchmoves g1f1");
    check_search(&chess(MATE_IN_1), &s);
    assert_eq!(s.bestmove, "g1f1");

    // Searchmoves after other parameters, and an illegal one left out.
    e.send("position startpos");
    let s = e.go("go depth 3 searchmoves e2e5 b1c3");
    check_search(&chess(STARTPOS), &s);
    assert_eq!(s.bestmove, "b1c3");
    assert!(
        s.lines
            .iter()
            .any(|l| l.starts_with("info string") && l.contains("e2e5")),
        "{:?}",
        s.lines
    );
    e.quit();
}

#[test]
fn bad_or_missing_clocks_still_give_a_legal_move_quickly() {
    let mut e = Engine::new();
    for (moves, go) in [
        ("", "go wtime -100 btime -100"),
        ("", "go wtime 0 btime 0"),
        ("", "go wtime -5000 btime 1000 winc 100 binc 100"),
        ("", "go movetime -5"),
        ("", "go movetime 0"),
        // Our clock missing: only the opponent's, only increments, only movestogo.
        ("", "go btime 60000"),
        ("e2e4", "go wtime 60000"),
        ("", "go winc 1000 binc 1000"),
        ("", "go movestogo 20"),
        ("", "go wtime 1000 btime 1000 movestogo 0"),
    ] {
        let list: Vec<&str> = moves.split_whitespace().collect();
        e.send(&format!("position startpos moves {moves}"));
        e.send(go);
        let s = e.bestmove(ACT);
        check_search(&play_all(STARTPOS, &list), &s);
    }
    e.quit();
}

// ---------------------------------------------------------------------------
// Acting during a search.

#[test]
fn stop_during_infinite_answers_promptly() {
    let mut e = Engine::new();
    e.send(&format!("position fen {KIWIPETE}"));
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(200));
    let sent = Instant::now();
    e.send("stop");
    let s = e.bestmove(ACT);
    assert!(
        sent.elapsed() < Duration::from_secs(2),
        "stop took {:?}",
        sent.elapsed()
    );
    check_search(&chess(KIWIPETE), &s);
    // A second `stop` with no search running says nothing.
    e.send("stop");
    assert!(e.sync().is_empty());
    e.quit();
}

#[test]
fn isready_during_a_search_is_answered_before_bestmove() {
    let mut e = Engine::new();
    e.send("position startpos");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(100));
    e.send("isready");
    let lines = e.read_until(ACT, "readyok during the search", |l| l == "readyok");
    assert!(
        !lines.iter().any(|l| l.starts_with("bestmove")),
        "{lines:?}"
    );
    e.send("stop");
    check_search(&chess(STARTPOS), &e.bestmove(ACT));
    e.quit();
}

#[test]
fn quit_during_a_search_exits_promptly() {
    let mut e = Engine::new();
    e.send(&format!("position fen {KIWIPETE}"));
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(200));
    e.quit(); // waits at most ACT for the exit
}

#[test]
fn end_of_input_during_a_search_exits_promptly() {
    let mut e = Engine::new();
    e.send("position startpos");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(100));
    e.close_stdin();
    e.finish();
}

#[test]
fn a_new_go_or_position_during_a_search_ends_it_first() {
    let mut e = Engine::new();
    e.send("position startpos");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(100));
    // A GUI that forgets `stop`: the old search answers, then the new one.
    e.send("position startpos moves e2e4");
    check_search(&chess(STARTPOS), &e.bestmove(ACT));
    e.send("go depth 3");
    check_search(&play_all(STARTPOS, &["e2e4"]), &e.bestmove(LINE_TIMEOUT));
    e.quit();
}

// ---------------------------------------------------------------------------
// Mates, stalemate, checkmate.

#[test]
fn mates_in_one_two_and_three_are_found_with_their_distance() {
    let mut e = Engine::new();
    for (fen, n) in [
        (MATE_IN_1, 1),
        (MATE_IN_2, 2),
        (MATE_IN_2_QUIET, 2),
        (MATE_IN_3, 3),
        (MATE_IN_3_B, 3),
        (MATE_IN_3_KRK, 3),
    ] {
        let pos = chess(fen);
        // The test data: mate in exactly n.
        assert!(mates_within(&pos, n) && !mates_within(&pos, n - 1), "{fen}");
        e.send("ucinewgame");
        e.send(&format!("position fen {fen}"));
        let s = e.go("go depth 8");
        check_search(&pos, &s);
        assert_eq!(
            s.last_score(),
            Some(Score::Mate(n as i32)),
            "{fen}:\n{}",
            s.lines.join("\n")
        );
        let after = play(&pos, &s.bestmove).unwrap();
        let mates = if n == 1 {
            after.is_checkmate()
        } else {
            all_replies_mated(&after, n - 1)
        };
        assert!(mates, "{fen}: {} does not mate in {n}", s.bestmove);
    }
    e.quit();
}

#[test]
fn the_side_being_mated_reports_a_negative_mate() {
    let mut e = Engine::new();
    e.send(&format!("position fen {MATED_IN_1}"));
    let s = e.go("go depth 6");
    check_search(&chess(MATED_IN_1), &s);
    assert_eq!(s.bestmove, "h8h7", "the only legal move");
    assert_eq!(s.last_score(), Some(Score::Mate(-1)), "{:?}", s.lines);
    e.quit();
}

#[test]
fn stalemate_and_checkmate_answer_the_null_move() {
    let mut e = Engine::new();
    for fen in [STALEMATE, CHECKMATE] {
        let pos = chess(fen);
        assert!(pos.legal_moves().is_empty(), "{fen}");
        e.send(&format!("position fen {fen}"));
        for go in [
            "go depth 5",
            "go wtime 1000 btime 1000",
            "go movetime 100",
            "go nodes 100",
        ] {
            e.send(go);
            let s = e.bestmove(ACT);
            assert_eq!(s.bestmove, "0000", "{fen} {go}: {:?}", s.lines);
            assert_eq!(s.ponder, None);
        }
        // Infinite and ponder searches still wait for `stop` / `ponderhit`.
        e.send("go infinite");
        e.expect_no(Duration::from_millis(200), "bestmove before stop", |l| {
            l.starts_with("bestmove")
        });
        e.send("stop");
        assert_eq!(e.bestmove(ACT).bestmove, "0000");
        e.send("go ponder wtime 1000 btime 1000");
        e.expect_no(
            Duration::from_millis(200),
            "bestmove while pondering",
            |l| l.starts_with("bestmove"),
        );
        e.send("ponderhit");
        assert_eq!(e.bestmove(ACT).bestmove, "0000");
        assert!(e.sync().is_empty());
    }
    // After a game-over position, the engine plays on normally.
    e.send("position startpos");
    check_search(&chess(STARTPOS), &e.go("go depth 3"));
    e.quit();
}

#[test]
fn a_game_with_many_repetitions_and_a_long_move_list() {
    // 25 times round Nf3 Nf6 Ng1 Ng8: 100 half-moves, the 50-move rule and
    // repetitions everywhere; the engine must still answer legally.
    let cycle = ["g1f3", "g8f6", "f3g1", "f6g8"];
    let moves: Vec<&str> = cycle
        .iter()
        .copied()
        .cycle()
        .take(100)
        .chain(["e2e4"])
        .collect();
    let mut e = Engine::new();
    e.send(&format!("position startpos moves {}", moves.join(" ")));
    let pos = play_all(STARTPOS, &moves);
    assert!(same_position(&e.fen(), &fen_of(&pos)));
    check_search(&pos, &e.go("go depth 5"));
    e.quit();
}

// ---------------------------------------------------------------------------
// UCI_LimitStrength.

#[test]
fn limit_strength_plays_legal_varied_moves_within_its_budget_and_never_misses_mate() {
    let mut e = Engine::new();
    e.send("setoption name UCI_LimitStrength value true");
    e.send("setoption name UCI_Elo value 1350");
    // An open game with several playable moves: the weakest setting does
    // not always choose the same one (each choice has a fresh draw). The
    // position has no move that wins material at once: a line more than
    // four temperatures (160 cp) below the best is never chosen, and in
    // the Two Knights (4 Ng5, which shallow searches score a pawn up) that
    // left one move, depending on the search's details.
    let fen = "r1bqk1nr/pppp1ppp/2n5/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4";
    let pos = chess(fen);
    let mut chosen = std::collections::BTreeSet::new();
    let mut most_nodes = 0;
    for _ in 0..16 {
        e.send(&format!("position fen {fen}"));
        let s = e.go("go wtime 60000 btime 60000");
        check_search(&pos, &s);
        chosen.insert(s.bestmove.clone());
        let multipv = s.infos.iter().filter_map(|i| i.multipv).max();
        assert_eq!(multipv, Some(4), "lines weighed: {:?}", s.lines);
        most_nodes = most_nodes.max(s.infos.iter().filter_map(|i| i.nodes).max().unwrap());
    }
    assert!(chosen.len() >= 2, "always {chosen:?}");
    // The budget is small: far below what a minute's clock would buy.
    assert!(most_nodes < 20_000, "searched {most_nodes} nodes");

    // A mate in one is always played, however weak the setting.
    let mate = "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1";
    for _ in 0..8 {
        e.send(&format!("position fen {mate}"));
        let s = e.go("go wtime 60000 btime 60000");
        check_search(&chess(mate), &s);
        assert_eq!(s.bestmove, "a1a8");
    }

    // Out of range: said, and the last good value stays.
    e.send("setoption name UCI_Elo value 100");
    let said = e.read_until(LINE_TIMEOUT, "the range error", |l| {
        l.starts_with("info string")
    });
    assert!(said.last().unwrap().contains("outside"), "{said:?}");

    // Full strength again: no extra lines, the search as before.
    e.send("setoption name UCI_LimitStrength value false");
    e.send(&format!("position fen {fen}"));
    let s = e.go("go depth 6");
    check_search(&pos, &s);
    assert!(s.infos.iter().all(|i| i.multipv.unwrap_or(1) == 1));
    e.quit();
}
