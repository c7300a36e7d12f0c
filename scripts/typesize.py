#!/usr/bin/env python3
"""Lines per Swift type, summed over its declaration and its extensions (top level only).

    scripts/typesize.py [ROOT] [N]    the N largest types under ROOT (default Sources, 15)

The measure scripts/check_structure.py holds every type to (at most 800 lines, issue 25):
a top-level `class`, `struct`, `enum`, `actor`, `protocol` or `extension` counts from its
declaration line to the line that closes its braces, comments and blank lines included, and
everything nested inside counts toward it. Extensions add to the type they extend, in the
same module: a module is a target's directory (`Sources/PluginHost`, or
`Sources/Plugins/Echo` for the plugins, each its own target), so two modules' types of one
name are two types.
"""
from __future__ import annotations

import os
import re
import sys
from dataclasses import dataclass, field

DECLARATION = re.compile(
    r'^(?:\s*(?:@\w+(?:\([^)]*\))?\s+)*)'
    r'(?:(?:public|package|internal|private|fileprivate|final|open|indirect|nonisolated)\s+)*'
    r'(class|struct|enum|actor|extension|protocol)\s+([A-Za-z_][\w.]*)')
STRING = re.compile(r'"(?:\\.|[^"\\])*"')


@dataclass
class TypeSize:
    name: str
    module: str
    lines: int = 0
    files: set[str] = field(default_factory=set)


def module_of(relative: str) -> str:
    """The target directory a file under the root belongs to: its first directory, or the
    first two under `Plugins/` (each plugin is a target of its own)."""
    parts = relative.split(os.sep)
    if len(parts) > 2 and parts[0] == "Plugins":
        return os.path.join(parts[0], parts[1])
    return parts[0] if len(parts) > 1 else "."


def measure_file(path: str) -> list[tuple[str, int]]:
    """(type, lines) for every top-level declaration or extension in one file."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    found = []
    depth, current, start = 0, None, 0
    for i, line in enumerate(lines):
        code = STRING.sub('""', line.split("//")[0])
        if depth == 0 and current is None:
            m = DECLARATION.match(line)
            if m:
                current, start = m.group(2).split(".")[0], i
        depth += code.count("{") - code.count("}")
        if current is not None and depth == 0 and "{" in "".join(lines[start:i + 1]):
            found.append((current, i - start + 1))
            current = None
    return found


def type_sizes(root: str) -> list[TypeSize]:
    """Every type under `root`, largest first."""
    sizes: dict[tuple[str, str], TypeSize] = {}
    for directory, subdirectories, files in os.walk(root):
        subdirectories[:] = sorted(d for d in subdirectories if d != ".build")
        for name in sorted(files):
            if not name.endswith(".swift"):
                continue
            path = os.path.join(directory, name)
            module = module_of(os.path.relpath(path, root))
            for type_name, count in measure_file(path):
                entry = sizes.setdefault((type_name, module), TypeSize(type_name, module))
                entry.lines += count
                entry.files.add(os.path.relpath(path, root))
    return sorted(sizes.values(), key=lambda t: (-t.lines, t.module, t.name))


def main(argv: list[str]) -> int:
    root = argv[1] if len(argv) > 1 else "Sources"
    count = int(argv[2]) if len(argv) > 2 else 15
    for t in type_sizes(root)[:count]:
        print(f"{t.lines:6d} {t.module:20s} {t.name} ({len(t.files)} files)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
