"""Real Chromium (Debian's package) driven by Playwright against the live ASGI server.

Fixtures:
- `browser`: one headless Chromium for the session;
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
# Flags checked on these machines (shared/DESIGN.md): headless as root in a closed network.
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


@pytest.fixture(scope="session")
def browser():
    path = chromium_path()
    if path is None:
        message = "Chromium not found (apt-get install chromium): browser tests cannot run"
        if in_ci():
            pytest.fail(message + " — CI must run them")
        warnings.warn(message + "; SKIPPING them", stacklevel=1)
        pytest.skip("SKIPPED LOUDLY: " + message)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=path, args=CHROMIUM_ARGS, headless=True)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser, asgi_live, monkeypatch):
    # Playwright's sync API runs an event loop in this thread; the ORM calls a test makes
    # between browser steps are still plain synchronous code, so let Django allow them.
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    context = browser.new_context(base_url=asgi_live.url, locale="en-US")
    context.set_default_timeout(15_000)
    page = context.new_page()
    yield page
    context.close()
