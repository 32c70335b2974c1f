//! The data kept in the repository (`data/`, its README): every chunk is
//! what its row in `data/manifest.toml` says — its packed and unpacked
//! sha256 and length, and its games and positions as Borrow's own reader
//! counts them, streaming the xz file — every file of `data/selfplay/` has
//! a row, a seed's chunks never overlap, and the built-in net has its row.

use std::collections::{BTreeMap, BTreeSet};
use std::io::Read;
use std::path::{Path, PathBuf};

use serde::Deserialize;
use sha2::{Digest, Sha256};

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Manifest {
    net: Vec<Net>,
    chunk: Vec<Chunk>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)] // Read for deny_unknown_fields: a row is whole or refused.
struct Net {
    name: String,
    sha256: String,
    built_in: String,
    architecture: String,
    init: String,
    chunks: Vec<String>,
    data: String,
    command: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct Chunk {
    file: String,
    xz_sha256: String,
    raw_sha256: String,
    raw_bytes: u64,
    games: u64,
    /// Games of the range without a playable opening: counted, not written.
    #[serde(default)]
    skipped: u64,
    positions: u64,
    seed: u64,
    first_game: u64,
    nodes: u64,
    /// A soft node limit (the iteration that passes it finished, `nodes`
    /// the hard cap); none: `nodes` alone.
    #[serde(default)]
    soft_nodes: Option<u64>,
    plies: u64,
    /// The share of games, in percent, started from double Chess960
    /// positions (`--dfrc`); none: 0.
    #[serde(default)]
    dfrc: u64,
    commit: String,
    net_sha256: String,
    made: String,
    command: String,
}

fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../data")
}

fn manifest() -> Manifest {
    let path = data_dir().join("manifest.toml");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    toml::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn hex(digest: impl AsRef<[u8]>) -> String {
    digest.as_ref().iter().map(|b| format!("{b:02x}")).collect()
}

fn is_sha256(s: &str) -> bool {
    s.len() == 64
        && s.bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

/// The sha256 and length of what `reader` yields.
fn sha256_of(mut reader: impl Read) -> (String, u64) {
    let mut hasher = Sha256::new();
    let mut buf = vec![0u8; 1 << 16];
    let mut len = 0;
    loop {
        let n = reader.read(&mut buf).expect("readable");
        if n == 0 {
            return (hex(hasher.finalize()), len);
        }
        hasher.update(&buf[..n]);
        len += n as u64;
    }
}

#[test]
fn every_chunk_is_what_its_row_says() {
    let manifest = manifest();
    assert!(!manifest.chunk.is_empty(), "no chunk in the manifest");
    for c in &manifest.chunk {
        let path = data_dir().join(&c.file);
        let packed = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", c.file));
        assert_eq!(
            hex(Sha256::digest(&packed)),
            c.xz_sha256,
            "{}: packed sha256",
            c.file
        );
        let (raw_sha256, raw_bytes) =
            sha256_of(liblzma::read::XzDecoder::new_multi_decoder(&packed[..]));
        assert_eq!(raw_sha256, c.raw_sha256, "{}: unpacked sha256", c.file);
        assert_eq!(raw_bytes, c.raw_bytes, "{}: unpacked bytes", c.file);
        // Borrow's reader, as borrow-train reads the file: unpacked as it
        // streams, every game decoded and checked.
        let mut positions = 0;
        let games = nnue::data::read::read_games(&path, |g| positions += g.plies.len() as u64)
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(games as u64, c.games, "{}: games", c.file);
        assert_eq!(positions, c.positions, "{}: positions", c.file);
    }
}

#[test]
fn every_file_has_one_row_and_a_seeds_chunks_never_overlap() {
    let manifest = manifest();
    let nets: BTreeSet<&str> = manifest.net.iter().map(|n| n.sha256.as_str()).collect();
    let mut files = BTreeSet::new();
    let mut by_seed: BTreeMap<u64, Vec<(u64, u64, &str)>> = BTreeMap::new();
    // A seed's games are one net's at one set of limits.
    let mut settings: BTreeMap<u64, (&str, u64, Option<u64>, u64, u64)> = BTreeMap::new();
    for c in &manifest.chunk {
        assert!(files.insert(c.file.as_str()), "{}: two rows", c.file);
        assert!(
            is_sha256(&c.xz_sha256) && is_sha256(&c.raw_sha256),
            "{}",
            c.file
        );
        assert!(
            nets.contains(c.net_sha256.as_str()),
            "{}: its net has no row",
            c.file
        );
        assert!(c.games > 0 && c.positions > 0, "{}", c.file);
        // The name says the seed and the games: NET-sSEED-gFIRST-END.vf.xz.
        let end = c.first_game + c.games + c.skipped;
        let tail = format!("-s{}-g{:07}-{end:07}.vf.xz", c.seed, c.first_game);
        assert!(
            c.file.starts_with("selfplay/") && c.file.ends_with(&tail),
            "{}: not selfplay/NET{tail}",
            c.file
        );
        let these = (
            c.net_sha256.as_str(),
            c.nodes,
            c.soft_nodes,
            c.plies,
            c.dfrc,
        );
        let first = *settings.entry(c.seed).or_insert(these);
        assert_eq!(
            first, these,
            "{}: seed {}'s chunks differ in net, nodes, soft nodes, plies or dfrc share",
            c.file, c.seed
        );
        assert!(c.dfrc <= 100, "{}: dfrc above 100 percent", c.file);
        if let Some(soft) = c.soft_nodes {
            assert!(
                soft > 0 && soft <= c.nodes,
                "{}: soft nodes above the hard cap",
                c.file
            );
        }
        by_seed
            .entry(c.seed)
            .or_default()
            .push((c.first_game, end, &c.file));
    }
    for (seed, mut ranges) in by_seed {
        ranges.sort();
        for pair in ranges.windows(2) {
            assert!(
                pair[0].1 <= pair[1].0,
                "seed {seed}: {} and {} hold the same games",
                pair[0].2,
                pair[1].2
            );
        }
    }
    let on_disk: BTreeSet<String> = std::fs::read_dir(data_dir().join("selfplay"))
        .expect("data/selfplay")
        .map(|e| format!("selfplay/{}", e.unwrap().file_name().to_string_lossy()))
        .collect();
    let listed: BTreeSet<String> = files.iter().map(|f| f.to_string()).collect();
    assert_eq!(
        on_disk, listed,
        "files of data/selfplay without a row, or rows without a file"
    );
}

#[test]
fn the_built_in_net_and_every_net_it_names_have_rows() {
    let manifest = manifest();
    let names: BTreeSet<&str> = manifest.net.iter().map(|n| n.name.as_str()).collect();
    let chunks: BTreeSet<&str> = manifest.chunk.iter().map(|c| c.file.as_str()).collect();
    assert!(
        manifest
            .net
            .iter()
            .any(|n| n.sha256 == engine::evaluator::BUILT_IN_NET_SHA256),
        "the built-in net ({}) has no row in data/manifest.toml",
        engine::evaluator::BUILT_IN_NET_SHA256
    );
    for n in &manifest.net {
        assert!(is_sha256(&n.sha256), "{}", n.name);
        assert!(
            n.init.is_empty() || names.contains(n.init.as_str()),
            "{}: init {}",
            n.name,
            n.init
        );
        for c in &n.chunks {
            assert!(
                chunks.contains(c.as_str()),
                "{}: reads {c}, which has no row",
                n.name
            );
        }
        assert!(!n.command.is_empty(), "{}: no command", n.name);
    }
}
