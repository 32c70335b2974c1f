//! The command line: `bench`, `--version`, `--help` (helpers in `common`).

mod common;

use common::*;

// ---------------------------------------------------------------------------
// `borrow bench` and the command line.

fn bench_nodes(stdout: &[u8]) -> u64 {
    let text = String::from_utf8_lossy(stdout);
    let last = text.lines().last().unwrap_or_default();
    let words: Vec<&str> = last.split(' ').collect();
    match words[..] {
        [n, "nodes", nps, "nps"] if nps.parse::<u64>().is_ok() => n
            .parse()
            .unwrap_or_else(|_| panic!("bad node count in '{last}'")),
        _ => panic!("last line '{last}' is not '<nodes> nodes <nps> nps'"),
    }
}

#[test]
fn bench_prints_nodes_and_nps_and_exits_0() {
    let out = run(&["bench", "--depth", "5"]);
    assert!(out.status.success(), "{out:?}");
    assert!(bench_nodes(&out.stdout) > 0);
    assert!(!String::from_utf8_lossy(&out.stderr).contains("panicked"));
}

#[test]
fn bench_node_count_is_the_same_for_every_attack_method() {
    // With each evaluation: the net's integer arithmetic gives the same
    // scores whatever the method, so the same tree.
    let mut by_eval = Vec::new();
    for eval in ["nnue", "classical"] {
        let mut counts = Vec::new();
        for &m in Method::ALL {
            let out = run(&[
                "bench",
                "--depth",
                "5",
                "--method",
                m.name(),
                "--eval",
                eval,
            ]);
            assert!(out.status.success(), "{m}: {out:?}");
            counts.push((m, bench_nodes(&out.stdout)));
        }
        let first = counts[0].1;
        assert!(
            counts.iter().all(|&(_, n)| n == first),
            "{eval}: node counts differ: {counts:?}"
        );
        by_eval.push(first);
    }
    assert_ne!(
        by_eval[0], by_eval[1],
        "the two evaluations searched the same tree"
    );
    let default = bench_nodes(&run(&["bench", "--depth", "5"]).stdout);
    let kind = engine::evaluator::Evaluator::default_kind();
    let first = by_eval[usize::from(kind == engine::evaluator::EvalKind::Classical)];
    assert_eq!(default, first, "the default evaluation is {kind:?}");

    // `--method all` prints one row per method, all with that count.
    let out = run(&[
        "bench",
        "--depth",
        "5",
        "--method",
        "all",
        "--eval",
        kind.name(),
    ]);
    assert!(out.status.success(), "{out:?}");
    assert_eq!(bench_nodes(&out.stdout), first);
    let text = String::from_utf8_lossy(&out.stdout);
    for &m in Method::ALL {
        let row = text
            .lines()
            .find(|l| l.split_whitespace().next() == Some(m.name()))
            .unwrap_or_else(|| panic!("no row for {m}:\n{text}"));
        let n: u64 = row.split_whitespace().nth(1).unwrap().parse().unwrap();
        assert_eq!(n, first, "{row}");
    }
}

#[test]
fn bench_into_a_closed_pipe_does_not_panic() {
    // `borrow bench | head -1`: the reader goes away at once.
    let mut child = Command::new(BIN)
        .args(["bench", "--depth", "5", "--method", "all"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start borrow");
    drop(child.stdout.take());
    let mut err = child.stderr.take().unwrap();
    let status = wait_with_timeout(&mut child, Duration::from_secs(30)).expect("bench ends");
    let mut stderr = String::new();
    let _ = err.read_to_string(&mut stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    // A closed pipe is a quiet success, as for any tool
    // whose reader has what it wanted.
    assert_eq!(status.code(), Some(0), "{status}: {stderr}");
    assert!(stderr.is_empty(), "{stderr}");
}

/// `borrow bench | head -1`: the reader takes a line and goes away.
#[test]
fn bench_into_head_1_is_a_quiet_success() {
    let mut child = Command::new(BIN)
        .args(["bench", "4"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start borrow");
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    let mut err = child.stderr.take().unwrap();
    let status = wait_with_timeout(&mut child, Duration::from_secs(30)).expect("bench ends");
    let mut stderr = String::new();
    let _ = err.read_to_string(&mut stderr);
    assert_eq!(status.code(), Some(0), "{status}: {stderr}");
    assert!(stderr.is_empty(), "{stderr}");
    // The first line says what runs.
    assert!(
        first.contains(&format!("method {}", Method::default())) && first.contains("depth 4"),
        "{first}"
    );
}

/// The bare depth (`borrow bench 13`, as OpenBench runs
/// it) has the check of `--depth`: 1 to 64.
#[test]
fn bench_depth_is_checked_however_it_is_given() {
    for args in [
        &["bench", "0"][..],
        &["bench", "500"],
        &["bench", "-3"],
        &["bench", "--depth", "500"],
        &["bench", "--depth=0"],
    ] {
        let out = run(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {out:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("1 to 64"), "{args:?}: {err}");
        assert!(out.stdout.is_empty(), "{args:?}: nothing benched");
    }
    // Both spellings, and `--opt=value`, run the same search.
    let a = run(&["bench", "3"]);
    let b = run(&[
        "bench",
        "--depth=3",
        &format!("--method={}", Method::default()),
    ]);
    assert!(a.status.success() && b.status.success(), "{a:?} {b:?}");
    assert_eq!(bench_nodes(&a.stdout), bench_nodes(&b.stdout));
}

/// Across the tools: `--version`, `bench --help`, exit codes in
/// the help, unknown methods listed with their aliases.
#[test]
fn version_help_and_method_names() {
    let out = run(&["--version"]);
    assert!(out.status.success(), "{out:?}");
    let v = String::from_utf8_lossy(&out.stdout);
    assert!(
        v.starts_with("Borrow ") && v.contains(env!("CARGO_PKG_VERSION")),
        "{v}"
    );
    // The built-in net, by its SHA-256.
    assert!(
        v.trim_end().ends_with(&format!(
            " (net sha256 {})",
            engine::evaluator::BUILT_IN_NET_SHA256
        )),
        "{v}"
    );

    let out = run(&["bench", "--help"]);
    assert!(out.status.success(), "{out:?}");
    let help = String::from_utf8_lossy(&out.stdout);
    assert!(help.contains("--depth <D>"), "{help}");
    assert!(help.contains("Exit status: 0"), "{help}");
    assert!(help.contains("13"), "the default depth: {help}");

    let out = run(&["bench", "--method", "nonsense"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    for m in Method::ALL {
        assert!(err.contains(m.name()), "{m}: {err}");
        for a in m.aliases() {
            assert!(err.contains(a), "{m} alias {a}: {err}");
        }
    }
}

#[test]
fn bench_with_a_bad_method_or_argument_exits_2_with_a_message() {
    let out = run(&["bench", "--depth", "5", "--method", "nonsense"]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("nonsense") && err.contains(Method::default().name()),
        "{err}"
    );
    assert!(out.stdout.is_empty(), "nothing benched");

    for args in [
        &["bench", "--method"][..],
        &["bench", "--depth", "0"],
        &["bench", "--depth", "x"],
        &["bench", "--frobnicate"],
        &["frobnicate"],
    ] {
        let out = run(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {out:?}");
        assert!(!out.stderr.is_empty(), "{args:?}: no message");
        assert!(
            !String::from_utf8_lossy(&out.stderr).contains("panicked"),
            "{args:?}"
        );
    }
    let out = run(&["--help"]);
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("bench"));
}

/// The commands that left the engine for `borrow-datagen` say where they
/// went, and do nothing else.
#[test]
fn datagen_and_convert_name_the_tool_they_moved_to() {
    for (args, new) in [
        (
            &["datagen", "--games", "10", "--out", "x.vf"][..],
            "'borrow-datagen'",
        ),
        (&["datagen"], "'borrow-datagen'"),
        (
            &["convert", "--out", "x.vf", "m.pgn"],
            "'borrow-datagen convert'",
        ),
    ] {
        let out = run(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {out:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(new), "{args:?}: {err}");
        assert!(out.stdout.is_empty(), "{args:?}");
        assert!(!std::path::Path::new("x.vf").exists());
    }
    let help = String::from_utf8_lossy(&run(&["--help"]).stdout).into_owned();
    assert!(
        !help.contains("datagen") && !help.contains("convert"),
        "{help}"
    );
}

// ---------------------------------------------------------------------------
// OpenBench's DATAGEN convention: commands as arguments.

#[test]
fn genfens_as_openbench_runs_it_prints_legal_positions_the_same_for_a_seed() {
    let fens = |seed: u32| -> Vec<String> {
        let out = run(&[&format!("genfens 3 seed {seed} book None"), "quit"]);
        assert!(out.status.success(), "{out:?}");
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        text.lines()
            .filter_map(|l| l.strip_prefix("info string genfens "))
            .map(str::to_owned)
            .collect()
    };
    let a = fens(9);
    assert_eq!(a.len(), 3, "{a:?}");
    for fen in &a {
        assert_eq!(fen.split(' ').count(), 6, "{fen}");
        let pos = chess(fen);
        assert!(!shakmaty::Position::legal_moves(&pos).is_empty(), "{fen}");
    }
    assert_eq!(a, fens(9));
    assert_ne!(a, fens(10));

    // A book that is not there: said, and no positions.
    let out = run(&["genfens 2 seed 1 book /nonexistent/book.epd", "quit"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{out:?}");
    assert!(!text.contains("info string genfens "), "{text}");
    assert!(text.contains("info string genfens: "), "{text}");
}
