"""Determinization: deal the cards a seat cannot see into full, consistent rounds.

A *world* gives the opponent its exact hand (its known cards, the ones it took from the pile,
plus a share of the unseen cards) and the stock its exact size in a random order. The share is
drawn with a weight per card, the odds that the opponent holds it by a model learned from
self-play (``ai.rummy.hand_model``: what it left on the pile, threw and took, what lies where).

Those per-card weights only propose worlds; each proposed world is then weighed as a whole
(``Sampler.likelihood``) and worlds are drawn again in proportion (sampling-importance
resampling): a hand that makes a meld with a card the opponent threw or left on the pile is
unlikely (it would have kept or taken it; the older the sighting, the less it says), a card it
took from the pile and holds should go with something in its hand, and a hand that has been
built for several turns is better than a random one (a prior falling with the hand's value).
And a hand with which the opponent, playing as Medium plays, would not have played its recent
turns as it did (taken or left the pile's card, melded, laid off and thrown what it did) is ruled
out (``replay``): a proposal is replayed only once resampling draws it (``batch``). Should no
proposal of a batch fit, the opponent does not play as Medium, and the rest weighs the hands
alone for the rest of the decision. Against Medium, whose true hand always fits, that happens
part-way through two searches in three, most of their worlds dealt without the replay; a batch
that drew more proposals until some fitted, keeping the replay to the end, dealt card odds
closer to the truth but won no more rounds, at more CPU (7 December, 400 deals: 60.2% against
60.35%).

After a reshuffle the stock is drawn from the cards the pile turned over (``stock_pool``), so
the unseen cards outside it are surely in the opponent's hand.

``world_state`` writes a world in the engine's ``to_dict`` format, so that ``Game.from_dict``
plays it with the real rules; ``Sampler.batch`` gives worlds as ``Sim``s, built from that same
format, for the search.
"""

import math
import random
from typing import Any

from ai.rummy import hand_model
from ai.rummy.hand_model import HandModel
from ai.rummy.plan import MELD_PAIRS, RELATED
from ai.rummy.playout import Sim
from ai.rummy.replay import Replay
from ai.rummy.tracking import Public
from cards import card_list, card_names, mask_names
from rummy.engine.melds import hand_melds

# A whole world's likelihood factors: per card thrown (or left on the pile) that would make a
# meld with its hand, or per card of its hand that would pair with it; per held pile card that
# goes with nothing; the fading of a sighting per turn of age (after the last turn's); and the
# prior's slope per unit of hand value.
THROWN_MELD = 0.2
THROWN_PAIR = 0.75
LEFT_MELD = 0.15
LEFT_PAIR = 0.8
KEPT_ALONE = 0.3
FADING = 0.85
# The prior makes the opponent's hands in the worlds more built than its true ones: in 502
# positions of Medium against Medium, 2.0 loose cards (``rough_value``) where it held 2.7
# (Medium's value 2.8 against 3.5). A slope of 0.5 matches them (2.7 and 3.5) but plays
# worse: against Medium, seed 1, 58.5% of rounds where 1.6 scored 63.0 and 64.1% the same day,
# at a median decision of 42 ms instead of 28-33; 2.2 (1.9 loose cards) scored 61.6%, as strong.
# A cautious reading of the opponent pays.
BUILT = 1.6
# In ``rough_value``, what a loose card that goes with another loose card saves.
ROUGH_PAIR = 0.5
# Proposals drawn per world kept.
PROPOSALS = 3
# The stock cards a search draws at most in one world, and so shuffled into place: the draw's
# search draws this seat's card and the opponent's next one. (Until 7 December only the first
# was: the opponent then drew the card the weighted draw had left last, one the model held
# among the least likely in its hand, which went with its hand a third as often as a card of
# the stock does, and a blind draw looked safer than it is. Against Medium, seeds 1-2, the
# same deals the same day: 60.5% of rounds and 67.7% of matches shuffled, 61.25% and 66.9%
# before.)
DRAWS_AHEAD = 2


def rough_value(hand: int) -> float:
    """A quick value of a hand (lower is better): its cards in no possible meld, less
    ``ROUGH_PAIR`` for each of those that goes with another of them."""
    melded = 0
    for meld in hand_melds(hand):
        melded |= meld
    loose = hand & ~melded
    value = float(loose.bit_count())
    rest = loose
    while rest:
        low = rest & -rest
        rest ^= low
        if RELATED[low.bit_length() - 1] & loose:
            value -= ROUGH_PAIR
    return value


def world_state(
    view: dict[str, Any], public: Public, opp_hidden: int, stock: list[int]
) -> dict[str, Any]:
    """The engine's ``to_dict`` of the round in ``view`` with the opponent holding its known
    cards and ``opp_hidden``, and ``stock`` (next card last) as the stock. The seed is made up
    (only a reshuffle would use it); the log is left empty."""
    seat = view["seat"]
    hands: list[list[str]] = [[], []]
    hands[seat] = list(view["hand"])
    hands[1 - seat] = mask_names(public.opp_known | opp_hidden)
    return {
        "format": 1,
        "config": dict(view["config"]),
        "seed": f"world:{view['round']}:{view['turns_completed']}",
        "round": view["round"],
        "dealer": view["dealer"],
        "scores": list(view["scores"]),
        "hands": hands,
        "stock": card_names(reversed(stock)),
        "discard": card_names(public.pile),
        "melds": [{"owner": meld["owner"], "cards": list(meld["cards"])} for meld in view["melds"]],
        "turn": view["turn"],
        "phase": view["phase"],
        "drawn_from_discard": view["drawn_from_discard"],
        "taken_from_discard": [list(names) for names in view["taken_from_discard"]],
        "turns_completed": view["turns_completed"],
        "reshuffles": _reshuffles(view),
        "log": [],
        "round_outcome": view["round_outcome"],
        "outcome": view["outcome"],
    }


class Sampler:
    """Deals worlds for one decision: build it once, then draw ``batch``es of worlds."""

    def __init__(
        self, view: dict[str, Any], public: Public, model: HandModel | None = None
    ) -> None:
        """The worlds of ``view``, the opponent's hidden cards weighed by ``model`` (by
        default the shipped one)."""
        self.opp = 1 - view["seat"]
        self.hidden = view["hand_sizes"][self.opp] - public.opp_known.bit_count()
        self.stock_size = view["stock"]
        unseen = public.unseen
        pool = public.stock_pool
        # Cards surely in the opponent's hand (after a reshuffle, the unseen ones outside the
        # pool the stock was rebuilt from), and the cards the rest is drawn from.
        forced = unseen & ~pool if pool else 0
        if forced.bit_count() > self.hidden or (pool and pool.bit_count() < self.stock_size):
            forced = 0  # inconsistent (should not happen): fall back to no constraint
        self.forced = forced
        self.choices = card_list(unseen & ~forced)
        self.weights = self.weigh(view, public, model or hand_model.default())
        self.base = Sim.from_state(world_state(view, public, 0, []))
        self.known = public.opp_known
        # The opponent's recent turns, replayed in each world as Medium would play them (None:
        # none can be, or the opponent does not play so).
        self.replay = Replay.read(view)
        # The replay's verdict by hand: resampling draws the likeliest hands again and again
        # (a quarter of the hands replayed in a search had been replayed before).
        self.verdicts: dict[int, bool] = {}
        # Per sighting: the pairs that make a meld with its card, the cards that pair with it,
        # and the (faded) factors for either.
        self.seen: list[tuple[tuple[int, ...], int, float, float]] = []
        for card, thrown, age in public.opp_seen:
            fading = FADING ** max(0, age - 1)
            meld, pair = (THROWN_MELD, THROWN_PAIR) if thrown else (LEFT_MELD, LEFT_PAIR)
            self.seen.append((MELD_PAIRS[card], RELATED[card], meld**fading, pair**fading))

    def weigh(self, view: dict[str, Any], public: Public, model: HandModel) -> list[float]:
        """The weight of each of ``choices`` for the opponent's hidden hand."""
        weights = model.weights(view, public)
        return [weights[card] for card in self.choices]

    def likelihood(self, hand: int) -> float:
        """How likely the opponent's whole ``hand`` is given what it did (up to a constant),
        the replay of its turns aside (see ``fits``)."""
        weight = 1.0
        for pairs, related, meld_factor, pair_factor in self.seen:
            for pair in pairs:
                if pair & hand == pair:
                    weight *= meld_factor
                    break
            else:
                partners = (related & hand).bit_count()
                if partners:
                    weight *= pair_factor**partners
        known = self.known
        while known:
            low = known & -known
            known ^= low
            if not RELATED[low.bit_length() - 1] & hand:
                weight *= KEPT_ALONE
        return weight * math.exp(-BUILT * rough_value(hand))

    def fits(self, hand: int) -> bool:
        """Whether the opponent, holding ``hand``, would have played its recent turns as it
        did, playing as Medium plays (always, once it does not: see ``batch``)."""
        if self.replay is None:
            return True
        verdict = self.verdicts.get(hand)
        if verdict is None:
            verdict = self.verdicts[hand] = self.replay.fits(hand)
        return verdict

    def batch(self, rng: random.Random, size: int) -> list[Sim]:
        """``size`` worlds drawn in proportion to their likelihood from ``PROPOSALS`` times as
        many proposals (the stock shuffled as far as a search draws: see ``sample``), of those
        that ``fits``.

        The replay is costly and the likelihood spread wide, so a proposal is replayed only
        once drawn: one that does not fit is struck out and the draw made again, which draws
        from the same distribution as striking out every misfit first."""
        proposals = [self.sample(rng, shuffle=False) for _ in range(size * PROPOSALS)]
        hands = [hidden | self.known for hidden, _ in proposals]
        weights = [self.likelihood(hand) for hand in hands]
        if not sum(weights) > 0.0:
            weights = [1.0] * len(proposals)  # every proposal unlikely beyond floats
        chosen = self._fitting(rng, hands, weights, size)
        if chosen is None:
            # No proposed hand fits the opponent's turns played as Medium plays: it does not.
            self.replay = None
            chosen = self._fitting(rng, hands, weights, size)
        worlds = []
        for index in chosen:
            hidden, stock = proposals[index]
            sim = self.base.copy()
            sim.hands[self.opp] |= hidden
            sim.stock = stock[:]
            worlds.append(sim)
        return worlds

    def _fitting(
        self, rng: random.Random, hands: list[int], weights: list[float], size: int
    ) -> list[int] | None:
        """``size`` indices of ``hands`` drawn by ``weights`` among those that ``fits`` (None:
        none fits; never without a replay)."""
        if self.replay is None:
            return rng.choices(range(len(hands)), weights=weights, k=size)
        weights = weights[:]
        chosen: list[int] = []
        indices = range(len(hands))
        while len(chosen) < size:
            if not any(weights):
                return None
            index = rng.choices(indices, weights=weights)[0]
            if self.fits(hands[index]):  # replayed once per hand (``verdicts``)
                chosen.append(index)
            else:
                weights[index] = 0.0
        return chosen

    def sample(self, rng: random.Random, shuffle: bool = True) -> tuple[int, list[int]]:
        """One world's hidden part: the opponent's hidden cards (a mask) and the stock (next
        card last), drawn with the inference weights; ``shuffle=False`` leaves the stock
        shuffled only as far as its next ``DRAWS_AHEAD`` cards, the ones a search draws (the
        rest lies in the order of the weights, the cards least likely in the opponent's hand
        nearest the top: a search must not draw them)."""
        need = self.hidden - self.forced.bit_count()
        draw, log = rng.random, math.log
        # Weighted sampling without replacement: the ``need`` smallest exponential races.
        keyed = sorted(
            zip(
                [-log(1.0 - draw()) / weight for weight in self.weights],
                self.choices,
                strict=True,
            )
        )
        hidden = self.forced
        for _, card in keyed[:need]:
            hidden |= 1 << card
        stock = [card for _, card in keyed[need:]]
        if shuffle:
            rng.shuffle(stock)
        else:
            # A partial Fisher-Yates shuffle of the last places.
            for last in reversed(range(max(0, len(stock) - DRAWS_AHEAD), len(stock))):
                index = rng.randrange(last + 1)
                stock[index], stock[last] = stock[last], stock[index]
        return hidden, stock


def _reshuffles(view: dict[str, Any]) -> int:
    return sum(1 for entry in view["log"] if entry.get("event") == "reshuffle")
