"""Durak's registry entry: what the platform needs to know to seat, deal, show and end it."""

import random
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from cardgames.registry import GameKind, Variant
from cardgames.takeback import shuffle_unseen, sorted_hand
from durak import board, engine, hints, htmlplayer, narration, playback, refusals
from durak.forms import DurakMoveForm, DurakOptionsForm


class DurakKind(GameKind):
    """Durak for 2–6 seats, 24/36/52 cards, throw-in or transfer."""

    name = "durak"
    engine = engine
    title = gettext_lazy("Durak")
    summary = gettext_lazy(
        "The Russian card game with no winner, only a loser: get rid of all your cards, and "
        "don't be the last one holding any. Attack, defend, throw in, and with the transfer "
        "option pass the attack on to the next player."
    )
    facts = gettext_lazy("2 to 6 players · 24, 36 or 52 cards · throw-in or transfer")
    urls = "durak.urls"
    rules_url_name = "durak:rules"
    board_template = "durak/_board.html"
    options_form = DurakOptionsForm
    options_template = "durak/_options.html"
    move_form = DurakMoveForm
    max_seats = 6
    html_player = htmlplayer

    def new_game(self, variant: Variant, seed: int) -> engine.Game:
        """A new deal of ``variant``."""
        return engine.new_game(engine.Config(**variant.options), seed=seed)

    # The board a seat sees and the moves in words: :mod:`durak.board`, :mod:`durak.narration`.
    board_context = staticmethod(board.board_context)
    recent_moves = staticmethod(narration.recent_moves)
    # The steps a page plays before the table they led to: :mod:`durak.playback`.
    playback_step = staticmethod(playback.step)
    # The Hint button's line: :mod:`durak.hints`.
    hint_line = staticmethod(hints.hint_line)
    move_in_words = staticmethod(hints.move_in_words)
    review_goal = gettext_lazy("not being the durak")
    # Fitted to the arena's results (docs/review.md, "Ratings").
    computer_ratings = {"easy": 15.9, "medium": 25.0, "hard": 29.9}
    history = staticmethod(narration.history)
    # Why a move is refused, in words: :mod:`durak.refusals`.
    explain = staticmethod(refusals.explain)
    unwritten = staticmethod(refusals.unwritten)
    card_refusals = staticmethod(refusals.card_refusals)

    def still_playing(self, game: engine.Game, seat: int) -> bool:
        """Until the seat is out: it holds no card once the stock is empty. Then it has no move
        left (every move but a defender's take needs a card, and a defender out of cards has
        covered everything) even before it leaves, at the end of the bout."""
        view = game.view(seat)
        return bool(view["hand"]) or view["stock"] > 0

    keeps_records = True

    def deal_arguments(self, deal: dict[str, Any]) -> dict[str, Any]:
        """The deck as dealt, top card first (each hand, then the trump card, then the stock in
        the order it is drawn), and the seed (the first attacker when no hand holds a trump)."""
        hands = [list(hand) for hand in deal["hands"]]
        stock = deal["stock"]
        if stock:  # the trump card lies face up under the stock: drawn last, dealt next
            deck = [card for hand in hands for card in hand] + [stock[-1], *stock[:-1]]
        else:  # every card dealt: the last one dealt is the trump card
            hands[-1].remove(deal["trump"])
            deck = [card for hand in hands for card in hand] + [deal["trump"]]
        return {"deck": deck, "seed": deal["seed"]}

    # How many shuffles ``redeal_unseen`` tries for one that keeps the first attacker.
    REDEAL_TRIES = 200

    def redeal_unseen(
        self, deal: dict[str, Any], seen: frozenset[str], rng: random.Random
    ) -> dict[str, Any] | None:
        """The unseen cards of the hands and the stock dealt again (the face-up trump card is
        seen), so that the same seat attacks first: the one with the lowest trump, or the
        seed's choice when no hand holds one. The seed draws nothing after the deal and
        stays. None in the unlikely case that no shuffle tried keeps the first attacker."""
        config = engine.Config.from_dict(deal["config"])
        for _try in range(self.REDEAL_TRIES):
            hands = [list(hand) for hand in deal["hands"]]
            stock = list(deal["stock"])
            shuffle_unseen([*hands, stock], seen, rng)
            candidate = {**deal, "hands": [sorted_hand(hand) for hand in hands], "stock": stock}
            dealt = engine.new_game(config, **self.deal_arguments(candidate))
            if dealt.to_dict() == candidate:
                return candidate
        return None

    def seat_result(self, game: engine.Game, seat: int) -> dict[str, Any]:
        """Won (not the durak), lost (the durak) or drawn."""
        durak = game.outcome["durak"]
        return {"won": None if durak is None else seat != durak, "durak": seat == durak}

    def result(self, game: engine.Game) -> tuple[list[int], list[int]] | None:
        """Everyone but the durak won; in a draw nobody won or lost."""
        outcome = game.outcome
        if outcome is None:
            return None
        if outcome["durak"] is None:
            return [], []
        durak = outcome["durak"]
        return [seat for seat in range(game.config.players) if seat != durak], [durak]

    stat_columns = (("durak", gettext_lazy("The durak")),)

    def seat_counts(self, result: dict[str, Any], scored: bool) -> dict[str, int]:
        """A game where the seat was the durak counts one (not in pass and play)."""
        return {"durak": int(bool(result.get("durak")) and scored)}

    def finishing_ranks(self, game: engine.Game, seats: int) -> list[int] | None:
        """The order the players went out (as the engine lists those who left at once), the
        durak last."""
        outcome = game.outcome
        if outcome is None:
            return None
        order = outcome["finish_order"]
        return [order.index(seat) if seat in order else len(order) for seat in range(seats)]

    def over_message(self, game: engine.Game, names: list[str], you: int | None = None) -> str:
        """Who is the durak (said to them in the second person), or that nobody is."""
        durak = game.outcome["durak"]
        if durak is None:
            return _("A draw: nobody is the durak")
        if durak == you:
            return _("You are the durak")
        return _("%(name)s is the durak") % {"name": names[durak]}

    def follow_ups(self, game: engine.Game) -> list[tuple[str, Any]]:
        """After a game: a new one."""
        return [("new", gettext_lazy("New game"))]


DURAK = DurakKind()
