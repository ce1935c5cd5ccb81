"""Every hand a player can hold, as a graph: the nodes the solver values (:mod:`.solver`).

A hand is the multiset of its card values (counts of Ace, 2, ..., 9, ten-valued cards). Every hand
with a hard total of 21 or less is a node, about 3,000 of them, and a card joins a hand to the hand
one card larger; grouped by hard total from 21 down, a level's children all sit in earlier levels,
which is the order the solver values them in.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import numpy.typing as npt

Hand = tuple[int, ...]  # counts of Ace, 2, ..., 9, ten-valued
EMPTY: Hand = (0,) * 10
IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]

#: A removed composition as one integer (six bits per card value: at most 63 of a value).
KEY_WEIGHTS: IntArray = np.array([1 << (6 * index) for index in range(10)], dtype=np.int64)


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
    #: The most cards of each value one hand holds.
    most: IntArray

    @property
    def bust(self) -> int:
        return int(self.counts.shape[0])


@lru_cache(maxsize=1)
def hand_graph() -> HandGraph:
    # Every count vector with a hard total of 21 or less, one card value at a time: each row
    # grows into one row per count of the next value that still fits, in order, so the hands
    # come sorted by the count of Aces, then of twos, and so on (the empty hand first, dropped).
    counts = np.zeros((1, 0), dtype=np.int64)
    room = np.full(1, 21, dtype=np.int64)
    for value in range(1, 11):
        repeats = room // value + 1
        starts = np.cumsum(repeats) - repeats
        taken = np.arange(int(repeats.sum())) - np.repeat(starts, repeats)
        counts = np.column_stack([np.repeat(counts, repeats, axis=0), taken])
        room = np.repeat(room, repeats) - taken * value
    counts = counts[1:]
    index = dict(zip(map(tuple, counts.tolist()), range(len(counts)), strict=True))
    hard = counts @ np.arange(1, 11)
    soft = (counts[:, 0] > 0) & (hard + 10 <= 21)
    total = hard + 10 * soft
    # One card more: the hand's key plus that value's weight, looked up among the sorted keys.
    keys = counts @ KEY_WEIGHTS
    order = np.argsort(keys)
    grown = keys[:, None] + KEY_WEIGHTS[None, :]
    at = np.minimum(np.searchsorted(keys[order], grown), len(counts) - 1)
    child = np.where(keys[order][at] == grown, order[at], len(counts))
    levels = tuple(np.flatnonzero(hard == h) for h in range(21, 0, -1))
    return HandGraph(
        counts, hard, total, soft, counts.sum(axis=1), child, levels, index, counts.max(axis=0)
    )
