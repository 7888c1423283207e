"""Durak's actions, their notation, and the interned instances the engine hands out.

Every action the engine can ever list exists once, built at import time, so listing legal
actions allocates nothing but the list, and comparing actions is mostly an identity check.

>>> str(parse_action("attack 6d 6c"))
'attack 6c 6d'
>>> parse_action("defend 6c 7c") == Action("defend", (parse_card("6c"), parse_card("7c")))
True
>>> parse_action("attack 6c 7c")
Traceback (most recent call last):
...
cards.errors.IllegalAction: an attack is one or more cards of one rank: 'attack 6c 7c'
"""

from cards import (
    RANK_MASKS,
    Action,
    IllegalAction,
    Refusal,
    card_rank,
    cards_mask,
    iter_cards,
    notation_cards,
)
from cards import parse_card as parse_card

TAKE = Action("take")
PASS = Action("pass")
TRANSFER: tuple[Action, ...] = tuple(Action("transfer", (card,)) for card in range(52))
# DEFEND[attack * 52 + defence]
DEFEND: tuple[Action, ...] = tuple(
    Action("defend", (attack, defence)) for attack in range(52) for defence in range(52)
)


def _attacks_by_mask() -> dict[int, Action]:
    attacks = {}
    for rank_mask in RANK_MASKS:
        subset = rank_mask
        while subset:
            attacks[subset] = Action("attack", tuple(iter_cards(subset)))
            subset = (subset - 1) & rank_mask
    return attacks


# ATTACK[mask]: the attack (or throw-in) with the cards of ``mask``, all of one rank.
ATTACK: dict[int, Action] = _attacks_by_mask()
# ATTACK_SUBSETS[mask]: for same-rank cards ``mask`` (possibly none), every attack made of
# some of them as ``(card count, attack)``, fewest cards first, then in card order.
ATTACK_SUBSETS: dict[int, tuple[tuple[int, Action], ...]] = {
    mask: tuple(
        sorted(
            (
                (subset.bit_count(), attack)
                for subset, attack in ATTACK.items()
                if subset & ~mask == 0
            ),
            key=lambda pair: (pair[0], pair[1].cards),
        )
    )
    for mask in [0, *ATTACK]
}

_CARD_COUNTS = {"attack": None, "defend": 2, "transfer": 1, "take": 0, "pass": 0}


def parse_action(text: str) -> Action:
    """The action written ``text`` in Durak notation; ``IllegalAction`` if it is malformed.

    The cards of a multi-card attack may come in any order; the result is the canonical,
    interned action, so ``parse_action(str(action)) == action``.
    """
    if not isinstance(text, str):
        raise IllegalAction(f"not a valid action: {text!r}")
    words = text.split()
    if not words or words[0] not in _CARD_COUNTS:
        raise IllegalAction(f"not a valid action: {text!r}")
    kind, card_words = words[0], words[1:]
    expected = _CARD_COUNTS[kind]
    if (expected is None and not card_words) or (
        expected is not None and len(card_words) != expected
    ):
        raise IllegalAction(f"not a valid action: {text!r}")
    cards = notation_cards(card_words, text)
    if kind == "attack":
        mask = cards_mask(cards)
        if mask & RANK_MASKS[card_rank(cards[0])] != mask:
            raise IllegalAction(f"an attack is one or more cards of one rank: {text!r}")
        return ATTACK[mask]
    if kind == "defend":
        return DEFEND[cards[0] * 52 + cards[1]]
    if kind == "transfer":
        return TRANSFER[cards[0]]
    return TAKE if kind == "take" else PASS


# Why an action is not legal now: the codes of ``Game.why_illegal``'s refusals (see
# docs/engine-api.md for what each means and the params it carries).
REFUSAL_CODES: tuple[str, ...] = (
    "malformed",  # not an action of Durak: not a string or Action, bad notation
    "no_seat",  # no such seat in this game
    "game_over",
    "out_of_game",  # this seat has left the game
    "not_your_turn",  # the table is empty and another seat opens the bout
    "must_open",  # the attacker may not pass while the table is empty
    "not_defender",  # only the defender may defend, transfer or take
    "defending",  # the defender may not attack, throw in or pass
    "taking",  # the defender has said take: nothing more to do this bout
    "all_covered",  # the defender has beaten every attack card
    "not_in_hand",  # cards: the cards named that the seat does not hold
    "one_rank",  # cards: an attack or throw-in of several ranks
    "not_attack_card",  # card: not an attack card on the table
    "already_covered",  # card, by: that attack card is beaten already
    "does_not_beat",  # attack, defence, trump (the trump suit): defence does not beat attack
    "transfer_off",  # the variant has no transfer
    "transfer_one_card",  # cards: a transfer is made with exactly one card
    "transfer_covered",  # an attack card is covered: no more transfers this bout
    "transfer_rank",  # card, attacks: not the rank of the attack cards
    "transfer_too_many",  # count, holds: the next defender would hold fewer cards than attacks
    "passed",  # this seat passed: it may add cards again once another card is played
    "nothing_to_add",  # pass: the seat holds no card it could throw in
    "rank_not_on_table",  # cards: no card of that rank is on the table
    "table_full",  # limit: the bout holds all the attack cards it may
    "defender_cannot_cover",  # count, room, limit: more cards than the bout has room for
)
MALFORMED = Refusal("malformed")


def read_action(action: object) -> Action | Refusal:
    """The action ``action`` (an ``Action`` or a notation) names, canonical; the ``malformed``
    refusal if it names none.

    Unlike ``parse_action``, an attack of several ranks and a transfer of several cards are
    read (as non-interned actions, never legal), so that ``Game.why_illegal`` can say what is
    wrong with them.
    """
    if isinstance(action, Action):
        try:
            if action.meld is not None or not all(
                type(card) is int and 0 <= card < 52 for card in action.cards
            ):
                return MALFORMED
            text = str(action)
        except (TypeError, ValueError):  # cards that are not a sequence, a kind not a str
            return MALFORMED
    elif isinstance(action, str):
        text = action
    else:
        return MALFORMED
    try:
        return parse_action(text)
    except IllegalAction:
        pass
    words = text.split()
    if len(words) >= 2 and words[0] in ("attack", "transfer"):
        try:
            cards = notation_cards(words[1:], text)
        except IllegalAction:
            return MALFORMED
        return Action(words[0], tuple(sorted(cards)))
    return MALFORMED
