"""Every word the table client (static/js/table.js, replay.js) shows, translated on the server.

The page hands `client_labels()` to the script with `json_script`, so the JavaScript has no
strings of its own: an action's button label is looked up by its type (and its contract, suit or
melds), card names by rank and suit, and the deal summary's rows by the keys of the engine's
`detail` (docs/rules/<game>.md suggests them).
"""

import functools

from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.utils.translation import pgettext


def action_labels() -> dict:
    return {
        "stand": _("Stand"), "beg": _("Beg"), "give_one": _("Give one"), "run_pack": _("Run the pack"),
        "pass": _("Pass"), "bid": _("Bid %(contract)s"), "double": _("Double"), "redouble": _("Redouble"),
        "triple": pgettext("Saudi Baloot", "Triple"), "four": pgettext("Saudi Baloot", "Four"),
        "gahwa": pgettext("Saudi Baloot", "Gahwa"),
        "declare": _("Declare %(melds)s"), "announce": _("Announce %(contract)s"),
        "sing": _("Sing %(suit)s"), "play": _("Play %(card)s"), "timeout": _("Out of time"),
    }


def contract_labels() -> dict:
    return {
        # Baloot's ladder (docs/rules/baloot.md R1.3) and La Cuatrola's announcements (R14)
        "clubs": pgettext("contract", "Clubs"), "diamonds": pgettext("contract", "Diamonds"),
        "hearts": pgettext("contract", "Hearts"), "spades": pgettext("contract", "Spades"),
        "no_trump": _("No trumps"), "all_trump": _("All trumps"),
        "pass": _("Pass hand"), "solo": _("Solo"), "cuatrola": _("Cuatrola"), "quintola": _("Quintola"),
        # classic Saudi Baloot (docs/rules/baloot_saudi.md S1.3, S4.1)
        "hokum": pgettext("Saudi Baloot", "Hokum"), "sun": pgettext("Saudi Baloot", "Sun"),
        "ashkal": pgettext("Saudi Baloot", "Ashkal"),
    }


def suit_labels() -> dict:
    # by deck: "C" is clubs in the French deck and copas in the Spanish one
    return {
        "french": {"S": pgettext("card suit", "spades"), "H": pgettext("card suit", "hearts"),
                   "D": pgettext("card suit", "diamonds"), "C": pgettext("card suit", "clubs")},
        "spanish": {"O": pgettext("card suit", "oros"), "C": pgettext("card suit", "copas"),
                    "E": pgettext("card suit", "espadas"), "B": pgettext("card suit", "bastos")},
    }


def rank_labels() -> dict:
    return {
        "A": _("Ace"), "K": _("King"), "Q": _("Queen"), "J": _("Jack"), "T": "10",
        "1": pgettext("Spanish deck", "As"), "12": pgettext("Spanish deck", "Rey"),
        "11": pgettext("Spanish deck", "Caballo"), "10": pgettext("Spanish deck", "Sota"),
    }


def spanish_card_labels() -> dict:
    """A card of the Spanish deck inside a sentence, with its article: "Juegas el as de oros",
    never "Juegas 1 oros" (the sota is feminine in Spanish: "la sota de copas")."""
    def say(text):
        return pgettext("Spanish card in a sentence", text)

    return {"1": say("the ace of %(suit)s"), "10": say("the sota of %(suit)s"),
            "11": say("the caballo of %(suit)s"), "12": say("the king of %(suit)s"),
            "number": say("the %(rank)s of %(suit)s")}


def detail_labels() -> dict:
    """Rows of the deal summary: items of `detail.points` and other keys of `detail`."""
    return {
        "high": _("High"), "low": _("Low"), "jack": _("Jack"), "hang_jack": _("Hang jack"),
        "game": pgettext("All Fours point", "Game"), "beg": pgettext("All Fours point", "One for the beg"), "kick": _("Kick"), "turn_up": _("Kick"), "forfeit": _("Forfeit"),
        "contract": _("Contract"), "result": pgettext("deal outcome", "Result"), "multiplier": _("Multiplier"),
        "card_points": _("Card points"), "card_points_with_bonus": _("With the bonus trick"),
        "raw": _("Points"), "melds": _("Melds"), "belote": _("Belote"), "capot_team": _("Capot"),
        "hanging_pool": _("Hanging points"), "hanging_awarded": _("Hanging points awarded"),
        "game_totals": _("Points for game"), "tricks_won": _("Tricks"), "totals": _("Totals"),
        "cante_points": _("Cantes"), "last_trick_bonus": _("Last trick"), "trump": _("Trump"),
        "decision": _("Decision"), "made": _("Made"), "failed": _("Failed"), "inside": _("Inside"),
        "hanging": _("Hanging"), "annulled": _("Annulled"), "redeal": _("Redeal"),
        "pass": _("Pass hand"), "solo": _("Solo"), "cuatrola": _("Cuatrola"), "quintola": _("Quintola"),
        # One row per scoring meld, belote or cante (static/js/cards.js itemRows); its number is raw
        # points like "Card points", not match points.
        # Translators: %(name)s is a player, %(cards)s short card names such as "J♠ 10♠ 9♠".
        "meld_by": _("Meld by %(name)s: %(cards)s"),
        # Translators: %(name)s is a player, %(suit)s a suit such as "♦ diamonds".
        "belote_by": _("Belote by %(name)s: %(suit)s"),
        # Translators: La Cuatrola's 20 or 40; %(name)s is a player, %(suit)s a suit such as "oros".
        "cante_by": _("Cante by %(name)s: %(suit)s"),
    }


def phrases() -> dict:
    return {
        "you": _("You"), "bot": _("Bot"), "empty": _("Empty seat"), "partner": _("Partner"),
        "us": _("Us"), "them": _("Them"), "team": _("Team %(names)s"),
        "your_turn": _("Your turn"), "waiting_for": _("Waiting for %(name)s"),
        "dealer": _("Dealer"), "mano": _("Mano"), "sits_out": _("Sits out"),
        "trump": _("Trump"), "turned_up": _("Turned up"), "contract": _("Contract"), "no_trump_yet": _("Not chosen yet"),
        "score": pgettext("points so far", "Score"), "target": _("Playing to %(target)s"),
        # Baloot: a team needs more than the target (151), i.e. 152, the number players say
        "target_past": _("Playing to %(past)s (more than %(target)s)"), "games_won": _("Games won"),
        "best_of": _("Game %(number)s, first to %(wins)s"), "this_deal": _("This deal"),
        "deal": _("Deal %(number)s"), "deal_summary": _("Deal %(number)s: summary"),
        "points": _("Points"), "total": _("Total"), "close": _("Continue"),
        "last_trick": _("Last trick, won by %(name)s"), "tricks": _("Tricks"),
        "card_points": _("Card points"), "game_totals": _("Points for game"),
        "cantes": _("Cantes"), "offline": _("Offline — reconnecting…"), "online": _("Connected"),
        "stale": _("The table moved on; here is the current state."),
        "you_won": _("You won the match!"), "you_lost": _("You lost the match."),
        "team_won": _("%(names)s won the match."), "final_score": _("Final score"),
        "finished": _("The match is over."), "aborted": _("This match was aborted."),
        "lost_on_time": _("Decided on time: a player ran out of time."),
        "replay": _("Replay this match"), "lobby": _("Back to the lobby"),
        "back_to_competition": _("Back to the competition"),
        "waiting": _("Waiting for players…"), "seconds": _("%(seconds)s s"),
        "hand": _("Your hand"), "your_cards": _("Your cards"), "cards_left": _("%(count)s cards"),
        "plays": _("%(name)s plays %(card)s"), "wins_trick": _("%(name)s wins the trick"),
        "you_play": _("You play %(card)s"), "you_win_trick": _("You win the trick"),
        "calls": _("%(name)s: %(call)s"), "turns_up": _("Turned up: %(card)s"),
        "trump_is": _("Trump: %(suit)s"), "deal_over": _("Deal over: %(a)s – %(b)s"),
        "timed_out": _("%(name)s ran out of time"), "sings": _("%(name)s sings %(suit)s"),
        # what the reader did, in the second person ("Tú se quedó sin tiempo" is not Spanish)
        "you_timed_out": _("You ran out of time"), "you_sing": _("You sing %(suit)s"),
        "declares": _("%(name)s declares %(melds)s"), "new_game": _("Game %(number)s begins"),
        "card_of": _("%(rank)s of %(suit)s"), "log": _("What happened"), "bid_by": _("by %(name)s"),
        # the reader's own contract and trick, in the second person ("— Tú", "أكلها أنت" are not said)
        "bid_by_you": _("by you"), "last_trick_yours": _("Last trick, won by you"),
        "doubled": _("doubled"), "redoubled": _("redoubled"), "stock": _("Stock: %(count)s"),
        "start": _("Start"), "step": _("Step %(step)s of %(total)s"),
        "replay_loading": _("Loading the replay…"),
        "replay_failed": _("The replay could not be loaded: reload the page to try again."),
    } | conduct_phrases() | table_feel_phrases()


def table_feel_phrases() -> dict:
    """The score sheet and the table's own settings (sound, vibration, hand order, deck, size)."""
    return {
        "score_sheet": _("Score sheet"), "sheet_deal": pgettext("score sheet column", "Deal"),
        "sheet_game": _("Game %(number)s"), "sheet_empty": _("No deal has ended yet."),
        "sheet_total": _("Total"),
    }


def conduct_phrases() -> dict:
    """Conceding, leaving, game over, chat (gameplay/services/moves.py, gameplay/chat.py)."""
    return {
        "concede": _("Concede"), "leave": _("Leave the table"),
        "concede_confirm": _("Propose to your partner that your team concedes the match?"),
        "leave_confirm": _("Leave the table? Your seat goes to the table's leaver policy at once."),
        "concede_asked": _("%(name)s proposes to concede the match."),
        "concede_agree": _("Agree: concede"), "concede_refuse": _("Keep playing"),
        # the cancel button of the Concede and Leave confirmations (not "Continue": that reads as yes)
        "conduct_cancel": _("Keep playing"),
        "concede_waiting": _("You proposed to concede; waiting for your partner."),
        # Translators: the button that takes back one's own proposal to concede the match (not a
        # withdrawal from a competition).
        "concede_withdraw": pgettext("concede proposal", "Withdraw"),
        "they_concede_asked": _("The other team is deciding whether to concede."),
        "proposes_concede": _("%(name)s proposes to concede"), "declines_concede": _("%(name)s: keep playing"),
        "you_propose_concede": _("You propose to concede"), "you_conceded": _("You conceded the match"),
        "conceded": _("%(name)s conceded the match"), "replaced": _("A bot now plays for %(name)s"),
        "forfeited": _("%(name)s left: the team forfeits"),
        "won_by_concession": _("Decided by a concession."), "won_by_forfeit": _("Decided by a forfeit: a player left."),
        "bot_plays": _("Bot plays"),
        # a seat's presence at the table (the seconds left of the reconnect window follow apart)
        "connected": _("Connected"), "reconnecting": _("Reconnecting…"),
        "returned": _("%(name)s is back and plays again"),
        "bot_has_your_seat": _("A bot plays your seat since you left."), "take_seat_back": _("Take my seat back"),
        "seat_held": _("Another player holds your seat now: you can watch the table but not take the seat back."),
        "game_over": _("Game %(number)s is over"), "game_won_by": _("%(names)s won the game."),
        "you_won_game": _("Your team won the game."), "you_lost_game": _("Your team lost the game."),
        "games_score": _("Games: %(a)s – %(b)s"), "next_game": _("Next game"),
        "chat_muted": _("Unmute"), "chat_mute": _("Mute"),
        "chat_too_long": _("That message is too long: at most 200 characters."),
        "chat_rate_limited": _("You are sending messages too fast; wait a few seconds."),
        "chat_empty": _("Write something first."),
    }


def match_ending(finish: str | None, winners: str) -> str:
    """How a finished match ended, for the replay's head: who won, and how when it was not
    played to the end (a concession, a leaver's forfeit, the clock, a walkover)."""
    how = {"conceded": _("Decided by a concession."), "forfeit": _("Decided by a forfeit: a player left."),
           "timeout": _("Decided on time: a player ran out of time."), "walkover": _("Decided by a walkover."),
           "played": _("Played to the end.")}.get(finish or "", "")
    won = _("%(names)s won the match.") % {"names": winners} if winners else ""
    return " ".join(part for part in (won, how) if part)


def saudi_labels() -> dict:
    """Classic Saudi Baloot's words (static/js/saudi.js), as Gulf players say them in Arabic."""
    def say(text):
        return pgettext("Saudi Baloot", text)

    return {
        "calls": {
            "pass": say("Pass"), "pass_round2": say("Pass (wala)"), "hokum": say("Hokum"),
            "hokum_in": say("Hokum in %(suit)s"), "confirm": say("Confirm Hokum"), "sun": say("Sun"),
            "switch": say("Switch to Sun"), "claim": say("Before you: Sun"), "ashkal": say("Ashkal"),
            "double": say("Double"), "triple": say("Triple"), "four": say("Four"), "gahwa": say("Gahwa"),
            "closed": say("%(call)s, closed"),
        },
        "steps": {
            "open1": say("First round: buy the face-up card as Hokum or Sun, or pass."),
            "open2": say("Second round: Hokum in another suit, Sun, or pass (wala)."),
            "window": say("%(name)s bought Hokum: take the card as Sun, or pass."),
            "confirm": say("Nobody took Sun: confirm your Hokum or switch to Sun."),
            "claim": say("%(name)s called Sun: you speak before them and may take it (before you)."),
            # the same two steps when the reader is the one who bought or called (second person)
            "window_mine": say("You bought Hokum: the others may take the card as Sun, or pass."),
            "claim_mine": say("You called Sun: a player before you may still take it (before you)."),
            "doubling": say("Doubling: double, triple, four, gahwa; a closed call locks the trumps."),
        },
        "projects": {"sira": say("Sira"), "fifty": say("Fifty"), "hundred": say("Hundred"),
                     "four_hundred": say("Four hundred")},
        "results": {"made": say("Made"), "split": say("Split: equal points"),
                    "khasara": say("Khasara: the buyers fail"), "kaboot": say("Kaboot: all eight tricks"),
                    "gahwa": say("Gahwa: 152 and the match"), "annulled": say("Everybody passed: redeal"),
                    "timeout": say("Out of time")},
        "text": {
            "face_up": say("Face-up card"), "buyer": say("Buyer"), "level": say("Doubling"),
            "closed": say("Closed: no trump lead while holding another suit"), "open": say("Open"),
            "declares": say("%(name)s declares %(projects)s"), "baloot_by": say("Baloot by %(name)s"),
            "projects_of": say("Projects of %(name)s: %(cards)s"),
            # the reader's own, in the second person (the three above would read "Baloot de Tú")
            "you_declare": say("You declare %(projects)s"), "your_baloot": say("Your Baloot"),
            "your_projects": say("Your projects: %(cards)s"),
            "raw_points": say("Raw points (with the last trick)"), "card_gp": say("Card points rounded"),
            "project_gp": say("Projects"), "baloot": say("Baloot"), "deal_points": say("Deal score"),
            "result": say("Result"),
        },
    }


def client_labels() -> dict:
    """The table client's labels in the active language (worked out once per language)."""
    return labels_in(get_language())


@functools.lru_cache(maxsize=16)
def labels_in(language: str) -> dict:
    """Catalogues are read at start-up, so a language's labels never change in a process."""
    from gameplay.chat import phrase_labels  # chat imports labels: read its phrases when first asked

    return {"actions": action_labels(), "contracts": contract_labels(), "suits": suit_labels(),
            "ranks": rank_labels(), "spanish_cards": spanish_card_labels(), "detail": detail_labels(), "text": phrases(), "chat": phrase_labels(),
            "saudi": saudi_labels()}
