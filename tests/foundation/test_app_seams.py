"""The seams between the apps: `tournaments` (ratings included) and `clubs` reach gameplay only
through its public API, gameplay/api.py, never its models, services or other internals. Read
from the source with `ast`, so an import inside a function counts as much as one at the top."""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
GUARDED_APPS = ("tournaments", "clubs")
PUBLIC = "gameplay.api"


def imported_names(tree: ast.AST):
    """(line, module) for every import; `from gameplay import x` names `gameplay.x`."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            if node.module == "gameplay":
                for alias in node.names:
                    yield node.lineno, f"gameplay.{alias.name}"
            else:
                yield node.lineno, node.module


def reaches_past_the_api(module: str) -> bool:
    inside_gameplay = module == "gameplay" or module.startswith("gameplay.")
    return inside_gameplay and module != PUBLIC


def crossings(source: str, filename: str) -> list[str]:
    tree = ast.parse(source, filename)
    return [f"{filename}:{line} imports {module}" for line, module in imported_names(tree)
            if reaches_past_the_api(module)]


def guarded_files():
    for app in GUARDED_APPS:
        yield from sorted((ROOT / app).rglob("*.py"))


def test_tournaments_and_clubs_import_gameplay_only_through_its_api():
    found = [c for path in guarded_files() for c in crossings(path.read_text(), str(path.relative_to(ROOT)))]
    assert found == [], "go through gameplay/api.py:\n" + "\n".join(found)


def test_the_seam_check_catches_models_services_and_function_level_imports():
    source = ("from gameplay.models import Match\nfrom gameplay import services, api\n"
              "def later():\n    import gameplay.rules\n")
    assert [c.split(" imports ")[1] for c in crossings(source, "x.py")] == [
        "gameplay.models", "gameplay.services", "gameplay.rules"]
    assert crossings("from gameplay import api\nfrom gameplay.api import Game\n", "x.py") == []
