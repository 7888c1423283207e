"""Take back reveals nothing: the cards the person has not seen are dealt again, consistently
with everything they have seen, so a card drawn, or shown by the computer's answer, and taken
back is no more likely to come again than any other unseen card; and the record stays exact."""

import random
from typing import Any

import pytest
from test_records import downloaded, play_out

from cardgames import play, records
from cardgames.models import Browser, Game, Mode, Record
from cardgames.registry import GameKind, get_kind
from durak import engine as durak_engine
from rummy import engine as rummy_engine

DURAK_DECK = [rank + suit for suit in "cdhs" for rank in "6789TJQKA"]
# The person's hand, the computer's, then the face-up trump card: the person holds the lowest
# trump (6h) and attacks first; the computer can beat 7c with 9c, and the person throw in 9d.
DURAK_DEAL = ["6h", "7c", "9d", "Td", "Js", "Qs", "9c", "7h", "6s", "8s", "Kd", "Ac", "Ah"]


def computer_game(kind_name: str, dealt: Any) -> Game:
    """A game against the computer whose deal (and its record's) is the engine game ``dealt``."""
    kind = get_kind(kind_name)
    game = play.start(Browser.objects.create(), kind, Mode.COMPUTER, kind.variant({}))
    game.state = dealt.to_dict()
    game.save(update_fields=["state"])
    Record.objects.filter(game=game).update(deal=game.state)
    return game


def durak_game() -> Game:
    stock = [card for card in DURAK_DECK if card not in DURAK_DEAL]
    random.Random(4).shuffle(stock)
    return computer_game("durak", durak_engine.new_game(deck=DURAK_DEAL + stock, seed=1))


def state(game: Game) -> dict[str, Any]:
    game.refresh_from_db()
    return game.state


def person_view(game: Game) -> dict[str, Any]:
    """What the person sees now: the engine's view of seat 0."""
    kind = get_kind(game.kind)
    return kind.load(state(game)).view(play.PERSON_SEAT)


def act(game: Game, seat: int, notation: str) -> None:
    game.refresh_from_db()
    play.act_notation(game.pk, seat, notation, game.version)


def take_back(game: Game) -> None:
    game.refresh_from_db()
    play.take_back(game.pk, game.version)


def unseen_count(view: dict[str, Any]) -> int:
    """How many cards the person of a Rummy ``view`` cannot place: the computer's hand but the
    cards it took from the discard pile, and the stock."""
    return view["hand_sizes"][1] - len(view["taken_from_discard"][1]) + view["stock"]


def test_a_rummy_card_drawn_and_taken_back_is_no_more_likely_to_come_again_than_chance(db):
    dealt = rummy_engine.new_game(seed=9, dealer=1)  # the person plays first
    game = computer_game("rummy", dealt)
    before = person_view(game)
    chance = 1 / unseen_count(before)  # 41 cards: 10 in the computer's hand, 31 in the stock
    trials, same, first = 100, 0, None
    for _trial in range(trials):
        act(game, 0, "draw stock")
        (drawn,) = set(person_view(game)["hand"]) - set(before["hand"])
        first = first or drawn
        same += drawn == first
        take_back(game)
        assert person_view(game) == before  # the hand, the discard pile, the counts, the log
    # Today's take-back dealt the same stock again: the same card every time.
    assert chance < 0.03 and same - 1 < 0.15 * (trials - 1), (same, chance)
    assert records.current(game).take_backs == trials


def test_a_durak_bouts_draw_taken_back_is_dealt_again(db):
    game = durak_game()
    act(game, 0, "attack 7c")
    act(game, 1, "defend 7c 9c")
    before = person_view(game)
    # Unseen: the computer's 5 other cards and the stock but its face-up trump card.
    chance = 1 / (before["hand_sizes"][1] + before["stock"] - 1)
    trials, same, first = 100, 0, None
    for _trial in range(trials):
        act(game, 0, "pass")  # the bout ends: the person draws first, then the computer
        after = person_view(game)
        assert after["log"][-3:-1] == [
            {"event": "drew", "seat": 0, "count": 1},
            {"event": "drew", "seat": 1, "count": 1},
        ]
        (drawn,) = set(after["hand"]) - set(before["hand"])
        first = first or drawn
        same += drawn == first
        take_back(game)
        assert person_view(game) == before  # the table 7c 9c, the trump, the counts, the log
    assert chance < 0.04 and same - 1 < 0.2 * (trials - 1), (same, chance)


def test_a_card_the_computer_answered_with_is_no_longer_known_to_be_in_its_hand(db):
    game = durak_game()
    before = person_view(game)
    trials, still_held = 60, 0
    for trial in range(trials):
        act(game, 0, "attack 7c")
        legal = [str(action) for action in get_kind("durak").load(state(game)).legal_actions(1)]
        answer = "defend 7c 9c" if trial == 0 else random.Random(trial).choice(legal)
        act(game, 1, answer)
        take_back(game)
        assert person_view(game) == before
        still_held += "9c" in state(game)["hands"][1]
    # 9c is one of 29 unseen cards, 6 of them in the computer's hand: there about 21% of the time.
    assert still_held < 0.5 * trials, still_held


@pytest.mark.parametrize("kind_name", ["durak", "rummy"])
def test_a_game_played_on_after_take_backs_that_dealt_again_replays_from_its_record(db, kind_name):
    kind = get_kind(kind_name)
    game = play.start(Browser.objects.create(), kind, Mode.COMPUTER, kind.variant({}))
    dealt = state(game)
    rng = random.Random(12)
    for _take_back in range(3):
        game = to_the_persons_move(game, rng)
        act(game, 0, random_move(game, 0, rng))
        game = play_out(game, rng, moves=2)
        if kind.finished(kind.load(game.state)):
            break
        take_back(game)
    game = play_out(game, rng)
    record = Record.objects.get(game=game)
    assert record.take_backs >= 1 and record.deal != dealt
    data = downloaded(record)
    assert records.replay(data)[-1].to_dict() == game.state
    # The deal as new_game takes it deals the same cards, and plays to the same end.
    assert records.replay(data, from_deck=True)[-1].to_dict() == game.state


def random_move(game: Game, seat: int, rng: random.Random) -> str:
    return str(rng.choice(get_kind(game.kind).load(state(game)).legal_actions(seat)))


def to_the_persons_move(game: Game, rng: random.Random) -> Game:
    """Random moves for the computer until the person is asked."""
    kind = get_kind(game.kind)
    while (seat := kind.seat_to_ask(kind.load(state(game)))) != play.PERSON_SEAT:
        act(game, seat, random_move(game, seat, rng))
    return game


def test_a_rummy_reshuffle_taken_back_shuffles_the_pile_again(db):
    # A short stock of 10 cards, which runs out at the person's sixth turn.
    deck = [rank + suit for suit in "cdhs" for rank in "A23456789TJQK"][:31]
    game = computer_game("rummy", rummy_engine.new_game(deck=deck, seed=5, dealer=1))
    for seat in (0, 1) * 5:
        act(game, seat, "draw stock")
        act(game, seat, f"discard {state(game)['hands'][seat][-1]}")
    before = person_view(game)
    assert before["stock"] == 0 and before["discard_size"] == 11
    trials, same, first = 40, 0, None
    for _trial in range(trials):
        act(game, 0, "draw stock")  # the pile but its top card becomes the stock
        assert person_view(game)["log"][-2] == {"event": "reshuffle", "stock": 10}
        (drawn,) = set(person_view(game)["hand"]) - set(before["hand"])
        first = first or drawn
        same += drawn == first
        take_back(game)
        assert person_view(game) == before
    # One of the 10 cards shuffled: the same seed shuffled them the same way every time.
    assert same - 1 < 0.5 * (trials - 1), same


def test_a_game_that_cannot_deal_again_refuses_a_take_back_that_would_show_a_card(
    db, monkeypatch: pytest.MonkeyPatch
):
    monkeypatch.setattr(type(get_kind("durak")), "redeal_unseen", GameKind.redeal_unseen)
    game = durak_game()
    dealt = state(game)
    act(game, 0, "attack 7c")
    take_back(game)  # nothing shown yet: the person's own card
    assert state(game) == dealt
    act(game, 0, "attack 7c")
    act(game, 1, "defend 7c 9c")
    game.refresh_from_db()
    version = game.version
    with pytest.raises(play.Refused) as refused:
        play.take_back(game.pk, version)
    assert "would show you cards you have not seen" in str(refused.value.message)
    game.refresh_from_db()
    assert game.version == version and records.current(game).take_backs == 1


def test_redealing_keeps_every_seen_card_in_its_place_and_the_first_attacker():
    kind = get_kind("durak")
    stock = [card for card in DURAK_DECK if card not in DURAK_DEAL]
    deal = durak_engine.new_game(deck=DURAK_DEAL + stock, seed=1).to_dict()
    seen = frozenset([*deal["hands"][0], "Ah", "9c"])
    rng = random.Random(3)
    deals = [kind.redeal_unseen(deal, seen, rng) for _ in range(50)]
    for redealt in deals:
        assert redealt["hands"][0] == deal["hands"][0] and "9c" in redealt["hands"][1]
        assert redealt["stock"][-1] == "Ah" and redealt["attacker"] == 0
        assert sorted(redealt["hands"][1] + redealt["stock"]) == sorted(
            deal["hands"][1] + deal["stock"]
        )
    assert len({redealt["stock"][0] for redealt in deals}) > 10
    # The computer attacks first when it holds the lowest trump: a deal again must keep that.
    deck = ["7h", *DURAK_DEAL[1:6], "9c", "6h", *DURAK_DEAL[8:], *stock]
    deal = durak_engine.new_game(deck=deck, seed=1).to_dict()
    assert deal["attacker"] == 1
    for _ in range(50):
        redealt = kind.redeal_unseen(deal, frozenset([*deal["hands"][0], "Ah"]), rng)
        assert redealt["attacker"] == 1 and "6h" in redealt["hands"][1]


def test_a_rummy_deal_again_keeps_the_upcard_and_draws_a_new_seed():
    kind = get_kind("rummy")
    deal = rummy_engine.new_game(seed=9, dealer=1).to_dict()
    seen = frozenset([*deal["hands"][0], *deal["discard"]])
    redealt = kind.redeal_unseen(deal, seen, random.Random(1))
    assert redealt["hands"][0] == deal["hands"][0] and redealt["discard"] == deal["discard"]
    assert redealt["seed"] != deal["seed"] and redealt["stock"] != deal["stock"]
    assert rummy_engine.Game.from_dict(redealt).to_dict() == redealt
