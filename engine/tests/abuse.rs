//! Bad input of every kind: the engine answers with `info string` and keeps
//! serving (helpers in `common`).

mod common;

use common::*;

// ---------------------------------------------------------------------------
// Abuse.

#[test]
fn garbage_is_answered_with_info_string_and_the_engine_keeps_serving() {
    let mut e = Engine::new();
    e.send("position startpos moves e2e4");
    let pos = play_all(STARTPOS, &["e2e4"]);
    for line in [
        "xyzzy",
        "hello world",
        "readyok",
        "bestmove e2e4",
        "setoption",
        "setoption name",
        "setoption Hash 32",
        "setoption name NoSuchOption value 3",
        "setoption name Hash value abc",
        "setoption name Hash value 0",
        "setoption name Hash value -1",
        "setoption name Hash",
        "setoption name Threads value 0",
        "setoption name Threads value 100000",
        "setoption name MultiPV value 0",
        "setoption name MultiPV value 257",
        "setoption name Ponder value maybe",
        "setoption name Move Overhead value -5",
        "setoption name AttackMethod value",
        "setoption name AttackMethod value pext2",
        "perft",
        "perft x",
        "perft 99",
    ] {
        let said = e.info_strings_after(line);
        assert_eq!(
            said.len(),
            1,
            "'{line}' should give one info string: {said:?}"
        );
        assert!(
            said[0].len() > "info string ".len() + 5,
            "'{line}': {said:?}"
        );
    }
    // Harmless lines are silently accepted.
    for line in [
        "",
        "   ",
        "\t",
        "debug on",
        "debug off",
        "stop",
        "ponderhit",
    ] {
        let said = e.info_strings_after(line);
        assert!(said.is_empty(), "'{line}': {said:?}");
    }
    assert!(
        same_position(&e.fen(), &fen_of(&pos)),
        "garbage changed the position"
    );
    check_search(&pos, &e.go("go depth 4"));
    e.quit();
}

/// UCI: skip what cannot be read, search with the rest,
/// always answer `bestmove` (a GUI would wait for it until its clock ran
/// out). One rule for every numeric parameter: not a whole number, skipped;
/// out of range (`depth -1`, `wtime -100`), clamped; each said in an
/// `info string`.
#[test]
fn go_with_unreadable_parameters_still_searches_and_answers() {
    let mut e = Engine::new();
    e.send("position startpos");
    for (go, named) in [
        ("go wtime 1000 btime 1000 garbage", "garbage"),
        ("go depth -1", "depth -1"),
        ("go movestogo 1.5 wtime 1000 btime 1000", "1.5"),
        ("go wtime 1000.5 btime 1000", "1000.5"),
        ("go wtime -100 btime -100", "wtime -100"),
        ("go depth 3 frobnicate", "frobnicate"),
        ("go depth", "depth"),
        ("go depth x", "depth x"),
        ("go wtime 1e9 btime 1e9", "1e9"),
        ("go nodes 99999999999999999999999 depth 2", "nodes"),
    ] {
        e.send(go);
        let s = e.bestmove(LINE_TIMEOUT);
        check_search(&chess(STARTPOS), &s);
        let said: Vec<&String> = s
            .lines
            .iter()
            .filter(|l| l.starts_with("info string"))
            .collect();
        assert!(
            said.iter().any(|l| l.contains(named)),
            "'{go}': no info string naming '{named}': {said:?}"
        );
    }
    // What was read is used: `go depth 3 frobnicate` searched to depth 3.
    e.send("go depth 3 frobnicate");
    let s = e.bestmove(LINE_TIMEOUT);
    let depths: Vec<u32> = s.infos.iter().filter_map(|i| i.depth).collect();
    assert_eq!(depths.iter().max(), Some(&3), "{:?}", s.lines);
    e.quit();
}

/// `perft` runs like a search, so the input loop stays
/// free: `isready` is answered at once, `stop` ends it, `quit` exits.
#[test]
fn perft_at_the_terminal_is_interruptible() {
    let mut e = Engine::new();
    e.send("position startpos");
    e.send("perft 3");
    e.read_until(LINE_TIMEOUT, "the perft 3 count", |l| l == "perft 3 8902");
    // Depth 9 takes hours.
    e.send("perft 9");
    std::thread::sleep(Duration::from_millis(100));
    e.send("isready");
    let lines = e.read_until(ACT, "readyok during perft", |l| l == "readyok");
    assert!(!lines.iter().any(|l| l.starts_with("perft")), "{lines:?}");
    e.send("stop");
    e.read_until(ACT, "perft stopped", |l| {
        l.starts_with("info string") && l.contains("perft 9 stopped")
    });
    // `quit` during a perft exits promptly (`finish` waits at most ACT).
    e.send("perft 9");
    std::thread::sleep(Duration::from_millis(100));
    e.quit();
}

/// UCI takes UCI notation only; a SAN move is refused
/// with a message that says so.
#[test]
fn san_in_a_position_command_asks_for_uci_notation() {
    let mut e = Engine::new();
    let said = e.info_strings_after("position startpos moves e4 e5");
    assert_eq!(said.len(), 1, "{said:?}");
    assert!(
        said[0].contains("'e4'") && said[0].contains("UCI notation expected"),
        "{said:?}"
    );
    assert!(!said[0].contains("SAN"), "{said:?}");
    assert!(same_position(&e.fen(), STARTPOS));
    e.quit();
}

/// `setoption name Hash` does not block the input loop;
/// `quit` right after a large one acts at once. (The table is made at the
/// next `isready`, `ucinewgame` or `go`; here none comes.)
#[test]
fn quit_right_after_a_large_hash_acts_at_once() {
    let mut e = Engine::new();
    e.send("setoption name Hash value 8192");
    let sent = Instant::now();
    e.send("quit");
    let status = wait_with_timeout(&mut e.child, Duration::from_secs(2));
    assert!(
        status.is_some_and(|s| s.success()),
        "no clean exit {:?} after quit: {status:?}",
        sent.elapsed()
    );
    assert!(
        sent.elapsed() < Duration::from_millis(1500),
        "{:?}",
        sent.elapsed()
    );
}

/// `register` is a UCI command; nothing to register.
#[test]
fn register_is_accepted_silently() {
    let mut e = Engine::new();
    for line in ["register later", "register name Someone code 1234"] {
        let said = e.info_strings_after(line);
        assert!(said.is_empty(), "'{line}': {said:?}");
    }
    e.quit();
}

/// A huge garbage line is quoted short in the `info string`.
#[test]
fn a_huge_garbage_line_is_quoted_short() {
    let mut e = Engine::new();
    let line = "y".repeat(100_000);
    let said = e.info_strings_after(&line);
    assert_eq!(said.len(), 1, "{} lines", said.len());
    assert!(said[0].len() < 300, "{} bytes echoed", said[0].len());
    assert!(said[0].contains("yyyy…"), "{}", &said[0][..100]);
    e.quit();
}

/// `d` shows the board, side to move, castling rights, en
/// passant square and checkers, as well as the FEN and key.
#[test]
fn d_shows_the_board() {
    let mut e = Engine::new();
    // Black to move, in check from the bishop on b5.
    e.send("position startpos moves e2e4 d7d5 f1b5");
    e.send("d");
    let lines = e.sync();
    let ranks: Vec<&String> = lines.iter().filter(|l| l.starts_with(" |")).collect();
    assert_eq!(ranks.len(), 8, "{lines:?}");
    assert_eq!(
        ranks[0].as_str(),
        " | r | n | b | q | k | b | n | r | 8",
        "{lines:?}"
    );
    assert_eq!(
        ranks[7].as_str(),
        " | R | N | B | Q | K |   | N | R | 1",
        "{lines:?}"
    );
    assert!(
        ranks[3].contains(" B |") && ranks[3].contains(" p |"),
        "{lines:?}"
    );
    for want in [
        "side to move: black",
        "castling: KQkq",
        "en passant: -",
        "checkers: b5",
    ] {
        assert!(lines.iter().any(|l| l == want), "no '{want}': {lines:?}");
    }
    assert!(lines.iter().any(|l| l.starts_with("fen ")), "{lines:?}");
    assert!(lines.iter().any(|l| l.starts_with("key ")), "{lines:?}");
    // An en passant capture is possible: e5xd6.
    e.send("position startpos moves e2e4 a7a6 e4e5 d7d5");
    e.send("d");
    let lines = e.sync();
    for want in ["side to move: white", "en passant: d6", "checkers: -"] {
        assert!(lines.iter().any(|l| l == want), "no '{want}': {lines:?}");
    }
    e.quit();
}

#[test]
fn binary_junk_and_odd_line_endings_do_not_break_the_engine() {
    let mut e = Engine::new();
    let junk: Vec<u8> = (0u8..=255).filter(|&b| b != b'\n').collect();
    e.send_bytes(&junk);
    e.send_bytes(b"\n");
    e.send_bytes(b"\x00\x01\x02\x1b[31m\xff\xfe\xc3\x28\n");
    e.send_bytes("\u{feff}\u{202e}gö ü\n".as_bytes());
    e.send_bytes(&[b'x'; 100_000]);
    e.send_bytes(b"\n");
    e.send_bytes(b"isready\r\n");
    e.read_until(LINE_TIMEOUT, "readyok after CRLF", |l| l == "readyok");
    e.send_bytes(b"position startpos moves e2e4 e7e5\r\n");
    e.send_bytes(b"go depth 3\r\n");
    let s = e.bestmove(LINE_TIMEOUT);
    check_search(&play_all(STARTPOS, &["e2e4", "e7e5"]), &s);
    e.quit(); // also checks the output has no control characters
}

/// Issue 74: the FENs GUIs send, read as they mean them: stale castling
/// rights dropped (standard, X-FEN and Shredder-FEN in Chess960), missing
/// fields defaulted, an en-passant square behind no double push ignored,
/// each said in one `info string`; the search answers in the FEN's
/// position, never in the one before.
#[test]
fn gui_fens_are_read_leniently_and_searched_in_their_position() {
    let mut e = Engine::new();
    // The session of the issue: Black to move after d2d4, then White's FEN.
    e.send("position startpos moves d2d4");
    let said = e.info_strings_after("position fen 4k3/8/8/8/8/8/8/4K2R w KQkq - 0 1");
    assert_eq!(said.len(), 1, "{said:?}");
    assert!(
        said[0].contains("castling rights 'KQkq' read as 'K'"),
        "{said:?}"
    );
    let fen = "4k3/8/8/8/8/8/8/4K2R w K - 0 1";
    assert_eq!(e.fen(), fen);
    check_search(&chess(fen), &e.go("go depth 3"));

    // (FEN sent, notes, the position read, UCI_Chess960).
    let cases: [(&str, &[&str], &str, bool); 7] = [
        (
            "4k3/8/8/8/8/8/8/4K2R w KQkq - 0",
            &["full-move number", "castling rights 'KQkq' read as 'K'"],
            "4k3/8/8/8/8/8/8/4K2R w K - 0 1",
            false,
        ),
        (
            "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 5",
            &["full-move number"],
            "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 5 1",
            false,
        ),
        (
            "4k3/8/8/8/8/8/8/4K2R b KQkq -",
            &["castling rights 'KQkq' read as 'K'"],
            "4k3/8/8/8/8/8/8/4K2R b K - 0 1",
            false,
        ),
        (
            "k7/8/8/8/8/8/8/K7 w - e6 0 1",
            &["en-passant square e6 ignored"],
            "k7/8/8/8/8/8/8/K7 w - - 0 1",
            false,
        ),
        // In standard chess a right needs the king on e1: none is left.
        (
            "r3k2r/8/8/8/8/8/8/R4K1R w KQkq - 0 1",
            &["castling rights 'KQkq' read as 'kq'"],
            "r3k2r/8/8/8/8/8/8/R4K1R w kq - 0 1",
            false,
        ),
        // Chess960 start position 226, the e1 rook gone: X-FEN and Shredder-FEN.
        (
            "bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNB1KRN w KQkq - 0 1",
            &["castling rights 'KQkq' read as 'Kkq'"],
            "bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNB1KRN w Kkq - 0 1",
            true,
        ),
        (
            "bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNB1KRN w GEge - 0 1",
            &["castling rights 'GEge' read as 'Gge'"],
            "bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNB1KRN w Gge - 0 1",
            true,
        ),
    ];
    for (fen, notes, read, chess960) in cases {
        e.send(&format!("setoption name UCI_Chess960 value {chess960}"));
        e.send("position startpos moves e2e4");
        let said = e.info_strings_after(&format!("position fen {fen}"));
        assert_eq!(said.len(), notes.len(), "'{fen}': {said:?}");
        for (line, note) in said.iter().zip(notes) {
            assert!(line.contains(note), "'{fen}': {said:?} should say '{note}'");
        }
        assert_eq!(e.fen(), read, "'{fen}'");
        check_search(&chess(read), &e.go("go depth 3"));
    }
    e.quit();
}

/// Issue 74: a `position` that gives no position to play leaves none: one
/// `info string` says why, and until the next good `position` every `go`
/// answers `bestmove 0000` (at once; `go infinite` and `go ponder` at
/// `stop` or `ponderhit`, as UCI asks), never a move of the position
/// before; the engine keeps serving.
#[test]
fn no_position_to_play_answers_every_go_with_0000() {
    let mut e = Engine::new();
    for line in [
        "position fen 8/8/8/8/8/8/8/4Kk2 w - - 0 1", // kings side by side
        "position fen 8/8/8/8/8/8/8/4K2R w K - 0 1", // no black king
        "position fen garbage",
        "position fen 8/8/8/8/8/8/8/8 w - - 0 1", // no kings
        "position fen 8/8/8/8/8/8/8/K6K w - - 0 1", // two white kings
        "position fen k7/8/8/8/8/8/8/K6R b - - 0 1 extra", // seven fields
        "position fen k7/8/8/8/8/8/8/K7",         // one field
        "position fen k7/9/8/8/8/8/8/K7 w - - 0 1", // bad digit
        "position fen k7/8/8/8/8/8/8/K7/8 w - - 0 1", // nine ranks
        "position fen k7/8/8/8/8/8/8/K6 w - - 0 1", // short rank
        "position fen k7/8/8/8/8/8/8/K7 x - - 0 1", // side to move
        "position fen kP6/8/8/8/8/8/8/K7 w - - 0 1", // pawn on rank 8
        "position fen k7/8/8/8/8/8/8/K7 w - z9 0 1", // en passant square
        "position fen k6R/8/8/8/8/8/8/K7 w - - 0 1", // side not to move in check
        "position fen k7/8/8/8/8/8/8/K7 w - - -1 1", // half-move clock
        "position fen k7/8/8/8/8/8/8/K7 w - - 0 x", // move number
        "position fen k7/8/8/8/8/8/8/K7 w - - 99999999999999999999 1", // overflow
        "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1", // piece letter
        "position fen 8/8/8/8/8/8/8/4K3 w - - 0 1 moves e1e2",
        "position",
        "position fen",
        "position sideways",
        "position startpos e2e4",
    ] {
        // A good position first, so that a move of it would show.
        e.send("position startpos moves d2d4");
        let said = e.info_strings_after(line);
        assert_eq!(said.len(), 1, "'{line}': {said:?}");
        assert!(
            said[0].contains("no position to play"),
            "'{line}': {said:?}"
        );
        let s = e.go("go depth 3");
        assert_eq!(s.bestmove, "0000", "'{line}': {:?}", s.lines);
        assert_eq!(s.ponder, None, "'{line}'");
    }
    // `go infinite` and `go ponder` wait, as UCI asks of them, for `stop`
    // and `ponderhit` (answering `isready` meanwhile), then say `0000`:
    // one `bestmove` each.
    let bestmoves = |e: &Engine| {
        e.output
            .iter()
            .filter(|l| l.starts_with("bestmove"))
            .count()
    };
    let before = bestmoves(&e);
    for (go, end) in [
        ("go infinite", "stop"),
        ("go ponder wtime 1000 btime 1000", "ponderhit"),
        ("go ponder wtime 1000 btime 1000", "stop"),
    ] {
        e.send(go);
        let early = e.sync();
        assert!(
            !early.iter().any(|l| l.starts_with("bestmove")),
            "{go}: {early:?}"
        );
        e.send(end);
        let s = e.bestmove(ACT);
        assert_eq!(s.bestmove, "0000", "{go}, {end}");
    }
    let s = e.go("go wtime 1000 btime 1000 searchmoves e2e4");
    assert_eq!(s.bestmove, "0000");
    let late = e.sync();
    assert!(!late.iter().any(|l| l.starts_with("bestmove")), "{late:?}");
    assert_eq!(bestmoves(&e), before + 4);
    // `d`, `eval` and `perft` say there is no position.
    for line in ["d", "eval", "perft 2"] {
        let said = e.info_strings_after(line);
        assert_eq!(said.len(), 1, "'{line}': {said:?}");
        assert!(said[0].contains("no position to"), "'{line}': {said:?}");
    }
    // The next good position is searched.
    let said = e.info_strings_after("position startpos moves e2e4");
    assert!(said.is_empty(), "{said:?}");
    check_search(&play_all(STARTPOS, &["e2e4"]), &e.go("go depth 3"));
    e.quit();
}

#[test]
fn an_illegal_move_in_the_list_stops_the_list_there() {
    let mut e = Engine::new();
    for (line, bad, played) in [
        (
            "position startpos moves e2e4 e7e5 e1e3 g1f3",
            "e1e3",
            &["e2e4", "e7e5"][..],
        ),
        ("position startpos moves e2e4 e2e4", "e2e4", &["e2e4"][..]),
        ("position startpos moves e7e5", "e7e5", &[][..]),
        (
            "position startpos moves g1f3 zz9 b8c6",
            "zz9",
            &["g1f3"][..],
        ),
        (
            "position startpos moves e2e4 e7e5 e1g1",
            "e1g1",
            &["e2e4", "e7e5"][..],
        ),
        (
            "position startpos moves e2e4 d7d5 e4d5 e7e5 d5e6 e8e7 e6f7 e7e6 f7g8",
            "f7g8",
            &[
                "e2e4", "d7d5", "e4d5", "e7e5", "d5e6", "e8e7", "e6f7", "e7e6",
            ][..],
        ),
        (
            &format!("position fen {KIWIPETE} moves e1g1 a8a1"),
            "a8a1",
            &["e1g1"][..],
        ),
    ] {
        let said = e.info_strings_after(line);
        assert_eq!(said.len(), 1, "'{line}': {said:?}");
        assert!(
            said[0].contains(bad),
            "'{line}': the message should name '{bad}': {said:?}"
        );
        let start = if line.contains(KIWIPETE) {
            KIWIPETE
        } else {
            STARTPOS
        };
        let pos = play_all(start, played);
        let shown = e.fen();
        assert!(
            same_position(&shown, &fen_of(&pos)),
            "'{line}': engine has {shown}, expected {}",
            fen_of(&pos)
        );
        check_search(&pos, &e.go("go depth 3"));
    }
    e.quit();
}

#[test]
fn stray_ponderhit_does_not_stretch_a_timed_search() {
    let mut e = Engine::new();
    e.send("position startpos");
    // About 60 ms soft and 300 ms hard from this clock.
    e.send("go wtime 3000 btime 3000");
    // A confused GUI repeating `ponderhit` every 20 ms (less than either
    // limit) must not keep restarting the clock.
    let start = Instant::now();
    'search: loop {
        e.send("ponderhit");
        let tick = Instant::now() + Duration::from_millis(20);
        while let Some(line) = e.try_recv(tick.saturating_duration_since(Instant::now())) {
            if line.starts_with("bestmove") {
                break 'search;
            }
        }
        assert!(
            start.elapsed() < ACT,
            "no bestmove: ponderhit restarted the clock"
        );
    }
    check_search(&chess(STARTPOS), &e.bestmove_from_lines());
    assert!(e.sync().is_empty());
    e.quit();
}
