"""Exact expected values of every player action, per unit bet, composition-dependent.

Method. For one up-card and one shoe, a player hand is the multiset of its card values. Standing
is valued from the dealer's final-total distribution for the shoe *without the hand's cards*
(:mod:`tutor.strategy.dealer`); hitting is the probability-weighted value of the hand one card
larger, played on optimally (hit or stand; the game stands by itself on 21); doubling is twice the
value of standing after exactly one card. Every hand with a hard total of 21 or less is a node of
one graph (:mod:`tutor.strategy.hands`, about 3,000 hands); the dealer distributions of all of
them are computed in one batch, then hands are valued level by level, from hard 21 down, with array
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

Splits, exactly, under two conventions. *One split* (the seat may hold two hands, or Aces may not
be split again): a split hand is valued from the shoe without the up-card, its own cards and the
other card of the pair, and played optimally for those cards, doubling only where double after
split is allowed; a hand that receives another pair card is played as the pair. The two hands
have the same expected value whatever the first one draws (the cards are exchangeable and each
hand's play depends on its own cards only), so twice that value is exact: it is the
post-split-optimised "CDP1" value of exact analysers.

*Resplits* (more than two hands): the cards of every split hand are out of the shoe as they are
dealt, and split hands are played with the unsplit optimum, the play each hand's cards get when
they are an initial hand (E. Farmer's "CDZ-"), doubling only with double after split. Because
each hand's play depends on its own cards only, the deal can be reordered without changing any
expectation: first the second card of every split hand (a pattern of pair cards, which split again
while the seat holds fewer than ``max_hands`` hands, and other cards), then one hand and the
dealer, then the rest. A hand completed by another card therefore has the value of a pair card
plus a non-pair card, played and settled from the shoe, *times* the chance that the cards after it
follow the rest of the pattern: ``i`` pair cards and ``r`` other cards
(:mod:`tutor.strategy.patterns` counts the hands per ``(i, r)``). By inclusion and exclusion over
the ``r`` cards that must not be pair cards, that is a signed sum of values from shoes with only
pair cards removed, ``sum_k (-1)^k C(r, k) P(next i+k cards are pair cards) G(i+k)``, where
``G(j)`` is the value of a split hand with ``j`` further pair cards out; hands kept as a pair (no
room to resplit) likewise. So a resplit value costs a few batches of the ordinary dealer
computation, for the hands the unsplit optimum can reach, and is exact for any number of decks
and any limit (checked against E. Farmer's exact figures, ``tests/test_strategy_split.py``).

*The split shown* (``best_split``, what ``Solution.action_evs`` reports for a split) is the best
way of splitting the rules allow, not always the most hands: split once, or resplit every pair
card while the seat holds fewer than ``k`` hands, for each ``k`` up to the limit, the best of
these exact values. Resplitting is chosen where it pays: against a dealer Ace or ten with no hole
card every further hand is one more bet a natural takes, and resplitting tens there was shown a
third of a bet below splitting once (issue 23). Checked against a brute force that deals every
card of tiny shoes in the engine's order (``tests/test_strategy_split.py``).

The Ace of spades with a black Jack bonus depends on suits and is not part of these values.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise

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
    distinct,
    natural_partner,
    outcome_matrix,
)
from tutor.strategy.hands import (
    EMPTY,
    KEY_WEIGHTS,
    BoolArray,
    Hand,
    HandGraph,
    IntArray,
    add_card,
    hand_graph,
    hand_of,
    hard_total,
)
from tutor.strategy.patterns import pattern_weights, stream_patterns

__all__ = [  # the hand graph and the patterns, where callers have always found them
    "EMPTY", "Hand", "HandGraph", "HandValues", "SplitValue", "UpCardSolver",
    "add_card", "hand_graph", "hand_of", "hard_total", "pattern_weights", "standing",
    "stream_patterns",
]

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
    #: The most hands this way of splitting grows to: 2 splits once and never again; more
    #: resplits every pair card dealt to a split hand while the seat holds fewer hands.
    hands: int = 2


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
        self._values: dict[tuple[int, int, Hand | None], HandValues] = {}
        #: Concurrent requests for the same values wait for one computation (see ``values``).
        self._lock = threading.RLock()
        self._split: dict[tuple[int, int, bool], SplitValue] = {}
        #: The dealer's joint outcomes per removed composition, sorted by key (see ``_joint``).
        self._cache_keys: IntArray = np.zeros(0, dtype=np.int64)
        self._cache_rows: FloatArray = np.zeros((0, 7))
        self._prepared: set[tuple[int, int]] = set()
        self._played_rows: dict[int, BoolArray] = {}
        #: ``hits`` per kind of split: split Aces taking one card each, or any other pair.
        self._hits: dict[bool, BoolArray] = {}
        self._seconds: dict[tuple[int, int], tuple[FloatArray, FloatArray]] = {}
        #: What the single splits read, per pair (``solve_splits``).
        self._single: dict[int, _SplitHands] = {}
        self._zero_rows: dict[tuple[int, bool], _ZeroMemoryRows] = {}
        self._left_over: _Left | None = None
        # The same rule the engine applies (tutor.legality); whether a split hand may double
        # is the split's own ``das`` question.
        self.may_double = _may_double(rules)

    def dealer_natural(self, removed: Hand) -> float:
        """Chance the dealer's second card makes a natural, before any peek."""
        if self.partner is None:
            return 0.0
        if self.infinite:
            return INFINITE[self.partner - 1]
        left = [s - r for s, r in zip(self.shoe, removed, strict=True)]
        return left[self.partner - 1] / sum(left)

    def values(self, extra: int = 0, within: Hand | None = None, *, times: int = 1) -> HandValues:
        """EVs of all hands (or only those holding ``within``) with ``extra`` also out of the shoe
        (``times`` cards of that value).

        ``extra`` is the other card of a split pair (0 for none): only hands holding that card
        are valued then, since only they arise after the split.
        """
        key = (extra, times if extra else 0, within)
        got = self._values.get(key)
        if got is None:
            with self._lock:
                got = self._values.get(key)
                if got is None:
                    got = self._solve(extra, times if extra else 0, within)
                    self._values[key] = got
        return got

    def hits(self, pair: int = 0) -> BoolArray:
        """Where the unsplit optimum hits (it stands elsewhere): the policy split hands of
        ``pair`` follow, except split Aces that take one card, which never hit."""
        one_card = pair == 1 and self.rules.split_aces_one_card
        got = self._hits.get(one_card)
        if got is None:
            if one_card:
                got = np.zeros(hand_graph().bust, dtype=bool)
            else:
                plain = self.values(0)
                got = (plain.hit > plain.stand) & (hand_graph().total < 21) & plain.rows
            got.setflags(write=False)
            self._hits[one_card] = got
        return got

    def played_rows(self, pair: int) -> BoolArray:
        """The hands a split of ``pair`` can reach under the unsplit optimum: every two-card hand
        of the pair, the hands one card larger (a double), and every hand a hit leads to."""
        got = self._played_rows.get(pair)
        if got is not None:
            return got
        graph = hand_graph()
        hits = self.hits(pair)
        seconds = graph.child[graph.index[add_card(EMPTY, pair)]]
        rows = np.zeros(graph.bust + 1, dtype=bool)
        rows[seconds] = True
        frontier = seconds[seconds < graph.bust]
        frontier = frontier[hits[frontier]]
        while len(frontier):
            children = distinct(graph.child[frontier])
            children = children[(children < graph.bust) & ~rows[children]]
            rows[children] = True
            frontier = children[hits[children]]
        rows[graph.child[seconds[seconds < graph.bust]]] = True  # a double's card
        out: BoolArray = rows[: graph.bust]
        self._played_rows[pair] = out
        return out

    def split_depth(self, pair: int, hands_available: int) -> int:
        """How many pair cards beyond the hand's own the split of ``pair`` takes out of the shoe
        in the values it needs: one for a single split, more for an exact resplit value."""
        if not self.resplits(pair, hands_available) or self.infinite:
            return 1
        deepest = len(pattern_weights(hands_available)[0]) - 1
        return 1 + min(deepest, max(self.shoe[pair - 1] - 2, 0))

    def prepare(self, splits: Sequence[tuple[int, int]] = ()) -> None:
        """Compute in at most two batches the dealer's outcomes for every shoe that the unsplit
        values and the splits ``(pair, hands_available)`` will ask for: a few large batches cost
        far less than many small ones. The unsplit hands and the single splits' come first; a
        resplit's come second, since the unsplit values decide which hands it reaches when its
        hands are played with the unsplit optimum."""
        if self.infinite:
            return
        graph = hand_graph()

        def batch(parts: list[IntArray]) -> None:
            removed = np.concatenate(parts)
            removed = removed[self._holds(removed)]
            with self._lock:
                self._compute(removed @ KEY_WEIGHTS, removed)

        wanted = {(pair, self.split_depth(pair, hands)) for pair, hands in splits}
        # A resplit's batch with more pair cards out holds every shallower one of that pair
        # (the same hands, fewer pair cards out): only the deepest is computed.
        deepest: dict[int, int] = {}
        for pair, depth in wanted | self._prepared:
            if depth > 1:
                deepest[pair] = max(depth, deepest.get(pair, 0))
        wanted = {(pair, depth) for pair, depth in wanted if depth == 1 or depth == deepest[pair]}
        wanted -= self._prepared
        # The unsplit hands and a single split's hands depend on no value: they share the first
        # batch. A resplit's hands are those the unsplit optimum reaches, known only once the
        # unsplit hands are valued (``dealt_rows``): they come in a second.
        singles = {(pair, depth) for pair, depth in wanted if depth == 1}
        if (0, 0) not in self._prepared or singles:
            first = [] if (0, 0) in self._prepared else [graph.counts]
            for pair, _ in sorted(singles):
                removed = graph.counts[self.split_hands(pair)]
                removed[:, pair - 1] += 1
                first.append(removed)
            batch(first)
            self._prepared |= singles | {(0, 0)}
        deeper = wanted - singles
        if not deeper:
            return
        parts = []
        for pair, depth in sorted(deeper):
            holding = graph.counts[self.dealt_rows(pair)]
            for times in range(1, depth + 1):
                removed = holding.copy()
                removed[:, pair - 1] += times
                parts.append(removed)
        batch(parts)
        self._prepared |= deeper

    def snapshot(self) -> dict[str, npt.NDArray[np.generic]]:
        """What a saved solution keeps of this up-card (:mod:`tutor.strategy.saved`): the
        dealer's outcomes for every hand of the unsplit values (single precision, as computed)
        and the split values computed so far."""
        graph = hand_graph()
        keys = distinct(graph.counts[np.all(graph.counts <= np.array(self.shoe), axis=1)]
                         @ KEY_WEIGHTS)
        found = np.searchsorted(self._cache_keys, keys)
        if len(keys) and (found.max() >= len(self._cache_keys)
                          or np.any(self._cache_keys[found] != keys)):
            raise ValueError("the unsplit values are not computed yet")
        splits = np.array(
            [(pair, hands, das, value.ev, value.per_hand)
             for (pair, hands, das), value in sorted(self._split.items())],
            dtype=np.float64,
        ).reshape(-1, 5)
        return {"keys": keys, "dealer": self._cache_rows[found].astype(np.float32),
                "splits": splits}

    def restore(self, saved: dict[str, npt.NDArray[np.generic]]) -> None:
        """Take back what ``snapshot`` kept: the unsplit values are then derived without
        computing the dealer again, and the saved split values are answered as they are."""
        keys = np.asarray(saved["keys"], dtype=np.int64)
        rows = np.asarray(saved["dealer"], dtype=np.float64)
        splits = np.asarray(saved["splits"], dtype=np.float64)
        if rows.shape != (len(keys), 7) or splits.ndim != 2 or splits.shape[1] != 5:
            raise ValueError("a saved up-card of the wrong shape")
        with self._lock:
            self._cache_keys, self._cache_rows = keys, rows
            self._prepared = {(0, 0)}
            for pair, hands, das, ev, per_hand in splits:
                self._split[(int(pair), int(hands), bool(das))] = SplitValue(
                    float(ev), float(per_hand),
                    int(hands) if self.resplits(int(pair), int(hands)) else 2,
                )

    def _joint(self, removed: IntArray) -> FloatArray:
        """The dealer's joint outcome probabilities (a natural's orders left out after a peek)
        for the shoe without each row of ``removed``, cached by composition: the same shoe comes
        back for many hands (a hand with two extra pair cards out is the hand one pair card larger
        with one out), so each is computed once per up-card."""
        keys = removed @ KEY_WEIGHTS
        if not len(self._cache_keys):
            # Nothing cached yet (the first pass, ``solve_hands``): one sort finds the distinct
            # shoes, and each row's place among them, with no look-up in a cache.
            each, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
            fresh = self._outcomes(removed[first])
            self._cache_keys, self._cache_rows = each, fresh
            out: FloatArray = fresh[inverse.reshape(-1)]
            return out
        found = self._find(keys)
        if not np.all(found >= 0):
            self._compute(keys, removed)
            found = self._find(keys)
        out = self._cache_rows[found]
        return out

    def _outcomes(self, removed: IntArray) -> FloatArray:
        """The dealer's joint outcomes for the shoe without each row of ``removed``."""
        shoes = np.array(self.shoe)[None, :] - removed
        return outcome_matrix(
            shoes.astype(np.float64), self.up, hits_soft_17=self.rules.dealer_hits_soft_17,
            peek=self.conditioned,
        )

    def _compute(self, keys: IntArray, removed: IntArray) -> None:
        """Compute and cache the dealer's outcomes for the compositions of ``removed`` (keyed by
        ``keys``) not cached yet. The cache stays sorted by key: the new keys are merged in at
        their places, not sorted again with the old ones."""
        each, first = np.unique(keys, return_index=True)
        at = np.searchsorted(self._cache_keys, each)
        known = at < len(self._cache_keys)
        known[known] = self._cache_keys[at[known]] == each[known]
        if known.all():
            return
        missing, first, at = each[~known], first[~known], at[~known]
        fresh = self._outcomes(removed[first])
        self._cache_keys = np.insert(self._cache_keys, at, missing)
        self._cache_rows = np.insert(self._cache_rows, at, fresh, axis=0)

    def _left(self) -> _Left:
        """What the table's shoe (this one with the up-card back in it) holds beyond each hand's
        cards (``_Left``), computed once."""
        got = self._left_over
        if got is None:
            table = np.array(self.shoe)
            table[self.up - 1] += 1
            slack = table[None, :] - hand_graph().counts
            got = self._left_over = _Left(slack, np.all(slack >= 0, axis=1))
        return got

    def _holds(self, removed: IntArray) -> BoolArray:
        """Which rows of ``removed`` the shoe holds. A shoe holding the most of each value any
        row takes (as several decks do) holds them all: the check row by row is only for small
        shoes."""
        shoe = np.array(self.shoe)
        # (A shoe short of the graph's own largest counts, one or two decks, is checked at once.)
        if np.all(shoe >= hand_graph().most) and np.all(removed.max(axis=0, initial=0) <= shoe):
            return np.ones(len(removed), dtype=bool)
        out: BoolArray = np.all(removed <= shoe[None, :], axis=1)
        return out

    def _find(self, keys: IntArray) -> IntArray:
        """Each key's row in the dealer cache, or -1."""
        if not len(self._cache_keys):
            return np.full(len(keys), -1, dtype=np.int64)
        at = np.minimum(np.searchsorted(self._cache_keys, keys), len(self._cache_keys) - 1)
        out: IntArray = np.where(self._cache_keys[at] == keys, at, -1)
        return out

    def _draws_and_dealer(
        self, removed: IntArray, dealt: BoolArray | None = None
    ) -> tuple[FloatArray, FloatArray]:
        """For the shoe without each row of ``removed`` (all possible): the chances of the
        player's next card and the dealer's outcomes, both given no dealer natural after a peek.
        With ``dealt``, the dealer's outcomes only for those rows (zeros elsewhere): a hand that
        is always hit never needs them."""
        shoes = (np.array(self.shoe)[None, :] - removed).astype(np.float64)
        total = shoes.sum(axis=1)
        p = shoes / total[:, None]
        if dealt is None:
            joint = self._joint(removed)
        else:
            joint = np.zeros((len(removed), 7))
            joint[dealt] = self._joint(removed[dealt])
        if self.conditioned and self.partner is not None:
            partner = shoes[:, self.partner - 1]
            no_natural = 1 - partner / total
            after = partner[:, None] - (np.arange(1, 11) == self.partner)[None, :]
            p = p * (1 - after / (total[:, None] - 1)) / no_natural[:, None]
            joint = joint / no_natural[:, None]
        return p, joint

    def next_card(self) -> list[float]:
        """The chances of each value (Ace first) for the player's next card from this shoe, given
        no dealer natural after a peek: what a chart cell's chances are counted with."""
        p, _ = self._draws_and_dealer(np.zeros((1, 10), dtype=np.int64))
        return [float(x) for x in p[0]]

    def dealt_rows(self, pair: int) -> BoolArray:
        """Of ``played_rows``, the hands whose dealer outcomes a split's value needs: those the
        unsplit optimum stands on, and those a double gives (a hit hand is valued from its
        children)."""
        graph = hand_graph()
        rows = np.zeros(graph.bust + 1, dtype=bool)
        rows[: graph.bust] = self.played_rows(pair) & ~self.hits(pair)
        seconds = graph.child[graph.index[add_card(EMPTY, pair)]]
        rows[graph.child[seconds[seconds < graph.bust]].reshape(-1)] = True
        out: BoolArray = rows[: graph.bust]
        return out

    def split_hands(self, pair: int) -> BoolArray:
        """The hands a single split of ``pair`` is valued on: every hand holding the pair card,
        or only the two-card hands when split Aces take one card each."""
        graph = hand_graph()
        if pair == 1 and self.rules.split_aces_one_card:
            rows = np.zeros(graph.bust, dtype=bool)
            start = graph.index[add_card(EMPTY, pair)]
            seconds = graph.child[start]
            rows[seconds[seconds < graph.bust]] = True
            rows[start] = True  # the chances of the second card
            return rows
        out: BoolArray = graph.counts[:, pair - 1] > 0
        return out

    def _solve(
        self, extra: int, times: int, within: Hand | None, only: BoolArray | None = None
    ) -> HandValues:
        return self._solve_batch([(extra, times, within, only)])[0]

    def single_splits(self, pairs: Sequence[int]) -> list[int]:
        """Of ``pairs``, those split once whatever the seat holds (no resplit, or an infinite
        deck): the pairs ``solve_splits`` values from the hands holding the pair card."""
        return [
            pair for pair in dict.fromkeys(pairs)
            if not (self.resplits(pair, self.rules.max_hands) and not self.infinite)
        ]

    def solve_hands(self, pairs: Sequence[int] = ()) -> None:
        """The unsplit values and the single splits of ``pairs`` (``solve_splits``) in one pass
        (``_stack``): the splits' hands depend on no value, so they need not wait for the unsplit
        ones, and one pass over the levels of hard totals serves both. On a solver with nothing
        computed yet, that pass computes the dealer's outcomes it reads, in one batch
        (``_joint``)."""
        with self._lock:
            if (0, 0, None) in self._values:
                self.solve_splits(pairs)
                return
            wanted = [pair for pair in self.single_splits(pairs) if pair not in self._single]
            requests = [(0, 0, None, None),
                        *((pair, 1, None, self.split_hands(pair)) for pair in wanted)]
            stacked = self._stack(requests)
            self._values[(0, 0, None)] = _hand_values(stacked, 0, 0)
            for block, pair in enumerate(wanted, start=1):
                self._single.setdefault(pair, _SplitHands.of(stacked, block, pair))
            # The pass looked up the dealer's outcomes of every hand the shoe holds, and of
            # every single split's: the first batch ``prepare`` would compute.
            self._prepared |= {(0, 0), *((pair, 1) for pair in wanted)}

    def solve_splits(self, pairs: Sequence[int]) -> None:
        """What every single split of ``pairs`` reads (the hands holding the pair card, another
        one out of the shoe; only the two-card hands when split Aces take one card each),
        computed in one batch and only those few numbers kept. A resplit
        (``zero_memory_split``) needs none of these hands, so it costs nothing here."""
        wanted = [pair for pair in self.single_splits(pairs) if pair not in self._single]
        if not wanted:
            return
        with self._lock:
            stacked = self._stack([(pair, 1, None, self.split_hands(pair)) for pair in wanted])
            for block, pair in enumerate(wanted):
                self._single.setdefault(pair, _SplitHands.of(stacked, block, pair))

    def _single_split(self, pair: int) -> _SplitHands:
        """What a single split of ``pair`` reads (``solve_splits``), computed if not yet."""
        got = self._single.get(pair)
        if got is None:
            self.solve_splits([pair])
            got = self._single.get(pair)
            if got is None:  # a resplit's pair asked for as one split (``split(pair, 2)``)
                stacked = self._stack([(pair, 1, None, self.split_hands(pair))])
                got = self._single.setdefault(pair, _SplitHands.of(stacked, 0, pair))
        return got

    def _solve_batch(
        self, requests: Sequence[tuple[int, int, Hand | None, BoolArray | None]]
    ) -> list[HandValues]:
        """The values of several requests ``(extra, times, within, only)`` (see ``values``) in
        one pass (``_stack``), each laid out over the whole graph: only the hands a request
        values are worked on; every other hand gets zeros (a hand outside ``rows`` is never
        read)."""
        stacked = self._stack(requests)
        return [_hand_values(stacked, block, extra)
                for block, (extra, _, _, _) in enumerate(requests)]

    def _stack(
        self, requests: Sequence[tuple[int, int, Hand | None, BoolArray | None]]
    ) -> _Stacked:
        """The values of several requests (see ``_solve_batch``) in one pass: each request's
        hands are stacked with the others', so the dealer's outcomes are looked up once and each
        level of hard totals is one array operation for all of them."""
        graph = hand_graph()
        n = graph.bust
        shoe = np.array(self.shoe)
        masks: list[BoolArray] = []
        extras: list[IntArray] = []
        # Per request: the hands it values that this up-card's shoe holds (``masks``), and those
        # the table's shoe holds, the up-card still in it (``shared``). The stacked pass is laid
        # out on the second, the same for every up-card of the shoe, so they share one layout;
        # a hand only this up-card's shoe cannot hold is set to zero (below).
        shared: list[BoolArray] = []
        for extra, times, within, only in requests:
            rows = np.ones(n, dtype=bool) if only is None else only.copy()
            if extra:
                rows &= graph.counts[:, extra - 1] > 0
            if within is not None:
                rows &= np.all(graph.counts >= np.array(within), axis=1)
            out_of_shoe = np.zeros(10, dtype=np.int64)
            if extra:
                out_of_shoe[extra - 1] = times
            own = rows
            # (A shoe holding the most of each value any hand takes, as several decks do, holds
            # every hand: the check hand by hand is only for small shoes.)
            if not self.infinite and np.any(graph.most + out_of_shoe > shoe):
                left = self._left()
                if extra:
                    rows &= left.slack[:, extra - 1] >= times
                rows &= left.fits
                own = rows & (left.slack[:, self.up - 1] > out_of_shoe[self.up - 1])
            shared.append(rows)
            masks.append(own)
            extras.append(out_of_shoe)
        layout = _layout(tuple(shared), tuple(extras))
        hands, block_of, where, kids = layout.hands, layout.block_of, layout.where, layout.kids
        count = len(hands)
        bust_slot, zero_slot = count, count + 1
        # The stacked hands this up-card's shoe holds (None: all of them).
        held = None
        if any(own is not rows for own, rows in zip(masks, shared, strict=True)):
            held = np.flatnonzero(np.array(masks)[block_of, hands])
            held = None if len(held) == count else held
        if self.infinite:
            draws = np.tile(np.array(INFINITE), (count, 1))
            dealer = np.tile(np.array(dealer_distribution(
                None, self.up, hits_soft_17=self.rules.dealer_hits_soft_17, peek=self.peek,
                after_peek=True,
            )), (count, 1))
        elif held is None:
            draws, dealer = self._draws_and_dealer(layout.removed)
        else:
            # A hand the shoe cannot hold is never dealt nor drawn to: no chance of a card, no
            # dealer, a value of zero, as a hand outside the request (a hand that holds it draws
            # its card with a chance of exactly zero).
            draws, dealer = np.zeros((count, 10)), np.zeros((count, 7))
            draws[held], dealer[held] = self._draws_and_dealer(layout.removed[held])
        totals = layout.totals
        stand = np.zeros(count + 2)
        if held is None:
            stand[:count] = standing(dealer, totals) if count else 0.0
        else:
            stand[held] = standing(dealer[held], totals[held])
        stand[bust_slot], stand[zero_slot] = -1.0, 0.0
        best = stand.copy()
        hit = np.zeros(count)
        for level in layout.levels:  # children before parents
            hit[level] = np.einsum("hv,hv->h", draws[level], best[kids[level]])
            best[level] = np.where(totals[level] >= 21, stand[level],
                                   np.maximum(stand[level], hit[level]))
        double = np.zeros(count + 2)
        double[:count] = 2 * np.einsum("hv,hv->h", draws, stand[kids])
        return _Stacked(masks, hands, block_of, where, stand, hit, best, double, draws,
                        dealer[:, BUST])

    def resplits(self, pair: int, hands_available: int) -> bool:
        """Whether a split of ``pair`` may be split again: room for a third hand, and Aces only
        where the rules resplit them."""
        return hands_available > 2 and (pair != 1 or self.rules.resplit_aces)

    def best_split(
        self, pair: int, hands_available: int, *, das: bool | None = None
    ) -> SplitValue:
        """The split as a good player plays it: the best of the ways of splitting the rules allow
        (split once and play a pair card dealt to a split hand as it is, or resplit up to
        ``k`` hands for each ``k`` up to ``hands_available``), each valued exactly by ``split``.
        Resplitting is worth it only where these EVs say so: against a dealer Ace or ten with no
        hole card, every further hand is one more bet a natural takes, and resplitting tens there
        costs about a third of a bet (issue 23). Ties go to fewer hands."""
        if not self.resplits(pair, hands_available):
            return self.split(pair, hands_available, das=das)
        # The most hands first: its values hold those of the fewer hands' (``_second_values``).
        ways = [self.split(pair, hands, das=das) for hands in range(hands_available, 2, -1)]
        ways.append(self.split_once(pair, das=das))
        return max(reversed(ways), key=lambda way: way.ev)

    def split_once(self, pair: int, *, das: bool | None = None) -> SplitValue:
        """Splitting once where the rules would allow more, valued as the resplits it is compared
        with are (``zero_memory_split`` with two hands: the hands played with the unsplit
        optimum), so ``best_split`` compares ways of splitting under one convention, and at a
        cost of the resplit values' batches. (``split(pair, 2)``, the value once the seat has no
        room for a third hand, plays the hands optimally for the shoe without the pair instead;
        with six decks the two differ by less than 1e-4 of a bet.) Kept among the split values
        under ``hands`` 0."""
        das = self.rules.double_after_split if das is None else das
        if self.infinite:
            return self.split(pair, 2, das=das)  # no card ever leaves an infinite shoe
        key = (pair, 0, das)
        got = self._split.get(key)
        if got is None:
            with self._lock:
                got = self._split.get(key)
                if got is None:
                    got = self.zero_memory_split(pair, 2, das)
                    self._split[key] = got
        return got

    def split(self, pair: int, hands_available: int, *, das: bool | None = None) -> SplitValue:
        """Value of splitting a pair of ``pair`` when the seat may grow to ``hands_available`` hands
        from this pair (``max_hands`` for a first split), resplitting every pair card while it
        may (``best_split`` chooses whether to); see the module docstring."""
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
        aces = pair == 1
        one_card = aces and rules.split_aces_one_card
        resplit = self.resplits(pair, hands_available)
        if resplit and not self.infinite:
            result = self.zero_memory_split(pair, hands_available, das)
            self._split[key] = result
            return result
        values = self._single_split(pair)
        seconds = graph.child[graph.index[add_card(EMPTY, pair)]]

        def played(card: int) -> float:
            at = card - 1
            if one_card:
                return float(values.stand[at])
            value = float(values.best[at])
            if das and self.may_double[seconds[at]]:
                value = max(value, float(values.double[at]))
            return value

        p_pair = 0.0
        other = 0.0
        stuck = 0.0
        for card in range(1, 11):
            p = float(values.draws[card - 1])
            if p <= 0:
                continue
            if card == pair:
                p_pair = p
                stuck = played(card)
            else:
                other += p * played(card)
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

        result = SplitValue(pending(2, 2), per_hand, hands_available if resplit else 2)
        self._split[key] = result
        return result

    def _no_natural(self, removed: IntArray) -> FloatArray:
        """The chance of no dealer natural for the shoe without each row of ``removed`` (1 where
        nothing is conditioned)."""
        if not self.conditioned or self.partner is None:
            return np.ones(len(removed))
        left = np.array(self.shoe)[None, :] - removed
        out: FloatArray = 1 - left[:, self.partner - 1] / np.maximum(left.sum(axis=1), 1)
        return out

    def _played(self, values: HandValues, hits: BoolArray) -> FloatArray:
        """Every hand's EV when it hits exactly where ``hits`` says and stands elsewhere."""
        graph = hand_graph()
        n = graph.bust
        value = np.zeros(n + 1)
        value[n] = -1.0
        value[:n] = np.where(values.rows, values.stand, 0.0)
        for level in graph.levels:
            ids = level[values.rows[level] & hits[level]]
            if len(ids):
                value[ids] = np.einsum("hv,hv->h", values.draws[ids], value[graph.child[ids]])
        return value[:n]

    def _second_values(
        self, pair: int, depth: int, hits: BoolArray
    ) -> tuple[FloatArray, FloatArray]:
        """For the ten hands pair + v, with 1 to ``depth`` pair cards out besides the hand's own
        (one row each): the value played with the unsplit optimum (``hits``) after the second
        card, and doubled. Computed in one batch on the hands such a split reaches only, and only
        these numbers kept."""
        key = (pair, depth)
        got = self._seconds.get(key)
        if got is not None:
            return got
        for (known, deeper), (played, doubled) in self._seconds.items():
            # Row j has j + 1 pair cards out whatever the depth: a deeper batch holds this one.
            if known == pair and deeper > depth:
                return played[:depth], doubled[:depth]
        graph = hand_graph()
        base = np.flatnonzero(self.played_rows(pair))
        size = len(base)
        rows = np.tile(base, depth)
        removed = graph.counts[rows]
        removed[:, pair - 1] += np.repeat(np.arange(1, depth + 1), size)
        possible = self._holds(removed)
        count = len(rows)
        draws = np.zeros((count, 10))
        dealer = np.zeros((count, 7))
        live = np.flatnonzero(possible)
        dealt = np.tile(self.dealt_rows(pair)[base], depth)[live]
        draws[live], dealer[live] = self._draws_and_dealer(removed[live], dealt)
        # Values by position in ``rows``; then the bust slot (-1) and a slot for the hands the
        # shoe cannot hold (0, only ever weighted by a zero chance). Only a dealt hand is stood
        # on or is a double's card: the others' standing values are never read.
        stand = np.zeros(count + 2)
        stand[live[dealt]] = standing(dealer[live[dealt]], graph.total[rows[live[dealt]]])
        stand[count] = -1.0
        where = np.full(graph.bust + 1, -1)
        where[base] = np.arange(size)
        inner = where[graph.child[base]]  # position of each child within a depth's block
        blocks = np.repeat(np.arange(depth) * size, size)[:, None]
        inner = np.tile(inner, (depth, 1))
        kids = np.where(inner >= 0, inner + blocks, count + 1)
        kids[np.tile(graph.child[base], (depth, 1)) == graph.bust] = count
        played = stand.copy()
        hitters = np.flatnonzero(np.tile(hits[base], depth) & possible)
        # Children before parents (hard totals only grow): the hitters by hard total from 21
        # down, one slice per total.
        hitters = hitters[np.argsort(-graph.hard[rows[hitters]], kind="stable")]
        for level in _runs(graph.hard[rows[hitters]]):
            ids = hitters[level]
            played[ids] = np.einsum("hv,hv->h", draws[ids], played[kids[ids]])
        seconds = where[graph.child[graph.index[add_card(EMPTY, pair)]]]
        at = np.arange(depth)[:, None] * size + seconds[None, :]
        doubled = np.where(
            possible[at], 2 * np.einsum("dsv,dsv->ds", draws[at], stand[kids[at]]), 0.0
        )
        got = (played[at], doubled)
        self._seconds[key] = got
        return got

    def zero_memory_split(self, pair: int, hands_available: int, das: bool) -> SplitValue:
        """The exact value of splitting with resplits, every split hand's cards out of the shoe
        as they are dealt, split hands played with the unsplit optimum (module docstring)."""
        other_weights, pair_weights = pattern_weights(hands_available)
        top = hands_available
        if self.resplits(pair, self.rules.max_hands):
            top = max(top, self.rules.max_hands)
        rows = self._zero_memory_rows(pair, das, top)
        size = len(other_weights)
        ev = other_weights @ rows.others[:size] + pair_weights @ rows.pairs[:size]
        return SplitValue(float(ev) / rows.no_natural, rows.per_hand, hands_available)

    def _zero_memory_rows(self, pair: int, das: bool, hands: int) -> _ZeroMemoryRows:
        """The terms of ``zero_memory_split`` for up to ``hands`` hands, row j with j further
        pair cards out: the same rows serve every smaller limit (only the pattern weights
        change), so the ways ``best_split`` compares are computed once per pair."""
        key = (pair, das)
        got = self._zero_rows.get(key)
        deepest = len(pattern_weights(hands)[0]) - 1
        if got is not None and len(got.others) > deepest:
            return got
        graph = hand_graph()
        one_card = pair == 1 and self.rules.split_aces_one_card
        plain = self.values(0)
        # The policy: what the unsplit optimum does with each hand (CDZ-).
        hits = self.hits(pair)
        start = graph.index[add_card(EMPTY, pair)]
        seconds = graph.child[start]  # the two-card hands pair + v
        doubles = np.zeros(10, dtype=bool)
        if das and not one_card:
            for card, node in enumerate(seconds, start=1):
                if node < graph.bust and self.may_double[node] and plain.rows[node]:
                    doubles[card - 1] = plain.double[node] > max(
                        plain.stand[node], plain.hit[node] if graph.total[node] < 21 else -2.0
                    )
        if hands > 2 or not any(known == pair and depth > 1 for known, depth in self._prepared):
            # (Two hands need only one pair card out: a resplit's batch holds those.)
            self.prepare([(pair, hands)])
        counts = np.array(self.shoe, dtype=np.int64)
        counts[pair - 1] -= 2
        if counts[pair - 1] < 0:
            raise ValueError(f"the shoe holds no pair of value {pair} to split")
        cards = int(counts.sum())
        pairs_left = int(counts[pair - 1])
        depth = 1 + min(deepest, pairs_left)
        played, doubled = self._second_values(pair, depth, hits)
        # Row j: j further pair cards out of the shoe. The chance of each second card, and the
        # value of the hand it makes, joint with no dealer natural.
        further = np.arange(depth)
        left = np.repeat(counts[None, :], depth, axis=0)
        left[:, pair - 1] -= further
        p = left / (cards - further)[:, None]
        removed = np.repeat(graph.counts[seconds][None, :, :], depth, axis=0)
        removed[:, :, pair - 1] += 1 + further[:, None]
        natural_free = self._no_natural(removed.reshape(-1, 10)).reshape(depth, 10)
        value = np.where(doubles[None, :], doubled, played)
        terms = np.where(p > 0, p * value * natural_free, 0.0)
        # G[j]: a split hand whose second card is not a pair card, U[j]: a hand kept as a pair.
        other_values = np.zeros(deepest + 1)
        pair_values = np.zeros(deepest + 1)
        pair_values[:depth] = terms[:, pair - 1]
        other_values[:depth] = terms.sum(axis=1) - terms[:, pair - 1]
        # runs[j]: the chance that the next j cards are all pair cards.
        runs = np.ones(deepest + 1)
        for j in range(1, deepest + 1):
            runs[j] = runs[j - 1] * max(pairs_left - j + 1, 0) / (cards - j + 1)
        removed_pair = np.zeros((1, 10), dtype=np.int64)
        removed_pair[0, pair - 1] = 2
        others = np.arange(10) != pair - 1
        first_other = float(np.where(p[0] > 0, p[0] * value[0], 0.0)[others].sum())
        p_other = 1 - pairs_left / cards
        got = _ZeroMemoryRows(
            others=runs * other_values,
            pairs=runs * pair_values,
            no_natural=float(self._no_natural(removed_pair)[0]),
            per_hand=first_other / p_other if p_other > 0 else 0.0,
        )
        self._zero_rows[key] = got
        return got


@dataclass(frozen=True)
class _Layout:
    """How ``UpCardSolver._stack`` lays out the hands of its requests: by hard total from 21
    down, each level one slice whose children all lie in earlier slices (hard totals only grow).
    Request ``b``'s hand ``h`` sits at ``where[b, h]``; after the ``len(hands)`` stacked hands
    come the bust slot (-1) and a slot for a hand outside the request (0)."""

    hands: IntArray
    block_of: IntArray
    where: IntArray
    kids: IntArray  # (hands, 10): each stacked hand's child by each card, as a slot
    removed: IntArray  # (hands, 10): the cards each stacked hand takes out of the shoe
    totals: IntArray
    levels: tuple[slice, ...]


def _runs(sorted_values: IntArray) -> tuple[slice, ...]:
    """The runs of equal values in a sorted array, as slices: the levels of hands sorted by hard
    total, each valued in one array operation once the levels before it are."""
    bounds = [0, *(np.flatnonzero(np.diff(sorted_values)) + 1), len(sorted_values)]
    return tuple(slice(low, high) for low, high in pairwise(bounds) if low < high)


_LAYOUTS: dict[bytes, _Layout] = {}
_LAYOUTS_LOCK = threading.Lock()
#: Layouts kept (about 1.5 MB each at most): the ten up-cards of a shoe ask for the same few (the
#: hands its table holds, which every rule set of that many decks shares, and the single splits'
#: hands).
_LAYOUTS_KEPT = 8


def _layout(masks: tuple[BoolArray, ...], extras: tuple[IntArray, ...]) -> _Layout:
    """The layout of requests picking ``masks`` of the hand graph with ``extras`` out of the
    shoe: it depends on the hands only, not on the dealer's card, so it is built once and
    shared by every up-card (and rule set) asking for the same hands."""
    # The key: every mask's bits and every extra's counts (the masks all have the graph's size).
    key = b"".join(
        [np.packbits(mask).tobytes() for mask in masks] + [extra.tobytes() for extra in extras]
    )
    got = _LAYOUTS.get(key)
    if got is not None:
        return got
    graph = hand_graph()
    n = graph.bust
    blocks = [np.flatnonzero(mask) for mask in masks]
    block_of = np.repeat(np.arange(len(blocks)), [len(ids) for ids in blocks])
    hands = np.concatenate(blocks) if blocks else np.zeros(0, dtype=np.int64)
    order = np.argsort(-graph.hard[hands], kind="stable")
    hands, block_of = hands[order], block_of[order]
    count = len(hands)
    where = np.full((len(blocks), n + 1), count + 1, dtype=np.int64)
    where[block_of, hands] = np.arange(count)
    where[:, n] = count
    kids = where[block_of[:, None], graph.child[hands]]
    removed = graph.counts[hands] + np.array(extras).reshape(-1, 10)[block_of]
    levels = _runs(graph.hard[hands])
    for array in (hands, block_of, where, kids, removed):
        array.setflags(write=False)
    got = _Layout(hands, block_of, where, kids, removed, graph.total[hands], levels)
    with _LAYOUTS_LOCK:
        if len(_LAYOUTS) >= _LAYOUTS_KEPT:
            _LAYOUTS.pop(next(iter(_LAYOUTS)))
        _LAYOUTS[key] = got
    return got


@dataclass(frozen=True)
class _Stacked:
    """Several requests' hands valued in one pass (``UpCardSolver._stack``): request ``b``'s
    hand ``h`` sits at ``where[b, h]`` of the stacked arrays; after the ``len(hands)`` stacked
    hands come the bust slot (-1) and a slot for a hand outside the request (0)."""

    masks: list[BoolArray]
    hands: IntArray
    block_of: IntArray
    where: IntArray
    stand: FloatArray  # with both slots
    hit: FloatArray  # the stacked hands only
    best: FloatArray  # with both slots
    double: FloatArray  # with both slots (0)
    draws: FloatArray
    dealer_bust: FloatArray


@dataclass(frozen=True)
class _Left:
    """A small table's shoe (the up-card still in it) against the hand graph: ``slack[h, v]``,
    the cards of value ``v + 1`` it holds beyond hand ``h``'s, and ``fits``, whether it holds the
    hand at all (a hand with ``k`` more cards of a value out fits where it fits and that value's
    slack is ``k``; the shoe without the up-card holds it where the up-card's value is left
    over too)."""

    slack: IntArray
    fits: BoolArray


def _hand_values(stacked: _Stacked, block: int, extra: int) -> HandValues:
    """Request ``block`` of a stacked pass laid out over the whole graph (zeros for the hands it
    does not value)."""
    n = hand_graph().bust
    part = np.flatnonzero(stacked.block_of == block)
    ids = stacked.hands[part]
    stand, hit, best, double, bust = (np.zeros(n) for _ in range(5))
    draws = np.zeros((n, 10))
    stand[ids], hit[ids] = stacked.stand[part], stacked.hit[part]
    best[ids], double[ids] = stacked.best[part], stacked.double[part]
    draws[ids], bust[ids] = stacked.draws[part], stacked.dealer_bust[part]
    return HandValues(extra, stacked.masks[block], stand, hit, best, double, draws, bust)


@dataclass(frozen=True)
class _SplitHands:
    """What a single split's value reads of the hands holding the pair card with another one out
    of the shoe (what ``values(pair)`` would give over the whole graph): the chance of each second
    card, and the values of the two-card hand it makes (zeros where the shoe cannot deal it)."""

    draws: FloatArray
    stand: FloatArray
    best: FloatArray
    double: FloatArray

    @staticmethod
    def of(stacked: _Stacked, block: int, pair: int) -> _SplitHands:
        graph = hand_graph()
        start = graph.index[add_card(EMPTY, pair)]
        at = stacked.where[block, graph.child[start]]  # pair + v: never a bust
        first = int(stacked.where[block, start])
        draws = stacked.draws[first] if first < len(stacked.hands) else np.zeros(10)
        return _SplitHands(draws, stacked.stand[at], stacked.best[at], stacked.double[at])


@dataclass(frozen=True)
class _ZeroMemoryRows:
    """``runs[j] * G[j]`` and ``runs[j] * U[j]`` of a zero-memory split (see the module
    docstring), the chance of no dealer natural with the pair out, and the average value of a
    split hand completed by another card."""

    others: FloatArray
    pairs: FloatArray
    no_natural: float
    per_hand: float


@lru_cache(maxsize=64)
def _may_double(rules: TableRules) -> BoolArray:
    """Which hands the rules let double (not after a split), asked of :mod:`tutor.legality` per
    distinct (cards, total, soft) once per rule set."""
    graph = hand_graph()
    out = np.zeros(graph.bust, dtype=bool)
    two = np.flatnonzero(graph.size == 2)  # doubling is on two cards only
    for node in two:
        out[node] = double_refusal(
            rules, cards=2, total=int(graph.total[node]), soft=bool(graph.soft[node]),
            from_split=False,
        ) is None
    out.setflags(write=False)
    return out


def standing(dealer: FloatArray, totals: IntArray) -> FloatArray:
    """The EV of standing on each total against the dealer's outcome probabilities (one row
    each, summing to one): win on a dealer bust or a lower total, push on the same, lose to a
    higher total or a natural."""
    rows = len(totals)
    below = np.concatenate([np.zeros((rows, 1)), np.cumsum(dealer[:, :5], axis=1)], axis=1)
    index = np.clip(totals - 17, 0, 4)
    arange = np.arange(rows)
    made = below[arange, index]
    above = below[:, 5] - below[arange, index + 1]
    out: FloatArray = np.where(
        totals < 17, 2 * dealer[:, BUST] - 1,
        dealer[:, BUST] + made - above - dealer[:, NATURAL],
    )
    return out
