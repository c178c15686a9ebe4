"""Forms of competitions. The rules part reuses the new-table form (gameplay/forms.py): a game, a
named preset, then the engine's own options, checked by the engine itself."""

from __future__ import annotations

from datetime import timedelta

from django import forms
from django.contrib.auth import get_user_model
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext_lazy as _

from gameplay.api import CLOCK_CHOICES, LeaverPolicy, NewTableForm
from tournaments.models import Competition

MINUTES = _("minutes")


def minutes_field(label, initial, help_text=""):
    return forms.IntegerField(label=label, min_value=0, initial=initial, help_text=help_text)


class CompetitionForm(NewTableForm):
    """Name, format, schedule and the rules; `create(club, user)` saves the competition."""

    name = forms.CharField(label=_("Name"), max_length=120)
    format = forms.ChoiceField(label=_("Format"), choices=Competition.Format.choices)
    seeding = forms.ChoiceField(label=_("Seeding"), choices=Competition.Seeding.choices)
    visibility = forms.ChoiceField(label=_("Who may follow it"), choices=Competition.Visibility.choices)
    starts_at = forms.DateTimeField(label=_("Starts at"), widget=forms.DateTimeInput(attrs={"type": "datetime-local"}))
    entries_close_at = forms.DateTimeField(label=_("Entries close"), required=False,
                                           widget=forms.DateTimeInput(attrs={"type": "datetime-local"}),
                                           help_text=_("Empty: at the start."))
    round_interval = minutes_field(_("Minutes between rounds (league: minutes in a fixture week)"), 0)
    check_in = minutes_field(_("Check-in opens (minutes before a round)"), 15)
    grace = minutes_field(_("Grace period for no-shows (minutes)"), 10)
    swiss_rounds = forms.IntegerField(label=_("Swiss rounds"), min_value=1, required=False,
                                      help_text=_("Empty: enough rounds for a clear winner."))
    third_place_match = forms.BooleanField(label=_("Third-place match"), required=False)
    grand_final_reset = forms.BooleanField(label=_("Grand final reset"), required=False, initial=True)
    double_round_robin = forms.BooleanField(label=_("Double round robin"), required=False)
    reconnect_seconds = forms.IntegerField(label=_("Reconnect window (seconds)"), min_value=10, max_value=600,
                                           initial=60, required=False, help_text=_("How long a disconnected player may take to come back."))
    leaver_policy = forms.ChoiceField(label=_("When a player leaves"), choices=LeaverPolicy.choices,
                                      initial=LeaverPolicy.FORFEIT, required=False)

    FORMAT_FIELDS = ("name", "format", "seeding", "visibility", "starts_at", "entries_close_at", "round_interval",
                     "check_in", "grace", "swiss_rounds", "third_place_match", "grand_final_reset",
                     "double_round_robin", "reconnect_seconds", "leaver_policy")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for name in ("is_public", "fill_with_bots", "seat", "friend", "friend_role"):
            del self.fields[name]
        self.fields["time_control"].choices = [c for c in CLOCK_CHOICES if c[0]]
        self.fields["time_control"].initial = 30
        self.fields["starts_at"].initial = (timezone.now() + timedelta(days=1)).replace(second=0, microsecond=0)

    def table_fields(self):
        return [self[name] for name in ("time_control", "best_of")]

    def competition_fields(self):
        return [self[name] for name in self.FORMAT_FIELDS]

    def clean(self):
        data = super().clean()
        if data.get("format") == Competition.Format.LEAGUE and not data.get("round_interval"):
            self.add_error("round_interval", _("A league season needs the length of a fixture week."))
        return data

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
            time_control=data["time_control"], swiss_rounds=data["swiss_rounds"],
            third_place_match=data["third_place_match"], grand_final_reset=data["grand_final_reset"],
            double_round_robin=data["double_round_robin"], seeding=data["seeding"], starts_at=data["starts_at"],
            entries_close_at=data["entries_close_at"],
            round_interval=timedelta(minutes=data["round_interval"]), check_in=timedelta(minutes=data["check_in"]),
            grace=timedelta(minutes=data["grace"]), reconnect_seconds=data.get("reconnect_seconds") or 60,
            leaver_policy=data.get("leaver_policy") or LeaverPolicy.FORFEIT, created_by=user)


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
