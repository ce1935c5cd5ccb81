"""The dealer's final totals, exactly, for any shoe composition.

Method. The dealer's play is fixed by the rules, so the *sequences* of cards the dealer can draw
from a given up-card do not depend on the shoe. What the shoe changes is only how likely each
sequence is, and that likelihood does not depend on the order of the cards: drawing the multiset
``m`` (``m[v]`` cards of value ``v``, ``k`` cards in all) in one particular order from a shoe of
``n[v]`` cards (``N`` in all) has probability ``prod_v n[v]!/(n[v]-m[v])! / (N!/(N-k)!)``.

So, once per up-card and rule set, :func:`dealer_sequences` enumerates the multisets the dealer can
finish with, together with the *number of valid orders* (orders in which the dealer would have
drawn exactly those cards and then stopped) and the final outcome. The probability of an outcome
for a shoe is then a sum over those multisets of ``orders * falling factorials``. Done in logs for
a whole batch of shoes at once, that sum is a few matrix products and ``exp``s: this is what makes
a cold solve of a hundred thousand shoes fit in a tenth of a second without compiled code.

The peek (American deal) is modelled by leaving out the orders whose first card (the hole card)
would give the dealer a natural; dividing by the probability of no natural gives the distribution
*given that the dealer checked and has no natural*. Under the European deal nothing is left out and
the natural is an outcome of its own, which beats every player hand but a natural.

An infinite deck (every card drawn with its fixed frequency, 1/13 or 4/13) is the same sum with
``n[v]/N`` replaced by the frequencies.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import numpy.typing as npt

#: Card values in the order used by every composition: Ace (1) first, ten-valued cards last.
VALUES: tuple[int, ...] = tuple(range(1, 11))
#: The dealer's possible results, in the order of every probability vector of this package.
OUTCOMES: tuple[str, ...] = ("17", "18", "19", "20", "21", "bust", "natural")
BUST = 5
NATURAL = 6

#: How many cards of each value (Ace first) one deck holds.
ONE_DECK: tuple[int, ...] = (4, 4, 4, 4, 4, 4, 4, 4, 4, 16)
#: The infinite deck's draw probabilities.
INFINITE: tuple[float, ...] = tuple(c / 52 for c in ONE_DECK)

#: A shoe's composition: counts of Ace, 2, ..., 9, ten-valued. ``None`` means an infinite deck.
Composition = tuple[int, ...]
FloatArray = npt.NDArray[np.float64]

# A log of zero; finite so that it multiplies zeros of the one-hot matrix without a NaN.
_LOG_ZERO = -1.0e6


def full_shoe(decks: int) -> Composition:
    return tuple(count * decks for count in ONE_DECK)


def natural_partner(up: int) -> int | None:
    """The hole card that would give the dealer a natural with this up-card, if any."""
    return {1: 10, 10: 1}.get(up)


@dataclass(frozen=True)
class DealerSequences:
    """Every multiset the dealer can finish with from one up-card: how many valid orders, which
    outcome, as arrays ready for the batched probability sum."""

    up: int
    #: counts[d, v]: cards of value v+1 the dealer draws in multiset d.
    counts: npt.NDArray[np.int64]
    orders: FloatArray
    outcome: npt.NDArray[np.int64]

    @property
    def size(self) -> int:
        return int(self.counts.shape[0])


#: A dealer's drawn multiset as one integer: five bits per value (never 32 cards of a value).
_SEQUENCE_KEY = np.array([1 << (5 * index) for index in range(10)], dtype=np.int64)


def dealer_sequences(up: int, *, hits_soft_17: bool, peek: bool) -> DealerSequences:
    """Every multiset the dealer can finish with from ``up``; see the module docstring. (A peek
    changes nothing where no hole card makes a natural with ``up``.)"""
    return _all_sequences(hits_soft_17)[(up, peek and natural_partner(up) is not None)]


#: The starts ``_all_sequences`` enumerates: every up-card without a peek, and the two a peek
#: conditions (the hole card of a natural left out).
_STARTS: tuple[tuple[int, bool], ...] = (*((up, False) for up in VALUES), (1, True), (10, True))


@lru_cache(maxsize=4)
def _all_sequences(hits_soft_17: bool) -> dict[tuple[int, bool], DealerSequences]:
    """The dealer's finishing multisets from every start of ``_STARTS``, enumerated together.

    Multisets are grown one card at a time; the number of orders reaching a multiset while the
    dealer is still drawing is carried along, so the enumeration never lists orders one by one.
    Every start grows in the same arrays (a row knows its start), so a level of cards is a few
    array operations for all of them: about ten levels in all, not ten per up-card.
    """
    ups = np.array([up for up, _ in _STARTS], dtype=np.int64)
    partners = np.array([natural_partner(up) or 0 for up, _ in _STARTS], dtype=np.int64)
    peeks = np.array([peek for _, peek in _STARTS], dtype=bool)
    values = np.arange(1, 11)
    # The multisets still drawing, level by level (one card more each time): each row's start,
    # the number of orders reaching it and its hard total with the up-card (carried, not summed
    # again).
    starts = np.arange(len(_STARTS), dtype=np.int64)
    drawing = np.zeros((len(_STARTS), 10), dtype=np.int64)
    orders = np.ones(len(_STARTS), dtype=np.int64)
    hard = ups.copy()
    ends: list[tuple[npt.NDArray[np.int64], ...]] = []
    first = True
    while len(drawing):
        rows = len(drawing)
        grown = np.repeat(drawing, 10, axis=0)
        value = np.tile(values, rows)
        grown[np.arange(rows * 10), value - 1] += 1
        start = np.repeat(starts, 10)
        reach = np.repeat(orders, 10)
        now = np.repeat(hard, 10) + value
        ace = (ups[start] == 1) | (grown[:, 0] > 0)
        soft = ace & (now + 10 <= 21)
        total = np.where(soft, now + 10, now)
        natural = (value == partners[start]) if first else np.zeros(len(value), dtype=bool)
        bust = total > 21
        stands = (total > 17) | ((total == 17) & ~(soft & hits_soft_17))
        done = ~natural & (bust | stands)
        outcome = np.where(bust, BUST, total - 17)
        ends.append((start[done], grown[done], reach[done], outcome[done]))
        shown = natural & ~peeks[start]  # without a peek a natural is an outcome of its own
        ends.append((start[shown], grown[shown], reach[shown],
                     np.full(int(shown.sum()), NATURAL, dtype=np.int64)))
        going = ~natural & ~done
        # Orders reaching the same multiset from the same start by different paths add up.
        keys = grown[going] @ _SEQUENCE_KEY + (start[going] << 50)
        _, first_of, index = np.unique(keys, return_index=True, return_inverse=True)
        drawing = grown[going][first_of]
        starts = start[going][first_of]
        orders = np.bincount(index.reshape(-1), weights=reach[going]).astype(np.int64)
        hard = now[going][first_of]
        first = False
    start, counts, reached, outcomes = (np.concatenate(part) for part in zip(*ends, strict=True))
    # One row per (start, multiset, outcome), in the order of the multisets' counts (Ace first).
    keys = (((start << 50) + counts @ _SEQUENCE_KEY) * len(OUTCOMES)) + outcomes
    _, first_of, index = np.unique(keys, return_index=True, return_inverse=True)
    start, counts, outcomes = start[first_of], counts[first_of], outcomes[first_of]
    summed = np.bincount(index.reshape(-1), weights=reached).astype(np.float64)
    order = np.lexsort((outcomes, *counts.T[::-1], start))
    start, counts, summed, outcomes = start[order], counts[order], summed[order], outcomes[order]
    bounds = np.searchsorted(start, np.arange(len(_STARTS) + 1))
    return {
        (up, peek): DealerSequences(
            up=up, counts=counts[low:high], orders=summed[low:high], outcome=outcomes[low:high]
        )
        for (up, peek), low, high in zip(_STARTS, bounds[:-1], bounds[1:], strict=True)
    }


@dataclass(frozen=True)
class _Design:
    """The dealer's multisets split into a low part (small card values) and a high part.

    The weight of a multiset factors into a product over card values, so it is the product of a
    low-part weight and a high-part weight, divided by the falling factorial of the shoe size.
    Many multisets share the same low part or the same high part: for a 2 up, about 2,000
    multisets have only some 160 distinct low parts and 120 distinct high parts. The part weights
    (an ``exp2`` of a matrix product of log falling factorials) are computed per distinct part of
    a shoe, and the sum ``low @ coefficients * high`` is a dense matrix product, which BLAS does
    fast (:func:`outcome_matrix`).
    """

    cut: int  # values 1..cut form the low part
    low_onehot: FloatArray  # (columns, low parts): column offset[v] + m - 1 = m cards of value v+1
    high_onehot: FloatArray
    low_depths: tuple[int, ...]
    high_depths: tuple[int, ...]
    low_index: npt.NDArray[np.int64]  # per multiset
    high_index: npt.NDArray[np.int64]
    sizes: npt.NDArray[np.int64]
    orders: FloatArray
    outcome: npt.NDArray[np.int64]
    #: Each multiset's index in the flattened coefficients laid out (low part, outcome, high
    #: part) and (high part, outcome, low part): see ``outcome_matrix``.
    low_first: npt.NDArray[np.int64]
    high_first: npt.NDArray[np.int64]


def _onehot(parts: npt.NDArray[np.int64]) -> tuple[FloatArray, tuple[int, ...]]:
    depths = tuple(int(d) for d in parts.max(axis=0))
    offsets = np.concatenate([[0], np.cumsum(depths)]).astype(np.int64)
    onehot = np.zeros((int(offsets[-1]), parts.shape[0]))
    rows = np.arange(parts.shape[0])
    for index in range(parts.shape[1]):
        used = parts[:, index] > 0
        onehot[offsets[index] + parts[used, index] - 1, rows[used]] = 1.0
    return onehot, depths


@lru_cache(maxsize=64)
def _design(up: int, hits_soft_17: bool, peek: bool) -> _Design:
    seqs = dealer_sequences(up, hits_soft_17=hits_soft_17, peek=peek)
    # Each distinct part costs an exponential per distinct part of a shoe and a product per shoe
    # (``outcome_matrix``); their product is paid only per shared group. Fewest parts in all was
    # also the fastest cut measured, up-card by up-card, on a six-deck solve.
    # The parts of every cut are counted from two sorts of the multisets (rows sharing a prefix,
    # or a suffix, are neighbours once sorted by it), and only the chosen cut's are built.
    # A row starts a new prefix of ``cut`` values where it differs from the row before in one
    # of them: the running "or" of the differences along the values counts every cut at once.
    counts = seqs.counts
    by_prefix = counts[np.lexsort(counts.T[::-1])]
    by_suffix = counts[np.lexsort(counts.T)]
    prefixes = 1 + np.logical_or.accumulate(by_prefix[1:] != by_prefix[:-1], axis=1).sum(axis=0)
    suffixes = 1 + np.logical_or.accumulate(
        (by_suffix[1:] != by_suffix[:-1])[:, ::-1], axis=1
    ).sum(axis=0)[::-1]
    # prefixes[c - 1]: distinct values 1..c; suffixes[c]: distinct values c+1..10.
    sizes = {cut: int(prefixes[cut - 1] + suffixes[cut]) for cut in range(2, 8)}
    cut = min(sizes, key=lambda at: (sizes[at], at))
    (low, low_index), (high, high_index) = (
        _distinct_rows(counts[:, :cut]), _distinct_rows(counts[:, cut:])
    )
    low_onehot, low_depths = _onehot(low)
    high_onehot, high_depths = _onehot(high)
    n_low, n_high = len(low), len(high)
    low_first = (low_index * len(OUTCOMES) + seqs.outcome) * n_high + high_index
    high_first = (high_index * len(OUTCOMES) + seqs.outcome) * n_low + low_index
    return _Design(
        cut, low_onehot, high_onehot, low_depths, high_depths, low_index, high_index,
        seqs.counts.sum(axis=1), seqs.orders, seqs.outcome, low_first, high_first,
    )


def distinct(values: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """The distinct values of an integer array, sorted: ``np.unique(values)`` found by one sort.

    (numpy 2.4's ``np.unique`` without an index or an inverse takes a hashing path that costs
    ten times this sort on the solver's few thousand keys, and its first call imports
    ``numpy.ma``, 12 ms of a cold solve.)"""
    ordered = np.sort(values, axis=None)
    keep = np.ones(len(ordered), dtype=bool)
    np.not_equal(ordered[1:], ordered[:-1], out=keep[1:])
    out: npt.NDArray[np.int64] = ordered[keep]
    return out


def _log_falling(counts: npt.NDArray[np.int64], depth: int) -> FloatArray:
    """log2(n (n-1) ... (n-m+1)) for m = 1..depth, per entry of ``counts`` (a new last axis).

    Counts are whole numbers of cards: the logarithms are looked up in a table of every count up
    to the largest (a shoe holds at most 128 cards of a value), not computed per shoe."""
    table = _log_falling_table(int(counts.max(initial=0)) + 1, depth)
    out: FloatArray = table[np.maximum(counts, 0)]
    return out


@lru_cache(maxsize=256)
def _log_falling_table(size: int, depth: int) -> FloatArray:
    steps = np.arange(depth, dtype=np.float64)
    left = np.arange(size, dtype=np.float64)[:, None] - steps
    logs = np.where(left > 0, np.log2(np.maximum(left, 1e-300)), _LOG_ZERO)
    out: FloatArray = np.cumsum(logs, axis=-1)
    out.setflags(write=False)
    return out


def _part_logs(shoes: npt.NDArray[np.int64], depths: tuple[int, ...]) -> FloatArray:
    """log2 of n!/(n-m)! for every value of a part and m = 1..depth, one row per shoe."""
    columns = [_log_falling(shoes[:, index], depth) for index, depth in enumerate(depths) if depth]
    if not columns:
        return np.zeros((shoes.shape[0], 0))
    out: FloatArray = np.concatenate(columns, axis=1)
    return out


def _part_weights(logs: FloatArray, onehot: FloatArray) -> npt.NDArray[np.float32]:
    """Product over the part's values of n!/(n-m)!, for every shoe row and every part."""
    if not onehot.shape[0]:
        return np.ones((logs.shape[0], onehot.shape[1]), dtype=np.float32)
    out: npt.NDArray[np.float32] = np.exp2(logs @ onehot).astype(np.float32)
    return out


def _fallings(totals: npt.NDArray[np.int64], deepest: int) -> FloatArray:
    """``totals[i] (totals[i] - 1) ... (totals[i] - k + 1)`` for ``k`` = 0..deepest, one row per
    total: the number of ordered draws of ``k`` cards from a shoe of that size. One running
    product per row (the same multiplications, in the same order, as a loop per size)."""
    steps = totals.astype(np.float64)[:, None] - np.arange(deepest, dtype=np.float64)
    out: FloatArray = np.ones((len(totals), deepest + 1))
    np.cumprod(steps, axis=1, out=out[:, 1:])
    # A sequence longer than the shoe cannot be dealt from it (its weight is zero): without this
    # its coefficient would be 1/0, and 0 * inf a NaN (tiny shoes, deep resplits).
    out[out <= 0] = np.inf
    return out


def _distinct_rows(
    table: npt.NDArray[np.int64],
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.intp]]:
    """The distinct rows of a table of card counts and each row's index among them.

    A row is read as one integer in a mixed radix (each column's largest count plus one), so that
    finding them is a one-dimensional sort; a table too wide for 63 bits is compared row-wise."""
    radix = table.max(axis=0, initial=0) + 1
    if float(np.prod(radix.astype(np.float64))) < 2.0**62:
        places = np.concatenate([[1], np.cumprod(radix[:-1])]).astype(np.int64)
        _, first, inverse = np.unique(table @ places, return_index=True, return_inverse=True)
        return table[first], inverse.reshape(-1)
    distinct, inverse = np.unique(table, axis=0, return_inverse=True)
    return distinct, inverse.reshape(-1)


@dataclass(frozen=True)
class _Side:
    """One side (low or high card values) of a batch of shoes in :func:`outcome_matrix`."""

    shoes: npt.NDArray[np.int64]  # the distinct parts of the batch's shoes on this side
    of: npt.NDArray[np.intp]  # each shoe's part among them
    onehot: FloatArray  # the design of this side's parts of the dealer's multisets
    depths: tuple[int, ...]
    layout: npt.NDArray[np.int64]  # the coefficients' places with this side first

    def groups(self, totals: npt.NDArray[np.int64]) -> int:
        """How many distinct (part, shoe size) pairs the batch holds."""
        return len(distinct(self.of * (int(totals.max()) + 1) + totals))

    def weights(self) -> npt.NDArray[np.float32]:
        return _part_weights(_part_logs(self.shoes, self.depths), self.onehot)


#: Shoes contracted at once: bounds the memory of the gathered products. A chunk of 256 (1 MB of
#: products at most) stays in the processor's cache; 2,048 cost a six-deck solve 14 ms more.
_CHUNK = 256


def outcome_matrix(
    shoes: FloatArray | None, up: int, *, hits_soft_17: bool, peek: bool
) -> FloatArray:
    """Joint probabilities of the dealer's outcomes, one row per shoe (the up-card already out).

    With ``peek`` the rows sum to the probability of *no* dealer natural (the natural orders are
    left out); divide to condition. ``shoes=None`` means the infinite deck (one row).

    The shoes of a batch are the same shoe without a few cards, so their low parts (the counts
    of the low card values) and their high parts repeat: a batch of 15,000 shoes has some 100
    distinct low parts and 2,000 distinct high parts. The part weights (the exponentials) are
    computed once per distinct part of a shoe, and the contraction with the coefficients once per
    distinct part and shoe size on the side that repeats most ("shared"); each shoe then only
    combines that product with its other side's weights.
    """
    design = _design(up, hits_soft_17, peek)
    if shoes is None:
        seqs = dealer_sequences(up, hits_soft_17=hits_soft_17, peek=peek)
        weights = seqs.orders * np.prod(np.array(INFINITE) ** seqs.counts, axis=1)
        out = np.zeros((1, len(OUTCOMES)))
        np.add.at(out[0], seqs.outcome, weights)
        return out
    whole = shoes.astype(np.int64)
    totals = whole.sum(axis=1)
    low = _Side(*_distinct_rows(whole[:, : design.cut]), design.low_onehot, design.low_depths,
                design.low_first)
    high = _Side(*_distinct_rows(whole[:, design.cut :]), design.high_onehot,
                 design.high_depths, design.high_first)
    # Which side is shared: its distinct (part, size) pairs times both sides' parts, against
    # every shoe times the other side's parts.
    n_low, n_high = design.low_onehot.shape[1], design.high_onehot.shape[1]
    low_cost = low.groups(totals) * n_low * n_high + len(totals) * n_high
    high_cost = high.groups(totals) * n_low * n_high + len(totals) * n_low
    shared_side, other_side = (low, high) if low_cost <= high_cost else (high, low)
    shared, other = shared_side.weights(), other_side.weights()
    shared_of, other_of, layout = shared_side.of, other_side.of, shared_side.layout
    n_shared, n_other = shared.shape[1], other.shape[1]
    out = np.empty((len(totals), len(OUTCOMES)))
    if not len(totals):
        return out
    deepest = int(design.sizes.max())
    # The coefficients of one shoe size, laid out dense for the product: only the multisets'
    # places are ever set, so one array serves every size (set again, never cleared).
    flat = np.zeros(n_shared * len(OUTCOMES) * n_other, dtype=np.float32)
    # Each shoe's group, its (size, shared part), numbered by size then part with one sort of
    # the batch: a size's groups are then one run of numbers.
    parts = len(shared)
    group_keys, group_of = np.unique(totals * parts + shared_of, return_inverse=True)
    group_of = group_of.reshape(-1)
    group_sizes = group_keys // parts
    firsts = np.concatenate([[0], np.flatnonzero(np.diff(group_sizes)) + 1]).astype(np.int64)
    lasts = np.append(firsts[1:], len(group_keys))
    fallings = _fallings(group_sizes[firsts], deepest)
    # Every group's product with the coefficients of its size, one matrix product per size...
    mixed = np.empty((len(group_keys), len(OUTCOMES), n_other), dtype=np.float32)
    for first, last, denominators in zip(firsts.tolist(), lasts.tolist(), fallings, strict=True):
        # Single precision for the products: each term keeps 7 significant digits and the sums
        # are over a few hundred positive terms, so the probabilities keep about 7 digits, far
        # more than any published figure or the 0.005 % house-edge target needs. A (low, high)
        # pair is one multiset, so the coefficients are set, not summed.
        flat[layout] = design.orders / denominators[design.sizes]
        np.matmul(shared[group_keys[first:last] % parts], flat.reshape(n_shared, -1),
                  out=mixed[first:last].reshape(last - first, -1))
    # ... then each shoe's row: its group's product with its other side's weights, for every
    # shoe of the batch at once, whatever its size (each row is summed alone, so the batching
    # changes no bit of it).
    for start in range(0, len(totals), _CHUNK):
        part = slice(start, start + _CHUNK)
        out[part] = np.einsum("rok,rk->ro", mixed[group_of[part]], other[other_of[part]])
    return out


@dataclass(frozen=True)
class DealerProbabilities:
    """How the dealer's hand ends from one up-card: probabilities in the order of ``OUTCOMES``."""

    up: int
    probabilities: tuple[float, ...]
    #: Whether these are conditioned on the dealer having checked and found no natural.
    after_peek: bool

    @property
    def bust(self) -> float:
        return self.probabilities[BUST]

    @property
    def natural(self) -> float:
        return self.probabilities[NATURAL]

    def total(self, total: int) -> float:
        """Probability the dealer stands on ``total`` (17 to 21; a natural is not counted)."""
        return self.probabilities[total - 17] if 17 <= total <= 21 else 0.0

    def as_dict(self) -> dict[str, float]:
        return dict(zip(OUTCOMES, self.probabilities, strict=True))


def shoe_after(shoe: Composition, removed: Sequence[int]) -> Composition:
    """The composition once the given card values (Ace = 1) are out; refuses impossible removals."""
    counts = list(shoe)
    for value in removed:
        counts[value - 1] -= 1
        if counts[value - 1] < 0:
            raise ValueError(f"the shoe holds no more cards of value {value} to remove")
    return tuple(counts)


def dealer_distribution(
    shoe: Composition | None, up: int, *, hits_soft_17: bool, peek: bool, after_peek: bool
) -> tuple[float, ...]:
    """The seven outcome probabilities for one shoe that no longer holds the up-card.

    ``peek`` says whether the dealer checks under an Ace or a ten; ``after_peek`` whether the
    result is conditioned on that check having found no natural (otherwise a natural is an outcome,
    as it is at a table without a hole card).
    """
    partner = natural_partner(up)
    rows = None if shoe is None else np.array([shoe], dtype=np.float64)
    if partner is None or not peek:
        joint = outcome_matrix(rows, up, hits_soft_17=hits_soft_17, peek=False)[0]
        return tuple(float(x) for x in joint)
    joint = outcome_matrix(rows, up, hits_soft_17=hits_soft_17, peek=True)[0]
    natural = INFINITE[partner - 1] if shoe is None else shoe[partner - 1] / sum(shoe)
    if after_peek:
        return (*(float(x) / (1 - natural) for x in joint[:NATURAL]), 0.0)
    return (*(float(x) for x in joint[:NATURAL]), natural)
