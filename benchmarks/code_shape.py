"""The code's shape: which modules of one app import which modules of another, and how long the
functions of non-test code are (median and p90, in lines), read with `ast` (nothing is imported).

    python benchmarks/code_shape.py [--graph-only | --sizes-only]

Apps are the top-level packages `clubs`, `tournaments`, `gameplay` and `config`; an import is
counted where it is written (module level or inside a function), with `from x import y` naming
the module `x.y` when `y` is a submodule. Function sizes cover `def` and `async def` (methods and
nested functions included) outside tests/, benchmarks/ and migrations/.
"""

from __future__ import annotations

import argparse
import ast
import statistics
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
APPS = ("clubs", "tournaments", "gameplay", "config")
SKIPPED_PARTS = {"tests", "benchmarks", "migrations", ".venv", "var"}


def source_files(root: Path = ROOT):
    for path in sorted(root.rglob("*.py")):
        parts = set(path.relative_to(root).parts)
        if not parts & SKIPPED_PARTS:
            yield path


def module_name(path: Path, root: Path = ROOT) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imported_modules(tree: ast.AST, known: set[str]) -> set[str]:
    """Every module an import statement names; `from a import b` is `a.b` when that is a module."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            for alias in node.names:
                candidate = f"{node.module}.{alias.name}"
                found.add(candidate if candidate in known else node.module)
    return found


def app_of(module: str) -> str | None:
    head = module.split(".")[0]
    return head if head in APPS else None


def import_graph(root: Path = ROOT) -> dict[str, set[str]]:
    """module -> the modules of *other* apps it imports."""
    trees = {module_name(p, root): ast.parse(p.read_text(), str(p)) for p in source_files(root)}
    known = set(trees)
    graph: dict[str, set[str]] = defaultdict(set)
    for module, tree in trees.items():
        source_app = app_of(module)
        if source_app is None:
            continue
        for target in imported_modules(tree, known):
            if app_of(target) not in (None, source_app):
                graph[module].add(target)
    return graph


def function_sizes(root: Path = ROOT) -> list[int]:
    sizes = []
    for path in source_files(root):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                sizes.append(node.end_lineno - node.lineno + 1)
    return sizes


def print_graph(graph: dict[str, set[str]]) -> None:
    pairs = defaultdict(int)
    for module in sorted(graph):
        print(f"{module} -> {', '.join(sorted(graph[module]))}")
        for target in graph[module]:
            pairs[(app_of(module), app_of(target))] += 1
    print("\nimports between apps (importing module, imported module):")
    for (source, target), count in sorted(pairs.items()):
        print(f"  {source} -> {target}: {count}")


def print_sizes(sizes: list[int]) -> None:
    ordered = sorted(sizes)
    p90 = ordered[int(0.9 * (len(ordered) - 1))]
    print(f"functions: {len(ordered)}, median {statistics.median(ordered):g} lines, p90 {p90} lines, "
          f"longest {ordered[-1]} lines")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--graph-only", action="store_true")
    parser.add_argument("--sizes-only", action="store_true")
    args = parser.parse_args()
    if not args.sizes_only:
        print_graph(import_graph())
    if not args.graph_only:
        print_sizes(function_sizes())


if __name__ == "__main__":
    main()
