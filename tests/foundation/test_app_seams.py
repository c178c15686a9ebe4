"""The seams between the apps. `tournaments` (ratings included), `clubs` and `home` reach gameplay
only through its public API, gameplay/api.py, never its models, services or other internals.
No app imports back up (issue 33): `clubs` imports neither `tournaments` nor `home`; `tournaments`
learns about a match only from gameplay.api's plain values (no `match__` lookup, no `.match.`
read of a gameplay row); `home`, the signed-in player's pages, may import the other three, and
nothing but `home` itself and config's wiring (urls, routing) imports it. Read from the source
with `ast`, so an import inside a function counts as much as one at the top."""

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
GUARDED_APPS = ("tournaments", "clubs", "home")
PUBLIC = "gameplay.api"
APPS = ("clubs", "tournaments", "gameplay", "home", "config", "tuning")
# who may import whom, beyond gameplay.api (everyone) and themselves
FORBIDDEN = {"clubs": ("tournaments", "home"), "tournaments": ("home",), "gameplay": ("home",),
             "tuning": ("home",)}
HOME_WIRING = ("config/urls.py", "config/routing.py")
MATCH_READ = re.compile(r"match__|\.match\.")
# a model looked up by name is an import all the same (clubs once read competitions this way)
GET_MODEL = re.compile(r"get_model\(\s*[\"'](\w+)")


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


def app_files(app: str):
    return [path for path in sorted((ROOT / app).rglob("*.py")) if "migrations" not in path.parts]


def imports_of(source: str, filename: str, forbidden: tuple[str, ...]) -> list[str]:
    tree = ast.parse(source, filename)
    found = [f"{filename}:{line} imports {module}" for line, module in imported_names(tree)
             if module.split(".")[0] in forbidden]
    return found + [f"{filename}:{number} imports {app} (get_model)"
                    for number, line in enumerate(source.splitlines(), 1)
                    for app in GET_MODEL.findall(line) if app in forbidden]


def test_no_app_imports_back_up():
    found = []
    for app, forbidden in FORBIDDEN.items():
        for path in app_files(app):
            found += imports_of(path.read_text(), str(path.relative_to(ROOT)), forbidden)
    for path in app_files("config"):
        name = path.relative_to(ROOT).as_posix()
        if name not in HOME_WIRING:
            found += imports_of(path.read_text(), name, ("home",))
    assert found == [], "an app imports one above it:\n" + "\n".join(found)


def test_home_is_wired_by_config_and_may_import_the_other_three():
    wiring = [imports_of((ROOT / name).read_text(), name, ("home",)) for name in HOME_WIRING]
    assert all(wiring), "config/urls.py and config/routing.py include the home's routes"
    reached = {module.split(".")[0] for path in app_files("home")
               for _line, module in imported_names(ast.parse(path.read_text()))}
    assert {"clubs", "tournaments", "gameplay"} <= reached


def match_reads(source: str, filename: str) -> list[str]:
    return [f"{filename}:{number}: {line.strip()}" for number, line in enumerate(source.splitlines(), 1)
            if MATCH_READ.search(line)]


def test_tournaments_reads_no_match_row_but_through_gameplay_api():
    found = [read for path in app_files("tournaments")
             for read in match_reads(path.read_text(), str(path.relative_to(ROOT)))]
    for path in sorted((ROOT / "templates" / "tournaments").rglob("*.html")):
        found += match_reads(path.read_text(), str(path.relative_to(ROOT)))
    assert found == [], "use gameplay.api (result_of, results_of, pairing.table):\n" + "\n".join(found)


def test_the_back_up_checks_catch_imports_lookups_and_reads():
    source = "def later():\n    from tournaments.display import zone_choices\nimport home.queries\n"
    assert sorted(c.split(" imports ")[1] for c in imports_of(source, "x.py", FORBIDDEN["clubs"])) == [
        "home.queries", "tournaments.display"]
    assert imports_of("from tournamentsx import y\nfrom config import formatting\n", "x.py", ("tournaments",)) == []
    assert imports_of('model = apps.get_model("tournaments", "Round")\n', "x.py", ("tournaments",)) == [
        "x.py:1 imports tournaments (get_model)"]
    lines = "Pairing.objects.filter(match__status='playing')\nif p.match.is_finished:\np.match_id\np.table.status\n"
    assert [r.split(":")[1] for r in match_reads(lines, "x.py")] == ["1", "2"]
