"""Celery tasks are called by their Python names (issue 33: "bots, clocks and presence are called,
not looked up by task name"): no module reaches a task through the app's registry or sends one
by a name in a string. The one place task names are written is where they are declared
(`@shared_task(name=...)`) and the beat schedule (config/celery.py), which names them because
beat sends by name; tests/foundation/test_celery.py checks each of those is registered."""

import re

from tests.foundation.helpers import ROOT

APPS = ("config", "clubs", "demo", "gameplay", "home", "tournaments", "tuning")
LOOKUP = re.compile(r"current_app\.tasks|\.tasks\[|send_task\(|signature\(\s*[\"']")
NAME = re.compile(r"[\"'](?:gameplay|tournaments)\.[a-z_]+[\"']")


def sources():
    for app in APPS:
        for path in sorted((ROOT / app).rglob("*.py")):
            if "migrations" not in path.parts:
                yield path


def test_no_task_is_looked_up_by_a_name_in_a_string():
    found = []
    for path in sources():
        relative = str(path.relative_to(ROOT))
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if LOOKUP.search(line):
                found.append(f"{relative}:{number}: {line.strip()}")
            elif NAME.search(line) and relative != "config/celery.py" and "shared_task(name=" not in line:
                if not re.search(r"(name|dispatch_uid)\s*=\s*[\"']|include\(|[\"']tournaments\.ratings[\"']", line):
                    found.append(f"{relative}:{number}: {line.strip()}")
    assert not found, "tasks reached by a name in a string:\n" + "\n".join(found)
