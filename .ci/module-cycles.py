#!/usr/bin/env python3
# Lists the import cycles between the modules of each crate (issue 72: "no
# circle inside a crate"); exits 1 if there is one. None since the session
# of 2026-12-01; not yet a step of .ci/run (the tests need no Python: the
# check is to become a Rust test).
#   python3 .ci/module-cycles.py [ROOT]     (ROOT: the repository, default .)
# How: module-level import cycles inside each crate: a file's module depends on
# another module of its crate when it names it (use crate::x, use super::x,
# crate::x:: or super::x:: in code, comments aside).
import os, re, sys
root = sys.argv[1] if len(sys.argv) > 1 else "."
crates = [d for d in os.listdir(root) if os.path.isfile(os.path.join(root, d, 'Cargo.toml')) and os.path.isdir(os.path.join(root, d, 'src'))]
def modpath(src, f):
    rel = os.path.relpath(f, src)[:-3].split(os.sep)
    if rel[-1] in ('mod', 'lib', 'main'): rel = rel[:-1]
    return rel
total = 0
for c in sorted(crates):
    src = os.path.join(root, c, 'src')
    files = {}
    for d, _, fs in os.walk(src):
        if os.sep + 'bin' in d[len(src):]: continue
        for f in fs:
            if f.endswith('.rs'): files[tuple(modpath(src, os.path.join(d, f)))] = os.path.join(d, f)
    mods = set(files)
    graph = {m: set() for m in mods}
    for m, f in files.items():
        text = open(f).read()
        text = text.split('#[cfg(test)]')[0]
        text = re.sub(r'//[^\n]*', '', text)
        for mm in re.finditer(r'\b(crate|super)((?:::[a-z_][a-z0-9_]*)+)', text):
            # `super` of module a::b (a/b.rs or a/b/mod.rs) is a.
            base = [] if mm.group(1) == 'crate' else list(m[:-1])
            parts = base + mm.group(2).strip(':').split('::')
            # longest prefix that is a module
            for k in range(len(parts), 0, -1):
                t = tuple(parts[:k])
                if t in mods:
                    if t != m and not (len(t) < len(m) and m[:len(t)] == t): graph[m].add(t)
                    break
    # Tarjan SCC
    index = {}; low = {}; stack = []; on = set(); sccs = []; n = [0]
    def strong(v):
        index[v] = low[v] = n[0]; n[0] += 1; stack.append(v); on.add(v)
        for w in graph[v]:
            if w not in index: strong(w); low[v] = min(low[v], low[w])
            elif w in on: low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop(); on.discard(w); comp.append(w)
                if w == v: break
            if len(comp) > 1: sccs.append(comp)
    sys.setrecursionlimit(10000)
    for v in graph:
        if v not in index: strong(v)
    for s in sccs:
        total += 1
        print(c + ':', ' <-> '.join('::'.join(x) or 'lib' for x in sorted(s)))
print(total, "cycles")
sys.exit(1 if total else 0)
