"""Take-backs that show nothing: the cards a person has not seen are dealt again.

Played again from its deal, a take-back would give the stock and the computer's hands as they
were, so a person who drew a card, or saw the computer answer, and took it back would know
them. Instead the cards the person's seat has not seen by the position kept are dealt again at
random (``GameKind.redeal_unseen``) among the places they held in the deal, and the new deal is
kept only if the moves kept play from it to exactly what that seat saw, step by step.
``cardgames.records.deal_again`` stores it as the record's deal, so that the record still
replays to the end of the game.
"""

import random
from dataclasses import dataclass
from typing import Any

from cardgames.registry import GameKind
from cards import card_names, mask_names, names_mask

# A take-back first tries this many deals drawn at random, and keeps the first that fits what
# the person saw. In Rummy every one does; in Durak a deal must also give each computer a card
# to throw in exactly when it could, which about half do with two players (measured with the
# bots) and often none of a few with more.
TRIES = 8
# Else it walks from the deal, which fits, by swaps of two unseen cards that keep it fitting
# (60 to 90% do): this many swaps tried for each unseen card, so that each has likely moved,
# and at most ``MOST_SWAPS`` (each plays the deal again: about 1 ms with four players).
SWAPS_A_CARD = 4
MOST_SWAPS = 100
_CARD_NAMES = frozenset(card_names(range(52)))


def named_cards(value: Any) -> set[str]:
    """Every card named anywhere in ``value`` (a view): its card names, and the words of its
    notations ("defend 8s 9s")."""
    found: set[str] = set()
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            found.update(word for word in item.split() if word in _CARD_NAMES)
        elif isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list | tuple):
            stack.extend(item)
    return found


@dataclass(frozen=True)
class Seen:
    """What a seat saw while moves were played from a deal: who could act at every step, its
    view at the end, and every card named at any step."""

    to_act: list[list[int]]
    view: dict[str, Any]
    cards: frozenset[str]


def seen_by(kind: GameKind, deal: dict[str, Any], moves: list[list[Any]], seat: int) -> Seen:
    """What ``seat`` saw while ``moves`` were played from ``deal``."""
    engine = kind.load(deal)
    cards: set[str] = set()
    to_act = []
    for seat_to_move, notation in moves:
        view = engine.view(seat)
        del view["log"]  # the last view's log holds every earlier one
        cards |= named_cards(view)
        to_act.append(engine.to_act)
        engine.apply(seat_to_move, notation)
    view = engine.view(seat)
    return Seen(to_act, view, frozenset(cards | named_cards(view)))


def fits(kind: GameKind, deal: dict[str, Any], moves: list[list[Any]], seen: Seen) -> bool:
    """Whether ``moves`` (actions, or their notations) play from ``deal`` to what ``seen`` says
    its seat saw.

    The seats that could act at every step and the view at the end are enough: the rest of a
    view at a step follows from the log of the last one and the seat's own cards.
    """
    engine = kind.load(deal)
    try:
        for (seat, notation), to_act in zip(moves, seen.to_act, strict=True):
            if engine.to_act != to_act:
                return False
            engine.apply(seat, notation)
    except ValueError:  # the engines' IllegalAction is one
        return False
    return engine.view(seen.view["seat"]) == seen.view


def deal_to_take_back(
    kind: GameKind,
    deal: dict[str, Any],
    moves: list[list[Any]],
    keep: int,
    seat: int,
    rng: random.Random,
) -> dict[str, Any] | None:
    """The deal to play the first ``keep`` of ``moves`` again from, for a take-back of
    ``seat``'s: ``deal`` with the cards that seat had not seen by then dealt again (``redealt``).
    If the game cannot deal again, ``deal`` itself when the moves taken back showed the seat no
    card it had not seen, else None; None too if no deal dealt again fits."""
    kept = [[seat_to_move, kind.engine.parse_action(notation)] for seat_to_move, notation in moves]
    seen = seen_by(kind, deal, kept[:keep], seat)
    try:
        return redealt(kind, deal, kept[:keep], seen, rng)
    except CannotRedeal:
        shown = seen_by(kind, deal, kept, seat).cards - seen.cards
        return None if shown else deal


class CannotRedeal(Exception):
    """The game cannot deal its unseen cards again (``GameKind.redeal_unseen`` gave None)."""


def redealt(
    kind: GameKind, deal: dict[str, Any], moves: list[list[Any]], seen: Seen, rng: random.Random
) -> dict[str, Any] | None:
    """``deal`` with the cards not among ``seen.cards`` dealt again at random, such that
    ``moves`` play from it to what ``seen`` says its seat saw; None if no deal tried fits.
    :class:`CannotRedeal` if the game cannot deal again."""
    for _try in range(TRIES):
        candidate = kind.redeal_unseen(deal, seen.cards, rng)
        if candidate is None:
            raise CannotRedeal
        if fits(kind, candidate, moves, seen):
            return candidate
    # Few random deals fit: walk from the deal, which fits, by swaps that keep it fitting.
    swaps = _Swapping(rng)
    walked = None
    for _step in range(min(SWAPS_A_CARD * len(named_cards(deal) - seen.cards), MOST_SWAPS)):
        candidate = kind.redeal_unseen(walked or deal, seen.cards, swaps)
        if candidate is not None and fits(kind, candidate, moves, seen):
            walked = candidate
    return walked


class _Swapping(random.Random):
    """A random source whose ``shuffle`` swaps two items at random, the rest staying put: a
    step of a walk from a deal to a nearby one."""

    def __init__(self, rng: random.Random) -> None:
        super().__init__()
        self._rng = rng

    def random(self) -> float:
        return self._rng.random()

    def getrandbits(self, k: int) -> int:
        return self._rng.getrandbits(k)

    def shuffle(self, items: list[Any]) -> None:  # type: ignore[override]
        if len(items) > 1:
            first, second = self._rng.sample(range(len(items)), 2)
            items[first], items[second] = items[second], items[first]


def shuffle_unseen(places: list[list[str]], seen: frozenset[str], rng: random.Random) -> None:
    """Deal the cards of ``places`` (lists of card names: hands, a stock …) that are not in
    ``seen`` again at random among the places they hold, in place; seen cards stay put."""
    spots = [
        (place, index) for place in places for index, card in enumerate(place) if card not in seen
    ]
    cards = [place[index] for place, index in spots]
    rng.shuffle(cards)
    for (place, index), card in zip(spots, cards, strict=True):
        place[index] = card


def sorted_hand(names: list[str]) -> list[str]:
    """A hand's card names in the order an engine's ``to_dict`` writes them."""
    return mask_names(names_mask(names))
