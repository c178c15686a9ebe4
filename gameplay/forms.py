"""The new-table form: a game, a named preset, the game's own options, clock, length and seats.

Option fields are built from the engine's `options_spec` (closed choices -> select, booleans ->
checkbox, whole numbers -> number, whole numbers by name -> one labelled number each, anything
else -> JSON text), and the options are checked by
the engine itself (`resolve_options`), so a value the rules refuse is a form error and nothing is
created. An option left at the game's default takes the chosen preset's value.
"""

from __future__ import annotations

import json

from django import forms
from django.contrib.auth import get_user_model
from django.utils.html import format_html, format_html_join
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
    # classic Saudi Baloot (docs/rules/baloot_saudi.md section 2.1)
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
# One line under each rule option's field, and beside it on the competition page: what the option
# does, for players. A key means the same in every game that has it; OPTION_HELP_IN gives a game a
# line of its own where the same key means something else there.
OPTION_HELP = {
    "timeout_result": _("What happens when a player's clock runs out: the team loses the match, or a default move is "
                        "played for them."),
    # All Fours (docs/rules/allfours.md section 2)
    "players": _("Four players in two partnerships, or two players one against one (All Twos)."),
    "kick_scoring": _("Which card turned up for trumps scores for the dealer: in Trinidad an Ace 1, a Six 2 and a Jack "
                      "3; in Tobago a Two scores 2 instead of the Six."),
    "game_points": _("What Game is worth to the team with the most card points in its tricks: 1, or 2 as many "
                     "tournaments play."),
    "hang_jack_points": _("What a team scores for capturing the opponents' Jack of trumps in a trick: 3, or 6 in the "
                          "Stag tournaments."),
    "follow_rule": _("How strictly the suit led must be followed: in full, only when trumps are led, or not at all."),
    "undertrump": _("Whether a player may put a trump lower than one already in a trick led in another suit (unless "
                    "they hold only trumps)."),
    "give_one_at_game": _("Whether the dealer may give one when that point would take the beggar's team to the target; "
                          "if not, the pack must be run."),
    "give_one_requires_trump": _("When ticked, the dealer may give one only while holding a card of the suit turned "
                                 "up."),
    "game_tie": _("Who scores Game when both teams have the same card points: nobody, or the team of the player who "
                  "stands or begs."),
    # Baloot, both modes (docs/rules/baloot.md 2.1, baloot_saudi.md 2.1)
    "target_rule": _("Whether a team must pass the target score to win the match, or reaching it is enough."),
    "must_undertrump": _("When ticked, a player without the suit led who cannot beat the opponents' trump must still "
                         "play a lower trump."),
    "annulled_deal_dealer": _("Who deals after a deal in which every player passed: the next player, or the same "
                              "dealer again."),
    "shuffle_each_deal": _("When ticked, the cards are shuffled before every deal instead of being gathered from the "
                           "tricks and cut."),
    # Baloot, the contract mode
    "bonus_trick": _("Which trick earns the 10-point bonus: the last, or the first as the source reads to the letter."),
    "no_trump_double": _("When ticked, card points and the bonus trick count double in a no-trumps contract."),
    "partner_exempts_trump_raise": _("When ticked, a player whose partner is winning a trick led with trumps may play "
                                     "any trump instead of a higher one."),
    "meld_comparison": _("How melds are compared: the team with the best meld scores all of its melds, or sequences "
                         "and four of a kind are compared apart."),
    "tie_rule": _("When the contracting team and the defenders have equal points: the points hang for the next deal, "
                  "or the contract counts as made, or as failed."),
    "belote_kept_by_holder": _("When ticked (the French custom), a contracting team that goes inside still keeps the "
                               "points of the belote it held."),
    "no_win_on_capot": _("When ticked, a deal in which one team takes every trick cannot end the match, even past the "
                         "target; the next deal can."),
    # Baloot, the classic Saudi mode
    "sun_priority": _("When an opponent who speaks earlier may take a Sun for themselves by saying “before you”: in "
                      "the first round, in both rounds, or never."),
    "round2_hokum_window": _("Who may answer a second-round Hokum with Sun or Ashkal: the three other players, or only "
                             "those who have not spoken yet."),
    "hokum_confirm": _("When ticked, once the others have passed the Hokum buyer confirms it or switches to Sun; "
                       "otherwise the Hokum stands at once."),
    "ace_sun_switch": _("Whether the Hokum buyer may switch to Sun when the face-up card is an Ace: only if they are "
                        "the first player, never, or always."),
    "ashkal_round2": _("When ticked, Ashkal (a Sun bought for the partner, who takes the face-up card) may be called in "
                       "the second round too."),
    "sun_double_rule": _("When a Sun may be doubled: only when the buyers have 100 or more and the others less, "
                         "always, or never."),
    "closed_double": _("When ticked, a double in Hokum may be closed: then nobody leads a trump while holding a card "
                       "of another suit."),
    "trump_raise_over_partner": _("When ticked, a player must beat the highest trump of a trick led with trumps even "
                                  "when the partner is winning it."),
    "partner_winning_ruff": _("Whether a player without the suit led must trump while the partner is winning: free, "
                              "free only when the partner is sure to win, or always."),
    "four_hundred_raw": _("What four Aces in Sun are worth: 200 raw points (40 game points) or 400 (80)."),
    "baloot_blocked_by_hundred": _("When ticked, the baloot does not count when its holder scores a hundred that "
                                   "holds the King and Queen of trumps."),
    "equal_points_rule": _("An undoubled deal with equal points: Kammelna's rule (a tied Hokum fails, a tied Sun is "
                           "split), both teams keep their points, or the buyers fail."),
    "loser_projects": _("When a team fails its contract, its projects go to the winners or are lost."),
    "baloot_on_loss": _("When a team fails its contract, its baloot goes to the winners, stays with it, or is lost."),
    "kaboot_multiplied": _("When ticked, a double, triple or four also multiplies a kaboot (one team takes every "
                           "trick)."),
    "equal_final_scores": _("When both teams pass the target with the same score: another deal is played, or the team "
                            "that bought the last deal wins."),
    # La Cuatrola (docs/rules/cuatrola.md section 2)
    "target": _("The game points a team needs to win the match: 11 in the usual game, 21 on Ludoteka and the online "
                "sites."),
    "exact_target": _("When ticked, nobody may announce a contract whose points would take their team past the "
                      "target."),
    "values": _("Game points for each outcome: a pass hand, a solo, a cuatrola and a quintola (1, 2, 4 and 5 in the "
                "usual game)."),
    "last_trick_bonus": _("Card points for winning the fifth and last trick (10 in the usual game)."),
    "cantes": _("When ticked, a player holding the King and Horse of a suit may sing 20, or 40 in trumps."),
    "cante_points": _("What a cante is worth in a plain suit and in trumps (20 and 40 in the usual game)."),
    "must_head": _("When ticked, a player following suit must beat the best card of that suit in the trick if able."),
    "head_reference": _("The card to beat when heading the trick: the highest of the suit led so far, or the card "
                        "led."),
    "must_trump": _("When ticked, a player who has none of the suit led must trump; otherwise any card may be "
                    "played."),
    "must_overtrump": _("When ticked, a player who trumps must beat a trump already in the trick if able."),
    "bidding": _("Whether a later player may overcall an announcement with a higher one, or the first announcement "
                 "closes the bidding."),
    "first_lead": _("Who leads the first trick of a contract hand: the mano, or the player who announced; the mano "
                    "always leads a pass hand."),
    "play_out": _("When ticked, a cuatrola or quintola is played to the last trick; otherwise it stops as soon as it "
                  "is won or lost."),
}
OPTION_HELP_IN = {
    "allfours": {"target_score": _("The points (chalks) a team needs to win the match: 14 in the usual game, 7 in a "
                                   "short one.")},
    "baloot": {"target_score": _("The score the match is played to, 151 in the usual game; “Winning the match” says "
                                 "whether reaching it is enough.")},
}
# Options a mode accepts but that change nothing in it are not offered (baloot_saudi.md S3.1: the
# classic Saudi mode shuffles before every deal anyway).
INERT_IN_MODE = {"saudi_classic": {"shuffle_each_deal"}}
# One line under the Rules menu: what each preset of each game is (the competition form lists them all).
PRESET_HELP = {
    "trinidad_standard": _("Trinidad club rules: 14 points, a kicked Six scores 2, Game is worth 1, hang jack 3."),
    "tobago": _("As played in Tobago: a kicked Two scores 2 and a Six nothing; otherwise the Trinidad rules, to 14."),
    "tournament_game_two": _("Trinidad rules with Game worth 2 points, as many tournaments play it."),
    "stag_jack": _("The Stag Beer Jack tournament rules: Game is worth 2 and hang jack 6."),
    "short_seven": _("Trinidad rules in a short match: the first team to 7 points wins."),
    "all_twos": _("All Twos: the same rules for two players, one against one, to 14."),
    "saudi_classic": _("The Baloot of Saudi Arabia and the Gulf: Hokum or Sun for the face-up card, "
                       "Ashkal, double – triple – four – gahwa, to 152."),
    "saudi_arena_sheet": _("Saudi classic as the score sheets count it: a tie in an undoubled deal is split, a failed "
                           "team's projects are lost and it keeps its baloot."),
    "saudi_majlis": _("Saudi classic as played in the majlis: no “before you” claim, no duty to undertrump, a partner "
                      "who is winning is trumped only when sure, ties split."),
    "saudi_jawaker": _("Saudi classic in Jawaker's wording: a second-round Hokum only for those who have not spoken, no "
                       "Ashkal in the second round, no switch to Sun on a face-up Ace."),
    "source": _("The contract variant: a ladder of six contracts with double and redouble, to 151."),
    "bulgarian_written_rules": _("The contract variant by the Bulgarian written rules: reaching 151 is enough, no duty to "
                                 "undertrump, melds compared by kind, no going out on a capot."),
    "literal_source": _("The contract variant read to the letter: the 10-point bonus goes to the first trick, not the last."),
    "standard": _("The usual rules: to 11 game points, cantes of 20 and 40, you must head and trump, announcements "
                  "may be overcalled."),
    "ludoteka_21": _("The usual rules in a longer match to 21 game points, as Ludoteka and the online sites play."),
    "first_announcement_wins": _("The usual rules, but the first announcement closes the bidding."),
    "declarer_leads": _("The usual rules, but the player who announced leads the first trick instead of the mano."),
    "quick_contracts": _("The usual rules, but a cuatrola or quintola stops as soon as it is won or lost."),
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


# The names inside an option that is a table of whole numbers (La Cuatrola's game points per
# outcome): each is a number field with its label, never a JSON key a person must type.
KEY_LABELS = {
    "pass": _("Pass hand"), "solo": _("Solo"), "cuatrola": _("Cuatrola"), "quintola": _("Quintola"),
}


class KeyedNumbersWidget(forms.MultiWidget):
    """One number box per name, each inside its own translated label."""

    def __init__(self, keys, attrs=None):
        self.keys = list(keys)
        super().__init__([forms.NumberInput(attrs={"min": 0}) for _key in self.keys], attrs)

    def decompress(self, value):
        if isinstance(value, str):  # the JSON text an older form or a link sent: read it if it reads
            try:
                value = json.loads(value)
            except ValueError:
                value = {}
        return [value.get(key) for key in self.keys] if isinstance(value, dict) else [None] * len(self.keys)

    def render(self, name, value, attrs=None, renderer=None):
        values = value if isinstance(value, list) else self.decompress(value)
        boxes = [widget.render(f"{name}_{n}", values[n] if n < len(values) else None,
                               {"id": f"{(attrs or {}).get('id', name)}_{n}"}, renderer)
                 for n, widget in enumerate(self.widgets)]
        return format_html('<span class="keyed-numbers">{}</span>', format_html_join(
            " ", "<label>{} {}</label>", ((KEY_LABELS[key], box) for key, box in zip(self.keys, boxes))))


class KeyedNumbersField(forms.MultiValueField):
    """A {name: whole number} option; a box left empty keeps the default's number."""

    def __init__(self, default: dict, **kwargs):
        self.default = dict(default)
        fields = [forms.IntegerField(min_value=0, required=False) for _key in self.default]
        super().__init__(fields, widget=KeyedNumbersWidget(self.default), require_all_fields=False,
                         required=False, **kwargs)

    def compress(self, data_list):
        numbers = list(data_list or []) + [None] * len(self.default)
        return {key: self.default[key] if number is None else number
                for key, number in zip(self.default, numbers)}


def humanise(value) -> str:
    return str(value).replace("_", " ").capitalize()


def option_help(game: str, key: str) -> str:
    """What a rule option does, in one line for players ("" for an option without one)."""
    return OPTION_HELP_IN.get(game, {}).get(key) or OPTION_HELP.get(key, "")


def options_offered(game: str, mode: str = "") -> list:
    """The rule options a person sets for a game in a mode (Baloot: "contract" or "saudi_classic"),
    in the engine's order: neither those the form sets itself nor those that change nothing there."""
    engine = get_game(game)
    skipped = HIDDEN_OPTIONS | INERT_IN_MODE.get(mode, set())
    return [o for o in engine.options_in_mode(mode) if o.key not in skipped]


def options_chosen(game: str, options: dict) -> list[tuple[str, object]]:
    """(key, value) of each rule option a competition or table of `game` was given, in the order the
    form offers them and only those of its mode; [] for a game that is not one."""
    if game not in Game.values:
        return []
    return [(o.key, options[o.key]) for o in options_offered(game, options.get("game_mode", "")) if o.key in options]


def option_field(option, game: str = "") -> forms.Field:
    label = OPTION_LABELS.get(option.key, humanise(option.key))
    help_text = option_help(game, option.key)
    if option.choices and all(type(c) is bool for c in option.choices):
        return forms.BooleanField(label=label, required=False, initial=option.default, help_text=help_text)
    if option.choices:
        by_text = {str(c): c for c in option.choices}
        return forms.TypedChoiceField(label=label, initial=str(option.default), coerce=by_text.__getitem__,
                                      help_text=help_text,
                                      choices=[(str(c), CHOICE_LABELS.get(str(c), humanise(c)))
                                               for c in option.choices])
    if type(option.default) is int:
        return forms.IntegerField(label=label, initial=option.default, help_text=help_text)
    if type(option.default) is dict and option.default and set(option.default) <= KEY_LABELS.keys() and all(
            type(v) is int for v in option.default.values()):
        return KeyedNumbersField(option.default, label=label, initial=option.default, help_text=help_text)
    return forms.JSONField(label=label, initial=option.default, help_text=help_text)


class NewTableForm(forms.Form):
    game = forms.ChoiceField(label=_("Game"), choices=Game.choices)
    preset = forms.ChoiceField(label=_("Rules"))
    time_control = forms.TypedChoiceField(label=_("Time per decision"), choices=CLOCK_CHOICES, coerce=int, initial=0)
    best_of = forms.TypedChoiceField(label=_("Length"), choices=BEST_OF_CHOICES, coerce=int, initial=1)
    is_public = forms.BooleanField(label=_("Public: anyone may find and watch this table"), required=False,
                                   initial=True)
    fill_with_bots = forms.BooleanField(label=_("Fill the empty seats with bots now"), required=False)
    # A rated casual table (docs/ratings.md): four people, no bot, ever; the ratings move as in a
    # competition. A bot that replaces a leaver makes the match unrated (gameplay/services/moves.py).
    rated = forms.BooleanField(label=_("Rated: the result changes the four players' ratings"), required=False,
                               help_text=_("Four people only: a rated table cannot be filled with bots."))
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
            field = self.fields[OPTION_PREFIX + option.key] = option_field(option, self.game_key)
            value = shown[option.key]
            field.initial = str(value) if option.choices and type(value) is not bool else value

    def mode_options(self) -> list:
        """The options offered in the chosen preset's mode (Baloot: contract or Saudi classic)."""
        return options_offered(self.game_key, self.engine.presets[self.preset_key].get("game_mode", ""))

    def option_fields(self):
        return [self[name] for name in self.fields if name.startswith(OPTION_PREFIX)]

    def table_fields(self):
        return [self[name] for name in ("time_control", "best_of", "is_public", "rated", "fill_with_bots", "bot_level")]

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
        self.check_rated(data)
        return data

    def check_rated(self, data) -> None:
        """A rated table is four people: refused beside the field with bots or for two players."""
        if not data.get("rated"):
            return
        if data.get("fill_with_bots"):
            self.add_error("rated", _("A rated table is for four people: it cannot be filled with bots."))
        elif self.engine.players(data["options"]) != 4:
            self.add_error("rated", _("A rated table is for four people: choose rules for four players."))

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
            is_public=data["is_public"], rated=bool(data.get("rated")), checkin_seconds=CASUAL_CHECKIN_SECONDS)
        if data["fill_with_bots"]:
            services.fill_with_bots(match, data.get("bot_level") or DEFAULT_LEVEL)
            match.refresh_from_db()
        return match


# ----- Play now (gameplay/play_now.py) -----------------------------------------------------------

BOTS_AFTER_CHOICES = [("", _("Never: people only")), ("15", _("After 15 seconds")), ("30", _("After 30 seconds")),
                      ("60", _("After a minute")), ("120", _("After 2 minutes"))]


def queue_label(game: str, preset: str) -> str:
    """A queue as a person reads it: the game's name and the preset's ("All Fours · Tobago")."""
    from gameplay.models import game_label

    return f"{game_label(game)} · {PRESET_LABELS.get(preset, humanise(preset))}"


def queue_choices() -> list[tuple[str, str]]:
    return [(f"{game}:{preset}", queue_label(game, preset))
            for game in Game.values for preset in get_game(game).presets]


class PlayNowForm(forms.Form):
    """Which queue (a game and its rules) and whether bots may fill the table after a wait."""

    queue = forms.ChoiceField(label=_("Game and rules"))
    bots_after = forms.TypedChoiceField(label=_("Fill the table with bots"), choices=BOTS_AFTER_CHOICES,
                                        coerce=int, empty_value=None, required=False, initial="30",
                                        help_text=_("If not enough players of your level are waiting by then."))

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["queue"].choices = queue_choices()

    def game_and_preset(self) -> tuple[str, str]:
        game, preset = self.cleaned_data["queue"].split(":", 1)
        return game, preset
