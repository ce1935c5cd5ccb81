"""The compiled loop's small parts: xoshiro256+ random numbers, the true shoe (a card drawn
uniformly from the undealt ones, refilled from the discards or a spare deck), a card's value, and
a chart code resolved to the action the hand allows.

A module of its own so that ``tutor.simulate_loop`` holds ``_play`` alone, the one long loop;
these are compiled by numba too (``cache=True``) and called from it.
"""

from __future__ import annotations

import tutor.blas  # noqa: F401  (one BLAS thread, set before numpy is imported)

# isort: split
import numpy as np
from numba import njit

from tutor.simulate_codes import (
    A_DOUBLE,
    A_HIT,
    A_SPLIT,
    A_STAND,
    A_SURRENDER,
    C_D,
    C_DS,
    C_H,
    C_P,
    C_PH,
    C_RH,
    C_RP,
    C_RS,
    C_S,
    I8,
    I64,
    S_LEFT,
    S_ROUND_START,
    S_SHUFFLES,
    S_SIZE,
    S_SPARES,
    U64,
)


@njit(cache=True)
def _next(rng: U64) -> np.uint64:  # pragma: no cover - compiled
    """xoshiro256+ (Blackman and Vigna): its top 53 bits make good floats, all we use it for."""
    s0, s1, s2, s3 = rng[0], rng[1], rng[2], rng[3]
    result = s0 + s3
    t = s1 << np.uint64(17)
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = (s3 << np.uint64(45)) | (s3 >> np.uint64(19))
    rng[0], rng[1], rng[2], rng[3] = s0, s1, s2, s3
    return result  # type: ignore[no-any-return]  # numpy scalar arithmetic is typed loosely


@njit(cache=True)
def _uniform(rng: U64) -> float:  # pragma: no cover - compiled
    return float(_next(rng) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit(cache=True)
def _below(rng: U64, n: int) -> int:  # pragma: no cover - compiled
    # The bias of floor(u * n) is below n / 2**53: invisible for a shoe of at most 416 cards.
    return int(_uniform(rng) * n)


@njit(cache=True)
def _refill(shoe: I8, state: I64, spare: bool) -> None:  # pragma: no cover - compiled
    """The round has used every undealt card: bring back earlier discards, or open a spare deck.

    The cards of the round in play are never shuffled back. Layout of ``shoe``: undealt cards in
    ``[0, left)``, the round's cards in ``[left, round_start)``, earlier discards after.
    """
    size = state[S_SIZE]
    start = state[S_ROUND_START]
    old = shoe[:size].copy()
    if spare or start == size:
        if size + 52 > shoe.shape[0]:
            raise ValueError("the simulator ran out of spare decks")
        for i in range(52):
            shoe[i] = i
        shoe[52 : 52 + size] = old
        state[S_SIZE] = size + 52
        state[S_ROUND_START] = start + 52
        state[S_LEFT] = 52
        state[S_SPARES] += 1
    else:
        discards = size - start
        shoe[:discards] = old[start:size]
        shoe[discards:size] = old[:start]
        state[S_LEFT] = discards
        state[S_ROUND_START] = size
    state[S_SHUFFLES] += 1


@njit(cache=True)
def _draw(shoe: I8, state: I64, rng: U64, spare: bool) -> int:  # pragma: no cover - compiled
    left = state[S_LEFT]
    if left == 0:
        _refill(shoe, state, spare)
        left = state[S_LEFT]
    j = _below(rng, left)
    card = shoe[j]
    shoe[j] = shoe[left - 1]
    shoe[left - 1] = card
    state[S_LEFT] = left - 1
    return int(card)


@njit(cache=True)
def _value(card: int) -> int:  # pragma: no cover - compiled
    rank = card >> 2  # 0 Ace, 1-8 two to nine, 9-12 ten, Jack, Queen, King
    return 10 if rank >= 9 else rank + 1


@njit(cache=True)
def _resolve(code: int, can_double: bool, can_split: bool, can_surrender: bool) -> int:
    """The action a chart code asks for, given what is legal; -1 defers to the total's row."""
    if code == C_H:  # pragma: no cover - compiled
        return A_HIT
    if code == C_S:
        return A_STAND
    if code == C_D:
        return A_DOUBLE if can_double else A_HIT
    if code == C_DS:
        return A_DOUBLE if can_double else A_STAND
    if code in (C_P, C_PH):
        return A_SPLIT if can_split else -1
    if code == C_RH:
        return A_SURRENDER if can_surrender else A_HIT
    if code == C_RS:
        return A_SURRENDER if can_surrender else A_STAND
    if code == C_RP:
        if can_surrender:
            return A_SURRENDER
        return A_SPLIT if can_split else -1
    return -1
