//! Borrow as OpenBench builds and benches it (its client's `Client/utils.py`
//! `makefile_command` and `Client/bench.py`): `make -j EXE=<out>
//! EVALFILE=<net>` at the repository's root builds an engine with that net
//! built in, and the plain `<out> bench` it runs reports that net's
//! signature in the last line naming `N nodes` and `N nps`. The engine entry
//! OpenBench needs (`openbench/Borrow.json`, for its `Engines/`) carries the
//! fields and types its server's `OpenBench/config.py` checks.

use std::path::{Path, PathBuf};
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_borrow");

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

/// The signature and speed as OpenBench's client reads them: from the last
/// line that has `<digits> nodes`, and the last that has `<digits> nps`.
fn openbench_reading(stdout: &str) -> (Option<u64>, Option<u64>) {
    let number_before = |line: &str, word: &str| {
        let words: Vec<&str> = line.split_whitespace().collect();
        words
            .windows(2)
            .find(|w| w[1].eq_ignore_ascii_case(word) && w[0].bytes().all(|b| b.is_ascii_digit()))
            .map(|w| w[0].parse::<u64>().unwrap())
    };
    let last = |word: &str| stdout.lines().rev().find_map(|l| number_before(l, word));
    (last("nodes"), last("nps"))
}

fn bench(bin: &Path, args: &[&str]) -> u64 {
    let out = Command::new(bin).arg("bench").args(args).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8(out.stdout).unwrap();
    let (nodes, nps) = openbench_reading(&stdout);
    assert!(nps.is_some(), "no nps in {stdout}");
    nodes.unwrap_or_else(|| panic!("no node count in {stdout}"))
}

/// The built-in net with its output bias moved, padded as bullet pads it: a
/// net the engine has not got built in.
fn other_net(dir: &Path) -> PathBuf {
    let mut bytes = std::fs::read(root().join("engine/nets/default.nnue")).unwrap();
    let buckets = nnue::network::file_buckets(bytes.len(), nnue::HIDDEN)
        .expect("a net file this build reads");
    let size = nnue::network::weight_bytes(nnue::HIDDEN, buckets);
    bytes.truncate(size);
    // The output biases are the last `buckets` words.
    for at in (size - 2 * buckets..size).step_by(2) {
        let bias = i16::from_le_bytes([bytes[at], bytes[at + 1]]);
        bytes[at..at + 2].copy_from_slice(&(bias + 600).to_le_bytes());
    }
    for i in 0..(64 - size % 64) % 64 {
        bytes.push(b"bullet"[i % 6]);
    }
    let path = dir.join("other.nnue");
    std::fs::write(&path, &bytes).unwrap();
    path
}

#[test]
fn make_with_evalfile_builds_that_net_in_as_openbench_does() {
    if Command::new("make").arg("--version").output().is_err() {
        eprintln!("skipped: no `make` on this machine (OpenBench's client needs it too)");
        return;
    }
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("openbench");
    std::fs::create_dir_all(&dir).unwrap();
    let net = other_net(&dir);
    let exe = dir.join("borrow-dev");
    let _ = std::fs::remove_file(&exe);
    // OpenBench's command line; a target directory of the test's own (the
    // workspace's is locked while the tests run), and a quicker profile:
    // what is tested is which net goes in, not the optimiser.
    let status = Command::new("make")
        .current_dir(root())
        .args(["-j", &format!("EXE={}", exe.display())])
        .arg(format!("EVALFILE={}", net.display()))
        .env("CARGO_TARGET_DIR", dir.join("target"))
        .env("CARGO_PROFILE_RELEASE_LTO", "off")
        .env("CARGO_PROFILE_RELEASE_CODEGEN_UNITS", "16")
        .env("CARGO_PROFILE_RELEASE_OPT_LEVEL", "1")
        .env_remove("BORROW_EVALFILE")
        .status()
        .expect("make runs");
    assert!(status.success(), "make failed");

    let depth = "5";
    let built = bench(&exe, &[depth]);
    let with_file = bench(Path::new(BIN), &[depth, "--net", net.to_str().unwrap()]);
    let built_in = bench(Path::new(BIN), &[depth]);
    assert_eq!(
        built, with_file,
        "the built engine's signature is its net's"
    );
    assert_ne!(built, built_in, "the net built in is not the default one");
}

#[test]
fn the_engine_entry_has_what_openbenchs_server_checks() {
    let text = std::fs::read_to_string(root().join("openbench/Borrow.json")).unwrap();
    let conf: serde_json::Value = serde_json::from_str(&text).expect("valid JSON");
    // OpenBench/config.py: verify_engine_basics and verify_engine_build.
    assert!(conf["private"].is_boolean());
    assert!(conf["nps"].as_u64().is_some_and(|n| n > 0));
    assert!(conf["source"].is_string());
    let build = &conf["build"];
    for key in ["cpuflags", "systems", "compilers"] {
        let list = build[key]
            .as_array()
            .unwrap_or_else(|| panic!("build.{key}"));
        assert!(list.iter().all(|x| x.is_string()), "build.{key}");
    }
    // The Makefile is at the path OpenBench runs make in.
    let path = build["path"].as_str().expect("build.path");
    assert!(root().join(path).join("Makefile").is_file());
    // verify_engine_test_preset / tune / datagen: only the keys it knows,
    // and a `default` preset of each kind.
    let side_keys = |sides: &[&str]| -> Vec<String> {
        sides
            .iter()
            .flat_map(|s| {
                ["branch", "bench", "network", "options", "time_control"]
                    .map(|k| format!("{s}_{k}"))
            })
            .collect()
    };
    let shared = [
        "book_name",
        "upload_pgns",
        "priority",
        "throughput",
        "syzygy_wdl",
        "syzygy_adj",
        "win_adj",
        "draw_adj",
    ];
    let test_keys = [
        &shared[..],
        &[
            "workload_size",
            "test_bounds",
            "test_confidence",
            "test_max_games",
        ],
    ]
    .concat();
    let tune_keys = [
        &shared[..],
        &[
            "spsa_reporting_type",
            "spsa_distribution_type",
            "spsa_alpha",
            "spsa_gamma",
            "spsa_A_ratio",
            "spsa_iterations",
            "spsa_pairs_per",
        ],
    ]
    .concat();
    let datagen_keys = [
        &shared[..],
        &[
            "workload_size",
            "datagen_custom_genfens",
            "datagen_play_reverses",
            "datagen_max_games",
        ],
    ]
    .concat();
    for (kind, sides, keys) in [
        (
            "test_presets",
            side_keys(&["both", "dev", "base"]),
            test_keys,
        ),
        ("tune_presets", side_keys(&["both", "dev"]), tune_keys),
        (
            "datagen_presets",
            side_keys(&["both", "dev", "base"]),
            datagen_keys,
        ),
    ] {
        let presets = conf[kind].as_object().unwrap_or_else(|| panic!("{kind}"));
        assert!(presets.contains_key("default"), "{kind} has no default");
        for (name, preset) in presets {
            for key in preset.as_object().unwrap().keys() {
                assert!(
                    sides.iter().any(|s| s == key) || keys.contains(&key.as_str()),
                    "{kind}.{name}: OpenBench refuses the key {key}"
                );
            }
        }
    }
}
