#!/usr/bin/env python3
"""Finds import cycles between the files of every crate of the workspace.

For each crate (the workspace's members and fuzz/: every `[lib]` and `[[bin]]` root, and
`src/lib.rs`, `src/main.rs` when present), the script follows the `mod NAME;`
declarations (with their `#[path = "…"]` attributes) from the crate's root to build its
module tree, one file per module (an inline `mod NAME { … }` belongs to its file). It
then reads every path that names the crate's own items: `use crate::…`, `use super::…`,
`use self::…` (grouped uses too), a relative `use` of a child module, and `crate::…`,
`super::…`, `$crate::…` written in code. A path is resolved to the file that defines its
item, through the `use` re-exports of the modules it passes (`pub use column::UrlColumn`
in `batch/mod.rs` leads on to `batch/column.rs`). Each file that names an item of another
file is an edge from the first to the second; a `mod` declaration alone is not an edge.
Comments, string literals and character literals are not read.

A cycle is a strongly connected component of more than one file. The script prints each
with the edges that close it (`a.rs -> b.rs: crate::b::Thing`) and exits with status 1
when there is one, 0 when there is none.

    python3 scripts/cycles.py            # the whole workspace
    python3 scripts/cycles.py cli        # one crate folder (., cli, duckdb, python, testkit, fuzz)
"""
import os
import re
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

ITEM = re.compile(
    r"\b(?:fn|struct|enum|trait|const|static|type|union|mod|macro_rules!)\s+(r#)?([A-Za-z_]\w*)"
)
CODE_PATH = re.compile(r"(?<![\w:])(\$crate|crate|super|self)((?:::(?:[A-Za-z_]\w*))+)")


def strip(text):
    """`text` with its comments, string literals and char literals blanked: each of their
    characters becomes a space (newlines stay), so that offsets into the result are
    offsets into `text`."""
    out = list(text)

    def blank(a, b, keep_quotes=False):
        for k in range(a + keep_quotes, b - keep_quotes):
            if out[k] != "\n":
                out[k] = " "

    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            blank(i, j)
            i = j
        elif text.startswith("/*", i):
            depth, j = 0, i
            while j < n:
                if text.startswith("/*", j):
                    depth += 1
                    j += 2
                elif text.startswith("*/", j):
                    depth -= 1
                    j += 2
                    if depth == 0:
                        break
                else:
                    j += 1
            blank(i, j)
            i = j
        elif (
            c in "rb"
            and re.match(r'(br|r)#*"', text[i:i + 8])
            and not (i and (text[i - 1].isalnum() or text[i - 1] == "_"))
        ):
            m = re.match(r'(br|r)(#*)"', text[i:])
            hashes = m.group(2)
            start = i + m.end()
            end = text.find('"' + hashes, start)
            end = n if end < 0 else end + 1 + len(hashes)
            blank(start, end - 1 - len(hashes))
            i = end
        elif c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            blank(i + 1, j)
            i = j + 1
        elif c == "'":
            m = re.match(r"'(\\.[^']*|[^\\'])'", text[i:i + 12])
            if m:
                blank(i + 1, i + m.end() - 1)
                i += m.end()
            else:
                i += 1
        else:
            i += 1
    return "".join(out)


def split_top(s):
    """Splits `s` at the commas outside braces."""
    parts, depth, cur = [], 0, []
    for ch in s:
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
    parts.append("".join(cur))
    return [p.strip() for p in parts if p.strip()]


def parse_use_tree(text):
    """`a::{b, c::{d as e}, self}` -> [([a, b], None), ([a, c, d], "e"), ([a], "a")]."""
    text = text.strip()
    if text.startswith("::"):
        text = text[2:]
    brace = text.find("{")
    if brace >= 0:
        prefix = text[:brace].strip()
        prefix = prefix[:-2] if prefix.endswith("::") else prefix
        segs = [s.strip() for s in prefix.split("::") if s.strip()]
        out = []
        for part in split_top(text[brace + 1:text.rindex("}")]):
            for sub, alias in parse_use_tree(part):
                if sub == ["self"]:
                    out.append((segs, alias or (segs[-1] if segs else None)))
                else:
                    out.append((segs + sub, alias))
        return out
    m = re.match(r"^(.*?)\s+as\s+([A-Za-z_]\w*)$", text, re.S)
    if m:
        return [([s.strip() for s in m.group(1).split("::")], m.group(2))]
    return [([s.strip() for s in text.split("::")], None)]


class Module:
    """A module of a crate: its file, its children, its items and its `use` names."""

    def __init__(self, path, file, parent):
        self.path = path  # names from the crate root
        self.file = file
        self.parent = parent
        self.children = {}  # name -> Module
        self.items = set()
        self.uses = {}  # name -> segments, as written in this module
        self.globs = []  # segments of `use …::*`


def word_start(code, i):
    return i == 0 or not (code[i - 1].isalnum() or code[i - 1] in "_$:")


class Crate:
    """One crate: its module tree from a root file, and the own-crate paths of its code."""

    def __init__(self, root):
        self.modules = {}  # path tuple -> Module
        self.files = []
        self.refs = []  # (file, Module, segments, text)
        self.load(root, (), None)

    def load(self, file, path, parent):
        if path in self.modules or not os.path.isfile(file):
            return None
        text = open(file, encoding="utf-8").read()
        module = Module(path, file, parent)
        self.modules[path] = module
        self.files.append(file)
        if parent is None or os.path.basename(file) == "mod.rs":
            folder = os.path.dirname(file)
        else:
            folder = file[:-3]
        self.scan(module, strip(text), text, file, folder)
        return module

    def scan(self, module, code, text, file, folder):
        """Walks `code` once, tracking inline modules by their braces."""
        stack = [(module, 0, folder)]  # (module, brace depth of its body, folder of its `mod x;`)
        depth = 0
        i, n = 0, len(code)
        path_attr = None
        while i < n:
            ch = code[i]
            if ch == "{":
                depth += 1
                i += 1
                continue
            if ch == "}":
                depth -= 1
                while len(stack) > 1 and depth < stack[-1][1]:
                    stack.pop()
                i += 1
                continue
            cur, body, here = stack[-1]
            at_top = depth == body
            if ch == "#" and code.startswith("#[path", i):
                m = re.match(r'#\[path\s*=\s*"([^"]*)"\]', text[i:])
                path_attr = m.group(1) if m else None
                i = code.index("]", i) + 1
                continue
            if not word_start(code, i):
                i += 1
                continue
            m = re.match(r"mod\s+([A-Za-z_]\w*)\s*([;{])", code[i:])
            if m and at_top:
                name = m.group(1)
                cur.items.add(name)
                child_path = cur.path + (name,)
                if m.group(2) == "{":
                    child = Module(child_path, file, cur)
                    cur.children[name] = child
                    self.modules[child_path] = child
                    depth += 1
                    stack.append((child, depth, os.path.join(here, name)))
                else:
                    if path_attr:
                        base = folder if cur is module else here
                        target = os.path.normpath(os.path.join(os.path.dirname(file) if cur is module else base, path_attr))
                    else:
                        target = os.path.join(here, name + ".rs")
                        if not os.path.isfile(target):
                            target = os.path.join(here, name, "mod.rs")
                    child = self.load(target, child_path, cur)
                    if child is not None:
                        cur.children[name] = child
                path_attr = None
                i += m.end()
                continue
            if code.startswith("use", i) and re.match(r"use\b", code[i:]):
                end = code.index(";", i)
                # `pub use` is a module's face: a path through it is resolved on to the
                # file that defines the item, so the re-export itself is no edge.
                export = re.search(r"\bpub\s*(\([^)]*\))?\s*$", code[max(0, i - 40):i]) is not None
                for segs, alias in parse_use_tree(code[i + 3:end]):
                    segs = [s for s in segs if s]
                    if not segs:
                        continue
                    if segs[-1] == "*":
                        cur.globs.append(segs[:-1])
                        if not export:
                            self.refs.append((file, cur, segs[:-1], "use " + "::".join(segs)))
                    else:
                        name = alias or segs[-1]
                        if name != "_":
                            cur.uses[name] = segs
                        if not export:
                            self.refs.append((file, cur, segs, "use " + "::".join(segs)))
                i = end + 1
                continue
            m = CODE_PATH.match(code, i)
            if m:
                segs = [m.group(1)] + [s for s in m.group(2).split("::") if s]
                self.refs.append((file, cur, segs, "::".join(segs)))
                i = m.end()
                continue
            if at_top:
                m = ITEM.match(code, i)
                if m:
                    cur.items.add(m.group(2))
                    i = m.end()
                    continue
            i += 1

    def resolve(self, module, segs, seen):
        """The file that defines what `segs` names from `module`; None for another crate's."""
        first = segs[0]
        if first in ("crate", "$crate"):
            return self.walk(self.modules[()], segs[1:], seen)
        if first == "super":
            cur, rest = module, segs
            while rest and rest[0] == "super":
                cur = cur.parent if cur.parent is not None else cur
                rest = rest[1:]
            return self.walk(cur, rest, seen)
        if first == "self":
            return self.walk(module, segs[1:], seen)
        if first in module.children:
            return self.walk(module, segs, seen)
        if first in module.uses and (module.path, first) not in seen:
            return self.resolve(module, module.uses[first] + segs[1:], seen | {(module.path, first)})
        return None

    def walk(self, cur, rest, seen):
        while rest:
            name = rest[0]
            if name in cur.children:
                cur, rest = cur.children[name], rest[1:]
                continue
            if name in cur.items:
                return cur.file
            if name in cur.uses and (cur.path, name) not in seen:
                target = self.resolve(cur, cur.uses[name] + rest[1:], seen | {(cur.path, name)})
                return target if target is not None else cur.file
            for glob in cur.globs:
                key = (cur.path, "*") + tuple(glob)
                if key not in seen:
                    target = self.resolve(cur, glob + rest, seen | {key})
                    if target is not None and target != cur.file:
                        return target
            return cur.file
        return cur.file

    def edges(self):
        out = {}
        for file, module, segs, text in self.refs:
            if segs[0] not in ("crate", "$crate", "super", "self") and segs[0] not in module.children:
                continue
            target = self.resolve(module, segs, frozenset())
            if target is not None and target != file:
                out.setdefault((file, target), set()).add(text)
        return out


def crates(selected):
    """(name, [root files]) of every crate folder."""
    folders = [".", "cli", "duckdb", "python", "testkit"]
    members = re.search(r"members\s*=\s*\[([^\]]*)\]", open(os.path.join(ROOT, "Cargo.toml")).read())
    if members:
        folders = re.findall(r'"([^"]+)"', members.group(1))
    if os.path.isfile(os.path.join(ROOT, "fuzz", "Cargo.toml")):
        folders.append("fuzz")
    if selected:
        folders = [f for f in folders if os.path.normpath(f) in [os.path.normpath(s) for s in selected]]
    out = []
    for folder in folders:
        manifest = open(os.path.join(ROOT, folder, "Cargo.toml"), encoding="utf-8").read()
        roots = []
        for section in re.split(r"(?m)^\[", manifest):
            header = section.split("]", 1)[0]
            if header in ("lib", "[bin"):
                p = re.search(r'(?m)^path\s*=\s*"([^"]+)"', section)
                if p:
                    roots.append(p.group(1))
        for default in ("src/lib.rs", "src/main.rs"):
            if default not in roots:
                roots.append(default)
        for root in roots:
            full = os.path.normpath(os.path.join(ROOT, folder, root))
            if os.path.isfile(full):
                out.append((folder, full))
    return out


def sccs(nodes, adj):
    """Tarjan's strongly connected components."""
    index, low, on, stack, result = {}, {}, set(), [], []
    counter = [0]
    sys.setrecursionlimit(10000)

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(adj.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            result.append(sorted(comp))

    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return result


def main(argv):
    edges = {}
    files = set()
    for _, root in crates(argv[1:]):
        crate = Crate(root)
        files.update(crate.files)
        for key, texts in crate.edges().items():
            edges.setdefault(key, set()).update(texts)
    adj = {}
    for a, b in edges:
        adj.setdefault(a, set()).add(b)
    rel = lambda p: os.path.relpath(p, ROOT)
    cycles = [c for c in sccs(files, adj) if len(c) > 1]
    for k, comp in enumerate(cycles, 1):
        print(f"cycle {k}: {' , '.join(rel(f) for f in comp)}")
        members = set(comp)
        for a in comp:
            for b in sorted(adj.get(a, ())):
                if b in members:
                    names = sorted(edges[(a, b)])
                    shown = ", ".join(names[:3]) + (f", … ({len(names)} paths)" if len(names) > 3 else "")
                    print(f"  {rel(a)} -> {rel(b)}: {shown}")
    print(f"{len(cycles)} import cycle{'s' if len(cycles) != 1 else ''} between files "
          f"({len(files)} files, {len(edges)} edges)")
    return 1 if cycles else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
