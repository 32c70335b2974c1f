//! No circle inside a crate: the modules of each of the workspace's crates
//! depend on one another one way only. A module depends on another module
//! of its crate when its code (comments and its test module aside) names a
//! path through it, `crate::a::b` or `super::a`; the test finds every cycle
//! of that graph and fails naming the modules of each.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

type Module = Vec<String>;

/// The workspace's crates with a `src/`: their folders.
fn crates(root: &Path) -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = std::fs::read_dir(root)
        .expect("the workspace")
        .map(|e| e.unwrap().path())
        .filter(|d| d.join("Cargo.toml").is_file() && d.join("src").is_dir())
        .collect();
    found.sort();
    found
}

/// Every `.rs` file under `dir` but `src/bin`, with its module path.
fn modules(src: &Path, dir: &Path, out: &mut BTreeMap<Module, PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            if path != src.join("bin") {
                modules(src, &path, out);
            }
            continue;
        }
        if path.extension().is_none_or(|e| e != "rs") {
            continue;
        }
        let rel = path.strip_prefix(src).unwrap().with_extension("");
        let mut module: Module = rel
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect();
        if matches!(
            module.last().map(String::as_str),
            Some("mod" | "lib" | "main")
        ) {
            module.pop();
        }
        out.insert(module, path);
    }
}

/// The code of a file without its comments and its test module.
fn code(text: &str) -> String {
    let text = text.split("#[cfg(test)]").next().unwrap_or("");
    text.lines()
        .map(|l| l.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The paths `crate::…` and `super::…` of `code`, as module paths from the
/// crate's root, `module` being the file's own (a `use` group,
/// `crate::{a::X, b}`, gives one path an entry).
fn named_paths(code: &str, module: &Module) -> Vec<Module> {
    let mut paths = Vec::new();
    let bytes = code.as_bytes();
    for start in ["crate::", "super::"] {
        let mut from = 0;
        while let Some(at) = code[from..].find(start) {
            let begin = from + at;
            from = begin + start.len();
            if begin > 0 && (bytes[begin - 1].is_ascii_alphanumeric() || bytes[begin - 1] == b'_') {
                continue;
            }
            let base = if start == "crate::" {
                Vec::new()
            } else {
                module[..module.len().saturating_sub(1)].to_vec()
            };
            path_at(&code[from..], base, &mut paths);
        }
    }
    paths
}

/// Reads the path that begins `rest` onto `base` (modules are lower-case
/// words joined by `::`; a `{…}` group is read entry by entry).
fn path_at(rest: &str, mut base: Module, out: &mut Vec<Module>) {
    let mut rest = rest;
    loop {
        if let Some(group) = rest.strip_prefix('{') {
            let mut depth = 0;
            let mut entry_start = 0;
            for (i, c) in group.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => {
                        path_at(group[entry_start..i].trim_start(), base.clone(), out);
                        return;
                    }
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        path_at(group[entry_start..i].trim_start(), base.clone(), out);
                        entry_start = i + 1;
                    }
                    _ => {}
                }
            }
            return;
        }
        let len = rest
            .find(|c: char| !(c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_'))
            .unwrap_or(rest.len());
        if len == 0 {
            break;
        }
        base.push(rest[..len].to_owned());
        match rest[len..].strip_prefix("::") {
            Some(more) => rest = more,
            None => break,
        }
    }
    out.push(base);
}

/// The module graph of one crate: each module and those it depends on.
fn graph(src: &Path) -> BTreeMap<Module, BTreeSet<Module>> {
    let mut files = BTreeMap::new();
    modules(src, src, &mut files);
    let mut graph = BTreeMap::new();
    for (module, path) in &files {
        let text = std::fs::read_to_string(path).unwrap();
        let mut deps = BTreeSet::new();
        for named in named_paths(&code(&text), module) {
            // The longest prefix that is a module of the crate.
            let target = (1..=named.len())
                .rev()
                .map(|k| named[..k].to_vec())
                .find(|p| files.contains_key(p));
            if let Some(t) = target {
                // A module's own ancestors are where it lives, not a dependency.
                if t != *module && !module.starts_with(&t) {
                    deps.insert(t);
                }
            }
        }
        graph.insert(module.clone(), deps);
    }
    graph
}

/// The strongly connected components of more than one module (Tarjan).
fn cycles(graph: &BTreeMap<Module, BTreeSet<Module>>) -> Vec<Vec<Module>> {
    struct State<'a> {
        graph: &'a BTreeMap<Module, BTreeSet<Module>>,
        index: BTreeMap<&'a Module, (usize, usize)>,
        stack: Vec<&'a Module>,
        next: usize,
        found: Vec<Vec<Module>>,
    }
    fn visit<'a>(s: &mut State<'a>, v: &'a Module) {
        s.index.insert(v, (s.next, s.next));
        s.next += 1;
        s.stack.push(v);
        for w in &s.graph[v] {
            if !s.index.contains_key(w) {
                visit(s, w);
                let low = s.index[w].1.min(s.index[v].1);
                s.index.get_mut(v).unwrap().1 = low;
            } else if s.stack.contains(&w) {
                let low = s.index[w].0.min(s.index[v].1);
                s.index.get_mut(v).unwrap().1 = low;
            }
        }
        if s.index[v].0 == s.index[v].1 {
            let mut component = Vec::new();
            while let Some(w) = s.stack.pop() {
                component.push(w.clone());
                if w == v {
                    break;
                }
            }
            if component.len() > 1 {
                component.sort();
                s.found.push(component);
            }
        }
    }
    let mut s = State {
        graph,
        index: BTreeMap::new(),
        stack: Vec::new(),
        next: 0,
        found: Vec::new(),
    };
    for v in graph.keys() {
        if !s.index.contains_key(v) {
            visit(&mut s, v);
        }
    }
    s.found
}

#[test]
fn no_crate_has_a_circle_between_its_modules() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut circles = Vec::new();
    let all = crates(&root);
    assert!(all.len() >= 10, "only {} crates found", all.len());
    for krate in &all {
        for cycle in cycles(&graph(&krate.join("src"))) {
            let names: Vec<String> = cycle.iter().map(|m| m.join("::")).collect();
            circles.push(format!(
                "{}: {}",
                krate.file_name().unwrap().to_string_lossy(),
                names.join(" <-> ")
            ));
        }
    }
    assert!(
        circles.is_empty(),
        "circles between modules:\n{}",
        circles.join("\n")
    );
}

#[test]
fn a_circle_is_found() {
    let m = |s: &str| -> Module { s.split("::").map(str::to_owned).collect() };
    let mut g = BTreeMap::new();
    g.insert(m("a"), BTreeSet::from([m("b")]));
    g.insert(m("b"), BTreeSet::from([m("c")]));
    g.insert(m("c"), BTreeSet::from([m("a")]));
    g.insert(m("d"), BTreeSet::from([m("a")]));
    assert_eq!(cycles(&g), vec![vec![m("a"), m("b"), m("c")]]);
    // Paths as a file names them.
    let code = code(
        "use super::history::NO_CONT; // crate::x\nlet a = crate::tt::Table::new();\n\
         use crate::{eval::{pawns, S}, Report};",
    );
    assert_eq!(
        named_paths(&code, &m("search::stack")),
        [
            m("tt"),
            m("eval::pawns"),
            m("eval"),
            vec![],
            m("search::history")
        ]
    );
}
