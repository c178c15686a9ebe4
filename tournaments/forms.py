"""Forms of competitions. The rules part reuses the new-table form (gameplay/forms.py): a game, a
named preset, then the engine's own options, checked by the engine itself."""

from __future__ import annotations

import json
from datetime import timedelta

from django import forms
from django.contrib.auth import get_user_model
from django.core.validators import MaxValueValidator
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext_lazy as _

from gameplay.api import CLOCK_CHOICES, OPTION_PREFIX, PRESET_HELP, KeyedNumbersField, LeaverPolicy, NewTableForm
from tournaments.models import Competition
from tournaments.results import result_errors
from tournaments.standings import TIEBREAKS, TIEBREAKS_BY_FORMAT
from tournaments.services.groups import groups_problem

MINUTES = _("minutes")
MAX_SWISS_ROUNDS = 15
MAX_GROUP_SIZE = 16
LOCAL_INPUT = "%Y-%m-%dT%H:%M"  # what a datetime-local box reads, whatever the page's language

# Fields that belong to one format only: shown and read only for it.
FORMAT_ONLY = {
    "swiss": ("swiss_rounds", "late_entries_until"),
    "single_elimination": ("third_place_match",),
    "double_elimination": ("grand_final_reset",),
    "round_robin": ("double_round_robin",),
    "league": ("double_round_robin", "late_entries_until"),
    "duplicate": ("movement", "odd_pairs", "boards_per_round", "scoring", "boards_seed", "reuse_seed",
                  "imported_boards"),
    "groups_knockout": ("group_size", "group_qualifiers", "third_place_match"),
}
FORMAT_HELP = {
    "swiss": _("Each round, pairs with equal scores play each other; nobody is knocked out."),
    "single_elimination": _("A knockout: the loser of each match is out."),
    "double_elimination": _("A knockout where a pair is out only after its second loss."),
    "round_robin": _("Every pair plays every other pair once."),
    "league": _("A season of weekly fixtures: every pair plays every other pair."),
    "duplicate": _("Every table plays the same deals (boards); each pair is compared with the pairs "
                   "who held the same cards."),
    "groups_knockout": _("Groups play a round robin; the best of each group go into a knockout, drawn "
                         "from the start."),
}
DEFAULTS = {"swiss_rounds": None, "third_place_match": False, "grand_final_reset": True, "double_round_robin": False,
            "movement": Competition.Movement.HOWELL, "odd_pairs": Competition.OddPairs.BOT_PAIR,
            "boards_per_round": 2, "scoring": Competition.Scoring.MATCHPOINTS, "boards_seed": None,
            "reuse_seed": False, "imported_boards": None, "late_entries_until": None, "group_size": 4,
            "group_qualifiers": 2}
FORMAT_SWITCHES = ("third_place_match", "grand_final_reset", "double_round_robin")
SHOWN = "shown"  # the page names each format box it showed: an unticked box sends nothing, a box not shown neither


def shown_switches(data) -> set[str]:
    """The format boxes the organiser saw (and so chose) on the page that sent `data`."""
    names = data.getlist(SHOWN) if hasattr(data, "getlist") else data.get(SHOWN, ())
    return {names} if isinstance(names, str) else set(names)


def switch_value(data, name: str) -> bool:
    """A format box as chosen: ticked or not when it was shown, its default when it never was
    (so a switch to double elimination keeps the grand-final reset on)."""
    return name in data if name in shown_switches(data) else DEFAULTS[name]


WEEK_DAYS, MAX_WEEK_DAYS = 7, 60
INTERVAL_UNIT = "interval_unit"  # the page says whether it showed the round interval in days or minutes


def interval_unit(format_key) -> str:
    """A league's week is typed in days; the gap between other rounds in minutes."""
    return "days" if format_key == Competition.Format.LEAGUE else "minutes"


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


TIEBREAK_LABELS = {
    "head_to_head": _("Head-to-head"), "buchholz": _("Buchholz"), "sonneborn_berger": _("Sonneborn-Berger"),
    "game_difference": _("Game points difference"), "game_points": _("Game points"),
}
TIEBREAK_SLOTS = tuple(f"tiebreak_{n}" for n in range(1, len(TIEBREAKS) + 1))
TIEBREAK_SLOT_LABELS = (_("1st tiebreak"), _("2nd tiebreak"), _("3rd tiebreak"), _("4th tiebreak"), _("5th tiebreak"))
RANKED_FORMATS = ("swiss", "round_robin", "league")  # ranked by points and tiebreaks (not a bracket, not boards)


def tiebreak_field(number: int) -> forms.ChoiceField:
    """One place of the tiebreak order: a box per place, each offering every tiebreak Chalk computes."""
    return forms.ChoiceField(label=TIEBREAK_SLOT_LABELS[number - 1], required=False,
                             choices=[("", _("(none)"))] + [(name, TIEBREAK_LABELS[name]) for name in TIEBREAKS])


def tiebreak_order_errors(chosen: list[str]) -> dict[int, str]:
    """The places (0-based) of a tiebreak order that repeat an earlier one, each with its sentence."""
    errors, seen = {}, set()
    for index, name in enumerate(chosen):
        if name and name in seen:
            errors[index] = _("%(name)s is already an earlier tiebreak: choose each one once.") % {
                "name": TIEBREAK_LABELS[name]}
        seen.add(name)
    return errors


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
    description = forms.CharField(label=_("Description"), max_length=2000, required=False,
                                  widget=forms.Textarea(attrs={"rows": 3}),
                                  help_text=_("Shown on the competition's page: prizes, where to meet, anything entrants should know."))
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

    entry_cap = forms.IntegerField(label=_("Entry cap (pairs)"), min_value=2, max_value=1000, required=False,
                                   help_text=_("Empty: no cap. Pairs entering past it go on a waiting list and move "
                                               "up, in order, when an entered pair withdraws before the start."))
    late_entries_until = forms.IntegerField(
        label=_("Late entries until round"), min_value=2, max_value=MAX_SWISS_ROUNDS, required=False,
        help_text=_("Empty: no late entries. After the start a pair may still enter until this round is drawn "
                    "(a league: until this week opens); it plays from the next round."))
    tiebreak_1, tiebreak_2, tiebreak_3, tiebreak_4, tiebreak_5 = (tiebreak_field(n) for n in range(1, 6))
    group_size = forms.IntegerField(
        label=_("Pairs per group"), min_value=3, max_value=MAX_GROUP_SIZE, initial=4, required=False,
        help_text=_("When the pairs do not divide into groups of this size, some groups have one pair fewer."))
    group_qualifiers = forms.IntegerField(label=_("Pairs through from each group"), min_value=1,
                                          max_value=MAX_GROUP_SIZE - 1, initial=2, required=False,
                                          help_text=_("The best of each group go into the knockout."))

    reconnect_seconds = forms.IntegerField(label=_("Reconnect window (seconds)"), min_value=10, max_value=600,
                                           initial=60, required=False, help_text=_("How long a disconnected player may take to come back."))
    leaver_policy = forms.ChoiceField(label=_("When a player leaves"), choices=LeaverPolicy.choices,
                                      initial=LeaverPolicy.FORFEIT, required=False)

    players_report = forms.BooleanField(
        label=_("Players report results of matches played at the club"), required=False,
        help_text=_("A player enters the result and the opponents confirm it; if they dispute it, you decide."))

    COMMON_FIELDS = ("name", "description", "format", "seeding", "visibility", "starts_at", "entries_close_at", "entry_cap",
                     "round_interval", "check_in", "grace", "reconnect_seconds", "leaver_policy", "players_report")
    SWITCHES = ("game", "format", "preset")

    def __init__(self, *args, zone_name: str = "UTC", refresh_url: str = "", club_id: int | None = None,
                 entered: int = 0, **kwargs):
        super().__init__(*args, **kwargs)
        self.zone_name = zone_name
        self.entered = entered  # pairs entered so far (the edit page): the groups are checked against them
        self.club_id = club_id
        for name in ("is_public", "rated", "fill_with_bots", "seat", "friend", "friend_role"):
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
        usual = ", ".join(str(TIEBREAK_LABELS[name]) for name in TIEBREAKS_BY_FORMAT.get(self.format_key, ()))
        self.fields["tiebreak_1"].help_text = _("All empty: this format's usual order (%(order)s).") % {"order": usual}
        if self.format_key == Competition.Format.LEAGUE:  # a week is typed in days, other gaps in minutes
            interval = self.fields["round_interval"]
            interval.label, interval.initial = _("Length of a fixture week (days)"), WEEK_DAYS
            interval.max_value = MAX_WEEK_DAYS
            interval.validators = [v for v in interval.validators if not isinstance(v, MaxValueValidator)]
            interval.validators.append(MaxValueValidator(MAX_WEEK_DAYS))
            interval.widget.attrs["max"] = MAX_WEEK_DAYS
            interval.help_text = _("Each week's matches are played within this many days; the next week starts then.")
        for name in self.SWITCHES:  # each sends the whole form, so the refreshed one keeps every value
            self.fields[name].widget.attrs.update({
                "hx-get": refresh_url, "hx-include": "closest form", "hx-target": "#competition-form",
                "hx-swap": "outerHTML", "hx-params": "not csrfmiddlewaretoken", "hx-sync": "closest form:replace"})

    @property
    def interval_unit(self) -> str:
        return interval_unit(self.format_key)

    def _value(self, name):
        source = self.data if self.is_bound else self.initial
        return source.get(name, self.fields[name].initial)

    @classmethod
    def refreshed(cls, data, changed: str, **kwargs) -> "CompetitionForm":
        """An unbound form showing `data` (what the organiser had typed) after `changed` changed:
        a new game brings its own presets and options, a new preset its options; the rest stays."""
        initial = {key: data.get(key) for key in data if key != "csrfmiddlewaretoken"}
        initial.pop(SHOWN, None)
        initial.pop(INTERVAL_UNIT, None)
        for name in FORMAT_SWITCHES:
            initial[name] = switch_value(data, name)
        initial["reuse_seed"] = "reuse_seed" in data
        if changed == "game":
            initial.pop("preset", None)
        if data.get(INTERVAL_UNIT) and data.get(INTERVAL_UNIT) != interval_unit(data.get("format")):
            initial.pop("round_interval", None)  # minutes typed for a Swiss are no length of a week
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

    def tiebreak_fields(self):
        """The tiebreak order's boxes, for a format ranked by points (empty for brackets and duplicates)."""
        return [self[name] for name in TIEBREAK_SLOTS] if self.format_key in RANKED_FORMATS else []

    def clean_tiebreaks(self, data) -> None:
        """The chosen order (gaps closed up), each repeat refused beside its box; none chosen: the format's own."""
        if data.get("format") not in RANKED_FORMATS:
            data["tiebreak_order"] = []
            return
        chosen = [data.get(name) or "" for name in TIEBREAK_SLOTS]
        for index, message in tiebreak_order_errors(chosen).items():
            self.add_error(TIEBREAK_SLOTS[index], message)
        data["tiebreak_order"] = [name for name in chosen if name]

    def carried(self) -> list[tuple[str, str]]:
        """(name, value) of the other formats' fields, kept in hidden inputs so a switch of format
        and back finds them as they were: Swiss rounds, and each format box that was shown (with
        its name under `shown`, and "on" when ticked). Nothing the form would refuse is carried."""
        mine = FORMAT_ONLY.get(self.format_key, ())
        kept = []
        rounds = self._value("swiss_rounds") if "swiss_rounds" not in mine else None
        if str(rounds or "").isdigit() and 1 <= int(rounds) <= MAX_SWISS_ROUNDS:
            kept.append(("swiss_rounds", str(int(rounds))))
        source = self.data if self.is_bound else self.initial
        chosen = shown_switches(source) | {name for name in FORMAT_SWITCHES if name in source}
        for name in FORMAT_SWITCHES:
            if name not in mine and name in chosen:
                kept.append((SHOWN, name))
                if (name in source) if self.is_bound else bool(source.get(name)):
                    kept.append((name, "on"))
        return kept

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
            elif name in FORMAT_SWITCHES:
                data[name] = switch_value(self.data, name)
        if data.get("format") == Competition.Format.DUPLICATE:
            self.clean_duplicate(data)
        self.clean_tiebreaks(data)
        if data.get("format") == Competition.Format.GROUPS:
            self.clean_groups(data)
        unit = self.data.get(INTERVAL_UNIT)
        if unit and data.get("format") and unit != interval_unit(data["format"]) and "round_interval" in data:
            self.add_error("round_interval", _("The format changed: check this length again."))
        elif data.get("format") == Competition.Format.LEAGUE and not data.get("round_interval"):
            self.add_error("round_interval", _("A league season needs the length of a fixture week."))
        late, rounds = data.get("late_entries_until"), data.get("swiss_rounds")
        if late and data.get("format") == Competition.Format.SWISS and rounds and late > rounds:
            self.add_error("late_entries_until", _("The Swiss has %(rounds)s rounds: late entries must close by "
                                                   "round %(rounds)s.") % {"rounds": rounds})
        closes, starts = data.get("entries_close_at"), data.get("starts_at")
        if closes and starts and closes > starts:
            self.add_error("entries_close_at", _("Entries must close before the competition starts."))
        return data

    def clean_groups(self, data) -> None:
        """Fewer go through than a group holds (else nothing is played for); with the pairs
        already entered (`self.entered`, on the edit page) the groups must be possible."""
        for name in ("group_size", "group_qualifiers"):
            if data.get(name) is None and name not in self.errors:
                data[name] = DEFAULTS[name]
        size, through = data.get("group_size"), data.get("group_qualifiers")
        if size is None or through is None:
            return
        if through >= size:
            self.add_error("group_qualifiers", _("Fewer pairs must go through than a group holds (%(size)d).") % {
                "size": size})
        elif self.entered >= 2:
            problem = groups_problem(self.entered, size, through)
            if problem:
                self.add_error("group_size", problem)

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
        base, slug, n = slugify(self.cleaned_data["name"])[:100] or "competition", None, 1
        slug = base
        while Competition.objects.filter(club=club, slug=slug).exists():
            n += 1
            slug = f"{base}-{n}"
        return Competition(club=club, slug=slug, created_by=user, **self.values())

    def values(self) -> dict:
        """The competition's fields as the form sets them (creating one, or editing it before its start)."""
        data = self.cleaned_data
        return dict(
            name=data["name"], description=data.get("description", ""), game=self.game_key, format=data["format"],
            kind=Competition.Kind.LEAGUE if data["format"] == Competition.Format.LEAGUE else Competition.Kind.TOURNAMENT,
            visibility=data["visibility"], preset=self.preset_key, options=data["options"], best_of=data["best_of"],
            time_control=data["time_control"], substitute_bot=data.get("bot_level") or "normal", swiss_rounds=data["swiss_rounds"],
            third_place_match=data["third_place_match"], grand_final_reset=data["grand_final_reset"],
            double_round_robin=data["double_round_robin"], seeding=data["seeding"], starts_at=data["starts_at"],
            entries_close_at=data["entries_close_at"], entry_cap=data.get("entry_cap"),
            late_entries_until=data.get("late_entries_until"), tiebreak_order=data.get("tiebreak_order", []),
            round_interval=timedelta(**{interval_unit(data["format"]): data["round_interval"]}),
            check_in=timedelta(minutes=data["check_in"]),
            grace=timedelta(minutes=data["grace"]), reconnect_seconds=data.get("reconnect_seconds") or 60,
            leaver_policy=data.get("leaver_policy") or LeaverPolicy.FORFEIT, players_report=data.get("players_report", False),
            group_size=data["group_size"], group_qualifiers=data["group_qualifiers"],
            movement=data["movement"], odd_pairs=data["odd_pairs"], boards_per_round=data["boards_per_round"],
            scoring=data["scoring"], boards_seed=None if data["imported_boards"] else data["boards_seed"],
            board_set=data["imported_boards"].to_json() if data["imported_boards"] else {})

    @classmethod
    def of(cls, competition: Competition, **kwargs) -> "CompetitionForm":
        """The form showing a competition as it is (its edit page): every field, the rule options too."""
        interval = competition.round_interval.total_seconds() // (86400 if competition.is_league else 60)
        initial = {
            "name": competition.name, "description": competition.description, "format": competition.format, "seeding": competition.seeding,
            "visibility": competition.visibility, "starts_at": competition.starts_at,
            "entries_close_at": competition.entries_close_at, "round_interval": int(interval),
            "entry_cap": competition.entry_cap, "late_entries_until": competition.late_entries_until,
            "check_in": int(competition.check_in.total_seconds() // 60), "grace": int(competition.grace.total_seconds() // 60),
            "swiss_rounds": competition.swiss_rounds, "third_place_match": competition.third_place_match,
            "grand_final_reset": competition.grand_final_reset, "double_round_robin": competition.double_round_robin,
            "reconnect_seconds": competition.reconnect_seconds, "leaver_policy": competition.leaver_policy,
            "players_report": competition.players_report,
            "game": competition.game, "preset": competition.preset, "time_control": competition.time_control,
            "best_of": competition.best_of, "bot_level": competition.substitute_bot,
            "movement": competition.movement, "odd_pairs": competition.odd_pairs,
            "boards_per_round": competition.boards_per_round, "scoring": competition.scoring,
            "boards_seed": competition.boards_seed, "group_size": competition.group_size,
            "group_qualifiers": competition.group_qualifiers}
        initial.update(zip(TIEBREAK_SLOTS, competition.tiebreak_order or ()))
        form = cls(initial=initial, game=competition.game, preset=competition.preset, **kwargs)
        for name, field in form.fields.items():
            key = name[len(OPTION_PREFIX):] if name.startswith(OPTION_PREFIX) else None
            if key is not None and key in competition.options:
                value = competition.options[key]
                form.initial[name] = str(value) if isinstance(field, forms.ChoiceField) and type(value) is not bool else value
        return form


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


class FutureStartForm(forms.Form):
    """A start typed in the club's zone (build and validate it under that zone)."""

    starts_at = local_datetime_field(_("Starts at"))
    in_the_past = _("The start must be in the future.")

    def __init__(self, *args, zone_name: str = "UTC", **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["starts_at"].help_text = _("In the club's time zone: %(zone)s.") % {"zone": zone_name}

    def clean_starts_at(self):
        starts_at = self.cleaned_data["starts_at"]
        if starts_at <= timezone.now():
            raise forms.ValidationError(self.in_the_past)
        return starts_at


class MoveRoundForm(FutureStartForm, ReasonForm):
    """A round's new start, typed in the club's zone."""

    starts_at = local_datetime_field(_("New start"))
    in_the_past = _("The new start must be in the future.")


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
    new = forms.TypedChoiceField(label=_("Member coming in"), coerce=int, error_messages={
        "invalid_choice": _("Choose a member of the club who does not already play in this competition.")})
    reason = forms.CharField(label=_("Reason"), max_length=500, required=False)


class CorrectForm(forms.Form):
    """A new result, checked against the match's format (`games_to_win`, whether nobody may win)."""

    winner = forms.ChoiceField(label=_("Winner"))
    home_points = forms.IntegerField(label=_("Games won by the home pair"), min_value=0, max_value=99, initial=0)
    away_points = forms.IntegerField(label=_("Games won by the away pair"), min_value=0, max_value=99, initial=0)
    reason = forms.CharField(label=_("Reason"), max_length=500)
    games_to_win, draw_allowed = 1, True

    def clean(self):
        data = super().clean()
        if all(name in data for name in ("winner", "home_points", "away_points")):
            for field, message in result_errors(self.games_to_win, data["winner"], data["home_points"],
                                                data["away_points"], self.draw_allowed).items():
                self.add_error(field, message)
        return data


class ClubResultForm(CorrectForm):
    """The result of a match played face to face at the club (the reason is optional here)."""

    reason = forms.CharField(label=_("Note (optional)"), max_length=500, required=False)


class ReportForm(CorrectForm):
    """A player's report of a match played at the club (tournaments/services/reports.py): no reason."""

    reason = None


def report_form(pairing, data=None) -> ReportForm:
    """The report form of one pairing, its winner named by the pairs, checked against its format."""
    form = ReportForm(data, prefix=f"r{pairing.pk}")
    competition = pairing.competition
    form.games_to_win, form.draw_allowed = competition.games_to_win, not competition.is_bracket
    form.fields["winner"].choices = winner_choices(pairing, not competition.is_bracket)
    return form


class MovePairingForm(forms.Form):
    """One pairing's new start, typed in the club's zone (build and validate it under that zone)."""

    starts_at = local_datetime_field(_("New start"))
    reason = forms.CharField(label=_("Reason"), max_length=500, required=False)

    def clean_starts_at(self):
        starts_at = self.cleaned_data["starts_at"]
        if starts_at <= timezone.now():
            raise forms.ValidationError(_("The new start must be in the future."))
        return starts_at


def show_current_result(form: CorrectForm, pairing) -> None:
    """The correction starts from the result it corrects, said in words above its boxes."""
    competition = pairing.competition
    form.games_to_win, form.draw_allowed = competition.games_to_win, not pairing.is_knockout
    side = {pairing.home_id: "home", pairing.away_id: "away"}.get(pairing.winner_id, "none")
    form.initial.update({"winner": side, "home_points": pairing.home_points, "away_points": pairing.away_points})
    if pairing.decided_at:
        form.fields["winner"].help_text = _(
            "Current result: %(home)s %(home_games)s–%(away_games)s %(away)s (%(source)s).") % {
            "home": pairing.home.name, "away": pairing.away.name if pairing.away else "",
            "home_games": pairing.home_points, "away_games": pairing.away_points,
            "source": pairing.get_source_display()}


CONTROL_FORMS = {"start": StartForm, "bot": BotForm, "walkover": WalkoverForm, "substitute": SubstituteForm,
                 "correct": CorrectForm, "club": ClubResultForm, "move": MovePairingForm}


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
        form.fields["winner"].choices = winner_choices(
            pairing, action in ("correct", "club") and not pairing.is_knockout)
    if action == "correct":
        show_current_result(form, pairing)
    if action == "club":
        form.games_to_win, form.draw_allowed = pairing.competition.games_to_win, not pairing.is_knockout
    if action == "move":
        form.fields["starts_at"].initial = pairing.starts
        form.fields["starts_at"].help_text = _("In the club's time zone: %(zone)s.") % {
            "zone": pairing.competition.club.time_zone or "UTC"}
    return form


# ----- a competition's life (tournaments/services/lifecycle.py) -----------------------------------

class ReopenForm(FutureStartForm):
    pass


class RunAgainForm(FutureStartForm):
    with_entries = forms.BooleanField(label=_("Enter the same pairs again"), required=False,
                                      help_text=_("Every pair entered in this one is entered in the copy, as it was."))


class AnnouncementForm(forms.Form):
    """An announcement to every entrant (tournaments/services/announcements.py checks the text)."""

    text = forms.CharField(label=_("Announcement to every entrant"), required=False,
                           widget=forms.Textarea(attrs={"rows": 3, "maxlength": 1000}),
                           help_text=_("Sent as typed, on the site and by e-mail; at most 1000 characters."))

    def clean_text(self):
        from tournaments.services.announcements import text_errors
        text = self.cleaned_data["text"]
        problem = text_errors(text)
        if problem:
            raise forms.ValidationError(problem)
        return text.strip()


class CancelForm(forms.Form):
    reason = forms.CharField(label=_("Reason (shown in the audit log)"), max_length=300, required=False)


class LiveEditForm(forms.Form):
    """After the start: name, description, check-in and no-show windows, and a box per round with
    the round's start; the boxes of rounds already open are shown disabled (their time is fixed)."""

    name = forms.CharField(label=_("Name"), max_length=120)
    description = CompetitionForm.base_fields["description"]
    check_in = minutes_field(_("Check-in opens (minutes before a round)"), 15)
    grace = minutes_field(_("Grace period for no-shows (minutes)"), 10,
                          _("For the rounds not yet open; an open round keeps its deadline."))

    def __init__(self, *args, competition: Competition, rounds, zone_name: str = "UTC", **kwargs):
        super().__init__(*args, **kwargs)
        self.competition, self.rounds = competition, list(rounds)
        if competition.is_league:
            del self.fields["check_in"], self.fields["grace"]
        for round_row in self.rounds:
            field = local_datetime_field(_("Round %(number)s starts at") % {"number": round_row.number},
                                         initial=round_row.starts_at, required=False)
            name = f"round_{round_row.number}"
            if round_row.status == "scheduled" or (self.is_bound and self.data.get(name)):
                # a box typed in while its round was not yet open reaches the service, which refuses beside it
                field.help_text = _("In the club's time zone: %(zone)s.") % {"zone": zone_name}
            else:
                field.disabled = True
                field.help_text = _("This round is open: its time can no longer change.")
            self.fields[name] = field

    @classmethod
    def of(cls, competition: Competition, rounds, **kwargs) -> "LiveEditForm":
        initial = {"name": competition.name, "description": competition.description,
                   "check_in": int(competition.check_in.total_seconds() // 60),
                   "grace": int(competition.grace.total_seconds() // 60)}
        return cls(initial=initial, competition=competition, rounds=rounds, **kwargs)

    def round_fields(self):
        return [self[f"round_{r.number}"] for r in self.rounds]

    def main_fields(self):
        return [self[name] for name in ("name", "description", "check_in", "grace") if name in self.fields]

    def values(self) -> dict:
        data = self.cleaned_data
        values = {"name": data["name"], "description": data.get("description", "")}
        if "check_in" in data:
            values.update(check_in=timedelta(minutes=data["check_in"]), grace=timedelta(minutes=data["grace"]))
        return values

    def round_starts(self) -> dict:
        """Round number -> typed start, for the rounds whose box is open and filled."""
        return {r.number: self.cleaned_data[f"round_{r.number}"] for r in self.rounds
                if not self.fields[f"round_{r.number}"].disabled and self.cleaned_data.get(f"round_{r.number}")}


class SeedsForm(forms.Form):
    """A number box per entered pair (`seed_<entry id>`): every pair once, 1 to N, no gap and no repeat.
    A refused form keeps every number typed, its errors beside the boxes that repeat or skip."""

    def __init__(self, entries, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.entries = list(entries)
        for position, entry in enumerate(self.entries, start=1):
            self.fields[self.name_of(entry)] = forms.IntegerField(
                label=entry.name, min_value=1, initial=entry.seed or position,
                widget=forms.NumberInput(attrs={"inputmode": "numeric", "data-seed": "", "min": 1,
                                                "max": len(self.entries)}))

    @staticmethod
    def name_of(entry) -> str:
        return f"seed_{entry.pk}"

    def rows(self):
        """(entry, its bound box) in the order shown: the present seed order."""
        return [(entry, self[self.name_of(entry)]) for entry in self.entries]

    def clean(self):
        data, count, taken = super().clean(), len(self.entries), {}
        for entry in self.entries:
            name, seed = self.name_of(entry), data.get(self.name_of(entry))
            if seed is None:
                continue
            if seed in taken:
                self.add_error(name, _("Seed %(seed)s is already %(pair)s's: give each pair its own number.")
                               % {"seed": seed, "pair": taken[seed].name})
            elif seed > count:
                missing = sorted(set(range(1, count + 1)) - {v for v in data.values() if isinstance(v, int)})
                self.add_error(name, _("There are %(count)s pairs: seeds run from 1 to %(count)s without a gap "
                                       "(%(missing)s is missing).") % {"count": count,
                                                                       "missing": ", ".join(map(str, missing))})
            taken.setdefault(seed, entry)
        return data

    def seeds(self) -> dict[int, int]:
        return {entry.pk: self.cleaned_data[self.name_of(entry)] for entry in self.entries}
