"""Helpers for the Durak rulebook tests: explicit deals, legal-action lists, table snapshots.

Hands, stocks and moves are written the way a player would say them:

    game = deal("6s 8c 8d Tc Jc Qc", "9c 9d 7h Th Jh Qh", trump="As")
    play(game, "0: attack 8c", "1: defend 8c 9c")
    assert legal(game, 0) == actions("attack 8d", "pass")

A deal lists the six cards of each seat, then the face-up trump card, then the stock in draw
order (explicit decks may be shorter than the full deck; see durak/engine/FORMAT.md). Without
``trump`` the deal uses every card of the explicit deck, so the last card dealt fixes trump.

This module is imported by the test files directly (not through conftest.py), so that the
teammates' test files in this folder can keep a conftest of their own.
"""

import copy

import pytest

from durak.engine import Config, IllegalAction, new_game


def cards(text: str) -> list[str]:
    """The card names in ``text``, sorted (``"Ts 6c"`` -> ``["6c", "Ts"]``)."""
    return sorted(text.split())


def build_deck(hands: list[str], trump: str | None = None, stock: str = "") -> list[str]:
    """An explicit deck: each seat's six cards, then the face-up trump card, then the stock."""
    deck = []
    for seat, hand in enumerate(hands):
        names = hand.split()
        assert len(names) == 6, f"seat {seat} must be dealt six cards, got {names}"
        deck.extend(names)
    if trump is None:
        assert not stock, "a stock needs a face-up trump card under it"
    else:
        deck.append(trump)
        deck.extend(stock.split())
    assert len(set(deck)) == len(deck), "a card is dealt twice"
    return deck


def deal(*hands: str, trump=None, stock="", deck=36, transfer=False, seed=1):
    """A new game dealing ``hands`` to seats 0, 1, …, with this trump card and stock."""
    config = Config(players=len(hands), deck=deck, transfer=transfer)
    return new_game(config, deck=build_deck(list(hands), trump, stock), seed=seed)


def canon(notation: str) -> str:
    """The notation with a multi-card attack's cards in a fixed order (the engine's may differ)."""
    kind, *names = notation.split()
    if kind == "attack":
        names = sorted(names)
    return " ".join([kind, *names])


def legal(game, seat: int) -> list[str]:
    """Every legal action of ``seat`` now, as comparable notations."""
    return sorted(canon(str(action)) for action in game.legal_actions(seat))


def actions(*notations: str) -> list[str]:
    """Expected legal actions, comparable with ``legal``."""
    return sorted(canon(notation) for notation in notations)


def kinds(game, seat: int) -> set[str]:
    """The kinds of the legal actions of ``seat`` (``{"defend", "take"}``)."""
    return {str(action).split()[0] for action in game.legal_actions(seat)}


def play(game, *moves: str) -> None:
    """Apply moves written ``"seat: action"``, in order."""
    for move in moves:
        seat, _, action = move.partition(":")
        game.apply(int(seat), action.strip())


def hand(game, seat: int) -> list[str]:
    """The cards ``seat`` holds, sorted."""
    return sorted(game.view(seat)["hand"])


def table(game) -> dict[str, str | None]:
    """The table as ``{attack card: covering card or None}``."""
    return {attack: defence for attack, defence in game.view(0)["table"]}


def stock_count(game) -> int:
    """How many cards are left to draw, the face-up trump card included."""
    stock = game.view(0)["stock"]
    return stock if isinstance(stock, int) else len(stock)


def logged_actions(game) -> list[str]:
    """The public log's actions, as ``"seat: action"``."""
    return [
        f"{entry['seat']}: {entry['action']}" for entry in game.view(0)["log"] if "action" in entry
    ]


def assert_illegal(game, seat: int, action: str) -> None:
    """``action`` by ``seat`` raises IllegalAction and leaves the whole game unchanged."""
    before = copy.deepcopy(game.to_dict())
    legal_before = [legal(game, s) for s in range(len(game.view(0)["hand_sizes"]))]
    with pytest.raises(IllegalAction):
        game.apply(seat, action)
    assert game.to_dict() == before
    assert [legal(game, s) for s in range(len(legal_before))] == legal_before
