"""Rummy's registry entry: what the platform needs to know to seat, deal, show and end it."""

import random
from typing import Any

from django.utils.translation import gettext_lazy

from cardgames.registry import GameKind, Variant
from cardgames.takeback import shuffle_unseen, sorted_hand
from rummy import board, engine, hints, narration, playback, refusals
from rummy.forms import RummyMoveForm, RummyOptionsForm


class RummyKind(GameKind):
    """Rummy (Rami) for two: one variant, a match to 100 points played round after round."""

    name = "rummy"
    engine = engine
    title = gettext_lazy("Rummy")
    summary = gettext_lazy(
        "Two players, ten cards each: draw, lay down sets and runs, add to the melds on the "
        "table and be the first to empty your hand. The first to reach 100 points wins the match."
    )
    facts = gettext_lazy("2 players · 52 cards · first to 100 points")
    urls = "rummy.urls"
    rules_url_name = "rummy:rules"
    board_template = "rummy/_board.html"
    options_form = RummyOptionsForm
    move_form = RummyMoveForm
    pause_when_away = True
    max_seats = 2

    def seat_count(self, variant: Variant) -> int:
        """Always two."""
        return 2

    def new_game(self, variant: Variant, seed: int) -> engine.Game:
        """A new match, its first deal done."""
        return engine.new_game(engine.Config(target=variant.options["target"]), seed=seed)

    # The board a seat sees and the moves in words: :mod:`rummy.board`, :mod:`rummy.narration`.
    board_context = staticmethod(board.board_context)
    recent_moves = staticmethod(narration.recent_moves)
    # The steps a page plays before the table they led to: :mod:`rummy.playback`.
    playback_step = staticmethod(playback.step)
    # The Hint button's line: :mod:`rummy.hints`.
    hint_line = staticmethod(hints.hint_line)
    move_in_words = staticmethod(hints.move_in_words)
    review_goal = gettext_lazy("winning the round")
    # Fitted to the arena's results (docs/review.md, "Ratings").
    computer_ratings = {"easy": 19.8, "medium": 25.0, "hard": 29.6}
    history = staticmethod(narration.history)
    # Why a move is refused, in words: :mod:`rummy.refusals`.
    explain = staticmethod(refusals.explain)
    unwritten = staticmethod(refusals.unwritten)
    card_refusals = staticmethod(refusals.card_refusals)

    def finished(self, game: engine.Game) -> bool:
        """Play has stopped: the round (and maybe the match) is over."""
        return game.round_outcome is not None

    def over_message(self, game: engine.Game, names: list[str], you: int | None = None) -> Any:
        """The round is over, or the whole match."""
        if game.outcome is not None:
            return gettext_lazy("The match is over.")
        return gettext_lazy("The round is over.")

    keeps_records = True

    def deal_arguments(self, deal: dict[str, Any]) -> dict[str, Any]:
        """The deck as dealt, top card first (each hand, the card that starts the discard
        pile, then the stock in the order it is drawn), the seed (the stock's reshuffles) and
        the dealer."""
        deck = [*deal["hands"][0], *deal["hands"][1], *deal["discard"][:1], *deal["stock"]]
        return {"deck": deck, "seed": deal["seed"], "dealer": deal["dealer"]}

    def redeal_unseen(
        self, deal: dict[str, Any], seen: frozenset[str], rng: random.Random
    ) -> dict[str, Any]:
        """The unseen cards of the hands and the stock dealt again (the card that started the
        discard pile is seen), and a new seed: it shuffles the discard pile into a new stock
        when the stock runs out, and with the old one a take-back past that draw would show
        the new stock's order again."""
        hands = [list(hand) for hand in deal["hands"]]
        stock = list(deal["stock"])
        shuffle_unseen([*hands, stock], seen, rng)
        return {
            **deal,
            "hands": [sorted_hand(hand) for hand in hands],
            "stock": stock,
            "seed": rng.getrandbits(128),
        }

    def deal_context(self, deal: dict[str, Any]) -> dict[str, Any]:
        """The round of the match it was, and the scores before it."""
        return {"round": deal["round"], "scores_before": list(deal["scores"])}

    def deal_result(self, game: engine.Game) -> dict[str, Any]:
        """The round's outcome: who went out (or none), its points and both hands left."""
        return game.round_outcome

    def seat_result(self, game: engine.Game, seat: int) -> dict[str, Any]:
        """The round: won (went out) or not, and the points it scored; and the match, once the
        round ended it (``won``; None while the match goes on)."""
        round_outcome = game.round_outcome
        round_won = round_outcome["winner"] == seat
        match = game.outcome
        return {
            "won": None if match is None else match["winner"] == seat,
            "round_won": round_won,
            "points": round_outcome["points"] if round_won else 0,
        }

    stat_columns = (
        ("rounds_won", gettext_lazy("Rounds won")),
        ("points_per_round", gettext_lazy("Points a round")),
    )

    def seat_counts(self, result: dict[str, Any], scored: bool) -> dict[str, int]:
        """Every round counts, its win and points only where they were the seat's own."""
        return {
            "rounds": 1,
            "rounds_won": int(result["round_won"] and scored),
            "points": result["points"] if scored else 0,
        }

    def ends_a_game(self, result: dict[str, Any]) -> bool:
        """A round ends a game only when it ends the match."""
        return result.get("won") is not None

    def stat_cells(self, counts: dict[str, int]) -> dict[str, str]:
        """Rounds won of rounds played, and points a round to one decimal."""
        rounds = counts.get("rounds", 0)
        points = counts.get("points", 0) / rounds if rounds else 0.0
        return {
            "rounds_won": f"{counts.get('rounds_won', 0)} / {rounds}",
            "points_per_round": f"{points:.1f}",
        }

    keeps_score_sheet = True

    def score_sheet(
        self, game: engine.Game, deals: list[tuple[int, list[int], Any]], names: list[str]
    ) -> list[dict[str, Any]]:
        """Every finished round of this match: the run of ``deals`` that leads back from the
        round now played (or just finished) to round 1."""
        now = game.view(0)["round"]
        expected = now if self.finished(game) else now - 1
        rows = []
        for number, before, outcome in deals:
            if number != expected or expected < 1:
                break
            scores = list(before)
            if outcome["winner"] is not None:
                scores[outcome["winner"]] += outcome["points"]
            winner = None if outcome["winner"] is None else names[outcome["winner"]]
            rows.append(
                {"round": number, "winner": winner, "points": outcome["points"], "scores": scores}
            )
            expected -= 1
        return rows[::-1]

    def result(self, game: engine.Game) -> tuple[list[int], list[int]] | None:
        """Once the match is over: its winner won, the other lost. A round counts for nothing."""
        outcome = game.outcome
        if outcome is None:
            return None
        winner = outcome["winner"]
        return [winner], [1 - winner]

    def standing(self, game: engine.Game) -> tuple[list[int], list[int]] | None:
        """A match ended early: the one ahead on points wins it, level scores are a draw."""
        first, second = game.to_dict()["scores"]
        if first == second:
            return [], []
        winner = 0 if first > second else 1
        return [winner], [1 - winner]

    def follow_ups(self, game: engine.Game) -> list[tuple[str, Any]]:
        """After a round: the next deal (scores kept) or a new match; after the match: a new one."""
        if game.outcome is None and game.round_outcome is not None:
            return [("next", gettext_lazy("Next deal")), ("new", gettext_lazy("New game"))]
        return [("new", gettext_lazy("New game"))]

    def follow_up_warning(self, game: engine.Game, name: str) -> Any:
        """A new game in the middle of a match loses its scores: asked first."""
        if name == "new" and game.outcome is None:
            return gettext_lazy("Start a new match from 0–0? The scores of this match are lost.")
        return None

    def follow_up(self, game: engine.Game, name: str, variant: Variant, seed: int) -> engine.Game:
        """``"next"``: the match's next round, dealt with ``seed``; the scores stay."""
        if name != "next":
            raise ValueError(f"no follow-up {name!r}")
        game.next_round(seed=seed)
        return game


RUMMY = RummyKind()
