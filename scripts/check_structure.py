#!/usr/bin/env python3
"""The repository's structure rules (issue 25; docs/design.md, "Modules"), run by `make test`
(and alone by `make check-structure`):

1. every Swift file under Sources/ and Tests/ has at most 400 lines;
2. every Swift type has at most 800 lines summed over its declaration and its extensions
   (scripts/typesize.py's measure), but for the entries of ALLOWED_TYPES below;
3. no import circle among the modules of the Python package (clients/python/intentbus);
4. no `public` (or `open`) declaration in a library module that is not part of a product:
   only the products' modules (Package.swift's library products and the modules they
   re-export with `@_exported import`) have a public API; everything else shares code
   with `package`.

Prints one line per offender, naming the file (and line, type or import chain), and exits
with 1 when there is one; `--list` also prints what was checked.
"""
from __future__ import annotations

import ast
import itertools
import os
import re
import sys
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import typesize  # scripts/typesize.py: the one measure of a type's size

ROOT = Path(__file__).resolve().parents[1]
MAXIMUM_FILE_LINES = 400
MAXIMUM_TYPE_LINES = 800

# Types allowed over MAXIMUM_TYPE_LINES, each with the most it may have until it is cut
# (it may shrink, never grow). Every entry is a debt with a name on it; remove it once the
# type is under the limit (the check says so).
ALLOWED_TYPES: dict[tuple[str, str], int] = {}


# --- 1 and 2: Swift files and types --------------------------------------------------------

def swift_files(*roots: str) -> list[Path]:
    out = []
    for root in roots:
        for directory, subdirectories, files in os.walk(ROOT / root):
            subdirectories[:] = sorted(d for d in subdirectories if d != ".build")
            out += [Path(directory) / f for f in sorted(files) if f.endswith(".swift")]
    return out


def check_file_lengths(problems: list[str], notes: list[str]) -> None:
    files = swift_files("Sources", "Tests")
    for path in files:
        count = len(path.read_text(encoding="utf-8").splitlines())
        if count > MAXIMUM_FILE_LINES:
            problems.append(f"{path.relative_to(ROOT)}: {count} lines; a Swift file has at most {MAXIMUM_FILE_LINES} "
                            "(move a concern into a file of its own)")
    notes.append(f"file lengths: {len(files)} Swift files under Sources/ and Tests/")


def check_type_sizes(problems: list[str], notes: list[str]) -> None:
    checked = 0
    seen: set[tuple[str, str]] = set()
    for root in ("Sources", "Tests"):
        for t in typesize.type_sizes(str(ROOT / root)):
            checked += 1
            key = (t.module, t.name)
            seen.add(key)
            allowed = ALLOWED_TYPES.get(key)
            if allowed is not None and t.lines <= MAXIMUM_TYPE_LINES:
                notes.append(f"note: {t.name} ({root}/{t.module}) is {t.lines} lines now: remove its ALLOWED_TYPES entry "
                             "in scripts/check_structure.py")
            limit = max(allowed or 0, MAXIMUM_TYPE_LINES)
            if t.lines > limit:
                where = ", ".join(f"{root}/{f}" for f in sorted(t.files)[:4]) + (", …" if len(t.files) > 4 else "")
                rule = (f"its allowed {allowed} (ALLOWED_TYPES) may shrink, never grow" if allowed
                        else f"a type has at most {MAXIMUM_TYPE_LINES}, summed over its extensions")
                problems.append(f"{root}/{t.module}: type {t.name} is {t.lines} lines over {len(t.files)} files ({where}); "
                                f"{rule} (move a concern into a type of its own)")
    for key in ALLOWED_TYPES.keys() - seen:
        notes.append(f"note: ALLOWED_TYPES names {key[1]} in {key[0]}, which no longer exists: remove the entry")
    notes.append(f"type sizes: {checked} types (scripts/typesize.py)")


# --- 3: the Python package's imports -------------------------------------------------------

def python_imports(package_root: Path) -> tuple[dict[str, tuple[Path, bool]], list[tuple[str, str, int]]]:
    """The package's modules (name → (path, is a package)) and every import of one of them
    by another: (importing module, imported module, line).

    Module-level imports and imports inside functions both count: a function's import runs
    whenever the function does, so it is as real a dependency as one at the top (and moving
    an import into a function is how a circle is hidden rather than removed). Imports under
    `if TYPE_CHECKING:` are left out: they never run, and annotations may name each other
    (`perform.py` and `intent.py` of `plugin/appintents` do)."""
    modules: dict[str, tuple[Path, bool]] = {}
    for path in sorted(package_root.rglob("*.py")):
        parts = list(path.relative_to(package_root.parent).with_suffix("").parts)
        is_package = parts[-1] == "__init__"
        if is_package:
            parts = parts[:-1]
        modules[".".join(parts)] = (path, is_package)

    def resolve(name: str, level: int, current: str, is_package: bool) -> str:
        if level == 0:
            return name
        base = current.split(".")
        base = base if is_package else base[:-1]
        base = base[: len(base) - (level - 1)]
        return ".".join(base + ([name] if name else []))

    top = package_root.name
    edges: list[tuple[str, str, int]] = []
    for module, (path, is_package) in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        skipped: set[int] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
                skipped.update(id(n) for n in ast.walk(node))
        for node in ast.walk(tree):
            if id(node) in skipped:
                continue
            if isinstance(node, ast.ImportFrom):
                target = resolve(node.module or "", node.level, module, is_package)
                if target != top and not target.startswith(top + "."):
                    continue
                for alias in node.names:  # `from . import x` names a submodule
                    sub = f"{target}.{alias.name}"
                    edges.append((module, sub if sub in modules else target, node.lineno))
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name == top or alias.name.startswith(top + "."):
                        edges.append((module, alias.name, node.lineno))
    return modules, edges


def import_cycles(package_root: Path) -> list[list[str]]:
    """Every import circle found by a depth-first search, as the chain of modules with the
    line of each import (`a (line 3) -> b (line 9) -> a`)."""
    modules, edges = python_imports(package_root)
    graph: dict[str, dict[str, int]] = {m: {} for m in modules}
    for source, target, line in edges:
        if target in graph and target != source:
            graph[source].setdefault(target, line)
    state: dict[str, str] = {}
    stack: list[str] = []
    cycles: list[list[str]] = []

    def visit(m: str) -> None:
        state[m] = "open"
        stack.append(m)
        for n in sorted(graph[m]):
            if state.get(n) == "open":
                chain = stack[stack.index(n):] + [n]
                cycles.append([f"{a} (line {graph[a][b]})" for a, b in itertools.pairwise(chain)] + [n])
            elif n not in state:
                visit(n)
        stack.pop()
        state[m] = "done"

    for m in sorted(graph):
        if m not in state:
            visit(m)
    return cycles


def check_python_imports(problems: list[str], notes: list[str]) -> None:
    package = ROOT / "clients" / "python" / "intentbus"
    modules, edges = python_imports(package)
    for cycle in import_cycles(package):
        problems.append(f"clients/python: import circle: {' -> '.join(cycle)}")
    notes.append(f"python imports: {len(modules)} modules, {len(edges)} imports of the package's own modules")
    if len(modules) < 10 or len(edges) < 20:
        problems.append(f"clients/python/intentbus: only {len(modules)} modules and {len(edges)} imports found; "
                        "the check is not reading the package")


# --- 4: `public` only in the products' modules ---------------------------------------------

def swift_code(text: str, strings: bool = False) -> str:
    """The text with comments and (unless `strings`) string literals blanked, newlines
    kept so that line numbers hold: a `public` in a doc comment or in generated code held
    in a string is not a declaration."""
    out: list[str] = []
    i, n = 0, len(text)
    depth = 0  # nested block comments
    while i < n:
        c = text[i]
        if depth:
            if text.startswith("*/", i):
                depth -= 1
                i += 2
            elif text.startswith("/*", i):
                depth += 1
                i += 2
            else:
                out.append("\n" if c == "\n" else " ")
                i += 1
            continue
        if text.startswith("//", i):
            end = text.find("\n", i)
            i = n if end < 0 else end
            continue
        if text.startswith("/*", i):
            depth = 1
            i += 2
            continue
        m = re.match(r'(#*)("""|")', text[i:])
        if m and (c == '"' or c == "#"):
            hashes, quote = m.group(1), m.group(2)
            close = quote + hashes
            j = i + len(m.group(0))
            while j < n and not text.startswith(close, j):
                j += 2 if text[j] == "\\" and not hashes else 1
            body = text[i:j + len(close)]
            out.append(body if strings else '""' + "\n" * body.count("\n"))
            i = j + len(close)
            continue
        out.append(c)
        i += 1
    return "".join(out)


PUBLIC = re.compile(r'^[ \t]*(?:@[\w.]+(?:\([^)]*\))?\s+)*(public|open)\b(?:\([^)]*\))?\s+'
                    r'(?:[\w()]+\s+)*?(?:func|var|let|class|struct|enum|protocol|actor|init|subscript|typealias|'
                    r'extension|associatedtype|case|macro|operator|precedencegroup)\b', re.MULTILINE)


def call_text(source: str, start: int) -> str:
    """The text of the call whose `(` is at or after `start`, up to its matching `)`."""
    i = source.index("(", start)
    depth = 0
    for j in range(i, len(source)):
        if source[j] == "(":
            depth += 1
        elif source[j] == ")":
            depth -= 1
            if depth == 0:
                return source[i:j + 1]
    return source[i:]


def package_modules() -> tuple[dict[str, Path], set[str], dict[str, str]]:
    """From Package.swift: the library targets (`.target`) by name with their directories,
    the product modules (the library products' targets and what they re-export), and why
    each product module is one."""
    manifest = swift_code((ROOT / "Package.swift").read_text(encoding="utf-8"), strings=True)
    libraries: dict[str, Path] = {}
    for m in re.finditer(r'\.target\(\s*name:\s*"([^"]+)"', manifest):
        given = re.search(r'\bpath:\s*"([^"]+)"', call_text(manifest, m.start()))
        libraries[m.group(1)] = ROOT / (given.group(1) if given else f"Sources/{m.group(1)}")
    why: dict[str, str] = {}
    for m in re.finditer(r'\.library\(\s*name:\s*"([^"]+)"\s*,\s*targets:\s*\[([^\]]*)\]', manifest):
        for target in re.findall(r'"([^"]+)"', m.group(2)):
            why.setdefault(target, f"library product {m.group(1)}")
    products = set(why)
    pending = list(products)
    while pending:
        module = pending.pop()
        directory = libraries.get(module)
        if directory is None:
            continue
        for path in sorted(directory.rglob("*.swift")):
            for exported in re.findall(r'^\s*@_exported\s+import\s+(\w+)', swift_code(path.read_text(encoding="utf-8")), re.MULTILINE):
                if exported in libraries and exported not in products:
                    products.add(exported)
                    why[exported] = f"re-exported by {module} ({path.relative_to(ROOT)})"
                    pending.append(exported)
    return libraries, products, why


def check_public(problems: list[str], notes: list[str]) -> None:
    libraries, products, why = package_modules()
    if len(libraries) < 10 or not {"IntentBus", "PluginHost"} <= libraries.keys() or "IntentBus" not in products:
        problems.append(f"Package.swift: read {len(libraries)} library targets and products {sorted(products)}; "
                        "the check is not reading the manifest")
        return
    checked = 0
    for module in sorted(libraries.keys() - products):
        for path in sorted(libraries[module].rglob("*.swift")):
            checked += 1
            code = swift_code(path.read_text(encoding="utf-8"))
            for m in PUBLIC.finditer(code):
                line = code.count("\n", 0, m.start(1)) + 1
                problems.append(f"{path.relative_to(ROOT)}:{line}: `{m.group(1)}` in {module}, which is no product's "
                                "module: use `package`")
    if any("which is no product's module" in p for p in problems):
        problems.append("only the modules of Package.swift's library products and those they re-export "
                        f"(`@_exported import`) have a public API: {', '.join(sorted(products))}")
    notes.append(f"public: {checked} files of {len(libraries) - len(products)} non-product library modules "
                 f"({', '.join(sorted(libraries.keys() - products))}); product modules: "
                 + "; ".join(f"{m} ({why[m]})" for m in sorted(products)))


def main(argv: list[str]) -> int:
    problems: list[str] = []
    notes: list[str] = []
    for check in (check_file_lengths, check_type_sizes, check_python_imports, check_public):
        check(problems, notes)
    for note in notes:
        if "--list" in argv or note.startswith("note:"):
            print(note)
    for problem in problems:
        print(f"structure: {problem}", file=sys.stderr)
    if problems:
        print(f"structure: {len(problems)} problem(s) (scripts/check_structure.py; docs/design.md, \"Modules\")", file=sys.stderr)
        return 1
    print("structure: files ≤ 400 lines, types ≤ 800, no Python import circle, public only in product modules")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
