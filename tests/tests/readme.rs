//! The README's commands, run (issue 52): the user's page stays true by
//! construction, as a doc-test keeps an API example true.
//!
//! Every line of README.md's ```` ```sh ```` blocks is read here when the
//! test runs, so a command added to or changed in the README is checked
//! without touching this file:
//!
//! - `target/release/<tool> [subcommand] …`: the tool is the one built from
//!   the same source file in this package (`readme-<tool>`: an integration
//!   test sees only its own package's binaries; see tests/Cargo.toml).
//!   Its `--help` (the subcommand's, where the line names one) must list the
//!   subcommand and every `-flag` and `key=` the line uses; an engine option
//!   `option.NAME=…` given to `borrow` must be one `borrow` offers over UCI;
//!   a path into the repository (`perft/suites/…`) must exist. Then the
//!   commands that are cheap with a small change run for real, in a scratch
//!   folder and in the README's order, and must succeed: `borrow bench` at
//!   depth 1 (ending with `<nodes> nodes <nps> nps`), `perft` at depth 3 at
//!   most, `borrow-datagen` for 2 games, `borrow-train` for 2 epochs in small
//!   batches, `borrow-tune` for 2 epochs on 20,000 positions at most,
//!   `borrow-datagen convert` and `book` as written, and `borrow` with UCI
//!   command lines as its arguments (OpenBench's `genfens`, 3 openings at
//!   most, each printed as a FEN). The files a reader
//!   brings of their own are stand-ins (`games.pgn`: the book crate's test
//!   games; `match.pgn`: a short game with borrow-match's score comments).
//!   The rest (a match, lines with `…` or `<placeholders>`) is checked by its
//!   flags only.
//! - a script of the repository (`matches/test-change.sh …`): its `--help`
//!   must succeed and list every flag the line uses (Unix only).
//! - `cargo …`: skipped. A cargo inside a test would build (`cargo run
//!   --release`: a release build, minutes) in the build directory the
//!   running `cargo test` holds; and `cargo test --workspace` is what runs
//!   this test.

use std::collections::{BTreeSet, HashMap};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// `target/release/<tool>` in the README, and the same tool built in this
/// package. A new tool needs a `readme-<tool>` `[[bin]]` in
/// tests/Cargo.toml and a line here.
const TOOLS: &[(&str, &str)] = &[
    ("borrow", env!("CARGO_BIN_EXE_readme-borrow")),
    ("borrow-tune", env!("CARGO_BIN_EXE_readme-borrow-tune")),
    (
        "borrow-datagen",
        env!("CARGO_BIN_EXE_readme-borrow-datagen"),
    ),
    ("perft", env!("CARGO_BIN_EXE_readme-perft")),
    ("book", env!("CARGO_BIN_EXE_readme-book")),
    ("borrow-match", env!("CARGO_BIN_EXE_readme-borrow-match")),
    (
        "borrow-experiment",
        env!("CARGO_BIN_EXE_readme-borrow-experiment"),
    ),
    ("borrow-train", env!("CARGO_BIN_EXE_readme-borrow-train")),
];

const RELEASE: &str = "target/release/";

/// Longer than any command here takes (the slowest, well under a second on
/// an idle machine): only a hung process reaches it.
const TIMEOUT: Duration = Duration::from_secs(60);

/// The stand-in for the reader's match games with scores (`borrow-datagen convert
/// --out more.vf match.pgn`): borrow-match's comments, `{score/depth time}`.
const MATCH_PGN: &str = "[Event \"README stand-in\"]\n[Result \"1-0\"]\n\n\
    1. e4 {+0.30/10 0.1s} e5 {-0.25/10 0.1s} 2. Nf3 {+0.31/10 0.1s} \
    Nc6 {-0.22/10 0.1s} 3. Bb5 {+0.40/11 0.1s} a6 {-0.35/10 0.1s} 1-0\n";

/// The tool built here for `target/release/<tool>`.
fn tool_exe(tool: &str) -> Option<&'static str> {
    TOOLS
        .iter()
        .find(|(name, _)| *name == tool)
        .map(|&(_, exe)| exe)
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("tests/ lies in the workspace")
        .to_path_buf()
}

#[test]
fn the_readme_commands_work() {
    let start = Instant::now();
    let root = root();
    let readme = std::fs::read_to_string(root.join("README.md")).expect("read README.md");
    let scratch = testkit::TempDir::new("readme");
    std::fs::copy(
        root.join("book/tests/data/games.pgn"),
        scratch.join("games.pgn"),
    )
    .expect("copy the stand-in games.pgn");
    std::fs::write(scratch.join("match.pgn"), MATCH_PGN).expect("write the stand-in match.pgn");

    let report = check(&readme, &root, &scratch);
    for line in &report.log {
        println!("{line}");
    }
    println!(
        "{} commands checked, {} run, {} skipped, in {:.1} s",
        report.checked,
        report.ran,
        report.skipped,
        start.elapsed().as_secs_f64()
    );
    assert!(
        report.problems.is_empty(),
        "README.md's commands do not work as written:\n{}",
        report.problems.join("\n")
    );
    assert!(
        report.checked > 10,
        "only {} commands of README.md checked: are its ```sh blocks still read?",
        report.checked
    );
    assert!(
        report.ran > 5,
        "only {} commands of README.md run for real (bench, perft, the data and book lines)",
        report.ran
    );
}

/// Each `readme-<tool>` is compiled from the file `<tool>`'s own package
/// builds `<tool>` from: tests/Cargo.toml names those files by hand.
#[test]
fn each_tool_here_is_built_from_its_own_source() {
    let root = root();
    let read = |path: PathBuf| std::fs::read_to_string(&path).expect("read a Cargo.toml");
    let ours = bins(&read(root.join("tests/Cargo.toml")));
    for (tool, _) in TOOLS {
        let path = &ours[&format!("readme-{tool}")];
        let (package, file) = path
            .strip_prefix("../")
            .and_then(|p| p.split_once('/'))
            .unwrap_or_else(|| panic!("readme-{tool}'s path {path} is not ../<package>/…"));
        let theirs = bins(&read(root.join(package).join("Cargo.toml")));
        match theirs.get(*tool) {
            Some(source) => assert_eq!(
                source, file,
                "{package}/Cargo.toml builds {tool} from {source}, tests/Cargo.toml \
                 builds readme-{tool} from {file}"
            ),
            // Found by cargo, not named: src/bin/<tool>.rs or src/bin/<tool>/main.rs.
            None => assert!(
                [
                    format!("src/bin/{tool}.rs"),
                    format!("src/bin/{tool}/main.rs")
                ]
                .contains(&file.to_string())
                    && root.join(package).join(file).is_file(),
                "{package}/Cargo.toml names no [[bin]] {tool}, and readme-{tool}'s {path} is \
                 not where cargo finds one"
            ),
        }
    }
}

/// The `[[bin]]`s of a Cargo.toml: name → path.
fn bins(toml: &str) -> HashMap<String, String> {
    let mut bins = HashMap::new();
    let mut lines = toml.lines().map(str::trim).peekable();
    while let Some(line) = lines.next() {
        if line != "[[bin]]" {
            continue;
        }
        let (mut name, mut path) = (None, None);
        while let Some(line) = lines.next_if(|l| !l.starts_with('[')) {
            if let Some((key, value)) = line.split_once('=') {
                let value = value.trim().trim_matches('"').to_string();
                match key.trim() {
                    "name" => name = Some(value),
                    "path" => path = Some(value),
                    _ => {}
                }
            }
        }
        if let (Some(name), Some(path)) = (name, path) {
            bins.insert(name, path);
        }
    }
    bins
}

/// A README with mistakes: each is found and named by its line.
#[test]
fn a_wrong_command_is_named_by_its_line() {
    let broken = "\
# Title

```sh
target/release/borrow bench --depht 3        # a typo in a flag
target/release/book prove my.bin
target/release/borrow-matcher -rounds 1
target/release/perft --epd perft/suites/no-such.epd
target/release/borrow-match -engine cmd=target/release/borrow option.NoSuchOption=1 \\
    -each tc=10+0.1 colour=white -roundz 2
matches/no-such.sh --help
target/release/borrow-datagen --games … --out data.vf
cargo build --release
target/release/borrow \"genfens 2 seed 1 book no-such-book.epd\" quit
```

```text
target/release/perft --not-a-command-here
```
";
    let scratch = testkit::TempDir::new("readme-broken");
    let report = check(broken, &root(), &scratch);
    for problem in &report.problems {
        println!("{problem}");
    }
    let expected = [
        (4, "`borrow bench` has no option `--depht`"),
        (5, "`book` has no subcommand `prove`"),
        (6, "no tool `borrow-matcher`"),
        (
            7,
            "perft/suites/no-such.epd, which is not in the repository",
        ),
        (8, "`borrow` has no UCI option `NoSuchOption`"),
        (8, "`borrow-match` has no key `colour=`"),
        (8, "`borrow-match` has no option `-roundz`"),
        (10, "runs `matches/no-such.sh`"),
        (13, "printed 0 genfens FENs, not 2"),
    ];
    for (line, what) in expected {
        let prefix = format!("README.md:{line}: ");
        assert!(
            report
                .problems
                .iter()
                .any(|p| p.starts_with(&prefix) && p.contains(what)),
            "no problem `{what}` at line {line} in:\n{}",
            report.problems.join("\n")
        );
    }
    assert_eq!(
        report.problems.len(),
        expected.len(),
        "{}",
        report.problems.join("\n")
    );
    // The datagen line (a placeholder) is checked by its flags only, and
    // nothing else was run but the genfens line: every other line had a
    // mistake.
    assert_eq!((report.checked, report.ran, report.skipped), (6, 1, 1));
}

#[test]
fn commands_are_split_as_sh_splits_them() {
    let words = |s: &str| shell_words(s).unwrap();
    assert_eq!(
        words(r#"perft --fen "a b/c - 0 1" --depth 5   # comment "x""#),
        ["perft", "--fen", "a b/c - 0 1", "--depth", "5"]
    );
    assert_eq!(
        words(r#"a 'b "c"' d\ e "f\"g" x#y"#),
        ["a", "b \"c\"", "d e", "f\"g", "x#y"]
    );
    assert!(words("# only a comment").is_empty());
    assert!(shell_words("a | b").is_err());
    assert!(shell_words("a > b").is_err());
    assert!(shell_words("echo $HOME").is_err());
    assert!(shell_words("a 'b").is_err());

    let lines = sh_lines("x\n```sh\na \\\n  b # c\n\nd\n```\n```rust\ne\n```\n");
    let got: Vec<(usize, &str)> = lines.iter().map(|l| (l.number, l.text.as_str())).collect();
    assert_eq!(got, [(3, "a b # c"), (6, "d")]);
}

/// A command of a ```sh block: its first line's number, its text with
/// continuation lines joined.
struct Line {
    number: usize,
    text: String,
}

/// The commands of the markdown's ```` ```sh ```` (or `bash`, `shell`)
/// blocks; blank lines left out.
fn sh_lines(markdown: &str) -> Vec<Line> {
    let mut lines = Vec::new();
    // None: outside a fence; Some(true): in a shell block.
    let mut fence: Option<bool> = None;
    let mut pending: Option<Line> = None;
    for (i, raw) in markdown.lines().enumerate() {
        let trimmed = raw.trim();
        if let Some(info) = trimmed.strip_prefix("```") {
            fence = match fence {
                None => Some(matches!(info.trim(), "sh" | "bash" | "shell")),
                Some(_) => None,
            };
            if let Some(line) = pending.take() {
                lines.push(line);
            }
            continue;
        }
        if fence != Some(true) {
            continue;
        }
        let (part, continued) = match raw.trim_end().strip_suffix('\\') {
            Some(part) => (part, true),
            None => (raw.trim_end(), false),
        };
        let line = pending.get_or_insert_with(|| Line {
            number: i + 1,
            text: String::new(),
        });
        if !line.text.is_empty() {
            line.text.push(' ');
        }
        line.text.push_str(part.trim());
        if !continued {
            let line = pending.take().expect("just set");
            if !line.text.is_empty() {
                lines.push(line);
            }
        }
    }
    lines
}

/// The words of a command line as sh splits them: single quotes, double
/// quotes (where `\` escapes `"`, `\`, `$` and `` ` ``), backslash escapes,
/// and a comment from a `#` that starts a word. What this test does not run
/// is an error: pipes, redirections, lists, substitutions, variables.
fn shell_words(line: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            ' ' | '\t' => words.extend(word.take()),
            '#' if word.is_none() => break,
            '\'' => {
                let w = word.get_or_insert_with(String::new);
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => w.push(c),
                        None => return Err("an unclosed '".into()),
                    }
                }
            }
            '"' => {
                let w = word.get_or_insert_with(String::new);
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(c @ ('"' | '\\' | '$' | '`')) => w.push(c),
                            Some(c) => {
                                w.push('\\');
                                w.push(c);
                            }
                            None => return Err("an unclosed \"".into()),
                        },
                        Some(c @ ('$' | '`')) => {
                            return Err(format!("a `{c}` (this test runs no shell)"));
                        }
                        Some(c) => w.push(c),
                        None => return Err("an unclosed \"".into()),
                    }
                }
            }
            '\\' => {
                if let Some(c) = chars.next() {
                    word.get_or_insert_with(String::new).push(c);
                }
            }
            '|' | '&' | ';' | '<' | '>' | '$' | '`' | '(' | ')' => {
                return Err(format!("a `{c}` (this test runs no shell)"));
            }
            c => word.get_or_insert_with(String::new).push(c),
        }
    }
    words.extend(word);
    Ok(words)
}

/// What [`check`] found, did and skipped.
#[derive(Default)]
struct Report {
    /// Each names the README line.
    problems: Vec<String>,
    /// A line per command: what was checked and run.
    log: Vec<String>,
    /// Commands of the tools and scripts checked.
    checked: usize,
    /// Of those, the ones run for real.
    ran: usize,
    /// `cargo` commands (and scripts, off Unix).
    skipped: usize,
}

/// Checks every command of `markdown`'s sh blocks against the tools built
/// here; the cheap ones run in `scratch`.
fn check(markdown: &str, root: &Path, scratch: &Path) -> Report {
    let mut checker = Checker {
        root: root.to_path_buf(),
        scratch: scratch.to_path_buf(),
        repo_dirs: std::fs::read_dir(root)
            .expect("list the workspace")
            .filter_map(|e| e.ok())
            .filter(|e| e.path().is_dir())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|name| name != "target" && !name.starts_with('.'))
            .collect(),
        helps: HashMap::new(),
        uci_options: None,
        report: Report::default(),
    };
    for line in sh_lines(markdown) {
        checker.command(&line);
    }
    checker.report
}

struct Checker {
    root: PathBuf,
    scratch: PathBuf,
    /// The repository's top-level folders: a word starting with one of them
    /// and a `/` is a path into the repository.
    repo_dirs: BTreeSet<String>,
    /// `--help` outputs by "tool" or "tool subcommand".
    helps: HashMap<String, Result<String, String>>,
    uci_options: Option<Result<BTreeSet<String>, String>>,
    report: Report,
}

impl Checker {
    fn problem(&mut self, line: &Line, what: impl std::fmt::Display) {
        let mut text = line.text.clone();
        if text.chars().count() > 100 {
            text = text.chars().take(99).collect::<String>() + "…";
        }
        self.report
            .problems
            .push(format!("README.md:{}: `{text}`: {what}", line.number));
    }

    fn command(&mut self, line: &Line) {
        let words = match shell_words(&line.text) {
            Ok(words) => words,
            Err(e) => return self.problem(line, format!("this test cannot read {e}")),
        };
        // Variables set for the command (`NAME=value command …`).
        let assignments = words
            .iter()
            .take_while(|w| w.split_once('=').is_some_and(|(k, _)| is_identifier(k)))
            .count();
        let env: Vec<(String, String)> = words[..assignments]
            .iter()
            .map(|w| {
                let (k, v) = w.split_once('=').expect("an assignment");
                (k.to_string(), v.to_string())
            })
            .collect();
        let Some(program) = words.get(assignments) else {
            return;
        };
        let args = &words[assignments + 1..];
        if program == "cargo" {
            // Skipped: see the top of this file.
            self.report.skipped += 1;
            self.report
                .log
                .push(format!("README.md:{}: skipped (cargo)", line.number));
        } else if let Some(tool) = program.strip_prefix(RELEASE) {
            self.tool(line, tool, args, &env);
        } else if program.contains('/') && self.root.join(program).is_file() {
            self.script(line, program, args);
        } else {
            self.problem(
                line,
                format!(
                    "runs `{program}`: not {RELEASE}<tool>, a script of the repository or \
                     cargo, which this test knows how to check"
                ),
            );
        }
    }

    /// `--help` of `tool` (or of its subcommand `sub`).
    fn help(&mut self, tool: &str, exe: &str, sub: Option<&str>) -> Result<String, String> {
        let key = match sub {
            Some(sub) => format!("{tool} {sub}"),
            None => tool.to_string(),
        };
        let root = self.root.clone();
        self.helps
            .entry(key.clone())
            .or_insert_with(|| {
                let args: Vec<String> = sub
                    .into_iter()
                    .map(String::from)
                    .chain(["--help".into()])
                    .collect();
                let out = run(Path::new(exe), &args, &root, &[], "")?;
                if out.success {
                    Ok(out.stdout)
                } else {
                    Err(format!("`{key} --help` failed: {}", out.describe()))
                }
            })
            .clone()
    }

    /// The names of the UCI options of `borrow`.
    fn uci_options(&mut self) -> Result<BTreeSet<String>, String> {
        let root = self.root.clone();
        self.uci_options
            .get_or_insert_with(|| {
                let borrow = tool_exe("borrow").expect("borrow is a tool");
                let out = run(Path::new(borrow), &[], &root, &[], "uci\nquit\n")?;
                let names: BTreeSet<String> = out
                    .stdout
                    .lines()
                    .filter_map(|l| l.strip_prefix("option name "))
                    .filter_map(|l| l.split_once(" type ").map(|(name, _)| name.to_string()))
                    .collect();
                if out.success && !names.is_empty() {
                    Ok(names)
                } else {
                    Err(format!(
                        "`borrow` listed no UCI options: {}",
                        out.describe()
                    ))
                }
            })
            .clone()
    }

    fn tool(&mut self, line: &Line, tool: &str, args: &[String], env: &[(String, String)]) {
        let Some(exe) = tool_exe(tool) else {
            let known: Vec<&str> = TOOLS.iter().map(|(name, _)| *name).collect();
            return self.problem(
                line,
                format!(
                    "no tool `{tool}` in the workspace (this test knows {}; a new one needs a \
                     readme-<tool> [[bin]] in tests/Cargo.toml and a line in TOOLS)",
                    known.join(", ")
                ),
            );
        };
        self.report.checked += 1;
        // OpenBench's convention: arguments that are whole UCI command
        // lines (the first holds a space) are the engine's input.
        if tool == "borrow" && args.first().is_some_and(|a| a.contains(' ')) {
            return self.uci_arguments(line, exe, args);
        }
        let top = match self.help(tool, exe, None) {
            Ok(help) => help,
            Err(e) => return self.problem(line, e),
        };
        let commands = subcommands(&top);
        let (sub, rest) = match args.first() {
            Some(first) if !commands.is_empty() && !first.starts_with('-') => {
                if !commands.contains(first) {
                    return self.problem(
                        line,
                        format!(
                            "`{tool}` has no subcommand `{first}` (its --help lists {})",
                            commands.join(", ")
                        ),
                    );
                }
                (Some(first.as_str()), &args[1..])
            }
            _ => (None, args),
        };
        let name = match sub {
            Some(sub) => format!("{tool} {sub}"),
            None => tool.to_string(),
        };
        let help = match sub {
            Some(sub) => match self.help(tool, exe, Some(sub)) {
                Ok(help) => help,
                Err(e) => return self.problem(line, e),
            },
            None => top,
        };

        let mut ok = true;
        let mut flags = 0;
        // The engine the `-engine` under way runs (borrow-match).
        let mut engine: Option<String> = None;
        for word in rest {
            if is_flag(word) {
                flags += 1;
                let flag = word.split('=').next().expect("split yields a first part");
                if flag == "-engine" || flag == "-each" {
                    engine = None;
                }
                if !mentions(&help, flag, false) {
                    ok = false;
                    self.problem(
                        line,
                        format!(
                            "`{name}` has no option `{flag}`: `{name} --help` does not list it"
                        ),
                    );
                }
            } else if let Some((key, value)) = word.split_once('=') {
                if let Some(option) = key.strip_prefix("option.") {
                    flags += 1;
                    if !mentions(&help, "option.", true) {
                        ok = false;
                        self.problem(
                            line,
                            format!("`{name}` takes no `option.NAME=` (its --help)"),
                        );
                    } else if engine.as_deref() == Some("borrow") {
                        match self.uci_options() {
                            Ok(options) if options.contains(option) => {}
                            Ok(options) => {
                                ok = false;
                                let list: Vec<&str> = options.iter().map(String::as_str).collect();
                                self.problem(
                                    line,
                                    format!(
                                        "`borrow` has no UCI option `{option}` (it has {})",
                                        list.join(", ")
                                    ),
                                );
                            }
                            Err(e) => {
                                ok = false;
                                self.problem(line, e);
                            }
                        }
                    }
                } else if is_identifier(key) {
                    flags += 1;
                    if !mentions(&help, &format!("{key}="), true) {
                        ok = false;
                        self.problem(
                            line,
                            format!(
                                "`{name}` has no key `{key}=`: `{name} --help` does not list it"
                            ),
                        );
                    }
                    if key == "cmd" {
                        engine = Some(value.strip_prefix(RELEASE).unwrap_or(value).to_string());
                        if let Some(other) = value.strip_prefix(RELEASE)
                            && tool_exe(other).is_none()
                        {
                            ok = false;
                            self.problem(line, format!("`cmd=` runs `{value}`: no such tool"));
                        }
                    }
                }
            }
            if let Some(path) = self.repo_path(word)
                && !self.root.join(path).exists()
            {
                ok = false;
                self.problem(
                    line,
                    format!("names {path}, which is not in the repository"),
                );
            }
        }

        let mut done = format!(
            "README.md:{}: `{name}`: its --help lists the {flags} flags and keys",
            line.number
        );
        let placeholder = line.text.contains('…')
            || line.text.contains("...")
            || rest.iter().any(|w| w.contains('<'));
        let cheap = if ok && !placeholder {
            cheap_form(tool, sub, rest, &self.scratch)
        } else {
            None
        };
        if let Some(cheap) = cheap {
            let cheap: Vec<String> = cheap
                .into_iter()
                .map(|w| match self.repo_path(&w) {
                    Some(path) => w.replacen(path, &self.root.join(path).to_string_lossy(), 1),
                    None => w,
                })
                .collect();
            let start = Instant::now();
            self.report.ran += 1;
            match run(Path::new(exe), &cheap, &self.scratch, env, "") {
                Err(e) => self.problem(line, format!("`{tool} {}`: {e}", cheap.join(" "))),
                Ok(out) if !out.success => self.problem(
                    line,
                    format!(
                        "`{tool} {}` (its cheap form) failed: {}",
                        cheap.join(" "),
                        out.describe()
                    ),
                ),
                Ok(out) => {
                    if sub == Some("bench") && !ends_like_bench(&out.stdout) {
                        self.problem(
                            line,
                            format!(
                                "`{tool} {}` does not end with `<nodes> nodes <nps> nps`: {}",
                                cheap.join(" "),
                                out.describe()
                            ),
                        );
                    }
                    done += &format!(
                        "; ran `{tool} {}` ({:.2} s)",
                        cheap.join(" "),
                        start.elapsed().as_secs_f64()
                    );
                }
            }
        }
        self.report.log.push(done);
    }

    /// `borrow "genfens N seed S book None" quit`: each argument a UCI
    /// command line, as OpenBench runs the engine. Run with N at most 3; it
    /// must succeed and print one `info string genfens FEN` per opening
    /// asked for, each a FEN of six fields.
    fn uci_arguments(&mut self, line: &Line, exe: &str, args: &[String]) {
        let mut asked = None;
        let cheap: Vec<String> = args
            .iter()
            .map(|a| {
                let mut words: Vec<String> = a.split_whitespace().map(String::from).collect();
                if words.first().map(String::as_str) == Some("genfens")
                    && let Some(n) = words.get_mut(1)
                {
                    *n = at_most(Some(n), 3.0);
                    asked = n.parse::<usize>().ok();
                }
                words.join(" ")
            })
            .collect();
        // As sh would read it back: a command line in quotes.
        let shown = cheap
            .iter()
            .map(|a| {
                if a.contains(' ') {
                    format!("\"{a}\"")
                } else {
                    a.clone()
                }
            })
            .collect::<Vec<_>>()
            .join(" ");
        let start = Instant::now();
        self.report.ran += 1;
        let out = match run(Path::new(exe), &cheap, &self.scratch, &[], "") {
            Ok(out) if out.success => out,
            Ok(out) => {
                return self.problem(
                    line,
                    format!("`borrow {}` failed: {}", shown, out.describe()),
                );
            }
            Err(e) => return self.problem(line, format!("`borrow {}`: {e}", shown)),
        };
        let fens: Vec<&str> = out
            .stdout
            .lines()
            .filter_map(|l| l.strip_prefix("info string genfens "))
            .collect();
        if let Some(n) = asked
            && (fens.len() != n || fens.iter().any(|f| f.split(' ').count() != 6))
        {
            return self.problem(
                line,
                format!(
                    "`borrow {}` printed {} genfens FENs, not {n} of six fields each: {}",
                    shown,
                    fens.len(),
                    out.describe()
                ),
            );
        }
        self.report.log.push(format!(
            "README.md:{}: ran `borrow {}` ({:.2} s)",
            line.number,
            shown,
            start.elapsed().as_secs_f64()
        ));
    }

    /// A script of the repository: its `--help` lists the line's flags.
    fn script(&mut self, line: &Line, script: &str, args: &[String]) {
        if !cfg!(unix) {
            self.report.skipped += 1;
            return;
        }
        self.report.checked += 1;
        let out = match run(
            &self.root.join(script),
            &["--help".into()],
            &self.root,
            &[],
            "",
        ) {
            Ok(out) if out.success => out,
            Ok(out) => {
                return self.problem(
                    line,
                    format!("`{script} --help` failed: {}", out.describe()),
                );
            }
            Err(e) => return self.problem(line, format!("`{script} --help`: {e}")),
        };
        let flags: Vec<&str> = args
            .iter()
            .filter(|w| is_flag(w))
            .map(|w| w.split('=').next().expect("split yields a first part"))
            .collect();
        for flag in &flags {
            if !mentions(&out.stdout, flag, false) {
                self.problem(
                    line,
                    format!("`{script}` has no option `{flag}`: its --help does not list it"),
                );
            }
        }
        self.report.log.push(format!(
            "README.md:{}: `{script}`: its --help lists the {} flags",
            line.number,
            flags.len()
        ));
    }

    /// The path into the repository `word` names (or its value, after an
    /// `=`): one that starts with a top-level folder of the repository.
    fn repo_path<'w>(&self, word: &'w str) -> Option<&'w str> {
        let path = word.split_once('=').map_or(word, |(_, value)| value);
        let (first, _) = path.split_once('/')?;
        self.repo_dirs.contains(first).then_some(path)
    }
}

/// The command line that runs `tool sub args` cheaply, or None where the
/// command is checked by its flags only.
fn cheap_form(
    tool: &str,
    sub: Option<&str>,
    args: &[String],
    scratch: &Path,
) -> Option<Vec<String>> {
    let mut args = args.to_vec();
    match (tool, sub) {
        ("borrow", Some("bench")) => {
            // A net of the reader's own: only one an earlier line made.
            if let Some(i) = args.iter().position(|a| a == "--net")
                && !args
                    .get(i + 1)
                    .is_some_and(|net| scratch.join(net).is_file())
            {
                return None;
            }
            // The depth, as `--depth D` or OpenBench's bare `D`: 1.
            set(&mut args, "--depth", |_| "1".into());
            let mut kept = Vec::new();
            for (i, a) in args.iter().enumerate() {
                let after_flag = i > 0 && is_flag(&args[i - 1]);
                if after_flag || !a.chars().all(|c| c.is_ascii_digit()) {
                    kept.push(a.clone());
                }
            }
            args = kept;
        }
        ("perft", None) => {
            set(&mut args, "--depth", |d| at_most(d, 3.0));
            if args.iter().any(|a| a.starts_with("--max-nodes")) {
                set(&mut args, "--max-nodes", |n| at_most(n, 1e5));
            }
        }
        ("borrow-datagen", None) => {
            set(&mut args, "--games", |_| "2".into());
            set(&mut args, "--nodes", |n| at_most(n, 1000.0));
        }
        ("borrow-train", None) => {
            set(&mut args, "--epochs", |n| at_most(n, 2.0));
            // A few hundred positions: less than one batch of the default.
            set(&mut args, "--batch-size", |_| "64".into());
        }
        ("borrow-tune", None) => {
            // A fit of a few thousand positions (at least 1,793 for its
            // validation set) for two epochs.
            set(&mut args, "--epochs", |n| at_most(n, 2.0));
            set(&mut args, "--max-positions", |n| at_most(n, 20000.0));
        }
        ("borrow-datagen", Some("convert")) | ("book", Some("make" | "probe")) => {}
        _ => return None,
    }
    Some(sub.map(String::from).into_iter().chain(args).collect())
}

/// Sets `flag`'s value in `args` to `value(the old one)`, at the end.
fn set(args: &mut Vec<String>, flag: &str, value: impl Fn(Option<&str>) -> String) {
    let mut old = None;
    let mut kept = Vec::new();
    let mut i = 0;
    while i < args.len() {
        let a = &args[i];
        if a == flag {
            old = old.or_else(|| args.get(i + 1).cloned());
            i += 2;
            continue;
        }
        if let Some(v) = a.strip_prefix(flag).and_then(|rest| rest.strip_prefix('=')) {
            old = old.or_else(|| Some(v.to_string()));
        } else {
            kept.push(a.clone());
        }
        i += 1;
    }
    kept.push(flag.to_string());
    kept.push(value(old.as_deref()));
    *args = kept;
}

/// `value` if it is a number no larger than `max`, else `max` (a value that
/// is no number is kept: the tool is to say what it thinks of it).
fn at_most(value: Option<&str>, max: f64) -> String {
    match value.map(|v| (v, v.replace('_', "").parse::<f64>())) {
        Some((v, Ok(n))) if n <= max => v.to_string(),
        Some((v, Err(_))) => v.to_string(),
        _ => format!("{max}"),
    }
}

fn is_flag(word: &str) -> bool {
    let body = word.strip_prefix("--").or_else(|| word.strip_prefix('-'));
    body.is_some_and(|b| b.starts_with(|c: char| c.is_ascii_alphabetic()))
}

fn is_identifier(s: &str) -> bool {
    s.starts_with(|c: char| c.is_ascii_alphabetic())
        && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// Whether `help` holds `token` as a whole word (`--method`, not inside
/// `--methods` or `--no-method`); `open_end`: anything may follow it
/// (`file=` in `file=FILE`).
fn mentions(help: &str, token: &str, open_end: bool) -> bool {
    let part = |c: char| c.is_ascii_alphanumeric() || c == '-' || c == '_';
    help.match_indices(token).any(|(i, _)| {
        let before = help[..i].chars().next_back();
        let after = help[i + token.len()..].chars().next();
        !before.is_some_and(|c| part(c) || c == '.') && (open_end || !after.is_some_and(part))
    })
}

/// The subcommands a clap `--help` lists under `Commands:`.
fn subcommands(help: &str) -> Vec<String> {
    let mut lines = help
        .lines()
        .skip_while(|l| l.trim_end() != "Commands:")
        .skip(1);
    let mut commands = Vec::new();
    for l in lines.by_ref() {
        if l.trim().is_empty() {
            break;
        }
        if let Some(rest) = l.strip_prefix("  ")
            && !rest.starts_with(' ')
        {
            commands.extend(rest.split_whitespace().next().map(String::from));
        }
    }
    commands
}

/// Whether `borrow bench`'s output ends as OpenBench reads it.
fn ends_like_bench(stdout: &str) -> bool {
    let last: Vec<&str> = stdout
        .lines()
        .last()
        .unwrap_or("")
        .split_whitespace()
        .collect();
    matches!(last.as_slice(), [n, "nodes", s, "nps"]
        if n.parse::<u64>().is_ok() && s.parse::<u64>().is_ok())
}

/// What a process did.
struct Ran {
    success: bool,
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

impl Ran {
    fn describe(&self) -> String {
        let tail = |s: &str| {
            let lines: Vec<&str> = s.lines().collect();
            lines[lines.len().saturating_sub(8)..].join("\n    ")
        };
        format!(
            "exit status {:?}\n  stdout:\n    {}\n  stderr:\n    {}",
            self.code,
            tail(&self.stdout),
            tail(&self.stderr)
        )
    }
}

/// Runs `program` with `stdin` and waits at most [`TIMEOUT`] (then kills it).
fn run(
    program: &Path,
    args: &[String],
    cwd: &Path,
    env: &[(String, String)],
    stdin: &str,
) -> Result<Ran, String> {
    let mut child = Command::new(program)
        .args(args)
        .current_dir(cwd)
        .envs(env.iter().map(|(k, v)| (k, v)))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start {}: {e}", program.display()))?;
    let mut input = child.stdin.take().expect("piped");
    let stdin = stdin.to_string();
    // Dropped at the end: the child sees the end of its input.
    std::thread::spawn(move || {
        let _ = input.write_all(stdin.as_bytes());
    });
    let read = |mut from: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            let _ = from.read_to_end(&mut bytes);
            String::from_utf8_lossy(&bytes).into_owned()
        })
    };
    let stdout = read(Box::new(child.stdout.take().expect("piped")));
    let stderr = read(Box::new(child.stderr.take().expect("piped")));
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().map_err(|e| e.to_string())? {
            break status;
        }
        if start.elapsed() > TIMEOUT {
            let _ = child.kill();
            let _ = child.wait();
            return Err(format!(
                "still running after {} s: killed",
                TIMEOUT.as_secs()
            ));
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    Ok(Ran {
        success: status.success(),
        code: status.code(),
        stdout: stdout.join().expect("reader"),
        stderr: stderr.join().expect("reader"),
    })
}
