"""Rummy's actions, their notation, and the interned instances the engine hands out.

An action is a ``cards.Action``; the cards of a meld or a layoff are in ascending card order,
whatever order the notation named them in, so each action has one canonical form.

>>> str(parse_action("meld 5c 3c 4c"))
'meld 3c 4c 5c'
>>> parse_action("layoff 2 7c 6c") == Action("layoff", (parse_card("6c"), parse_card("7c")), 2)
True
>>> parse_action("meld Qc Kc Ac")
Traceback (most recent call last):
...
cards.errors.IllegalAction: a meld is a set or a run, the ace low: 'meld Qc Kc Ac'
"""

from cards import (
    ALL_CARDS,
    SUIT_MASKS,
    Action,
    IllegalAction,
    Refusal,
    cards_mask,
    iter_cards,
    notation_cards,
)
from cards import parse_card as parse_card
from rummy.engine.melds import hand_melds

DRAW_STOCK = Action("draw stock")
DRAW_DISCARD = Action("draw discard")
# DISCARD[card]: discarding that card.
DISCARD: tuple[Action, ...] = tuple(Action("discard", (card,)) for card in range(52))
# _DISCARDS[cards of one suit]: discarding each of them, in card order (filled as needed).
_DISCARDS: dict[int, tuple[Action, ...]] = {}


def add_discards(actions: list[Action], cards: int) -> None:
    """Append to ``actions`` the interned actions discarding each card of the mask ``cards``,
    in card order."""
    for suit_mask in SUIT_MASKS:
        in_suit = cards & suit_mask
        if in_suit:
            found = _DISCARDS.get(in_suit)
            if found is None:
                found = _DISCARDS[in_suit] = tuple(DISCARD[card] for card in iter_cards(in_suit))
            actions.extend(found)


# MELD[mask]: putting the meld ``mask`` on the table; every possible meld is here.
MELD: dict[int, Action] = {
    meld: Action("meld", tuple(iter_cards(meld))) for meld in hand_melds(ALL_CARDS)
}
# _LAYOFF[cards << 5 | number]: laying ``cards`` off on meld ``number`` (filled as listed; a
# game has at most 17 melds, so the numbers fit in five bits).
_LAYOFF: dict[int, Action] = {}


def layoff_action(number: int, cards: int) -> Action:
    """The interned action laying off the cards of mask ``cards`` on table meld ``number``."""
    key = cards << 5 | number
    action = _LAYOFF.get(key)
    if action is None:
        action = _LAYOFF[key] = Action("layoff", tuple(iter_cards(cards)), number)
    return action


def parse_action(text: str) -> Action:
    """The action written ``text`` in Rummy notation; ``IllegalAction`` if it is malformed.

    Accepts ``draw stock``, ``draw discard``, ``meld <cards>``, ``layoff <N> <cards>`` and
    ``discard <card>``; the cards of a meld or layoff may come in any order. Whether the action
    is legal now is for ``Game.apply`` to say; a meld that is no set or run is malformed.
    """
    if not isinstance(text, str):
        raise IllegalAction(f"not a valid action: {text!r}")
    words = text.split()
    if len(words) == 2 and words[0] == "draw":
        if words[1] == "stock":
            return DRAW_STOCK
        if words[1] == "discard":
            return DRAW_DISCARD
    elif len(words) == 2 and words[0] == "discard":
        return DISCARD[notation_cards(words[1:], text)[0]]
    elif len(words) >= 2 and words[0] == "meld":
        action = MELD.get(cards_mask(notation_cards(words[1:], text)))
        if action is None:
            raise IllegalAction(f"a meld is a set or a run, the ace low: {text!r}")
        return action
    elif len(words) >= 3 and words[0] == "layoff" and _is_number(words[1]):
        number = int(words[1])
        mask = cards_mask(notation_cards(words[2:], text))
        if number < 32:
            action = _LAYOFF.get(mask << 5 | number)
            if action is not None:
                return action
        return Action("layoff", tuple(iter_cards(mask)), number)
    raise IllegalAction(f"not a valid action: {text!r}")


def _is_number(word: str) -> bool:
    return word.isascii() and word.isdigit() and len(word) <= 6


# Why an action is not legal now: the codes of ``Game.why_illegal``'s refusals (see
# docs/engine-api.md for what each means and the params it carries).
REFUSAL_CODES: tuple[str, ...] = (
    "malformed",  # not an action of Rummy: not a string or Action, bad notation
    "no_seat",  # no seat but 0 and 1
    "match_over",
    "round_over",  # between rounds: deal the next one
    "not_your_turn",
    "draw_first",  # a meld, layoff or discard before drawing
    "already_drew",  # a second draw in the same turn
    "pile_empty",  # pile ("stock" or "discard"): nothing there to draw
    "not_in_hand",  # cards: the cards named that the seat does not hold
    "not_a_meld",  # cards: neither a set nor a run, the ace low
    "no_such_meld",  # meld: no table meld has that number
    "does_not_fit",  # cards, meld, meld_cards: the meld would not stay a set or a run
    "must_keep_a_card",  # card: it would leave only the card taken from the discard pile
    "discard_drawn",  # card: the card taken from the discard pile, discarded the same turn
)
MALFORMED = Refusal("malformed")


def read_action(action: object) -> Action | Refusal:
    """The action ``action`` (an ``Action`` or a notation) names, canonical; the ``malformed``
    refusal if it names none.

    Unlike ``parse_action``, a meld of cards that are no set or run is read (as a non-interned
    action, never legal), so that ``Game.why_illegal`` can say what is wrong with it.
    """
    if isinstance(action, Action):
        cards, meld = action.cards, action.meld
        if (
            type(action.kind) is not str
            or type(cards) is not tuple
            or not all(type(card) is int and 0 <= card < 52 for card in cards)
            or not (meld is None or type(meld) is int)
        ):
            return MALFORMED
        text = str(action)
    elif isinstance(action, str):
        text = action
    else:
        return MALFORMED
    try:
        return parse_action(text)
    except IllegalAction:
        pass
    words = text.split()
    if len(words) >= 2 and words[0] == "meld":
        try:
            cards = notation_cards(words[1:], text)
        except IllegalAction:
            return MALFORMED
        return Action("meld", tuple(sorted(cards)))
    return MALFORMED
