"""Signs, durations and dates read the same way on every page, in every language."""

from datetime import UTC, datetime, timedelta

import pytest
from django.template import engines
from django.utils import translation

from config import formatting
from config.formatting import clock_time, date_time, duration_words, short_date, signed

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


@pytest.mark.parametrize(("language", "sentence"), [
    ("ar", "{% load i18n %}{% blocktranslate with d=delta|signed %}Rating change: {{ d }}{% endblocktranslate %}"),
    ("ar", "<td>{{ delta|signed }}</td>"),
])
def test_a_sign_inside_arabic_text_is_isolated_so_it_stays_before_the_digits(language, sentence):
    # the issue saw "1+" in one place and "+1" in another: every page writes the sign through `signed`
    with translation.override(language):
        rendered = engines["django"].from_string(sentence).render({"delta": 1})
    assert f"{LRI}+1{PDI}" in rendered and "1+" not in rendered.replace(f"{LRI}+1{PDI}", "")


@pytest.mark.parametrize(("language", "words"), [
    ("en", "2 days 3 hours"), ("es", "2 días y 3 horas"), ("ar", "يومان و3 ساعات"),
])
def test_long_durations_count_days_in_the_readers_language(language, words):
    with translation.override(language):
        assert duration_words(timedelta(days=2, hours=3)) == words


@pytest.mark.parametrize(("language", "words"), [("en", "no time"), ("es", "sin tiempo"), ("ar", "بدون وقت")])
def test_no_time_at_all_is_said_in_words(language, words):
    with translation.override(language):
        assert duration_words(timedelta(0)) == words


@pytest.mark.parametrize(("language", "text"), [
    ("en", "Dec. 2, 2026, midnight (Asia/Riyadh)"),
    ("es", "2 de diciembre de 2026 a las 00:00 (Asia/Riyadh)"),
    ("ar", "2 ديسمبر 2026، 12:00 ص (Asia/Riyadh)"),
])
def test_a_date_and_time_is_written_by_the_readers_locale_in_the_named_zone(language, text):
    with translation.override(language):
        assert date_time(datetime(2026, 12, 1, 21, 0, tzinfo=UTC), "Asia/Riyadh") == text


def test_a_date_and_time_without_a_zone_names_the_active_zone():
    from django.utils import timezone

    with translation.override("en"), timezone.override("America/Port_of_Spain"):
        assert date_time(datetime(2026, 12, 1, 21, 0, tzinfo=UTC)) == "Dec. 1, 2026, 5 p.m. (America/Port of Spain)"


@pytest.mark.parametrize(("language", "clock"), [("en", "9:05 p.m."), ("es", "21:05"), ("ar", "9:05 م")])
def test_a_time_of_day_reads_as_the_locale_writes_it(language, clock):
    with translation.override(language):
        assert clock_time(datetime(2026, 12, 1, 21, 5, tzinfo=UTC)) == clock


def test_competition_pages_format_through_the_one_owner():
    # tournaments/display.py and the competition tags describe; config/formatting.py formats
    from tournaments import display
    from tournaments.templatetags.tournaments import in_words

    moment = datetime(2026, 12, 1, 21, 0, tzinfo=UTC)
    with translation.override("es"):
        assert display.in_zone(moment, "Europe/Madrid") == date_time(moment, "Europe/Madrid")
        assert display.duration(timedelta(minutes=15)) == in_words(timedelta(minutes=15)) == "15 minutos"
    assert display.zone_of is formatting.zone_of and display.preset_label is formatting.preset_label


def test_a_readers_own_time_is_in_their_profiles_zone_and_a_visitor_reads_utc():
    from types import SimpleNamespace

    from django.contrib.auth.models import AnonymousUser

    moment = datetime(2026, 12, 1, 21, 0, tzinfo=UTC)
    reader = SimpleNamespace(player=SimpleNamespace(time_zone="Asia/Riyadh"))
    with translation.override("en"):
        assert formatting.readers_date_time(moment, reader) == "Dec. 2, 2026, midnight (Asia/Riyadh)"
        assert formatting.readers_date_time(moment, AnonymousUser()) == "Dec. 1, 2026, 9 p.m. (UTC)"


def test_a_table_of_contract_values_is_described_by_contract_names():
    from tournaments.display import option_value

    with translation.override("es"):
        assert option_value({"pass": 1, "solo": 2}) == "Mano de paso 1, Solo 2"


def test_zone_choices_offer_the_common_zones_first_then_every_real_zone_once():
    # owned here, not by tournaments, so clubs' zone field uses them without importing the competitions
    from clubs.forms import ZoneField
    from tournaments import display

    names = [name for name, _label in formatting.zone_choices()]
    assert names[: len(formatting.COMMON_ZONES)] == list(formatting.COMMON_ZONES)
    assert len(names) == len(set(names)) and set(names) == formatting.valid_zone_names()
    assert "Factory" not in names and "localtime" not in names
    assert dict(formatting.zone_choices())["America/Port_of_Spain"] == "America/Port of Spain"
    assert display.zone_choices is formatting.zone_choices
    assert ZoneField().clean("America/Port of Spain") == "America/Port_of_Spain"
