"""Many rounds of one seat, fast: the house edge, the cost of each mistake, and the swings.

Why a simulator when :mod:`tutor.strategy` computes exact values: learners believe what they see
happen. "Insurance is a bad bet" or "mimicking the dealer costs you 5 %" sticks when a page plays a
million rounds in a second and draws the running average settling on the exact house edge, and a
teacher can answer "but I won last time" with fifty bankroll paths of a ten-round family session.

Method. One compiled loop (numba, ``cache=True``) plays round after round exactly as
:class:`tutor.game.Round` plays one seat: the deal in the table's order (seat, dealer up-card,
seat, hole card with the American deal), insurance and even money on a dealer Ace, the dealer's
peek under an Ace or a ten (American deal) or no hole card at all (European deal: the dealer's
second card after the players, and a dealer natural then takes doubled and split bets), 21 stands
by itself, split hands played one after the other (split Aces one card each, resplit only where
the table allows), surrender (late: half the bet back, lost whole to a European dealer's later
natural; immediate: half back at once, against any up-card unless a house rule refuses it
against an Ace), a double dealt face down leaving its hand waiting for the dealer, the dealer
standing or hitting on soft 17, and every bet settled. The tests replay rounds the simulator
traced through the rules engine and compare every net to the chip.

Cards are dealt from the true shoe: an array of the physical cards (rank and suit, ``decks``
packs), each draw picking one of the undealt cards uniformly (a Fisher-Yates shuffle done one card
at a time, so a shuffle after every round costs nothing). The shoe is reshuffled as the rules say:
after every round, or once the cut card (``penetration``) has come out, never in the middle of a
round; a round that exhausts the shoe brings back earlier discards, or opens a spare deck where the
table uses one, for that round only (the next shuffle puts the shoe back to its own decks).
Random numbers come from xoshiro256+ with its state in an array, seeded from
``numpy.random.SeedSequence``: a run is reproducible from its seed, resumable chunk by chunk, and
independent of any other run in another thread.

Money is exact: bets and payouts are integers of a *unit* (:func:`chip_unit`), the smallest number
of chips per bet for which every payout is whole (2 for 3:2 naturals and half-bet surrender, 10 for
6:5). Means and standard errors are floats only at the end.

Strategies (:class:`Strategy`) are tables the loop reads: one code per (hard total, up-card), (soft
total, up-card) and (pair, up-card) in the chart's codes, an optional deviation per cell (with some
probability, play another action: the learner's error profile), and a probability of insuring.
:func:`basic_strategy` reads the computed chart (total-dependent, :func:`tutor.strategy.chart`), so
its simulated mean differs from the composition-dependent exact house edge by a few hundredths
of a percent at most (more with one deck), well inside the noise of any run a page shows.

Speed: about 2 to 4 million rounds per second on one core (``python bench/simulate.py``). The
first call in a fresh environment compiles the loop, about 10 to 20 s on this machine; numba caches
the machine code in ``__pycache__``, and later processes load it in well under a second.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt
from numba import njit

from tutor.cards import Card, is_pair, parse_cards
from tutor.cell import CHART_ROWS, Cell, Kind
from tutor.decision import Grade
from tutor.rules import DoubleOn, TableRules

I8 = npt.NDArray[np.int8]
I32 = npt.NDArray[np.int32]
I64 = npt.NDArray[np.int64]
F64 = npt.NDArray[np.float64]
U64 = npt.NDArray[np.uint64]

# -- chart codes and actions, as the compiled loop reads them -------------------------------------

#: The chart's codes (see :mod:`tutor.strategy.chart`); NONE marks a pair cell that defers to the
#: hand's total (naive strategies never split).
CODES: dict[str, int] = {
    "H": 0, "S": 1, "D": 2, "Ds": 3, "P": 4, "Ph": 5, "Rh": 6, "Rs": 7, "Rp": 8,
}
C_H, C_S, C_D, C_DS, C_P, C_PH, C_RH, C_RS, C_RP = range(9)
C_NONE = -1

#: Actions, in the order of the trace (``Simulation(trace=True)``).
A_HIT, A_STAND, A_DOUBLE, A_SPLIT, A_SURRENDER, A_INSURE, A_DECLINE, A_EVEN_MONEY = range(8)
ACTION_NAMES: tuple[str, ...] = (
    "hit", "stand", "double", "split", "surrender", "insure", "decline-insurance", "even-money",
)

#: Tables of a strategy: hard totals, soft totals, pairs (rows by total or pair value 1-10).
HARD, SOFT, PAIRS = 0, 1, 2

# -- configuration slots ---------------------------------------------------------------------------
(
    K_UNIT, K_NATURAL, K_BONUS, K_PEEK, K_H17, K_DOUBLE_ON, K_DAS, K_MAX_HANDS, K_SAOC,
    K_RESPLIT_ACES, K_BY_VALUE, K_SURRENDER, K_INSURANCE, K_INSURANCE_UNITS, K_INS_FORBIDS,
    K_INS_EXTRA, K_EVEN_MONEY, K_EVERY_ROUND, K_CUT, K_SPARE, K_SESSION_ROUNDS, K_SESSION_STACK,
    K_SURRENDER_NATURAL, K_SURRENDER_NO_ACE, K_FACE_DOWN, K_BASE_SIZE,
) = range(26)
CONFIG_SIZE = 26

# -- shoe state slots --
S_LEFT, S_SIZE, S_ROUND_START, S_SPARES, S_SHUFFLES = range(5)

# -- counters --
(
    N_ROUNDS, N_HANDS, N_WIN, N_LOSE, N_PUSH, N_NATURAL, N_BONUS, N_BUST, N_SURRENDER,
    N_EVEN_MONEY, N_DOUBLE, N_SPLIT, N_INSURANCE, N_INSURANCE_WON, N_DEALER_NATURAL,
    N_DEALER_BUST, N_SAT_OUT, M_NET, M_SUMSQ, M_WIN, M_LOSE, M_NATURAL, M_BUST, M_SURRENDER,
    M_EVEN_MONEY, M_INSURANCE, X_CHECKPOINT, X_BANKROLL, X_TRACE_CARDS, X_TRACE_ACTIONS,
) = range(30)
COUNTERS_SIZE = 30

#: The counters a result reports, by name (``M_`` money in units, ``N_`` counts).
COUNT_NAMES: dict[str, int] = {
    "rounds": N_ROUNDS, "hands": N_HANDS, "win": N_WIN, "loss": N_LOSE, "push": N_PUSH,
    "natural": N_NATURAL, "bonus": N_BONUS, "bust": N_BUST, "surrender": N_SURRENDER,
    "even_money": N_EVEN_MONEY, "double": N_DOUBLE, "split": N_SPLIT, "insurance": N_INSURANCE,
    "insurance_won": N_INSURANCE_WON, "dealer_natural": N_DEALER_NATURAL,
    "dealer_bust": N_DEALER_BUST, "sat_out": N_SAT_OUT,
}
MONEY_NAMES: dict[str, int] = {
    "win": M_WIN, "loss": M_LOSE, "natural": M_NATURAL, "bust": M_BUST,
    "surrender": M_SURRENDER, "even_money": M_EVEN_MONEY, "insurance": M_INSURANCE,
}

MAX_HANDS = 4
_DOUBLE_ON = {DoubleOn.ANY_TWO: 0, DoubleOn.NINE_TO_ELEVEN: 1, DoubleOn.TEN_OR_ELEVEN: 2}


# == the compiled loop =============================================================================


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


@njit(cache=True)
def _play(  # one long loop, on purpose: it is the hot path
    rounds: int,
    cfg: I64,
    tables: I8,
    dev_action: I8,
    dev_probability: F64,
    insure_probability: float,
    shoe: I8,
    state: I64,
    rng: U64,
    acc: I64,
    checkpoints: I64,
    checkpoint_nets: I64,
    nets: I32,
    trace_cards: I32,
    trace_actions: I8,
    trace_card_ends: I64,
    trace_action_ends: I64,
) -> None:  # pragma: no cover - compiled
    """Play ``rounds`` rounds, adding to ``acc``; see the module docstring for the rules."""
    unit = cfg[K_UNIT]
    natural_win = cfg[K_NATURAL]
    bonus_win = cfg[K_BONUS]
    peek = cfg[K_PEEK] == 1
    h17 = cfg[K_H17] == 1
    double_on = cfg[K_DOUBLE_ON]
    das = cfg[K_DAS] == 1
    max_hands = cfg[K_MAX_HANDS]
    saoc = cfg[K_SAOC] == 1
    resplit_aces = cfg[K_RESPLIT_ACES] == 1
    by_value = cfg[K_BY_VALUE] == 1
    surrender_rule = cfg[K_SURRENDER] == 1
    insurance_rule = cfg[K_INSURANCE] == 1
    insurance_units = cfg[K_INSURANCE_UNITS]
    insurance_forbids = cfg[K_INS_FORBIDS] == 1
    insurance_extra = cfg[K_INS_EXTRA] == 1
    even_money_rule = cfg[K_EVEN_MONEY] == 1
    every_round = cfg[K_EVERY_ROUND] == 1
    cut = cfg[K_CUT]
    spare = cfg[K_SPARE] == 1
    session_rounds = cfg[K_SESSION_ROUNDS]
    session_stack = cfg[K_SESSION_STACK]
    surrender_natural = cfg[K_SURRENDER_NATURAL] == 1  # late, European: a natural takes it all
    surrender_no_ace = cfg[K_SURRENDER_NO_ACE] == 1  # a house rule: no surrender against an Ace
    face_down = cfg[K_FACE_DOWN] == 1  # a double's card unknown until the dealer has played
    base_size = cfg[K_BASE_SIZE]  # the shoe without spare decks
    record = nets.shape[0] > 0
    tracing = trace_card_ends.shape[0] > 0

    hard = np.zeros(MAX_HANDS, np.int64)  # hard total, Aces as 1
    aces = np.zeros(MAX_HANDS, np.int64)
    ncards = np.zeros(MAX_HANDS, np.int64)
    first = np.zeros(MAX_HANDS, np.int64)  # first two card ids (pairs, natural bonus)
    second = np.zeros(MAX_HANDS, np.int64)
    bet = np.zeros(MAX_HANDS, np.int64)
    from_split = np.zeros(MAX_HANDS, np.bool_)
    split_aces = np.zeros(MAX_HANDS, np.bool_)
    done = np.zeros(MAX_HANDS, np.bool_)  # stood, doubled or surrendered
    doubled = np.zeros(MAX_HANDS, np.bool_)
    surrendered = np.zeros(MAX_HANDS, np.bool_)

    for _ in range(rounds):
        index = acc[N_ROUNDS]
        if tracing:
            trace_card_ends[index] = acc[X_TRACE_CARDS]
            trace_action_ends[index] = acc[X_TRACE_ACTIONS]
        if session_rounds > 0 and index % session_rounds == 0:
            acc[X_BANKROLL] = session_stack
        net = 0
        sat_out = session_rounds > 0 and acc[X_BANKROLL] < unit
        if sat_out:
            acc[N_SAT_OUT] += 1
        else:
            cash = acc[X_BANKROLL] - unit if session_rounds > 0 else 1 << 60
            state[S_ROUND_START] = state[S_LEFT]
            # -- the deal: seat, dealer up, seat, hole card (American deal) --
            c1 = _draw(shoe, state, rng, spare)
            up_card = _draw(shoe, state, rng, spare)
            c2 = _draw(shoe, state, rng, spare)
            hole = _draw(shoe, state, rng, spare) if peek else -1
            if tracing:
                k = acc[X_TRACE_CARDS]
                trace_cards[k] = c1
                trace_cards[k + 1] = up_card
                trace_cards[k + 2] = c2
                acc[X_TRACE_CARDS] = k + 3
                if peek:
                    trace_cards[k + 3] = hole
                    acc[X_TRACE_CARDS] = k + 4
            up = _value(up_card)
            dealer_hard = up + (_value(hole) if peek else 0)
            dealer_aces = (1 if up == 1 else 0) + (1 if peek and _value(hole) == 1 else 0)
            dealer_cards = 2 if peek else 1
            nh = 1
            hard[0] = _value(c1) + _value(c2)
            aces[0] = (1 if _value(c1) == 1 else 0) + (1 if _value(c2) == 1 else 0)
            ncards[0] = 2
            first[0] = c1
            second[0] = c2
            bet[0] = unit
            from_split[0] = False
            split_aces[0] = False
            done[0] = False
            doubled[0] = False
            surrendered[0] = False
            natural = hard[0] == 11 and aces[0] == 1
            even_money = False
            insured = 0  # insurance riding on the round, in units
            insured_first = 0  # the first insurance: what each added bet carries too
            took_insurance = False
            round_over = False
            # -- insurance and even money on a dealer Ace --
            if insurance_rule and up == 1:
                take = insure_probability >= 1.0 or (
                    insure_probability > 0.0 and _uniform(rng) < insure_probability
                )
                decision = A_DECLINE
                if take and natural and even_money_rule:
                    decision = A_EVEN_MONEY
                    even_money = True
                elif take and cash > 0:
                    decision = A_INSURE
                    insured = min(insurance_units, cash)
                    insured_first = insured
                    took_insurance = True
                    cash -= insured
                    acc[N_INSURANCE] += 1
                if tracing:
                    trace_actions[acc[X_TRACE_ACTIONS]] = decision
                    acc[X_TRACE_ACTIONS] += 1
            # -- the peek --
            if peek and (up == 1 or up == 10):
                if dealer_hard == 11 and dealer_aces == 1:
                    acc[N_DEALER_NATURAL] += 1
                    round_over = True
                    if even_money:
                        net += unit
                        acc[N_EVEN_MONEY] += 1
                        acc[M_EVEN_MONEY] += unit
                    elif natural:
                        acc[N_PUSH] += 1
                    else:
                        net -= unit
                        acc[N_LOSE] += 1
                        acc[M_LOSE] -= unit
                    if insured > 0:
                        net += 2 * insured
                        acc[N_INSURANCE_WON] += 1
                        acc[M_INSURANCE] += 2 * insured
                    acc[N_HANDS] += 1
                elif insured > 0:
                    net -= insured
                    acc[M_INSURANCE] -= insured
                    insured = 0
            if not round_over:
                # -- the player's hands, one after the other --
                i = 0
                while i < nh:
                    if ncards[i] == 1:
                        card = _draw(shoe, state, rng, spare)
                        if tracing:
                            trace_cards[acc[X_TRACE_CARDS]] = card
                            acc[X_TRACE_CARDS] += 1
                        hard[i] += _value(card)
                        aces[i] += 1 if _value(card) == 1 else 0
                        ncards[i] = 2
                        second[i] = card
                    while True:
                        total = hard[i]
                        soft = aces[i] > 0 and total <= 11
                        if soft:
                            total += 10
                        two = ncards[i] == 2
                        is_natural = two and not from_split[i] and total == 21
                        if done[i] or even_money or is_natural or total >= 21:
                            break
                        aces_locked = split_aces[i] and saoc
                        pair = two and (
                            (first[i] >> 2) == (second[i] >> 2)
                            or (by_value and _value(first[i]) == _value(second[i]))
                        )
                        extra = insured_first if insurance_extra else 0
                        can_split = (
                            pair
                            and nh < max_hands
                            and not (split_aces[i] and not resplit_aces)
                            and not (took_insurance and insurance_forbids)
                            and cash >= bet[i] + extra
                        )
                        if aces_locked and not (
                            resplit_aces and pair and nh < max_hands and _value(first[i]) == 1
                        ):
                            break  # a split Ace with its one card, that cannot split again
                        can_double = (
                            two
                            and not aces_locked
                            and (das or not from_split[i])
                            and (
                                double_on == 0
                                or (not soft and (total == 10 or total == 11))
                                or (double_on == 1 and not soft and total == 9)
                            )
                            and not (took_insurance and insurance_forbids)
                            and cash >= bet[i] + extra
                        )
                        can_surrender = (
                            surrender_rule
                            and two
                            and not from_split[i]
                            and nh == 1
                            and not (surrender_no_ace and up == 1)
                        )
                        # which cell of the strategy (tutor.cell.Cell.of): a pair's row while it
                        # may be split, else its total's (2-2 and A-A, with none, keep the pair's)
                        if pair and (can_split or total == 4 or (soft and total == 12)):
                            table = PAIRS
                            row = _value(first[i])
                        else:
                            table = SOFT if soft else HARD
                            row = total
                        action = -1
                        p = dev_probability[table, row, up]
                        if p > 0.0 and (p >= 1.0 or _uniform(rng) < p):
                            wanted = dev_action[table, row, up]
                            if (
                                (wanted == A_HIT and not aces_locked)
                                or wanted == A_STAND
                                or (wanted == A_DOUBLE and can_double)
                                or (wanted == A_SPLIT and can_split)
                                or (wanted == A_SURRENDER and can_surrender)
                            ):
                                action = wanted
                        if action < 0 and table == PAIRS:
                            action = _resolve(
                                tables[PAIRS, row, up], can_double, can_split, can_surrender
                            )
                        if action < 0:
                            action = _resolve(
                                tables[SOFT if soft else HARD, total, up],
                                can_double,
                                can_split,
                                can_surrender,
                            )
                        if action < 0 or (action == A_HIT and aces_locked):
                            action = A_STAND if aces_locked or total >= 17 else A_HIT
                        if tracing:
                            trace_actions[acc[X_TRACE_ACTIONS]] = action
                            acc[X_TRACE_ACTIONS] += 1
                        if action == A_STAND:
                            done[i] = True
                        elif action == A_SURRENDER:
                            done[i] = True
                            surrendered[i] = True
                        elif action in (A_HIT, A_DOUBLE):
                            if action == A_DOUBLE:
                                cash -= bet[i] + extra
                                insured += extra
                                bet[i] *= 2
                                doubled[i] = True
                                done[i] = True
                                acc[N_DOUBLE] += 1
                            card = _draw(shoe, state, rng, spare)
                            if tracing:
                                trace_cards[acc[X_TRACE_CARDS]] = card
                                acc[X_TRACE_CARDS] += 1
                            hard[i] += _value(card)
                            aces[i] += 1 if _value(card) == 1 else 0
                            ncards[i] += 1
                        else:  # split: the second card moves to a new hand after this one
                            cash -= bet[i] + extra
                            insured += extra
                            acc[N_SPLIT] += 1
                            for j in range(nh, i + 1, -1):
                                hard[j] = hard[j - 1]
                                aces[j] = aces[j - 1]
                                ncards[j] = ncards[j - 1]
                                first[j] = first[j - 1]
                                second[j] = second[j - 1]
                                bet[j] = bet[j - 1]
                                from_split[j] = from_split[j - 1]
                                split_aces[j] = split_aces[j - 1]
                                done[j] = done[j - 1]
                                doubled[j] = doubled[j - 1]
                                surrendered[j] = surrendered[j - 1]
                            nh += 1
                            is_aces = _value(first[i]) == 1
                            moved = second[i]
                            for h in (i, i + 1):
                                hard[h] = _value(first[i]) if h == i else _value(moved)
                                aces[h] = 1 if is_aces else 0
                                ncards[h] = 1
                                bet[h] = bet[i]
                                from_split[h] = True
                                split_aces[h] = is_aces
                                done[h] = False
                                doubled[h] = False
                                surrendered[h] = False
                            first[i + 1] = moved
                            # this hand's second card now; with split Aces one card each, the
                            # other Ace's card too
                            last = i + 1 if is_aces and saoc else i
                            for h in range(i, last + 1):
                                card = _draw(shoe, state, rng, spare)
                                if tracing:
                                    trace_cards[acc[X_TRACE_CARDS]] = card
                                    acc[X_TRACE_CARDS] += 1
                                hard[h] += _value(card)
                                aces[h] += 1 if _value(card) == 1 else 0
                                ncards[h] = 2
                                second[h] = card
                    i += 1
                # -- the dealer --
                depends = insured > 0
                live = False
                for h in range(nh):
                    total = hard[h] + (10 if aces[h] > 0 and hard[h] <= 11 else 0)
                    # A card doubled face down is unknown: its hand waits for the dealer even if
                    # the card busted it, as the engine plays it.
                    bust = total > 21 and not (face_down and doubled[h])
                    nat = ncards[h] == 2 and not from_split[h] and total == 21
                    if not (bust or even_money or (surrendered[h] and not surrender_natural)):
                        depends = True
                        if not (nat or surrendered[h]):
                            live = True
                if not peek and depends:
                    card = _draw(shoe, state, rng, spare)
                    if tracing:
                        trace_cards[acc[X_TRACE_CARDS]] = card
                        acc[X_TRACE_CARDS] += 1
                    dealer_hard += _value(card)
                    dealer_aces += 1 if _value(card) == 1 else 0
                    dealer_cards = 2
                dealer_total = dealer_hard + (10 if dealer_aces > 0 and dealer_hard <= 11 else 0)
                dealer_natural = dealer_cards == 2 and dealer_total == 21
                if dealer_natural:
                    acc[N_DEALER_NATURAL] += 1
                elif live and dealer_cards == 2:
                    while True:
                        dealer_soft = dealer_aces > 0 and dealer_hard <= 11
                        dealer_total = dealer_hard + (10 if dealer_soft else 0)
                        if dealer_total > 17 or (
                            dealer_total == 17 and not (dealer_soft and h17)
                        ):
                            break
                        card = _draw(shoe, state, rng, spare)
                        if tracing:
                            trace_cards[acc[X_TRACE_CARDS]] = card
                            acc[X_TRACE_CARDS] += 1
                        dealer_hard += _value(card)
                        dealer_aces += 1 if _value(card) == 1 else 0
                    if dealer_total > 21:
                        acc[N_DEALER_BUST] += 1
                # -- settlement --
                acc[N_HANDS] += nh
                for h in range(nh):
                    total = hard[h] + (10 if aces[h] > 0 and hard[h] <= 11 else 0)
                    b = bet[h]
                    if even_money:
                        net += b
                        acc[N_EVEN_MONEY] += 1
                        acc[M_EVEN_MONEY] += b
                    elif surrendered[h] and dealer_natural and surrender_natural:
                        net -= b
                        acc[N_LOSE] += 1
                        acc[M_LOSE] -= b
                    elif surrendered[h]:
                        net -= b // 2
                        acc[N_SURRENDER] += 1
                        acc[M_SURRENDER] -= b // 2
                    elif total > 21:
                        net -= b
                        acc[N_BUST] += 1
                        acc[M_BUST] -= b
                    elif ncards[h] == 2 and not from_split[h] and total == 21:
                        if dealer_natural:
                            acc[N_PUSH] += 1
                        else:
                            win = natural_win
                            f, s = first[h], second[h]
                            if bonus_win > 0 and (
                                (f == 0 and (s == 40 or s == 43))
                                or (s == 0 and (f == 40 or f == 43))
                            ):
                                win = bonus_win
                                acc[N_BONUS] += 1
                            else:
                                acc[N_NATURAL] += 1
                            net += win
                            acc[M_NATURAL] += win
                    elif dealer_natural or (dealer_total <= 21 and total < dealer_total):
                        net -= b
                        acc[N_LOSE] += 1
                        acc[M_LOSE] -= b
                    elif dealer_total > 21 or total > dealer_total:
                        net += b
                        acc[N_WIN] += 1
                        acc[M_WIN] += b
                    else:
                        acc[N_PUSH] += 1
                if insured > 0:
                    if dealer_natural:
                        net += 2 * insured
                        acc[N_INSURANCE_WON] += 1
                        acc[M_INSURANCE] += 2 * insured
                    else:
                        net -= insured
                        acc[M_INSURANCE] -= insured
            # -- between rounds: the shoe --
            if every_round or state[S_LEFT] <= cut:
                if state[S_SIZE] > base_size:
                    # A spare deck served the round that ran dry, and that round only: the shoe
                    # goes back to its own decks (any copies of the cards will do, as every
                    # draw picks uniformly among the undealt cards).
                    for k in range(base_size):
                        shoe[k] = k % 52
                    state[S_SIZE] = base_size
                state[S_LEFT] = state[S_SIZE]
                state[S_SHUFFLES] += 1
            state[S_ROUND_START] = state[S_LEFT]
        if session_rounds > 0:
            acc[X_BANKROLL] += net
        acc[M_NET] += net
        acc[M_SUMSQ] += net * net
        if record:
            nets[index] = net
        acc[N_ROUNDS] = index + 1
        position = acc[X_CHECKPOINT]
        if position < checkpoints.shape[0] and checkpoints[position] == index + 1:
            checkpoint_nets[position] = acc[M_NET]
            acc[X_CHECKPOINT] = position + 1
    if tracing:
        trace_card_ends[acc[N_ROUNDS]] = acc[X_TRACE_CARDS]
        trace_action_ends[acc[N_ROUNDS]] = acc[X_TRACE_ACTIONS]


# == strategies ====================================================================================


@dataclass(frozen=True, eq=False)
class Strategy:
    """How the simulated player decides, as tables the compiled loop reads.

    ``tables[t, row, up]`` holds a chart code (``CODES``) for table ``t`` (HARD, SOFT, PAIRS), row
    = total (4-21) or pair value (1-10), up-card value (1 = Ace). ``deviation_action`` and
    ``deviation_probability`` say, per cell, which other action (``A_*``) is played instead and how
    often: the learner's error profile; a deviation the table forbids at that moment is not played.
    ``insure`` is the probability of taking insurance (or even money) when offered.
    """

    name: str
    tables: I8
    deviation_action: I8 = field(repr=False)
    deviation_probability: F64 = field(repr=False)
    insure: float = 0.0

    def with_deviations(self, name: str, action: I8, probability: F64, insure: float) -> Strategy:
        return Strategy(name, self.tables, action, probability, insure)


def _empty_tables() -> tuple[I8, I8, F64]:
    tables = np.full((3, 22, 11), C_NONE, dtype=np.int8)
    return tables, np.full((3, 22, 11), -1, np.int8), np.zeros((3, 22, 11), np.float64)


def basic_strategy(rules: TableRules, *, infinite: bool = False) -> Strategy:
    """Basic strategy for ``rules``, read from the computed chart (total-dependent).

    Rows the chart does not have: hard 4 (a pair of 2s that may not split) plays as hard 5, soft 12
    (two Aces that may not split) as soft 13. ``infinite`` reads the infinite-shoe chart, much
    faster to compute and a close stand-in for a six- or eight-deck shoe.
    """
    from tutor.strategy import chart

    computed = chart(rules, infinite=infinite)
    tables, action, probability = _empty_tables()
    for kind in Kind:
        for row in CHART_ROWS[kind]:
            for up in range(1, 11):
                cell = Cell(kind, row, up)
                fallback = "H" if row < 17 or kind is Kind.PAIRS else "S"
                tables[_index(cell)] = CODES[computed.code(cell) or fallback]
    tables[HARD, 4] = tables[HARD, 5]
    tables[SOFT, 12] = tables[SOFT, 13]
    return Strategy("basic", tables, action, probability)


def mimic_dealer(rules: TableRules) -> Strategy:
    """Play like the dealer: hit below 17 (and soft 17 where the dealer does), never double,
    split, surrender or insure."""
    tables, action, probability = _empty_tables()
    tables[HARD] = C_H
    tables[HARD, 17:] = C_S
    tables[SOFT] = C_H
    tables[SOFT, 18:] = C_S
    if not rules.dealer_hits_soft_17:
        tables[SOFT, 17] = C_S
    return Strategy("mimic-dealer", tables, action, probability)


def never_bust(rules: TableRules) -> Strategy:
    """Never risk busting: hit only a hard 11 or less (and a soft hand below 18, which cannot bust
    on one card); never double, split, surrender or insure."""
    tables, action, probability = _empty_tables()
    tables[HARD] = C_S
    tables[HARD, :12] = C_H
    tables[SOFT] = C_S
    tables[SOFT, :18] = C_H
    return Strategy("never-bust", tables, action, probability)


def always_insure(rules: TableRules, *, infinite: bool = False) -> Strategy:
    """Basic strategy, plus insurance (or even money) every time it is offered."""
    basic = basic_strategy(rules, infinite=infinite)
    return Strategy("always-insure", basic.tables, basic.deviation_action,
                    basic.deviation_probability, insure=1.0)


#: The naive strategies the page compares with basic strategy, by name.
NAIVE: dict[str, Callable[[TableRules], Strategy]] = {
    "mimic-dealer": mimic_dealer,
    "never-bust": never_bust,
    "always-insure": always_insure,
}

_ANSWER_ACTIONS = {
    "hit": A_HIT, "stand": A_STAND, "double": A_DOUBLE, "split": A_SPLIT,
    "surrender": A_SURRENDER,
}


#: The strategy tables' index of each chart table.
_TABLE_OF_KIND = {Kind.HARD: HARD, Kind.SOFT: SOFT, Kind.PAIRS: PAIRS}


def _index(cell: Cell) -> tuple[int, int, int]:
    """Where a cell sits in a strategy's tables: (table, row, up-card value)."""
    return _TABLE_OF_KIND[cell.kind], cell.row, cell.up


def cell_of(cards: Iterable[Card], dealer_up: Card, *, rules: TableRules) -> tuple[int, int, int]:
    """The strategy cell (table, row, up-card value) of a first decision on these cards: the
    one decision of :meth:`tutor.cell.Cell.of`, a pair splittable when the table splits it."""
    hand = tuple(cards)
    splittable = rules.can_split and is_pair(hand, by_value=rules.split_by_value)
    return _index(Cell.of_hand(hand, dealer_up, splittable=splittable))


def _answer_cell(answer: Any, rules: TableRules) -> tuple[int, int, int]:
    """The cell an answer was graded in: its stored item's (the judge's row, decided when the
    move was made, split legality known), else its cards' as a first decision."""
    try:
        return _index(Cell.parse_item(str(answer.item))[1])
    except (AttributeError, ValueError):
        return cell_of(parse_cards(str(answer.cards)), Card.parse(str(answer.dealer_up)),
                       rules=rules)


def error_profile(
    rules: TableRules, answers: Iterable[Any], *, base: Strategy | None = None
) -> Strategy:
    """Basic strategy with the learner's own mistakes: per cell, the share of their answers that
    the judge did not grade right becomes the probability of playing their most frequent other
    choice.

    ``answers`` are :class:`tutor.store.Answer` records (anything with ``category``, ``item``,
    ``cards``, ``dealer_up``, ``chosen`` and the judge's ``grade``); an answer counts in the cell
    its item names, the row the judge graded (else its cards' cell as a first decision). Close
    calls count as the learner's play too: what we simulate is what they would do. Cells the
    learner never answered are played by the book, and insurance answers set how often they
    insure. Unreadable answers are skipped.
    """
    strategy = base if base is not None else basic_strategy(rules)
    seen: dict[tuple[int, int, int], int] = {}
    wrong: dict[tuple[int, int, int], dict[int, int]] = {}
    insurance_seen = insurance_taken = 0
    for answer in answers:
        chosen = str(answer.chosen)
        if str(answer.category) == "insurance" or chosen in ("insure", "even-money",
                                                              "decline-insurance"):
            insurance_seen += 1
            insurance_taken += chosen in ("insure", "even-money")
            continue
        try:
            cell = _answer_cell(answer, rules)
        except ValueError:
            continue
        seen[cell] = seen.get(cell, 0) + 1
        # The judge's grade, as stored with the answer: a close call is the learner's own play
        # too, so only a right answer counts as playing by the book.
        if answer.grade is not Grade.RIGHT and chosen in _ANSWER_ACTIONS:
            choices = wrong.setdefault(cell, {})
            choices[_ANSWER_ACTIONS[chosen]] = choices.get(_ANSWER_ACTIONS[chosen], 0) + 1
    action = strategy.deviation_action.copy()
    probability = strategy.deviation_probability.copy()
    for cell, choices in wrong.items():
        most = max(choices, key=lambda a: (choices[a], -a))
        action[cell] = most
        probability[cell] = sum(choices.values()) / seen[cell]
    insure = insurance_taken / insurance_seen if insurance_seen else strategy.insure
    return strategy.with_deviations("learner", action, probability, insure)


# == money =========================================================================================


def chip_unit(rules: TableRules) -> int:
    """Chips per bet so that every payout is whole: naturals, bonus, half-bet surrender, insurance.

    >>> from tutor.rules import PRESETS
    >>> chip_unit(PRESETS["family"]), chip_unit(PRESETS["family"].replace(blackjack_pays="6/5"))
    (2, 10)
    """
    unit = 2  # half the bet back on a surrender
    ratios = [rules.blackjack_pays, rules.insurance_max]
    if rules.ace_of_spades_black_jack_pays is not None:
        ratios.append(rules.ace_of_spades_black_jack_pays)
    for ratio in ratios:
        unit = math.lcm(unit, Fraction(ratio).denominator)
    return unit


def _config(rules: TableRules, *, session_rounds: int, session_stack: int) -> I64:
    unit = chip_unit(rules)
    cfg = np.zeros(CONFIG_SIZE, np.int64)
    # As the engine's Shoe places it: that many undealt cards left means shuffle after the round.
    cut = 0 if rules.shuffles_every_round else round(rules.decks * 52 * (1 - rules.penetration))
    bonus = rules.ace_of_spades_black_jack_pays
    values = {
        K_UNIT: unit,
        K_NATURAL: int(unit * rules.blackjack_pays),
        K_BONUS: int(unit * bonus) if bonus is not None else 0,
        K_PEEK: rules.dealer_peeks,
        K_H17: rules.dealer_hits_soft_17,
        K_DOUBLE_ON: _DOUBLE_ON[rules.double_on],
        K_DAS: rules.double_after_split,
        K_MAX_HANDS: rules.max_hands,
        K_SAOC: rules.split_aces_one_card,
        K_RESPLIT_ACES: rules.resplit_aces,
        K_BY_VALUE: rules.split_by_value,
        K_SURRENDER: rules.offers_surrender,
        K_INSURANCE: rules.insurance,
        K_INSURANCE_UNITS: int(unit * rules.insurance_max),
        K_INS_FORBIDS: rules.insurance_forbids_double_split,
        K_INS_EXTRA: rules.insure_additional_bets,
        K_EVEN_MONEY: rules.even_money,
        K_EVERY_ROUND: rules.shuffles_every_round,
        K_CUT: cut,
        K_SPARE: rules.spare_deck,
        K_SESSION_ROUNDS: session_rounds,
        K_SESSION_STACK: session_stack,
        # Surrender.LATE: without a hole card, a dealer natural after a surrender takes it all.
        K_SURRENDER_NATURAL: (
            not rules.dealer_peeks and rules.surrender.loses_all_to_a_later_natural
        ),
        K_SURRENDER_NO_ACE: not rules.surrender_against_ace,
        K_FACE_DOWN: rules.double_face_down,
        K_BASE_SIZE: rules.decks * 52,
    }
    for slot, value in values.items():
        cfg[slot] = int(value)
    return cfg


# == runs ==========================================================================================


@dataclass(frozen=True)
class SimulationResult:
    """What a run (or a run so far) found. Money in units of ``1/unit`` of a bet, exact."""

    rules: TableRules
    strategy: str
    rounds: int
    unit: int
    #: The player's total net, in units (a 3:2 natural on a unit of 2 is +3).
    net: int
    sum_squares: int
    counts: Mapping[str, int]
    #: Net per kind of result, in units: win, loss, natural, bust, surrender, even money, insurance.
    money: Mapping[str, int]
    #: Rounds played at each checkpoint and the cumulative net then (units), for running averages.
    checkpoint_rounds: I64 = field(repr=False)
    checkpoint_nets: I64 = field(repr=False)
    seconds: float = 0.0
    stopped: bool = False

    @property
    def exact_net(self) -> Fraction:
        """The total net in bets, exactly."""
        return Fraction(self.net, self.unit)

    @property
    def mean(self) -> float:
        """Mean return per round, per unit bet (negative: the player loses)."""
        return self.net / self.unit / self.rounds if self.rounds else 0.0

    @property
    def standard_error(self) -> float:
        """Standard error of ``mean`` (rounds are independent given a shuffle every round, and
        very nearly so from a shoe)."""
        n = self.rounds
        if n < 2:
            return math.inf
        mean_units = self.net / n
        variance = (self.sum_squares / n - mean_units**2) * n / (n - 1)
        return math.sqrt(max(variance, 0.0) / n) / self.unit

    @property
    def house_edge(self) -> float:
        return -self.mean

    @property
    def rounds_per_second(self) -> float:
        return self.rounds / self.seconds if self.seconds else math.inf

    def running_average(self) -> tuple[I64, F64]:
        """(rounds, mean return per bet so far) at each checkpoint reached."""
        reached = self.checkpoint_rounds[: len(self.checkpoint_nets)]
        return reached, self.checkpoint_nets / self.unit / np.maximum(reached, 1)


#: Called after each chunk with the result so far; return True to stop the run there.
Progress = Callable[[SimulationResult], bool | None]


def log_checkpoints(rounds: int, points: int = 400) -> I64:
    """Round counts spread evenly on a log scale from 10 to ``rounds`` (for convergence plots)."""
    if rounds <= 0:
        return np.zeros(0, np.int64)
    raw = np.geomspace(min(10, rounds), rounds, num=points)
    return np.unique(np.round(raw).astype(np.int64))


class Simulation:
    """One run's state between chunks: the shoe, the random generator and the counters.

    >>> from tutor.rules import PRESETS
    >>> sim = Simulation(PRESETS["family"], mimic_dealer(PRESETS["family"]), seed=1)
    >>> sim.run(1000)
    >>> result = sim.result()
    >>> result.rounds, sum(result.money.values()) == result.net
    (1000, True)
    """

    def __init__(
        self,
        rules: TableRules,
        strategy: Strategy,
        *,
        seed: int = 0,
        checkpoints: I64 | None = None,
        record_nets: int = 0,
        session_rounds: int = 0,
        session_stack: int = 0,
        trace_rounds: int = 0,
    ) -> None:
        self.rules = rules
        self.strategy = strategy
        self.unit = chip_unit(rules)
        self.cfg = _config(rules, session_rounds=session_rounds, session_stack=session_stack)
        spare_room = 8 if rules.spare_deck else 2
        self.shoe = np.zeros((rules.decks + spare_room) * 52, np.int8)
        self.shoe[: rules.decks * 52] = np.tile(np.arange(52, dtype=np.int8), rules.decks)
        size = rules.decks * 52
        self.state = np.array([size, size, size, 0, 1], np.int64)
        words = np.random.SeedSequence(seed).generate_state(4, np.uint64)
        self.rng = np.where(words == 0, np.uint64(1), words).astype(np.uint64)
        self.acc = np.zeros(COUNTERS_SIZE, np.int64)
        self.checkpoints = (
            checkpoints if checkpoints is not None else np.zeros(0, np.int64)
        ).astype(np.int64)
        self.checkpoint_nets = np.zeros(len(self.checkpoints), np.int64)
        self.nets = np.zeros(record_nets, np.int32)
        self.trace_cards = np.zeros(trace_rounds * 60, np.int32)
        self.trace_actions = np.zeros(trace_rounds * 20, np.int8)
        self.trace_card_ends = np.zeros(trace_rounds + 1 if trace_rounds else 0, np.int64)
        self.trace_action_ends = np.zeros(trace_rounds + 1 if trace_rounds else 0, np.int64)
        self.seconds = 0.0

    @property
    def rounds_played(self) -> int:
        return int(self.acc[N_ROUNDS])

    def run(self, rounds: int) -> None:
        """Play ``rounds`` more rounds (at most the recorded or traced rounds when recording)."""
        if self.nets.shape[0] and self.rounds_played + rounds > self.nets.shape[0]:
            raise ValueError("more rounds than the nets array records")
        if self.trace_card_ends.shape[0] and self.rounds_played + rounds >= len(
            self.trace_card_ends
        ):
            raise ValueError("more rounds than the trace holds")
        start = time.perf_counter()
        _play(
            rounds, self.cfg, self.strategy.tables, self.strategy.deviation_action,
            self.strategy.deviation_probability, float(self.strategy.insure), self.shoe,
            self.state, self.rng, self.acc, self.checkpoints, self.checkpoint_nets, self.nets,
            self.trace_cards, self.trace_actions, self.trace_card_ends, self.trace_action_ends,
        )
        self.seconds += time.perf_counter() - start

    def result(self, *, stopped: bool = False) -> SimulationResult:
        acc = self.acc
        reached = int(acc[X_CHECKPOINT])
        return SimulationResult(
            rules=self.rules,
            strategy=self.strategy.name,
            rounds=int(acc[N_ROUNDS]),
            unit=self.unit,
            net=int(acc[M_NET]),
            sum_squares=int(acc[M_SUMSQ]),
            counts={name: int(acc[slot]) for name, slot in COUNT_NAMES.items()},
            money={name: int(acc[slot]) for name, slot in MONEY_NAMES.items()},
            checkpoint_rounds=self.checkpoints[:reached].copy(),
            checkpoint_nets=self.checkpoint_nets[:reached].copy(),
            seconds=self.seconds,
            stopped=stopped,
        )

    def traced_round(self, index: int) -> tuple[list[int], list[str]]:
        """The card ids (rank * 4 + suit, Ace = 0) and actions of one traced round."""
        cards = self.trace_cards[self.trace_card_ends[index] : self.trace_card_ends[index + 1]]
        actions = self.trace_actions[
            self.trace_action_ends[index] : self.trace_action_ends[index + 1]
        ]
        return [int(c) for c in cards], [ACTION_NAMES[int(a)] for a in actions]


def simulate(
    rules: TableRules,
    strategy: Strategy,
    rounds: int,
    *,
    seed: int = 0,
    chunk: int = 250_000,
    progress: Progress | None = None,
    checkpoints: int = 400,
) -> SimulationResult:
    """Play ``rounds`` rounds in chunks, calling ``progress`` after each (return True to stop).

    >>> from tutor.rules import PRESETS
    >>> result = simulate(PRESETS["family"], never_bust(PRESETS["family"]), 20_000, seed=7)
    >>> result.rounds, result.mean < 0
    (20000, True)
    """
    sim = Simulation(rules, strategy, seed=seed, checkpoints=log_checkpoints(rounds, checkpoints))
    while sim.rounds_played < rounds:
        sim.run(min(chunk, rounds - sim.rounds_played))
        if progress is not None and progress(sim.result()) and sim.rounds_played < rounds:
            return sim.result(stopped=True)
    return sim.result()


def bankroll_paths(
    rules: TableRules,
    strategy: Strategy,
    *,
    sessions: int,
    rounds: int,
    stack: int,
    bet: int,
    seed: int = 0,
) -> F64:
    """Chips held after each round of ``sessions`` sessions of ``rounds`` rounds, starting from
    ``stack`` chips and betting ``bet`` chips (shape ``sessions x (rounds + 1)``, column 0 the
    stack).

    A player who can no longer cover the bet sits out; doubling, splitting and insurance need the
    chips beside the bet, as at the table. The family session (20 chips, bet 2, ten rounds) is
    ``bankroll_paths(PRESETS["family"], s, sessions=50, rounds=10, stack=20, bet=2)``. Amounts are
    exact in the loop; they are floats here only because a 3:2 natural on an odd bet is a half chip.
    """
    unit = chip_unit(rules)
    sim = Simulation(
        rules, strategy, seed=seed, record_nets=sessions * rounds,
        session_rounds=rounds, session_stack=stack * unit // bet,
    )
    sim.run(sessions * rounds)
    nets = sim.nets.astype(np.float64).reshape(sessions, rounds) * bet / unit
    paths = np.empty((sessions, rounds + 1), np.float64)
    paths[:, 0] = stack
    paths[:, 1:] = stack + np.cumsum(nets, axis=1)
    return paths
