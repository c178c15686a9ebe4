"""The replay's controls in Arabic (issue 32): the buttons run right to left, so "Previous" sits
on the right and its arrow points right (mirrored), "Next" on the left pointing left; in English
they stay as drawn."""

import pytest
from playwright.sync_api import expect

from .play_helpers import bots_match

pytestmark = pytest.mark.browser

MIRRORED = "matrix(-1, 0, 0, 1, 0, 0)"

# Each control's horizontal centre and its arrow's transform.
CONTROLS = """() => Object.fromEntries([...document.querySelectorAll('.replay-controls [data-go]')].map(button => {
  const box = button.getBoundingClientRect();
  return [button.dataset.testid, [box.left + box.width / 2, getComputedStyle(button.querySelector('.arrow')).transform]];
}))"""


@pytest.mark.parametrize("language", ["ar", "en"])
def test_the_replay_arrows_point_the_way_their_buttons_go(page, asgi_live, language):
    match, _game = bots_match("allfours", seed=3)
    page.context.add_cookies([{"name": "django_language", "value": language, "url": asgi_live.url}])
    page.goto(f"/matches/{match.pk}/replay/")
    expect(page.get_by_test_id("next-step")).to_be_enabled()
    controls = page.evaluate(CONTROLS)
    backwards_on_the_right = controls["prev-step"][0] > controls["next-step"][0]
    assert backwards_on_the_right == (language == "ar")
    for testid, (_centre, transform) in controls.items():
        assert transform == (MIRRORED if language == "ar" else "none"), (testid, transform)
