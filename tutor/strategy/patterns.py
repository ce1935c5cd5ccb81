"""The patterns of second cards dealt to split hands, and their weights in an exact resplit value
(the method is in :mod:`.solver`'s docstring, *Resplits*)."""

from __future__ import annotations

from functools import lru_cache
from math import comb

import numpy as np

from tutor.strategy.dealer import FloatArray


@lru_cache(maxsize=8)
def pattern_weights(hands: int) -> tuple[FloatArray, FloatArray]:
    """The weight of ``runs[j] * G[j]`` (and of ``runs[j] * U[j]``) in the split value with up to
    ``hands`` hands: the patterns of :func:`stream_patterns`, each (i, r) turned by inclusion and
    exclusion over the r cards that must not be pair cards into
    ``sum_k (-1)^k C(r, k)`` at ``j = i + k``."""
    tables = stream_patterns(hands)
    deepest = max(i + r for table in tables for i, r in table)
    out = []
    for table in tables:
        weights = np.zeros(deepest + 1)
        for (i, r), count in table.items():
            for k in range(r + 1):
                weights[i + k] += count * (-1) ** k * comb(r, k)
        out.append(weights)
    # The deepest terms cancel (they do for every limit the rules allow, 2 to 4 hands): a shoe
    # with that many pair cards out is then never needed.
    needed = max(int(np.flatnonzero(weights).max()) for weights in out if weights.any())
    trimmed = []
    for weights in out:
        kept = weights[: needed + 1].copy()
        kept.setflags(write=False)
        trimmed.append(kept)
    return trimmed[0], trimmed[1]


@lru_cache(maxsize=8)
def stream_patterns(
    hands: int,
) -> tuple[dict[tuple[int, int], int], dict[tuple[int, int], int]]:
    """The second cards dealt to split hands, as patterns of pair and other cards.

    Every hand waiting for its second card takes the next card; a pair card splits it again while
    the seat holds fewer than ``hands`` hands, and is kept as a pair after. For every pattern,
    each hand completed by another card counts once in the first table under (pair cards, other
    cards but its own), each hand kept as a pair once in the second under (pair cards but its
    own, other cards): the weights of the exact split value.
    """
    others: dict[tuple[int, int], int] = {}
    stuck: dict[tuple[int, int], int] = {}

    def walk(seat: int, waiting: int, pairs: int, other: int, kept: int) -> None:
        if waiting == 0:
            if other:
                others[(pairs, other - 1)] = others.get((pairs, other - 1), 0) + other
            if kept:
                stuck[(pairs - 1, other)] = stuck.get((pairs - 1, other), 0) + kept
            return
        walk(seat, waiting - 1, pairs, other + 1, kept)
        if seat < hands:
            walk(seat + 1, waiting + 1, pairs + 1, other, kept)
        else:
            walk(seat, waiting - 1, pairs + 1, other, kept + 1)

    walk(2, 2, 0, 0, 0)
    return others, stuck
