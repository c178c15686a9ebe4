"""Every document the code and the docs cite is in the repository (issue 33, "Docs that are
true"): a path ending in `.md` named in a .py, .html, .js or .md file resolves to a file of the
checkout, and nothing names the team's shared folder outside it (`../shared/`, `shared/rules/`),
which a copy of the repository does not have. The rules, the contracts, the design and the style
notes the code cites live in docs/ (docs/rules/README.md says where they came from)."""

import os
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCANNED = {".py", ".html", ".js", ".md"}
SKIPPED_DIRS = {".git", ".venv", ".venv-lock", "var", "__pycache__", "node_modules", ".pytest_cache",
                "test-results", ".htmx-pack"}
# A path ending in .md: letters, digits, _ - . / and <placeholders> such as rules/<game>.md.
CITATION = re.compile(r"(?<![\w./<>:-])((?:\.{1,2}/)*(?:[\w<>.-]+/)*[\w<>-][\w<>.-]*\.md)(?![\w/])")
SHARED = re.compile(r"(?<![\w-])(?:\.\./)*shared/(?:rules|contracts|seeds|hooks|DESIGN|STYLE|README)")
# The copied reference texts name files of other repositories as their sources; those are not
# Chalk's and are allowed there only (docs/rules/README.md says so).
FOREIGN = {
    "docs/style.md": {"docs/subsystems/database-concurrency.md", "docs/subsystems/events-system.md",
                      "docs/contributing/code-style.md", "docs/overview/directory-structure.md"},
    "docs/rules/baloot.md": {"etc/belot-rules.hit.bg/Rules.md", "etc/Rules.md",
                             ".agent/knowledge/baloot_rulebook.md",
                             "tazjel/baloot-ai/.agent/knowledge/baloot_rulebook.md"},
    "docs/rules/baloot_saudi.md": {"gbaloot/docs/strategy_insights_from_archives.md",
                                   "docs/official_doubling_rules.md", "docs/BALOOT_RULES.md",
                                   "RULEBOOK.md", "APP_REFERENCE.md", "../../research/baloot.md"},
}


def scanned_files():
    """The repository's own files, without descending into virtualenvs or runtime state."""
    for folder, subfolders, names in os.walk(ROOT):
        subfolders[:] = sorted(d for d in subfolders if d not in SKIPPED_DIRS)
        for name in sorted(names):
            path = Path(folder) / name
            if path.suffix in SCANNED and not name.endswith(".min.js") and path != Path(__file__).resolve():
                yield path


def citations(text: str) -> list[tuple[int, str]]:
    """(line, cited path) for every .md path a text names."""
    return [(number, match.group(1)) for number, line in enumerate(text.splitlines(), 1)
            for match in CITATION.finditer(line) if "://" not in line[:match.start(1)].rsplit(" ", 1)[-1]]


def candidates(cited: str, citing: Path) -> list[Path]:
    """Where a citation may point: beside the citing file, from the root, inside docs/; a bare
    file name also anywhere under docs/."""
    pattern = re.sub(r"<[^>]+>", "*", cited)
    places = [citing.parent, ROOT, ROOT / "docs"]
    found = [p for place in places for p in place.glob(pattern) if p.is_file()]
    if "/" not in cited:
        found += [p for p in (ROOT / "docs").rglob(pattern) if p.is_file()]
    return found


def unresolved(path: Path) -> list[str]:
    where = str(path.relative_to(ROOT))
    foreign = FOREIGN.get(where, set())
    return [f"{where}:{line} cites {cited}" for line, cited in citations(path.read_text(errors="replace"))
            if cited not in foreign and not candidates(cited, path)]


def test_every_cited_document_is_in_the_repository():
    missing = [m for path in scanned_files() for m in unresolved(path)]
    assert missing == [], "cited but not in the repository:\n" + "\n".join(missing)


def test_nothing_cites_the_shared_folder_outside_the_checkout():
    found = [f"{path.relative_to(ROOT)}:{number}: {line.strip()[:100]}" for path in scanned_files()
             for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1)
             if SHARED.search(line)]
    assert found == [], "cite the copy under docs/ instead:\n" + "\n".join(found)


def test_the_rules_contracts_design_and_style_the_code_cites_are_copied_in():
    for name in ("rules/allfours.md", "rules/baloot.md", "rules/baloot_saudi.md", "rules/cuatrola.md",
                 "contracts/engine.md", "contracts/protocol.md", "design.md", "style.md"):
        assert (ROOT / "docs" / name).is_file(), name


def test_the_check_finds_a_missing_document_and_a_shared_path():
    text = ("see docs/rules/allfours.md and rules/<game>.md, STYLE.md §5, docs/nowhere.md\n"
            "https://example.org/x/README.md is a link\n")
    cited = [c for _, c in citations(text)]
    assert cited == ["docs/rules/allfours.md", "rules/<game>.md", "STYLE.md", "docs/nowhere.md"]
    here = ROOT / "gameplay" / "x.py"
    assert [c for c in cited if not candidates(c, here)] == ["STYLE.md", "docs/nowhere.md"]
    assert SHARED.search("the rules (../shared/rules/baloot.md)") and SHARED.search("shared/DESIGN.md")
    assert not SHARED.search("a shared/common thing")
