"""Forms of competitions. The rules part reuses the new-table form (gameplay/forms.py): a game, a
named preset, then the engine's own options, checked by the engine itself."""

from __future__ import annotations

import json
from datetime import timedelta

from django import forms
from django.contrib.auth import get_user_model
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext_lazy as _

from gameplay.api import CLOCK_CHOICES, OPTION_PREFIX, PRESET_HELP, KeyedNumbersField, LeaverPolicy, NewTableForm
from tournaments.models import Competition

MINUTES = _("minutes")
MAX_SWISS_ROUNDS = 15
LOCAL_INPUT = "%Y-%m-%dT%H:%M"  # what a datetime-local box reads, whatever the page's language

# Fields that belong to one format only: shown and read only for it.
FORMAT_ONLY = {
    "swiss": ("swiss_rounds",),
    "single_elimination": ("third_place_match",),
    "double_elimination": ("grand_final_reset",),
    "round_robin": ("double_round_robin",),
    "league": ("double_round_robin",),
    "duplicate": ("movement", "odd_pairs", "boards_per_round", "scoring", "boards_seed", "reuse_seed",
                  "imported_boards"),
}
FORMAT_HELP = {
    "swiss": _("Each round, pairs with equal scores play each other; nobody is knocked out."),
    "single_elimination": _("A knockout: the loser of each match is out."),
    "double_elimination": _("A knockout where a pair is out only after its second loss."),
    "round_robin": _("Every pair plays every other pair once."),
    "league": _("A season of weekly fixtures: every pair plays every other pair."),
    "duplicate": _("Every table plays the same deals (boards); each pair is compared with the pairs "
                   "who held the same cards."),
}
DEFAULTS = {"swiss_rounds": None, "third_place_match": False, "grand_final_reset": True, "double_round_robin": False,
            "movement": Competition.Movement.HOWELL, "odd_pairs": Competition.OddPairs.BOT_PAIR,
            "boards_per_round": 2, "scoring": Competition.Scoring.MATCHPOINTS, "boards_seed": None,
            "reuse_seed": False, "imported_boards": None}


def refusal(error) -> str:
    """An imported board set's refusal in the reader's language: the board and the card named,
    then the engine's own reason (in English, as the engine words it)."""
    board, card = getattr(error, "board", None), getattr(error, "card", None)
    if board is not None and card is not None:
        where = _("board %(board)s, card %(card)s") % {"board": board, "card": card}
    elif board is not None:
        where = _("board %(board)s") % {"board": board}
    else:
        where = ""
    reason = getattr(error, "reason", str(error))
    if where:
        return _("These boards cannot be played (%(where)s): %(reason)s") % {"where": where, "reason": reason}
    return _("These boards cannot be played: %(reason)s") % {"reason": reason}


def minutes_field(label, initial, help_text=""):
    return forms.IntegerField(label=label, min_value=0, max_value=60 * 24 * 60, initial=initial, help_text=help_text)


def local_datetime_field(label, **kwargs):
    return forms.DateTimeField(label=label, widget=forms.DateTimeInput(attrs={"type": "datetime-local"},
                                                                       format=LOCAL_INPUT), **kwargs)


class CompetitionForm(NewTableForm):
    """Name, format, schedule and the rules; `create(club, user)` saves the competition.

    Build, validate and render it inside `timezone.override(the club's zone)`: its times are the
    club's. `refreshed(data, changed)` is the same form again after a change of game, format or
    preset, every value kept except what depends on the change."""

    name = forms.CharField(label=_("Name"), max_length=120)
    format = forms.ChoiceField(label=_("Format"), choices=Competition.Format.choices)
    seeding = forms.ChoiceField(label=_("Seeding"), choices=Competition.Seeding.choices)
    visibility = forms.ChoiceField(label=_("Who may follow it"), choices=Competition.Visibility.choices)
    starts_at = local_datetime_field(_("Starts at"))
    entries_close_at = local_datetime_field(_("Entries close"), required=False, help_text=_("Empty: at the start."))
    round_interval = minutes_field(_("Minutes between rounds"), 0,
                                   _("A round starts this long after the previous one started, or when its results are in."))
    check_in = minutes_field(_("Check-in opens (minutes before a round)"), 15)
    grace = minutes_field(_("Grace period for no-shows (minutes)"), 10)
    swiss_rounds = forms.IntegerField(label=_("Swiss rounds"), min_value=1, max_value=MAX_SWISS_ROUNDS, required=False,
                                      help_text=_("Empty: enough rounds for a clear winner."))
    third_place_match = forms.BooleanField(label=_("Third-place match"), required=False)
    grand_final_reset = forms.BooleanField(label=_("Grand final reset"), required=False, initial=True,
                                           help_text=_("If the pair from the losers' bracket wins the final, it is played again."))
    double_round_robin = forms.BooleanField(label=_("Double round robin"), required=False,
                                            help_text=_("Every two pairs meet twice."))
    movement = forms.ChoiceField(label=_("Movement"), choices=Competition.Movement.choices, required=False,
                                 help_text=_("What fits: a Howell 4 to 16 pairs, a Mitchell 6 to 60 pairs. If the "
                                             "pairs who come do not fit the one chosen, the other is played."))
    odd_pairs = forms.ChoiceField(label=_("With an odd number of pairs"), choices=Competition.OddPairs.choices,
                                  required=False, help_text=_("Three pairs fit only with a pair of bots."))
    boards_per_round = forms.IntegerField(label=_("Boards per round"), min_value=1, max_value=12, initial=2,
                                          required=False)
    scoring = forms.ChoiceField(label=_("Scoring"), choices=Competition.Scoring.choices, required=False)
    boards_seed = forms.IntegerField(label=_("Boards seed"), min_value=0, max_value=2**62 - 1, required=False,
                                     help_text=_("Empty: a new random seed, recorded with the competition so the "
                                                 "boards can be played again."))
    reuse_seed = forms.BooleanField(label=_("Play the boards of a seed this club has already used"), required=False)
    imported_boards = forms.CharField(
        label=_("Import boards (JSON)"), required=False, widget=forms.Textarea(attrs={"rows": 3}),
        help_text=_("A board set exported from a duplicate: its boards are played instead of new ones."))

    reconnect_seconds = forms.IntegerField(label=_("Reconnect window (seconds)"), min_value=10, max_value=600,
                                           initial=60, required=False, help_text=_("How long a disconnected player may take to come back."))
    leaver_policy = forms.ChoiceField(label=_("When a player leaves"), choices=LeaverPolicy.choices,
                                      initial=LeaverPolicy.FORFEIT, required=False)

    COMMON_FIELDS = ("name", "format", "seeding", "visibility", "starts_at", "entries_close_at", "round_interval",
                     "check_in", "grace", "reconnect_seconds", "leaver_policy")
    SWITCHES = ("game", "format", "preset")

    def __init__(self, *args, zone_name: str = "UTC", refresh_url: str = "", club_id: int | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.zone_name = zone_name
        self.club_id = club_id
        for name in ("is_public", "fill_with_bots", "seat", "friend", "friend_role"):
            del self.fields[name]
        self.fields["time_control"].choices = [c for c in CLOCK_CHOICES if c[0]]
        self.fields["time_control"].initial = 30
        self.fields["bot_level"].label = _("Level of a bot that replaces an absent player")
        self.fields["starts_at"].initial = (timezone.now() + timedelta(days=1)).replace(second=0, microsecond=0)
        self.fields["starts_at"].help_text = _("In the club's time zone: %(zone)s.") % {"zone": zone_name}
        self.fields["preset"].help_text = PRESET_HELP.get(self.preset_key, "")
        self.format_key = self._value("format") if self._value("format") in FORMAT_HELP else Competition.Format.SWISS
        self.fields["format"].initial = self.format_key  # the select shows the format whose fields are shown
        self.fields["format"].help_text = FORMAT_HELP[self.format_key]
        if self.format_key == Competition.Format.LEAGUE:
            self.fields["round_interval"].label = _("Length of a fixture week (minutes)")
        for name in self.SWITCHES:  # each sends the whole form, so the refreshed one keeps every value
            self.fields[name].widget.attrs.update({
                "hx-get": refresh_url, "hx-include": "closest form", "hx-target": "#competition-form",
                "hx-swap": "outerHTML", "hx-params": "not csrfmiddlewaretoken", "hx-sync": "closest form:replace"})

    def _value(self, name):
        source = self.data if self.is_bound else self.initial
        return source.get(name, self.fields[name].initial)

    @classmethod
    def refreshed(cls, data, changed: str, **kwargs) -> "CompetitionForm":
        """An unbound form showing `data` (what the organiser had typed) after `changed` changed:
        a new game brings its own presets and options, a new preset its options; the rest stays."""
        initial = {key: data.get(key) for key in data if key != "csrfmiddlewaretoken"}
        for name in ("third_place_match", "grand_final_reset", "double_round_robin", "reuse_seed"):
            initial[name] = name in data
        if changed == "game":
            initial.pop("preset", None)
        if changed in ("game", "preset"):
            initial = {k: v for k, v in initial.items() if not k.startswith(OPTION_PREFIX)}
        else:
            for field in [k for k in initial if k.startswith(OPTION_PREFIX)]:
                if field not in data:  # an unticked rule box sends nothing
                    initial[field] = False
        form = cls(initial=initial, game=initial.get("game"), preset=initial.get("preset"), **kwargs)
        form.initial["preset"] = form.preset_key  # the new game's first preset when the old one is not its
        form.parse_json_initials()
        if changed not in ("game", "preset"):
            form.keep_typed_numbers(data)
        return form

    def parse_json_initials(self) -> None:
        """A JSON option comes back as the text it was shown as: read it, or it would be quoted again."""
        for name, field in self.fields.items():
            value = self.initial.get(name)
            if isinstance(field, forms.JSONField) and isinstance(value, str):
                try:
                    self.initial[name] = json.loads(value)
                except ValueError:
                    self.initial.pop(name)  # unreadable: show the preset's value instead

    def keep_typed_numbers(self, data) -> None:
        """A table of numbers (one box per name) comes back as its boxes: keep what was typed."""
        for name, field in self.fields.items():
            if isinstance(field, KeyedNumbersField):
                typed = field.widget.value_from_datadict(data, None, name)
                if any(value not in (None, "") for value in typed):
                    try:
                        self.initial[name] = field.clean(typed)
                    except forms.ValidationError:
                        self.initial.pop(name, None)

    def table_fields(self):
        return [self[name] for name in ("time_control", "best_of", "bot_level")]

    def preset_lines(self) -> list[tuple[str, str, bool]]:
        """Every preset of the chosen game: (name, what it is, chosen), for the list under the menu."""
        return [(label, PRESET_HELP.get(key, ""), key == self.preset_key)
                for key, label in self.fields["preset"].choices]

    def competition_fields(self):
        return [self[name] for name in self.COMMON_FIELDS]

    def format_fields(self):
        """The fields of the chosen format only."""
        return [self[name] for name in FORMAT_ONLY.get(self.format_key, ())]

    def clean_starts_at(self):
        starts_at = self.cleaned_data["starts_at"]
        if starts_at <= timezone.now():
            raise forms.ValidationError(_("The start must be in the future."))
        return starts_at

    def clean(self):
        data = super().clean()
        for name, default in DEFAULTS.items():
            if name not in FORMAT_ONLY.get(data.get("format"), ()):
                data[name] = default
        if data.get("format") == Competition.Format.DUPLICATE:
            self.clean_duplicate(data)
        if data.get("format") == Competition.Format.LEAGUE and not data.get("round_interval"):
            self.add_error("round_interval", _("A league season needs the length of a fixture week."))
        closes, starts = data.get("entries_close_at"), data.get("starts_at")
        if closes and starts and closes > starts:
            self.add_error("entries_close_at", _("Entries must close before the competition starts."))
        return data

    def clean_duplicate(self, data) -> None:
        """A duplicate's knobs: boards per round 1-12, a seed this club used only if asked for, an
        imported board set checked by the engine (refused with the board and card named)."""
        from tournaments.duplicate import DuplicateError
        from tournaments.services import duplicate

        for name in ("movement", "odd_pairs", "scoring"):
            data[name] = data.get(name) or DEFAULTS[name]
        if data.get("boards_per_round") is None:
            data["boards_per_round"] = DEFAULTS["boards_per_round"]
        seed = data.get("boards_seed")
        if (seed is not None and self.club_id is not None and not data.get("reuse_seed")
                and duplicate.seed_used_in_club(self.club_id, seed)):
            self.add_error("boards_seed", _("This club has already played the boards of seed %(seed)s. Tick the box "
                                            "below to play them again, or leave the seed empty.") % {"seed": seed})
        text = (data.get("imported_boards") or "").strip()
        data["imported_boards"] = None
        if text and "options" in data:
            try:
                parsed = json.loads(text)
            except ValueError:
                self.add_error("imported_boards", _("This is not JSON: paste a board set as it was exported."))
                return
            try:
                data["imported_boards"] = duplicate.read_board_set(parsed, self.game_key, data["options"])
            except DuplicateError as error:
                self.add_error("imported_boards", refusal(error))

    def create(self, club, user) -> Competition:
        data = self.cleaned_data
        base, slug, n = slugify(data["name"])[:100] or "competition", None, 1
        slug = base
        while Competition.objects.filter(club=club, slug=slug).exists():
            n += 1
            slug = f"{base}-{n}"
        return Competition(
            club=club, name=data["name"], slug=slug, game=self.game_key, format=data["format"],
            kind=Competition.Kind.LEAGUE if data["format"] == Competition.Format.LEAGUE else Competition.Kind.TOURNAMENT,
            visibility=data["visibility"], preset=self.preset_key, options=data["options"], best_of=data["best_of"],
            time_control=data["time_control"], substitute_bot=data.get("bot_level") or "normal", swiss_rounds=data["swiss_rounds"],
            third_place_match=data["third_place_match"], grand_final_reset=data["grand_final_reset"],
            double_round_robin=data["double_round_robin"], seeding=data["seeding"], starts_at=data["starts_at"],
            entries_close_at=data["entries_close_at"],
            round_interval=timedelta(minutes=data["round_interval"]), check_in=timedelta(minutes=data["check_in"]),
            grace=timedelta(minutes=data["grace"]), reconnect_seconds=data.get("reconnect_seconds") or 60,
            leaver_policy=data.get("leaver_policy") or LeaverPolicy.FORFEIT, created_by=user,
            movement=data["movement"], odd_pairs=data["odd_pairs"], boards_per_round=data["boards_per_round"],
            scoring=data["scoring"], boards_seed=None if data["imported_boards"] else data["boards_seed"],
            board_set=data["imported_boards"].to_json() if data["imported_boards"] else {})


class UsernameField(forms.CharField):
    """A player named by username (or email)."""

    def clean(self, value):
        value = super().clean(value)
        if not value:
            return None
        users = get_user_model().objects
        user = users.filter(username__iexact=value).first() or users.filter(email__iexact=value).first()
        if user is None:
            raise forms.ValidationError(_("No player is called %(name)s.") % {"name": value})
        return user


class EnterForm(forms.Form):
    partner = UsernameField(label=_("Your partner (username or email)"))
    name = forms.CharField(label=_("Pair name (optional)"), max_length=80, required=False)


class ReasonForm(forms.Form):
    reason = forms.CharField(label=_("Reason"), max_length=500, required=False, widget=forms.TextInput)


class AddPairForm(forms.Form):
    first = UsernameField(label=_("First player"))
    second = UsernameField(label=_("Second player"))
    name = forms.CharField(label=_("Pair name (optional)"), max_length=80, required=False)


class BotPairsForm(forms.Form):
    count = forms.IntegerField(label=_("Bot pairs to add"), min_value=1, max_value=64, initial=2)


class MoveRoundForm(ReasonForm):
    """A round's new start, typed in the club's zone (build and validate it under that zone)."""

    starts_at = local_datetime_field(_("New start"))

    def __init__(self, *args, zone_name: str = "UTC", **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["starts_at"].help_text = _("In the club's time zone: %(zone)s.") % {"zone": zone_name}

    def clean_starts_at(self):
        starts_at = self.cleaned_data["starts_at"]
        if starts_at <= timezone.now():
            raise forms.ValidationError(_("The new start must be in the future."))
        return starts_at


class RoundForm(ReasonForm):
    round = forms.IntegerField(label=_("Round"), min_value=1)
    starts_at = forms.DateTimeField(label=_("New start"), required=False,
                                    widget=forms.DateTimeInput(attrs={"type": "datetime-local"}))


class ReplaceForm(ReasonForm):
    entry = forms.IntegerField(label=_("Pair number"), min_value=1)
    old = UsernameField(label=_("Player leaving"))
    new = UsernameField(label=_("Player coming in"))


class RemoveForm(ReasonForm):
    entry = forms.IntegerField(label=_("Pair number"), min_value=1)


class OverrideForm(forms.Form):
    pairing = forms.IntegerField(label=_("Pairing number"), min_value=1)
    winner = forms.ChoiceField(label=_("Winner"), choices=[("home", _("Home pair")), ("away", _("Away pair")),
                                                           ("none", _("Nobody (draw or double forfeit)"))])
    home_points = forms.IntegerField(label=_("Home games"), min_value=0, initial=0)
    away_points = forms.IntegerField(label=_("Away games"), min_value=0, initial=0)
    reason = forms.CharField(label=_("Reason"), max_length=500)


# ----- the controls on one pairing (tournaments/services/controls.py) ----------------------------

def players_of(pairing) -> list[tuple[int, str]]:
    """(user id, name) of the four players of a pairing; bots have no seat to change."""
    return [(place.user_id, place.user.player.name) for entry in (pairing.home, pairing.away) if entry is not None
            for place in entry.players.all()]


def winner_choices(pairing, draw: bool) -> list[tuple[str, str]]:
    choices = [("home", pairing.home.name), ("away", pairing.away.name if pairing.away else "")]
    return choices + ([("none", _("Nobody (draw or double forfeit)"))] if draw else [])


class StartForm(forms.Form):
    pass


class BotForm(forms.Form):
    absent = forms.TypedChoiceField(label=_("Absent player"), coerce=int)


class WalkoverForm(forms.Form):
    winner = forms.ChoiceField(label=_("Winner"))
    reason = forms.CharField(label=_("Reason"), max_length=500)


class SubstituteForm(forms.Form):
    old = forms.TypedChoiceField(label=_("Player leaving"), coerce=int)
    new = forms.TypedChoiceField(label=_("Member coming in"), coerce=int)
    reason = forms.CharField(label=_("Reason"), max_length=500, required=False)


class CorrectForm(forms.Form):
    winner = forms.ChoiceField(label=_("Winner"))
    home_points = forms.IntegerField(label=_("Games won by the home pair"), min_value=0, max_value=99, initial=0)
    away_points = forms.IntegerField(label=_("Games won by the away pair"), min_value=0, max_value=99, initial=0)
    reason = forms.CharField(label=_("Reason"), max_length=500)


class MovePairingForm(forms.Form):
    """One pairing's new start, typed in the club's zone (build and validate it under that zone)."""

    starts_at = local_datetime_field(_("New start"))
    reason = forms.CharField(label=_("Reason"), max_length=500, required=False)

    def clean_starts_at(self):
        starts_at = self.cleaned_data["starts_at"]
        if starts_at <= timezone.now():
            raise forms.ValidationError(_("The new start must be in the future."))
        return starts_at


CONTROL_FORMS = {"start": StartForm, "bot": BotForm, "walkover": WalkoverForm, "substitute": SubstituteForm,
                 "correct": CorrectForm, "move": MovePairingForm}


def control_form(action: str, pairing, members, data=None) -> forms.Form:
    """The form of one control with its choices from this pairing: no number is typed by hand."""
    form = CONTROL_FORMS[action](data, prefix=f"p{pairing.pk}")
    players = players_of(pairing)
    if "absent" in form.fields:
        form.fields["absent"].choices = players
    if "old" in form.fields:
        form.fields["old"].choices = players
        form.fields["new"].choices = [(m.pk, m.player.name) for m in members]
    if "winner" in form.fields:
        form.fields["winner"].choices = winner_choices(pairing, action == "correct" and not pairing.competition.is_bracket)
    if action == "move":
        form.fields["starts_at"].initial = pairing.starts
        form.fields["starts_at"].help_text = _("In the club's time zone: %(zone)s.") % {
            "zone": pairing.competition.club.time_zone or "UTC"}
    return form
