"""Every page, htmx fragment and table text resource, read in English, Arabic and Spanish (issue 14).

The site is walked as its people walk it, with realistic rows: a finished and a running competition
of each game (bot tables played to the end, so matches have action logs), casual tables playing and
finished, notifications, ratings, club invitations and requests. What a person reads on each page
(text nodes and labelling attributes, tests/competitions_db/test_no_identifiers_shown.ShownText)
must hold:

- no identifier: no snake_case key, no duration written as a clock (0:15:00), no option key, preset
  key or raw enum value standing where its label belongs;
- in Arabic and Spanish, no English word left untranslated: the words of the English catalogue
  (the msgids) that the language's own catalogue does not also use, minus the names in the data
  (usernames, club, competition and pair names) and the brand;
- every Arabic plural entry fills its six forms, so no count reads as an empty string.
"""

import json
import os
import re
from datetime import timedelta
from functools import cache
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from django.apps import apps
from django.conf import settings
from django.test import RequestFactory
from django.urls import reverse
from django.utils import translation

from clubs.models import Invitation, JoinRequest, Membership
from config import views as site_views
from config import zones
from config.formatting import valid_zone_names, zone_choices
from gameplay import services as play
from gameplay.labels import labels_in
from gameplay.models import Match
from gameplay.rules import GAMES
from gameplay.services import SeatSpec
from tests.competitions_db.helpers import (
    bot_pairs, drive, human_pairs, make_club, make_competition, make_user,
)
from tests.competitions_db.test_no_identifiers_shown import CLOCK_DURATION, IDENTIFIER, ShownText
from tournaments.models import Entry, EntryPlayer, Notification, Pairing
from tournaments.services import manager

pytestmark = [pytest.mark.django_db, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]
LANGUAGES = ("en", "ar", "es")
WORD = re.compile(r"[A-Za-z][a-z]+(?:'[a-z]+)?")
# Not English to translate: the brand, rating systems, card codes' letters and units everyone writes.
PLACEHOLDER = re.compile(r"%\(\w+\)[sd]|\{[^}]*\}|<[^>]*>")
NOT_TRANSLATED = {"Chalk", "Elo", "Glicko", "Bu", "SB", "H2H", "GD", "GP", "UTC", "iCal", "htmx", "JSON", "Chromium"}


def catalogue(language):
    with (ROOT / "locale" / language / "LC_MESSAGES" / "django.po").open("rb") as handle:
        return read_po(handle, locale=language)


def _strings(value):
    return value if isinstance(value, (tuple, list)) else (value,)


@cache
def english_words(language) -> frozenset:
    """Words of the English catalogue that `language`'s own translations never use."""
    messages = catalogue(language)
    english, own = set(), set()
    for message in messages:
        if not message.id:
            continue
        for text in _strings(message.id):
            english |= {w.lower() for w in WORD.findall(PLACEHOLDER.sub(" ", text))}
        for text in _strings(message.string):
            own |= {w.lower() for w in WORD.findall(PLACEHOLDER.sub(" ", text or ""))}
    return frozenset(w for w in english - own if len(w) > 2)


@cache
def raw_keys() -> frozenset:
    """Keys that must never stand alone where a label belongs: enum values, option keys and values,
    preset keys (those whose label differs from the key itself)."""
    keys = set()
    for model in apps.get_models():
        for field in model._meta.get_fields():
            for value, label in getattr(field, "choices", None) or ():
                if isinstance(value, str) and value != str(label):
                    keys.add(value)
    for engine in GAMES.values():
        keys |= set(engine.presets)
        for option in engine.options_spec:
            keys.add(option.key)
            keys |= {c for c in option.choices or () if isinstance(c, str)}
    return frozenset(k for k in keys if len(k) > 1)


class TextInLanguage(ShownText):
    """The shown text, less what is marked as another language (lang="en" on "English" in the
    language switcher is English on purpose)."""

    def __init__(self, language):
        super().__init__()
        self.language, self.foreign = language, []  # [tag, depth] of an open element in another language

    def handle_starttag(self, tag, attrs):
        if self.foreign and self.foreign[-1][0] == tag:
            self.foreign[-1][1] += 1
        elif tag != "html" and dict(attrs).get("lang", self.language) != self.language:
            self.foreign.append([tag, 1])
        if not self.foreign:
            super().handle_starttag(tag, attrs)

    def handle_endtag(self, tag):
        if self.foreign and self.foreign[-1][0] == tag:
            self.foreign[-1][1] -= 1
            if not self.foreign[-1][1]:
                self.foreign.pop()
        elif not self.foreign:
            super().handle_endtag(tag)

    def handle_data(self, data):
        if not self.foreign:
            super().handle_data(data)


def shown_parts(html: str, language: str) -> list[str]:
    parser = TextInLanguage(language)
    parser.feed(html)
    return parser.parts


def problems(parts: list[str], language: str, names: set[str], prose: bool = False) -> set[str]:
    """What is wrong in a page's text parts: identifiers, clocks, a part that is a bare key
    (a cell reading "playing" or "walkover"), English words in Arabic or Spanish. In `prose` (the
    how-to-play pages, written by hand per language) a lone "mano" or "baloot" is a word of the game."""
    text = " ".join(parts)
    found = set(IDENTIFIER.findall(text)) | set(CLOCK_DURATION.findall(text))
    if not prose:
        found |= {f"key:{part.strip()}" for part in parts if part.strip() in raw_keys()}
    if language != "en":
        english = english_words(language)
        found |= {f"en:{word}" for word in WORD.findall(text)
                  if word.lower() in english and word not in names and word not in NOT_TRANSLATED}
    return found


def name_words(*texts) -> set[str]:
    return {word for text in texts for word in WORD.findall(str(text))}


# ----- the world ------------------------------------------------------------------------------

def finished_casual(capture, game, preset, **fields):
    options = dict(GAMES[game].presets[preset])
    with capture(execute=True):
        match = play.create_match(game, options, [SeatSpec(bot="random")] * 4, seed=11, first_dealer=0, **fields)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    return match


# the quickest preset of each game to play out with bots; Baloot's classic Saudi mode as well
QUICK = {"allfours": "short_seven", "baloot": "literal_source", "cuatrola": "standard"}


@pytest.fixture
def world(django_capture_on_commit_callbacks):
    capture = django_capture_on_commit_callbacks
    organiser = make_user("organiser")
    partner = make_user("partner")
    club = make_club(organiser, time_zone="Asia/Riyadh")
    type(club).objects.filter(pk=club.pk).update(home_games=list(GAMES))
    Membership.objects.filter(club=club, user=organiser).update(role=Membership.Role.OWNER)
    Membership.objects.create(club=club, user=partner)
    finished, running = {}, {}
    for game, preset in QUICK.items():
        done = make_competition(club, format="single_elimination", game=game, preset=preset, created_by=organiser,
                                grace=timedelta(minutes=10))
        bot_pairs(done, 2)
        with capture(execute=True):
            finished[game] = drive(done)
        live = make_competition(club, format="swiss", game=game, preset=preset, swiss_rounds=3,
                                check_in=timedelta(minutes=15), created_by=organiser)
        pairs = human_pairs(live, 3)
        entry = Entry.objects.create(competition=live, name="Organiser & Partner", status=Entry.Status.CONFIRMED)
        for position, user in enumerate((organiser, partner)):
            EntryPlayer.objects.create(entry=entry, competition=live, user=user, position=position,
                                       accepted_at=live.starts_at)
        for _entry, users in pairs:
            for user in users:
                Membership.objects.create(club=club, user=user)
        with capture(execute=True):
            manager.step(live.pk)
        running[game] = live
    coming = make_competition(club, format="double_elimination", game="baloot", preset="saudi_jawaker",
                              starts_in=timedelta(days=3), created_by=organiser)
    invited = Entry.objects.create(competition=coming, name="Partner & Organiser", status=Entry.Status.PENDING)
    EntryPlayer.objects.create(entry=invited, competition=coming, user=partner, position=0,
                               accepted_at=coming.starts_at)
    place = EntryPlayer.objects.create(entry=invited, competition=coming, user=organiser, position=1)
    casual = {game: finished_casual(capture, game, preset) for game, preset in QUICK.items()}
    casual["saudi"] = finished_casual(capture, "baloot", "saudi_jawaker")
    with capture(execute=True):
        playing = play.create_match("cuatrola", {}, [SeatSpec(user=organiser), SeatSpec(user=partner)]
                                    + [SeatSpec(bot="random")] * 2, seed=3, first_dealer=0, time_control=900)
        waiting = play.create_match("baloot", {}, [SeatSpec(user=organiser)], created_by=organiser)
    Invitation.objects.create(club=club, created_by=organiser, expires_at=coming.starts_at + timedelta(days=7))
    JoinRequest.objects.create(club=club, user=make_user("asker"), message="hello")
    for kind, params in (("invited", {"name": partner.username, "competition": coming.name}),
                         ("accepted", {"name": partner.username, "competition": coming.name}),
                         ("declined", {"name": partner.username, "competition": coming.name}),
                         ("round_open", {"competition": running["allfours"].name, "number": 1})):
        Notification.objects.create(user=organiser, key=f"{kind}:x", kind=kind, params=params, text="")
    names = name_words(club.name, *(u.username for u in (organiser, partner)),
                       *(c.name for c in (*finished.values(), *running.values(), coming)),
                       *Entry.objects.values_list("name", flat=True),
                       *type(organiser).objects.values_list("username", flat=True), "hello",
                       *(name for name, _label in zone_choices()),
                       # a zone box's suggestions name each city in the other two languages too
                       *(zones.city(zone, "en") for zone in valid_zone_names()))
    return {"organiser": organiser, "partner": partner, "club": club, "finished": finished, "running": running,
            "coming": coming, "place": place, "casual": casual, "playing": playing, "waiting": waiting,
            "names": names}


def page_urls(w) -> list[str]:
    club, organiser = w["club"], w["organiser"]
    urls = ["/", reverse("clubs:list"), reverse("clubs:create"), club.get_absolute_url(),
            reverse("clubs:members", args=[club.slug]), reverse("clubs:log", args=[club.slug]),
            reverse("clubs:invitations", args=[club.slug]), reverse("clubs:requests", args=[club.slug]),
            reverse("clubs:edit", args=[club.slug]), reverse("profile"),
            reverse("player", args=[organiser.username]), reverse("tournaments:list"),
            reverse("tournaments:archive"), reverse("tournaments:notifications"), reverse("gameplay:lobby"),
            reverse("gameplay:new"), reverse("gameplay:archive"), reverse("dashboard:help"),
            reverse("ratings:index"), reverse("ratings:player", args=[organiser.username])]
    formats = iter(("swiss", "double_elimination", "league"))  # the form's other formats: in fragments()
    for game in GAMES:
        urls += [reverse("dashboard:how_to_play", args=[game]), reverse("ratings:leaderboard", args=[game]),
                 reverse("ratings:club_leaderboard", args=[game, club.slug]),
                 reverse("gameplay:new") + f"?game={game}",
                 reverse("tournaments:new", args=[club.slug]) + f"?game={game}&format={next(formats)}&name=x"]
    for competition in (*w["finished"].values(), *w["running"].values(), w["coming"]):
        urls += [reverse(name, args=[competition.pk]) for name in
                 ("tournaments:detail", "tournaments:standings", "tournaments:bracket", "tournaments:manage")]
        urls += [reverse("tournaments:round", args=[competition.pk, r.number]) for r in competition.rounds.all()[:2]]
    for match in (*w["casual"].values(), w["playing"], w["waiting"]):
        urls.append(reverse("gameplay:table", args=[match.pk]))
    for competition in w["finished"].values():
        for match_id in Pairing.objects.filter(competition=competition).exclude(match=None).values_list(
                "match_id", flat=True)[:1]:
            urls += [reverse("gameplay:table", args=[match_id]), reverse("gameplay:replay", args=[match_id])]
    urls += [reverse("gameplay:replay", args=[m.pk]) for m in w["casual"].values()]
    return urls


def anonymous_urls() -> list[str]:
    return ["/", reverse("account_login"), reverse("account_signup"), reverse("account_reset_password"),
            reverse("dashboard:help"), reverse("tournaments:list"), reverse("gameplay:lobby")]


def fragments(client, w):
    """(what, response) of each htmx fragment: the competition form's refresh, the round's pairing
    controls, the dashboard's invitation answer, the competition's now-playing part."""
    club, running = w["club"], w["running"]
    htmx = {"HTTP_HX_REQUEST": "true"}
    new = reverse("tournaments:new", args=[club.slug])
    for (game, trigger), format in zip((("allfours", "format"), ("baloot", "preset"), ("cuatrola", "game")),
                                       ("single_elimination", "round_robin", "double_elimination")):
        data = {"game": game, "format": format, "name": "x", "refresh": "1"}
        yield f"form {game} {trigger}", client.post(new, data, HTTP_HX_TRIGGER_NAME=trigger, **htmx)
    for game, competition in running.items():
        yield f"now playing {game}", client.get(reverse("tournaments:detail", args=[competition.pk]) + "?part=now-playing",
                                                **htmx)
    competition = running["baloot"]
    pairing = Pairing.objects.filter(competition=competition).first()
    for action in ("start", "bot", "walkover", "substitute", "result"):
        url = reverse("tournaments:pairing_control", args=[competition.pk, pairing.pk, action])
        yield f"control {action}", client.post(url, {}, **htmx)
    url = reverse("dashboard:answer_invitation", args=[w["place"].pk])
    yield "answer decline", client.post(url, {"accept": "0"}, **htmx)
    yield "answer again", client.post(url, {"accept": "1"}, **htmx)


def error_pages(client):
    yield "404", client.get("/no-such-page/")
    yield "404 match", client.get("/matches/999999999/")
    factory = RequestFactory()
    for name, view in (("400", site_views.bad_request), ("403", site_views.permission_denied),
                       ("500", site_views.server_error)):
        request = factory.get("/")
        args = () if name == "500" else (Exception("x"),)
        yield name, view(request, *args)


def read(client, language, responses, names) -> dict:
    found = {}
    for what, response in responses:
        assert response.status_code < 500 or what == "500", (what, response.status_code)
        if response.status_code in (301, 302):
            continue
        bad = problems(shown_parts(response.content.decode(), language), language, names,
                       prose=what.startswith("/help/"))
        if bad:
            found[what] = sorted(bad)
    return found


def label_strings(value):
    if isinstance(value, dict):
        for item in value.values():
            yield from label_strings(item)
    else:
        yield str(value)


def test_every_page_fragment_and_table_label_reads_in_each_language(client, world):
    # one world for the three languages: building it plays a dozen bot tables to their end
    found = {}
    for language in LANGUAGES:
        client.logout()
        client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
        names = world["names"]
        got = read(client, language, ((url, client.get(url)) for url in anonymous_urls()), names)
        client.force_login(world["organiser"])
        got |= read(client, language, ((url, client.get(url)) for url in page_urls(world)), names)
        got |= read(client, language, fragments(client, world), names)
        with translation.override(language):
            got |= read(client, language, error_pages(client), names)
        labels = [re.sub(r"%\(\w+\)[sd]", " ", text) for text in label_strings(labels_in(language))]
        bad = problems(labels, language, set())
        if bad:
            got["table labels"] = sorted(bad)
        found |= {f"{language} {what}": bad for what, bad in got.items()}
    if os.environ.get("CHALK_WORDS_REPORT"):  # a file to read every finding from (the assertion truncates)
        Path(os.environ["CHALK_WORDS_REPORT"]).write_text(json.dumps(found, indent=1, ensure_ascii=False))
    assert found == {}


@pytest.mark.parametrize(("language", "parts", "flagged"), [
    ("es", ["Ronda 1", "Open"], {"en:Open"}),
    ("ar", ["الجولة 1", "Waiting for players"], {"en:Waiting", "en:for", "en:players"}),
    ("en", ["Round 1", "playing"], {"key:playing"}),
    ("en", ["Grace", "0:05:00", "trinidad_standard"], {"0:05:00", "trinidad_standard", "key:trinidad_standard"}),
    ("es", ["Ronda 1 de Rosa", "Rosa"], set()),
])
def test_the_reader_flags_english_words_keys_and_clocks_but_not_names(language, parts, flagged):
    assert problems(parts, language, {"Rosa"}) == flagged


def test_every_arabic_plural_entry_fills_all_six_forms():
    plurals = [m for m in catalogue("ar") if m.pluralizable]
    assert plurals and [m.id[0] for m in plurals if len(m.string) != 6 or not all(m.string)] == []


def test_the_table_scripts_hold_no_words_of_their_own():
    # the table client's words come from gameplay/labels.py through json_script, translated on the
    # server; a sentence written in static/js would reach Arabic and Spanish players in English
    sentence = re.compile(r"""["'`]([A-Z][a-z]+(?: [a-z]+){1,})[.!?]?["'`]""")
    found = {path.name: sentence.findall(path.read_text()) for path in sorted((ROOT / "static/js").glob("*.js"))
             if not path.name.startswith("htmx")}
    assert {name: words for name, words in found.items() if words} == {}
