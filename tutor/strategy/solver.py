"""Exact expected values of every player action, per unit bet, composition-dependent.

Method. For one up-card and one shoe, a player hand is the multiset of its card values. Standing
is valued from the dealer's final-total distribution for the shoe *without the hand's cards*
(:mod:`tutor.strategy.dealer`); hitting is the probability-weighted value of the hand one card
larger, played on optimally (hit or stand; the game stands by itself on 21); doubling is twice the
value of standing after exactly one card. Every hand with a hard total of 21 or less is a node of
one graph (:func:`hand_graph`, about 3,000 hands); the dealer distributions of all of them are
computed in one batch, then hands are valued level by level, from hard 21 down, with array
operations, so a whole up-card costs a few hundred numpy calls.

Conditioning on the peek (American deal, dealer showing an Ace or a ten). Decisions are taken
once the dealer has checked and found no natural, so every EV here is *given no dealer natural*:
the dealer's distribution is conditioned, and so are the player's draws, because knowing the hole
card is not an Ace (or not a ten) changes the chances of the player's next card:
``P(v | no natural) = n[v]/N * P(no natural | v drawn) / P(no natural)``. Under the European deal
nothing is known, EVs are unconditional and a dealer natural takes doubled and split bets too.
Surrender is valued in :mod:`tutor.strategy.solution`, as the engine settles it: late surrender
under the European deal still loses the whole bet to a dealer natural, immediate surrender keeps
half the bet whatever the dealer's second card is.

Splits, the one approximation. A split hand is valued from the shoe without the up-card, its own
cards *and the other card of the pair* (the cards drawn to the other split hands are not removed),
and played optimally for those cards, doubling only where double after split is allowed. The number
of hands follows the rules exactly: each split hand that receives another card of the pair is split
again while the seat holds fewer than ``max_hands`` hands (Aces only with ``resplit_aces``),
with the chance of another pair card taken from that same shoe; a hand that receives a pair card
when no resplit is possible is played as the pair, without splitting. This is the usual
"zero memory" post-split convention of exact calculators (Farmer's CDZ-); its gap to removing
every split hand's cards as they are drawn has not been measured here.

The Ace of spades with a black Jack bonus depends on suits and is not part of these values.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import numpy.typing as npt

from tutor.legality import double_refusal
from tutor.rules import HoleCard, TableRules
from tutor.strategy.dealer import (
    BUST,
    INFINITE,
    NATURAL,
    Composition,
    FloatArray,
    dealer_distribution,
    natural_partner,
    outcome_matrix,
)

Hand = tuple[int, ...]  # counts of Ace, 2, ..., 9, ten-valued
EMPTY: Hand = (0,) * 10
IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]


def add_card(hand: Hand, value: int) -> Hand:
    index = value - 1
    return (*hand[:index], hand[index] + 1, *hand[index + 1 :])


def hand_of(values: Sequence[int]) -> Hand:
    hand = EMPTY
    for value in values:
        hand = add_card(hand, value)
    return hand


def hard_total(hand: Hand) -> int:
    return sum(value * count for value, count in enumerate(hand, start=1))


@dataclass(frozen=True)
class HandGraph:
    """Every hand of one or more cards with a hard total of 21 or less, and how cards join them."""

    counts: IntArray  # (hands, 10)
    hard: IntArray
    total: IntArray  # best total (an Ace counts 11 when that stays at 21 or under)
    soft: BoolArray
    size: IntArray
    #: child[h, v-1]: the hand with one more card of value v, or ``bust`` (= number of hands).
    child: IntArray
    #: Hands grouped by hard total, from 21 down: children always sit in an earlier group.
    levels: tuple[IntArray, ...]
    index: dict[Hand, int]

    @property
    def bust(self) -> int:
        return int(self.counts.shape[0])


@lru_cache(maxsize=1)
def hand_graph() -> HandGraph:
    hands: list[Hand] = []

    def grow(value: int, prefix: list[int], room: int) -> None:
        if value > 10:
            if sum(prefix):
                hands.append(tuple(prefix))
            return
        count = 0
        while count * value <= room:
            grow(value + 1, [*prefix, count], room - count * value)
            count += 1

    grow(1, [], 21)
    index = {hand: i for i, hand in enumerate(hands)}
    counts = np.array(hands, dtype=np.int64)
    hard = counts @ np.arange(1, 11)
    soft = (counts[:, 0] > 0) & (hard + 10 <= 21)
    total = hard + 10 * soft
    child = np.full((len(hands), 10), len(hands), dtype=np.int64)
    for i, hand in enumerate(hands):
        for value in range(1, 11):
            grown = index.get(add_card(hand, value))
            if grown is not None:
                child[i, value - 1] = grown
    levels = tuple(np.flatnonzero(hard == h) for h in range(21, 0, -1))
    return HandGraph(counts, hard, total, soft, counts.sum(axis=1), child, levels, index)


@dataclass(frozen=True)
class HandValues:
    """EVs of every hand against one up-card, for one "extra" card removed (0: none)."""

    extra: int
    rows: BoolArray  # hands valued here (others are meaningless)
    stand: FloatArray
    hit: FloatArray
    best: FloatArray  # hit or stand
    double: FloatArray
    draws: FloatArray  # (hands, 10): the player's next card, given no natural after a peek
    dealer_bust: FloatArray


@dataclass(frozen=True)
class SplitValue:
    """The EV of splitting one pair and the facts a reason may quote."""

    ev: float
    #: Average EV of one split hand that did not receive another card of the pair.
    per_hand: float


class UpCardSolver:
    """EVs against one up-card from one shoe (the shoe still holding the up-card)."""

    def __init__(self, rules: TableRules, shoe: Composition | None, up: int) -> None:
        self.rules = rules
        self.up = up
        self.infinite = shoe is None
        if shoe is not None:
            counts = list(shoe)
            counts[up - 1] -= 1
            if counts[up - 1] < 0:
                raise ValueError(f"the shoe holds no card of value {up} for the dealer")
            self.shoe: Composition = tuple(counts)
        else:
            self.shoe = EMPTY
        self.peek = rules.hole_card is HoleCard.AMERICAN
        self.partner = natural_partner(up)
        #: Whether EVs are conditioned on the dealer having no natural.
        self.conditioned = self.peek and self.partner is not None
        self._values: dict[tuple[int, Hand | None], HandValues] = {}
        #: Concurrent requests for the same values wait for one computation (see ``values``).
        self._lock = threading.RLock()
        self._split: dict[tuple[int, int, bool], SplitValue] = {}
        graph = hand_graph()
        # The same rule the engine applies (tutor.legality); whether a split hand may double
        # is the split's own ``das`` question.
        self.may_double = np.array([
            double_refusal(rules, cards=int(n), total=int(t), soft=bool(s), from_split=False)
            is None
            for n, t, s in zip(graph.size, graph.total, graph.soft, strict=True)
        ])

    def dealer_natural(self, removed: Hand) -> float:
        """Chance the dealer's second card makes a natural, before any peek."""
        if self.partner is None:
            return 0.0
        if self.infinite:
            return INFINITE[self.partner - 1]
        left = [s - r for s, r in zip(self.shoe, removed, strict=True)]
        return left[self.partner - 1] / sum(left)

    def values(self, extra: int = 0, within: Hand | None = None) -> HandValues:
        """EVs of all hands (or only those holding ``within``) with ``extra`` also out of the shoe.

        ``extra`` is the other card of a split pair (0 for none): only hands holding that card
        are valued then, since only they arise after the split.
        """
        key = (extra, within)
        got = self._values.get(key)
        if got is None:
            with self._lock:
                got = self._values.get(key)
                if got is None:
                    got = self._solve(extra, within)
                    self._values[key] = got
        return got

    def _solve(self, extra: int, within: Hand | None) -> HandValues:
        graph = hand_graph()
        n = graph.bust
        rows = np.ones(n, dtype=bool)
        if extra:
            rows &= graph.counts[:, extra - 1] > 0
        if within is not None:
            rows &= np.all(graph.counts >= np.array(within), axis=1)
        removed = graph.counts.copy()
        if extra:
            removed[:, extra - 1] += 1
        draws = np.zeros((n, 10))
        dealer = np.zeros((n, 7))
        if self.infinite:
            draws[rows] = np.array(INFINITE)
            dealer[rows] = dealer_distribution(
                None, self.up, hits_soft_17=self.rules.dealer_hits_soft_17, peek=self.peek,
                after_peek=True,
            )
        else:
            left = np.array(self.shoe)[None, :] - removed
            rows &= np.all(left >= 0, axis=1)
            live = np.flatnonzero(rows)
            shoes = left[live].astype(np.float64)
            total = shoes.sum(axis=1)
            p = shoes / total[:, None]
            joint = outcome_matrix(
                shoes, self.up, hits_soft_17=self.rules.dealer_hits_soft_17,
                peek=self.conditioned,
            )
            if self.conditioned and self.partner is not None:
                partner = shoes[:, self.partner - 1]
                no_natural = 1 - partner / total
                after = partner[:, None] - (np.arange(1, 11) == self.partner)[None, :]
                p = p * (1 - after / (total[:, None] - 1)) / no_natural[:, None]
                joint = joint / no_natural[:, None]
            draws[live] = p
            dealer[live] = joint
        stand = np.zeros(n + 1)
        stand[n] = -1.0  # the "bust" node
        below = np.concatenate([np.zeros((n, 1)), np.cumsum(dealer[:, :5], axis=1)], axis=1)
        index = np.clip(graph.total - 17, 0, 4)
        arange = np.arange(n)
        made = below[arange, index]
        above = below[:, 5] - below[arange, index + 1]
        standing = dealer[:, BUST] + made - above - dealer[:, NATURAL]
        low = graph.total < 17
        stand[:n] = np.where(low, 2 * dealer[:, BUST] - 1, standing)
        stand[:n][~rows] = 0.0
        best = stand.copy()
        hit = np.zeros(n)
        for level in graph.levels:
            ids = level[rows[level]]
            if not len(ids):
                continue
            hit[ids] = np.einsum("hv,hv->h", draws[ids], best[graph.child[ids]])
            best[ids] = np.where(graph.total[ids] >= 21, stand[ids],
                                 np.maximum(stand[ids], hit[ids]))
        double = 2 * np.einsum("hv,hv->h", draws, stand[graph.child])
        return HandValues(extra, rows, stand[:n], hit, best[:n], double, draws, dealer[:, BUST])

    def split(self, pair: int, hands_available: int, *, das: bool | None = None) -> SplitValue:
        """Value of splitting a pair of ``pair`` when the seat may grow to ``hands_available`` hands
        from this pair (``max_hands`` for a first split); see the module docstring."""
        das = self.rules.double_after_split if das is None else das
        key = (pair, hands_available, das)
        got = self._split.get(key)
        if got is not None:
            return got
        with self._lock:
            return self._split.get(key) or self._split_value(pair, hands_available, das, key)

    def _split_value(
        self, pair: int, hands_available: int, das: bool, key: tuple[int, int, bool]
    ) -> SplitValue:
        rules = self.rules
        graph = hand_graph()
        values = self.values(pair)
        aces = pair == 1
        one_card = aces and rules.split_aces_one_card
        resplit = hands_available > 2 and (not aces or rules.resplit_aces)
        start = graph.index[add_card(EMPTY, pair)]

        def played(hand: int) -> float:
            if one_card:
                return float(values.stand[hand])
            value = float(values.best[hand])
            if das and self.may_double[hand]:
                value = max(value, float(values.double[hand]))
            return value

        p_pair = 0.0
        other = 0.0
        stuck = 0.0
        for card in range(1, 11):
            p = float(values.draws[start, card - 1])
            if p <= 0:
                continue
            hand = int(graph.child[start, card - 1])
            if card == pair:
                p_pair = p
                stuck = played(hand)
            else:
                other += p * played(hand)
        p_other = 1 - p_pair
        per_hand = other / p_other if p_other > 0 else 0.0
        memo: dict[tuple[int, int], float] = {}

        def pending(total: int, open_hands: int) -> float:
            # Expected value of the ``open_hands`` hands still waiting for their second card.
            if open_hands == 0:
                return 0.0
            key = (total, open_hands)
            if key not in memo:
                value = p_other * (per_hand + pending(total, open_hands - 1))
                if resplit and total < hands_available:
                    value += p_pair * pending(total + 1, open_hands + 1)
                else:
                    value += p_pair * (stuck + pending(total, open_hands - 1))
                memo[key] = value
            return memo[key]

        result = SplitValue(pending(2, 2), per_hand)
        self._split[key] = result
        return result
