"""Signs, durations and dates read the same way on every page, in every language."""

from datetime import UTC, datetime, timedelta

import pytest
from django.template import engines
from django.utils import translation

from config.formatting import duration_words, short_date, signed

LRI, PDI = "\u2066", "\u2069"


def test_a_gain_keeps_its_sign_before_the_digits_inside_arabic_text():
    with translation.override("ar"):
        assert signed(1) == f"{LRI}+1{PDI}"  # isolated: the bidi algorithm cannot move the "+"


def test_a_loss_has_a_minus_and_zero_has_no_sign():
    assert (signed(-2.5, 1), signed(0)) == (f"{LRI}-2.5{PDI}", f"{LRI}0{PDI}")


def test_every_template_has_the_filters_without_loading_them():
    rendered = engines["django"].from_string("{{ d|signed }} {{ s|duration_words }}").render({"d": 3, "s": 90})
    assert rendered == f"{LRI}+3{PDI} 1 minute 30 seconds"


@pytest.mark.parametrize(("language", "seconds", "words"), [
    ("en", 900, "15 minutes"), ("en", 1, "1 second"), ("en", 3660, "1 hour 1 minute"),
    ("es", 90, "1 minuto y 30 segundos"), ("es", 30, "30 segundos"),
    ("ar", 120, "دقيقتان"), ("ar", 900, "15 دقيقة"), ("ar", 300, "5 دقائق"), ("ar", 60, "دقيقة واحدة"),
])
def test_durations_are_said_in_words_never_as_a_clock(language, seconds, words):
    with translation.override(language):
        assert duration_words(seconds) == words
        assert duration_words(timedelta(seconds=seconds)) == words


def test_dates_are_short_and_in_western_digits_in_arabic():
    with translation.override("ar"):
        text = short_date(datetime(2026, 12, 1, 21, 0, tzinfo=UTC))
    assert "2026" in text and not any("\u0660" <= ch <= "\u0669" for ch in text)
