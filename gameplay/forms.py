"""The new-table form: a game, a named preset, the game's own options, clock, length and seats.

Option fields are built from the engine's `options_spec` (closed choices -> select, booleans ->
checkbox, whole numbers -> number, anything else -> JSON text), and the options are checked by
the engine itself (`resolve_options`), so a value the rules refuse is a form error and nothing is
created. An option left at the game's default takes the chosen preset's value.
"""

from __future__ import annotations


from django import forms
from django.contrib.auth import get_user_model
from django.utils.translation import gettext_lazy as _

from gameplay import services
from gameplay.bot_levels import LEVEL_CHOICES
from gameplay.bots import DEFAULT_LEVEL
from gameplay.models import Game
from gameplay.rules import ScenarioError, get_game
from gameplay.services import SeatSpec

OPTION_PREFIX = "opt_"
# Set by the form itself rather than shown: the match clock decides Baloot's turn timer, and
# Baloot's game_mode comes with the chosen preset ("Saudi classic" or one of the contract ones).
HIDDEN_OPTIONS = {"turn_timer_seconds", "game_mode"}
CLOCK_CHOICES = [(0, _("Untimed")), (15, _("15 seconds")), (30, _("30 seconds")), (60, _("60 seconds"))]
BEST_OF_CHOICES = [(1, _("One game")), (3, _("Best of 3")), (5, _("Best of 5"))]
SEAT_CHOICES = [(0, _("Seat 1")), (1, _("Seat 2")), (2, _("Seat 3")), (3, _("Seat 4"))]
FRIEND_ROLES = [("partner", _("as my partner")), ("opponent", _("as an opponent"))]
# Casual tables: clocks wait this long for every seat to be connected (gameplay/presence.py), and
# a clock that runs out plays a default move rather than losing the match (issue 13).
CASUAL_CHECKIN_SECONDS = 120
CASUAL_TIMEOUT_RESULT = "auto_action"

OPTION_LABELS = {
    "players": _("Players"), "target_score": _("Target score"), "target": _("Target score"),
    "kick_scoring": _("Kick scoring"), "game_points": _("Value of Game"),
    "hang_jack_points": _("Value of hang jack"), "follow_rule": _("Following suit"),
    "undertrump": _("Undertrumping"), "give_one_at_game": _("Give one at game"),
    "give_one_requires_trump": _("Give one only with a trump"), "game_tie": _("Tied Game goes to"),
    "timeout_result": _("When a clock runs out"), "target_rule": _("Winning the match"),
    "bonus_trick": _("Bonus trick"), "no_trump_double": _("Double card points in no trumps"),
    "must_undertrump": _("Must undertrump"), "partner_exempts_trump_raise": _("No need to beat a partner's trump"),
    "meld_comparison": _("Comparing melds"), "tie_rule": _("Equal points"),
    "belote_kept_by_holder": _("Belote kept by its holder"), "no_win_on_capot": _("A capot cannot end the match"),
    "annulled_deal_dealer": _("Dealer after all pass"), "shuffle_each_deal": _("Shuffle every deal"),
    "exact_target": _("Exact target"), "values": _("Contract values"),
    "last_trick_bonus": _("Last trick bonus"), "cantes": _("Cantes (20 and 40)"),
    "cante_points": _("Cante points [plain, trump]"), "must_head": _("Must head the trick"),
    "head_reference": _("Head against"), "must_trump": _("Must trump"), "must_overtrump": _("Must overtrump"),
    "bidding": _("Bidding"), "first_lead": _("First lead"), "play_out": _("Play contracts out"),
    # classic Saudi Baloot (rules/baloot_saudi.md section 2.1)
    "sun_priority": _("“Before you” claim on a Sun"), "round2_hokum_window": _("Answering a second-round Hokum"),
    "hokum_confirm": _("The Hokum buyer confirms or switches to Sun"),
    "ace_sun_switch": _("Switching to Sun on a face-up Ace"), "ashkal_round2": _("Ashkal in the second round"),
    "sun_double_rule": _("Doubling a Sun"), "closed_double": _("Closed (locked) double"),
    "trump_raise_over_partner": _("Beat a partner's trump lead"),
    "partner_winning_ruff": _("Trumping when the partner is winning"),
    "four_hundred_raw": _("Four Aces in Sun (raw points)"),
    "baloot_blocked_by_hundred": _("A hundred with K and Q of trumps cancels the baloot"),
    "equal_points_rule": _("Equal points in an undoubled deal"), "loser_projects": _("The failed team's projects"),
    "baloot_on_loss": _("The failed team's baloot"), "kaboot_multiplied": _("Doubling multiplies a kaboot"),
    "equal_final_scores": _("Both teams past the target with equal scores"),
}
CHOICE_LABELS = {
    "trinidad": _("Trinidad (turned-up Six: 2)"), "tobago": _("Tobago (turned-up Two: 2)"),
    "follow_or_trump": _("Follow suit or trump"), "trump_only": _("Only trumps are free"),
    "free": _("Free"), "allowed": _("Allowed"), "forbidden": _("Forbidden"), "none": _("Nobody"),
    "non_dealer": _("The pone's team"), "forfeit_match": _("The team loses the match"),
    "auto_action": _("A default move is played"), "greater": _("Pass the target"),
    "at_least": _("Reach the target"), "last": _("Last trick"), "first": _("First trick"),
    "best_overall": _("Best meld overall"), "by_category": _("By category"),
    "hanging": _("Points hang for the next deal"), "contract_made": _("The contract is made"),
    "contract_fails": _("The contract fails"), "next": _("The next player"), "same": _("The same dealer"),
    "highest": _("The highest card so far"), "lead": _("The card led"),
    "overcall": _("Overcalls allowed"), "first_wins": _("First announcement wins"),
    "mano": _("The mano"), "declarer": _("The declarer"),
    "round1": _("In the first round"), "both_rounds": _("In both rounds"),
    "all_others": _("The three other players"), "later_only": _("Only players who have not spoken"),
    "first_seat_only": _("Only the first player"), "never": _("Never"), "always": _("Always"),
    "behind_100": _("Only when the buyers have 100 and the others less"),
    "free_if_certain": _("Free only when the partner is sure to win"), "must_ruff": _("Must trump"),
    "kammelna": _("Kammelna: a tied Hokum fails, a tied Sun splits"), "split": _("Both teams keep their points"),
    "buyer_loses": _("The buyers fail"), "to_winner": _("Go to the winners"), "void": _("Are lost"),
    "kept": _("Kept by its team"), "continue": _("Play another deal"), "buyer_team": _("The buying team wins"),
    "contract": _("Contract Baloot"), "saudi_classic": _("Saudi classic"),
}
# One line under the Rules menu for presets that need it.
PRESET_HELP = {
    "saudi_classic": _("The Baloot of Saudi Arabia and the Gulf: Hokum or Sun for the face-up card, "
                       "Ashkal, double – triple – four – gahwa, to 152."),
    "source": _("The contract variant: a ladder of six contracts with double and redouble, to 151."),
}
PRESET_LABELS = {
    "trinidad_standard": _("Trinidad standard (14 points)"), "tobago": _("Tobago"),
    "tournament_game_two": _("Tournament: Game is worth 2"), "stag_jack": _("Stag jack"),
    "short_seven": _("Short match (7 points)"), "all_twos": _("All Twos (two players)"),
    "source": _("Standard"), "bulgarian_written_rules": _("Bulgarian written rules"),
    "literal_source": _("Literal source (bonus on the first trick)"), "standard": _("Standard (11 points)"),
    "ludoteka_21": _("Ludoteka (21 points)"), "first_announcement_wins": _("First announcement wins"),
    "declarer_leads": _("Declarer leads"), "quick_contracts": _("Quick contracts"),
    "saudi_classic": _("Saudi classic"), "saudi_arena_sheet": _("Saudi classic: score-sheet ties"),
    "saudi_majlis": _("Saudi classic: majlis rules"), "saudi_jawaker": _("Saudi classic: Jawaker wording"),
}


def humanise(value) -> str:
    return str(value).replace("_", " ").capitalize()


def option_field(option) -> forms.Field:
    label = OPTION_LABELS.get(option.key, humanise(option.key))
    if option.choices and all(type(c) is bool for c in option.choices):
        return forms.BooleanField(label=label, required=False, initial=option.default)
    if option.choices:
        by_text = {str(c): c for c in option.choices}
        return forms.TypedChoiceField(label=label, initial=str(option.default), coerce=by_text.__getitem__,
                                      choices=[(str(c), CHOICE_LABELS.get(str(c), humanise(c)))
                                               for c in option.choices])
    if type(option.default) is int:
        return forms.IntegerField(label=label, initial=option.default)
    return forms.JSONField(label=label, initial=option.default)


class NewTableForm(forms.Form):
    game = forms.ChoiceField(label=_("Game"), choices=Game.choices)
    preset = forms.ChoiceField(label=_("Rules"))
    time_control = forms.TypedChoiceField(label=_("Time per decision"), choices=CLOCK_CHOICES, coerce=int, initial=0)
    best_of = forms.TypedChoiceField(label=_("Length"), choices=BEST_OF_CHOICES, coerce=int, initial=1)
    is_public = forms.BooleanField(label=_("Public: anyone may find and watch this table"), required=False,
                                   initial=True)
    fill_with_bots = forms.BooleanField(label=_("Fill the empty seats with bots now"), required=False)
    bot_level = forms.ChoiceField(label=_("Level of the bots"), choices=LEVEL_CHOICES, initial=DEFAULT_LEVEL,
                                  required=False)
    seat = forms.TypedChoiceField(label=_("Your seat"), choices=SEAT_CHOICES, coerce=int, initial=0, required=False,
                                  help_text=_("Seats 1 and 3 are partners, as are seats 2 and 4."))
    friend = forms.CharField(label=_("Invite a friend (user name)"), required=False, max_length=150)
    friend_role = forms.ChoiceField(label=_("Your friend sits"), choices=FRIEND_ROLES, initial="partner",
                                    required=False)

    def __init__(self, *args, game: str = Game.ALLFOURS, preset: str | None = None, user=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.user = user
        if self.is_bound:
            game = self.data.get("game", game)
            preset = self.data.get("preset", preset)
        self.game_key = game if game in Game.values else Game.ALLFOURS
        self.engine = get_game(self.game_key)
        self.fields["game"].initial = self.game_key
        self.fields["preset"].choices = [(key, PRESET_LABELS.get(key, humanise(key))) for key in self.engine.presets]
        self.preset_key = preset if preset in self.engine.presets else next(iter(self.engine.presets))
        self.fields["preset"].initial = self.preset_key
        shown = {**self.engine.default_options(), "timeout_result": CASUAL_TIMEOUT_RESULT,
                 **self.engine.presets[self.preset_key]}
        self.preset_help = PRESET_HELP.get(self.preset_key, "")
        for option in self.mode_options():
            if option.key not in HIDDEN_OPTIONS:
                field = self.fields[OPTION_PREFIX + option.key] = option_field(option)
                value = shown[option.key]
                field.initial = str(value) if option.choices and type(value) is not bool else value

    def mode_options(self) -> list:
        """The options of the chosen preset's mode (Baloot: contract or Saudi classic)."""
        mode = self.engine.presets[self.preset_key].get("game_mode", "")
        return self.engine.options_in_mode(mode)

    def option_fields(self):
        return [self[name] for name in self.fields if name.startswith(OPTION_PREFIX)]

    def table_fields(self):
        return [self[name] for name in ("time_control", "best_of", "is_public", "fill_with_bots", "bot_level")]

    def seat_fields(self):
        return [self[name] for name in ("seat", "friend", "friend_role")]

    def clean_friend(self):
        name = self.cleaned_data.get("friend", "").strip()
        if not name:
            return None
        friend = get_user_model().objects.filter(username__iexact=name, is_active=True).first()
        if friend is None:
            raise forms.ValidationError(_("There is no player with this user name."))
        return friend

    def clean(self):
        data = super().clean()
        if self.errors:
            return data
        options = dict(self.engine.presets[self.preset_key])
        for option in self.mode_options():
            name = OPTION_PREFIX + option.key
            if name in data and data[name] != option.default:
                options[option.key] = data[name]
        if data.get("friend") is not None and self.user is not None and data["friend"].pk == self.user.pk:
            self.add_error("friend", _("Invite someone else: you already sit at the table."))
            return data
        if any(o.key == "turn_timer_seconds" for o in self.engine.options_spec):
            options["turn_timer_seconds"] = data["time_control"]
        try:
            data["options"] = self.engine.resolve_options(options)
        except ScenarioError as error:
            self.add_option_error(error.reason)
        return data

    def add_option_error(self, reason: str) -> None:
        """Put the engine's reason next to the option it names, else at the top of the form."""
        for name in self.fields:
            if name.startswith(OPTION_PREFIX) and f"'{name[len(OPTION_PREFIX):]}'" in reason:
                self.add_error(name, _("The rules do not accept this value: %(reason)s") % {"reason": reason})
                return
        self.add_error(None, _("These options do not make a playable game: %(reason)s") % {"reason": reason})

    def seat_specs(self, user) -> list[SeatSpec]:
        """The creator at the chosen seat; the seat of the invited friend, across (partner) or after
        (opponent), is kept for them until they take it from their home or decline."""
        players = self.engine.players(self.cleaned_data["options"])
        mine = (self.cleaned_data.get("seat") or 0) % players
        seats = [SeatSpec() for _ in range(players)]
        seats[mine] = SeatSpec(user=user)
        if friend := self.cleaned_data.get("friend"):
            partner = self.cleaned_data.get("friend_role") != "opponent" and players == 4
            seats[(mine + (players // 2 if partner else 1)) % players] = SeatSpec(user=friend, invited=True)
        return seats

    def create_table(self, user):
        """The new match, the creator at the chosen seat (call only when valid)."""
        data = self.cleaned_data
        match = services.create_match(
            self.game_key, data["options"], self.seat_specs(user), created_by=user,
            games_to_win=(data["best_of"] + 1) // 2, time_control=data["time_control"],
            is_public=data["is_public"], checkin_seconds=CASUAL_CHECKIN_SECONDS)
        if data["fill_with_bots"]:
            services.fill_with_bots(match, data.get("bot_level") or DEFAULT_LEVEL)
            match.refresh_from_db()
        return match
