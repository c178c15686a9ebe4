"""Real Chromium (Debian's package) driven by Playwright against the live ASGI server.

Fixtures:
- `browser`: a headless Chromium for one test (see the fixture for why not per session);
- `page`: a fresh browser context and page per test (own cookies), with `asgi_live` running
  (so the test's database writes are committed and visible to the server);
- `page.goto(...)` relative URLs work: the context's base_url is the live server.

No Chromium on a developer machine: browser tests are skipped with a loud message.
In CI (CI=true) a missing Chromium fails them instead: CI must always run them.
"""

import os
import shutil
import warnings

import pytest

CHROMIUM_CANDIDATES = ["/usr/bin/chromium", "/usr/bin/chromium-browser"]
# Flags checked on these machines (docs/design.md): headless as root in a closed network.
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]


def chromium_path():
    configured = os.environ.get("CHROMIUM_PATH")
    candidates = [configured] if configured else CHROMIUM_CANDIDATES + [shutil.which("chromium") or ""]
    return next((path for path in candidates if path and os.access(path, os.X_OK)), None)


def in_ci():
    return os.environ.get("CI", "").lower() in {"1", "true", "yes"}


def pytest_collection_modifyitems(config, items):
    """Every test in this folder is a browser test."""
    for item in items:
        if "tests/browser/" in str(item.path).replace(os.sep, "/"):
            item.add_marker(pytest.mark.browser)


@pytest.fixture
def browser(monkeypatch):
    """A headless Chromium for one test.

    Per test, not per session: Playwright's sync API keeps its event loop marked as running in
    this thread while it is alive, and Django then refuses ORM calls (SynchronousOnlyOperation)
    in every later test and fixture teardown. Starting it per test costs about half a second.
    """
    path = chromium_path()
    if path is None:
        message = "Chromium not found (apt-get install chromium): browser tests cannot run"
        if in_ci():
            pytest.fail(message + " — CI must run them")
        warnings.warn(message + "; SKIPPING them", stacklevel=1)
        pytest.skip("SKIPPED LOUDLY: " + message)
    from playwright.sync_api import sync_playwright

    # While Playwright runs, ORM calls in the test body are still plain synchronous code.
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=path, args=CHROMIUM_ARGS, headless=True)
        yield chromium
        chromium.close()


@pytest.fixture
def page(asgi_live, browser):
    """A fresh context (own cookies) whose relative URLs go to the live ASGI server."""
    context = browser.new_context(base_url=asgi_live.url, locale="en-US")
    context.set_default_timeout(15_000)
    page = context.new_page()
    yield page
    context.close()
