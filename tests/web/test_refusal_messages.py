"""A refused move says why, in the player's language, with the reason from the engine.

Every code of both engines' ``REFUSAL_CODES`` has a sentence in its game's ``refusals`` module,
translated in French, Italian and Romanian; ``GameKind.refusal`` picks the plain message for a
form that cannot be read or names no whole move, and the engine's reason for the rest; and over
the socket the reason reaches the table's alert, in the page's language, the game unchanged.
"""

from pathlib import Path
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.core.management import call_command
from django.test import Client
from django.utils import translation
from django.utils.functional import Promise
from django.utils.translation.reloader import translation_file_changed
from table_helpers import Table, alert_in, start_computer_game, version_of

from cardgames import bots, snapshots
from cardgames.forms import MoveForm
from cardgames.models import Game
from cardgames.registry import GameKind, get_kind
from cards import Refusal
from durak import refusals as durak_refusals
from durak.engine import REFUSAL_CODES as DURAK_CODES
from durak.engine import Config as DurakConfig
from durak.engine import new_game as new_durak
from rummy import refusals as rummy_refusals
from rummy.engine import REFUSAL_CODES as RUMMY_CODES
from rummy.engine import Config as RummyConfig
from rummy.engine import new_game as new_rummy

LANGUAGES = ("fr", "it", "ro")

# Each code's params, as the engine gives them, once or several times when the sentence
# depends on them (a trump, one card or several, the opening lead or a throw-in).
DURAK_SAMPLES: dict[str, list[dict[str, Any]]] = {
    "not_in_hand": [{"cards": ["7d", "7s"]}],
    "one_rank": [{"cards": ["6c", "7c"]}],
    "not_attack_card": [{"card": "7c"}],
    "already_covered": [{"card": "6h", "by": "7h"}],
    "does_not_beat": [
        {"attack": "7c", "defence": "8h", "trump": "s"},
        {"attack": "7d", "defence": "8h", "trump": "s"},
        {"attack": "7h", "defence": "6h", "trump": "s"},
        {"attack": "7s", "defence": "8d", "trump": "c"},
        {"attack": "7s", "defence": "6s", "trump": "s"},
    ],
    "transfer_one_card": [{"cards": ["6d", "6s"]}],
    "transfer_rank": [{"card": "7d", "attacks": ["6c", "6h"]}],
    "transfer_too_many": [{"count": 4, "holds": 3}, {"count": 2, "holds": 1}],
    "rank_not_on_table": [{"cards": ["8c"]}],
    "table_full": [{"limit": 6}, {"limit": 1}],
    "defender_cannot_cover": [
        {"count": 3, "room": 2, "limit": 2},
        {"count": 2, "room": 1, "limit": 1},
        {"count": 3, "room": 2, "limit": 6},
        {"count": 2, "room": 1, "limit": 6},
    ],
}
RUMMY_SAMPLES: dict[str, list[dict[str, Any]]] = {
    "pile_empty": [{"pile": "stock"}, {"pile": "discard"}],
    "not_in_hand": [{"cards": ["Ah"]}],
    "not_a_meld": [{"cards": ["9d", "Kd", "9h"]}, {"cards": ["9d", "9h"]}],
    "no_such_meld": [{"meld": 3}],
    "does_not_fit": [{"cards": ["Kd"], "meld": 0, "meld_cards": ["9d", "9h", "9s"]}],
    "must_keep_a_card": [{"card": "Jd"}],
    "discard_drawn": [{"card": "6c"}],
}
GAMES = [
    ("durak", durak_refusals, DURAK_CODES, DURAK_SAMPLES),
    ("rummy", rummy_refusals, RUMMY_CODES, RUMMY_SAMPLES),
]


@pytest.fixture(scope="module", autouse=True)
def compiled_catalogs():
    """Compile the catalogs (as `make test` does) and forget any catalog loaded before."""
    call_command("compilepo", verbosity=0)
    translation_file_changed(sender=None, file_path=Path("django.mo"))
    yield


def said(text: Any, lang: str = "en") -> str:
    with translation.override(lang):
        return str(text)


def all_refusals(codes, samples) -> list[Refusal]:
    return [Refusal(code, **params) for code in codes for params in samples.get(code, [{}])]


@pytest.mark.parametrize(("game", "module", "codes", "samples"), GAMES)
def test_every_code_of_the_engine_has_a_sentence(game, module, codes, samples):
    assert set(module.MESSAGES) == set(codes)
    assert set(samples) <= set(codes)
    for reason in all_refusals(codes, samples):
        sentence = said(module.explain(reason))
        assert sentence and "%(" not in sentence, (reason, sentence)


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize(("game", "module", "codes", "samples"), GAMES)
def test_every_sentence_is_translated(game, module, codes, samples, lang):
    untranslated = [
        (reason, said(module.explain(reason)))
        for reason in all_refusals(codes, samples)
        if said(module.explain(reason), lang) == said(module.explain(reason))
    ]
    assert not untranslated, f"{lang}: {untranslated}"
    # ...and so are the module's other sentences (what ``unwritten`` says).
    constants = [value for value in vars(module).values() if isinstance(value, Promise)]
    assert constants
    same = [str(value) for value in constants if said(value, lang) == said(value)]
    assert not same, f"{lang}: {same}"


def test_the_sentences_name_the_cards_and_say_the_rule():
    explain = durak_refusals.explain
    assert said(explain(Refusal("does_not_beat", attack="7c", defence="8h", trump="s"))) == (
        "8♥ does not beat 7♣: beat it with a higher club or a trump."
    )
    assert said(explain(Refusal("does_not_beat", attack="7s", defence="6s", trump="s"))) == (
        "6♠ does not beat 7♠: only a higher trump beats a trump."
    )
    one = Refusal("defender_cannot_cover", count=2, room=1, limit=1)
    assert said(explain(one)) == "The defender holds one card: lead at most one."
    assert said(explain(one), "fr") == (
        "Le défenseur a une seule carte : attaquez avec une seule carte."
    )
    assert said(rummy_refusals.explain(Refusal("draw_first"))) == (
        "Draw a card first: from the stock or the discard pile."
    )
    assert said(rummy_refusals.explain(Refusal("not_in_hand", cards=["Qh", "Ah"]))) == (
        "You do not hold A♥ Q♥."  # in the order the hand shows them, the ace low
    )


# -- GameKind.refusal: the form first, then the engine --------------------------------------------


def durak_deal(*hands: str, trump: str | None = None, stock: str = ""):
    """A Durak game dealing ``hands`` (six cards each), then the trump card and the stock."""
    deck = " ".join([*hands, trump or "", stock]).split()
    return new_durak(DurakConfig(players=len(hands)), deck=deck, seed=1)


def durak_play(game, *moves: str) -> None:
    """Apply moves written ``"seat: action"``."""
    for move in moves:
        seat, _, action = move.partition(":")
        game.apply(int(seat), action.strip())


def refusal(game_name: str, game, seat: int, **message: Any) -> str:
    """What the table says to ``seat`` when it sends the move form ``message``."""
    registered = get_kind(game_name)
    legal = game.legal_actions(seat)
    assert registered.compose(message, legal) is None, message
    return said(registered.refusal(game, seat, message, legal))


def test_durak_refusals_from_the_table_form():
    # Spades are trumps; seat 0 holds the lowest, 6s, and leads.
    game = durak_deal(
        "6c 7c 8c 9c Tc 6s", "6d 7d 8h Qh Kh 7s", trump="As", stock="Qc Kc Ac Qd Kd Ad"
    )
    assert refusal("durak", game, 0, kind="attack") == "Select the cards to play first."
    assert refusal("durak", game, 0, kind="fly") == "That message is not understood."
    assert refusal("durak", game, 0, kind="attack", card="6x") == "That message is not understood."
    assert refusal("durak", game, 0, kind="attack", card=["6c", "7c"]) == (
        "6♣ 7♣ are not all of one rank: play one rank at a time."
    )
    assert refusal("durak", game, 0, kind="pass").startswith("Open the bout")
    assert refusal("durak", game, 0, kind="attack", card="6d") == "You do not hold 6♦."
    durak_play(game, "0: attack 7c")
    beat = "8♥ does not beat 7♣: beat it with a higher club or a trump."
    assert refusal("durak", game, 1, kind="defend", card="8h", cover="7c") == beat
    assert refusal("durak", game, 1, kind="defend", card="8h") == beat  # "Beat", one attack card
    assert refusal("durak", game, 1, kind="defend") == "Select the card to beat with first."
    assert refusal("durak", game, 1, kind="defend", card=["Qh", "Kh"]).startswith("Beat one card")
    assert refusal("durak", game, 1, kind="transfer", card="7d") == (
        "This game is played without transfers."
    )
    assert refusal("durak", game, 0, kind="attack", card="8c").startswith("No card of the rank")


def test_durak_the_beat_button_with_several_attack_cards():
    game = durak_deal(
        "6c 6d 8c 9c Tc 6s", "7c 7d 8h Qh Kh 7s", trump="As", stock="Qc Kc Ac Qd Kd Ad"
    )
    durak_play(game, "0: attack 6c 6d")
    assert refusal("durak", game, 1, kind="defend", card="8h") == (
        "8♥ beats none of the cards on the table."
    )
    assert refusal("durak", game, 1, kind="defend", card="7s") == (
        "7♠ can beat 6♣ 6♦: tap the card it goes on."
    )
    assert refusal("durak", game, 1, kind="defend", card="9d") == "You do not hold 9♦."


def test_durak_the_defender_holds_one_card():
    """Three players: seat 0 is left with one card and defends against seat 2's kings."""
    game = durak_deal("6c 6d 6h 6s 7c 9d", "7d 7h 7s 8c Jc Jd", "Kc Kd Kh Ks Ts Qs")
    durak_play(game, "0: attack 6c 6d 6h 6s", "1: defend 6d 7d", "1: defend 6h 7h")
    durak_play(game, "1: defend 6s 7s", "1: defend 6c 8c", "0: attack 7c", "1: defend 7c Jc")
    durak_play(game, "1: attack Jd", "2: defend Jd Kd")
    assert refusal("durak", game, 2, kind="attack", card=["Kc", "Kh"]) == (
        "The defender holds one card: lead at most one."
    )


def test_rummy_refusals_from_the_table_form():
    deck = "2c 3c 4c 5c 9d 9h 9s Kd Kh Ks Ac 6d 6h 8s Tc Jd 4s 5s 3h 7h 6c 8d Td Kc 7s Js"
    game = new_rummy(RummyConfig(), deck=deck.split(), seed=1, dealer=1)
    assert refusal("rummy", game, 0, kind="discard", card="Kd") == (
        "Draw a card first: from the stock or the discard pile."
    )
    assert refusal("rummy", game, 0, kind="draw") == "Choose the stock or the discard pile."
    game.apply(0, "draw discard")  # the 6c
    assert refusal("rummy", game, 0, kind="discard", card="6c") == (
        "You took 6♣ from the discard pile: you may not discard it this turn."
    )
    assert refusal("rummy", game, 0, kind="meld", card=["9d", "9h", "Kd"]).startswith(
        "9♦ K♦ 9♥ is neither a set nor a run"
    )
    assert refusal("rummy", game, 0, kind="layoff", card="Kd") == (
        "Now tap the meld on the table the cards go on."
    )
    assert refusal("rummy", game, 0, kind="layoff", meld="0", card="Kd") == (
        "There is no such meld on the table."
    )
    game.apply(0, "meld 9d 9h 9s")
    assert refusal("rummy", game, 0, kind="layoff", meld="0", card="Kd") == (
        "K♦ does not fit on 9♦ 9♥ 9♠: the meld must stay a set or a run."
    )


class _EngineWithAReason:
    """An engine game that refuses everything, for a reason its kind cannot put in words."""

    def legal_actions(self, seat: int) -> list[Any]:
        return []

    def why_illegal(self, seat: int, action: Any) -> Refusal:
        return Refusal("no_words_for_this")


class _Form(MoveForm):
    def notation(self, legal: list[Any]) -> str:
        return "take 3"


class _Kind(GameKind):
    move_form = _Form


def test_a_game_that_cannot_say_a_reason_gets_the_plain_refusal():
    text = _Kind().refusal(_EngineWithAReason(), 0, {}, [])
    assert said(text) == "That move is not allowed now."


# -- over the socket -------------------------------------------------------------------------------

# Seat 0 (you) holds the lowest trump (6h) and leads; the computer holds no club.
DURAK_DECK = [
    *("6c", "7c", "8c", "9c", "Tc", "6h"),
    *("6d", "7d", "8d", "Qs", "Ks", "7h"),
    "Ah",
    *("Qc", "Kc", "Ac", "Qd", "Kd", "Ad"),
]


def deal_known_durak(game: Game) -> None:
    assert bots.wait_idle()
    game.state = new_durak(DurakConfig(players=2, deck=36), deck=DURAK_DECK, seed=1).to_dict()
    game.version = 0
    game.save()
    snapshots.forget(game.pk)  # a version made again: what this process remembers of it is gone


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    ("lang", "reason"),
    [
        ("en", "6♣ 7♣ are not all of one rank: play one rank at a time."),
        ("fr", "6♣ 7♣ ne sont pas toutes de la même valeur : jouez une valeur à la fois."),
    ],
)
async def test_a_refused_durak_move_says_why_in_the_pages_language(settings, lang, reason):
    settings.BOT_DELAY = 0
    client = Client()
    game = await database_sync_to_async(start_computer_game)(client, players="2", deck="36")
    await database_sync_to_async(deal_known_durak)(game)
    before = (await database_sync_to_async(Game.objects.get)(pk=game.pk)).state
    async with Table(client, game.pk, lang) as table:
        html = await table.send(
            {"op": "move", "kind": "attack", "card": ["6c", "7c"], "version": 0}
        )
        assert alert_in(html) == reason
        assert version_of(html) == 0
        row = await table.game()
        assert (row.version, row.state) == (0, before)
        html = await table.send({"op": "move", "kind": "attack", "version": 0})  # no card
        assert (
            alert_in(html)
            == {
                "en": "Select the cards to play first.",
                "fr": "Sélectionnez d’abord les cartes à jouer.",
            }[lang]
        )
        # Still connected, and a good move goes through.
        html = await table.send({"op": "move", "kind": "attack", "card": "6c", "version": 0})
        assert alert_in(html) is None


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    ("lang", "reason"),
    [
        ("en", "Draw a card first: from the stock or the discard pile."),
        ("fr", "Piochez d’abord une carte : dans la pioche ou dans la défausse."),
    ],
)
async def test_a_refused_rummy_move_says_why_in_the_pages_language(settings, lang, reason):
    settings.BOT_DELAY = 0
    client = Client()
    game = await database_sync_to_async(start_computer_game)(client, "rummy")

    def deal() -> None:
        assert bots.wait_idle()
        deck = "2c 3c 4c 5c 9d 9h 9s Kd Kh Ks Ac 6d 6h 8s Tc Jd 4s 5s 3h 7h 6c 8d Td Kc 7s Js"
        game.state = new_rummy(RummyConfig(), deck=deck.split(), seed=1, dealer=1).to_dict()
        game.version = 0
        game.save()
        snapshots.forget(game.pk)

    await database_sync_to_async(deal)()
    async with Table(client, game.pk, lang) as table:
        html = await table.send({"op": "move", "kind": "discard", "card": "Kd", "version": 0})
        assert alert_in(html) == reason
        row = await table.game()
        assert row.version == 0
