"""docs/layout.md names every package and module of the apps in APPS (issue 33, "Docs that are
true"), so a newcomer finds where each kind of code lives and a new module cannot go unlisted.

How the tree in layout.md is read: a line indented 0, 2 or 4 spaces starts an entry whose first
word is a path (`config/`, `  formatting.py`, `  services/controls.py`), relative to the entry one
level up; deeper-indented lines continue it. A module is named when it has an entry of its own,
when an entry of its folder's level names `module.py`, or when its folder's entry names it as a
word (`services/ ... manager (...), entries, organiser`); a folder is also named by an entry
inside it. Management commands and template tag libraries are named as such anywhere in the
nearest listed folder above them; migrations and `__init__.py` are not listed."""

import re
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
APPS = ("config", "tuning", "clubs", "home", "tournaments", "gameplay", "demo")
LAYOUT = ROOT / "docs" / "layout.md"


@dataclass
class Entry:
    path: str  # "tournaments/services/controls.py", "gameplay/rules/" (a folder ends in /)
    text: str


def tree(markdown: str) -> list[str]:
    return markdown.split("```", 2)[1].splitlines()[1:]


def entries(lines: list[str]) -> list[Entry]:
    found: list[Entry] = []
    parents: dict[int, str] = {}
    for line in lines:
        indent = len(line) - len(line.lstrip(" "))
        if not line.strip():
            continue
        if indent > 4 and found:
            found[-1].text += " " + line.strip()
            continue
        token = line.split()[0]
        base = parents.get(indent - 2, "") if indent else ""
        parents[indent] = base + token if token.endswith("/") else base
        found.append(Entry(base + token, line.strip()))
    return found


def modules() -> list[str]:
    paths = []
    for app in APPS:
        for path in sorted((ROOT / app).rglob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            if "/migrations/" in rel or "__pycache__" in rel:
                continue
            paths.append(rel[: -len("__init__.py")] if path.name == "__init__.py" else rel)
    return paths


def folder_of(path: str) -> str:
    return path.rstrip("/").rsplit("/", 1)[0] + "/"


def words(text: str) -> set[str]:
    return set(re.findall(r"[\w.]+", text))


def is_named(path: str, listed: list[Entry]) -> bool:
    by_path = {e.path: e for e in listed}
    if path in by_path or path.endswith("/") and any(e.path.startswith(path) for e in listed):
        return True
    folder = folder_of(path)
    name = path.rstrip("/").rsplit("/", 1)[1]
    shown = name + "/" if path.endswith("/") else name
    name = name.removesuffix(".py")
    level = [e for e in listed if e.path != folder and folder_of(e.path) == folder]
    if any(shown in e.text for e in level):
        return True
    if folder in by_path and (shown in by_path[folder].text or name in words(by_path[folder].text)):
        return True
    if "/management/commands/" in path or "/templatetags/" in path:
        return named_in_an_ancestor(path, name, by_path)
    return False


def named_in_an_ancestor(path: str, name: str, by_path: dict[str, Entry]) -> bool:
    """A command by its name (`make_tables`), a tag library as `templatetags/<name>.py`."""
    folder = folder_of(path)
    wanted = name if "/management/" in path else f"templatetags/{name}.py"
    while folder.count("/") > 1:
        folder = folder_of(folder)
        texts = [e.text for p, e in by_path.items() if p == folder or folder_of(p) == folder]
        if any(wanted in words(t) or wanted in t for t in texts):
            return True
    return False


def test_layout_md_names_every_package_and_module():
    listed = entries(tree(LAYOUT.read_text()))
    missing = [path for path in modules() if path not in {f"{app}/" for app in APPS}
               and not path.endswith(("management/", "management/commands/")) and not is_named(path, listed)]
    assert missing == [], "add a line to docs/layout.md for:\n" + "\n".join(missing)


def test_the_layout_reader_finds_entries_folders_and_words():
    listed = entries(["config/   the project: settings, urls", "  formatting.py  signs; paging.py pages",
                      "gameplay/  live play", "  services/  writers: values, tables (cache)",
                      "  services/x.py  one", "               more of x", "  rules/   engine"])
    assert [e.path for e in listed] == ["config/", "config/formatting.py", "gameplay/",
                                        "gameplay/services/", "gameplay/services/x.py", "gameplay/rules/"]
    assert listed[4].text.endswith("more of x")
    named = {p: is_named(p, listed) for p in ("config/settings.py", "config/paging.py", "config/gil.py",
                                              "gameplay/services/tables.py", "gameplay/services/moves.py",
                                              "gameplay/rules/", "gameplay/bots/")}
    assert named == {"config/settings.py": True, "config/paging.py": True, "config/gil.py": False,
                     "gameplay/services/tables.py": True, "gameplay/services/moves.py": False,
                     "gameplay/rules/": True, "gameplay/bots/": False}
