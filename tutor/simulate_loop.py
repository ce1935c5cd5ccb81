"""The simulator's compiled loop, ``_play``: round after round of one seat, played as
``tutor.game.Round`` would (the method is told in ``tutor.simulate``).

A module of its own because it is the one part written for numba rather than for a reader: flat
arrays, integer codes, one long loop on purpose (the hot path). Its Python callers live in
``tutor.simulate``; the slots it reads and writes are named in ``tutor.simulate_codes``, and its
small compiled parts (random numbers, the shoe, a code resolved to an action) are in
``tutor.simulate_shoe``.
"""

from __future__ import annotations

import tutor.blas  # noqa: F401  (one BLAS thread, set before numpy is imported)

# isort: split
import numpy as np
from numba import njit

from tutor.simulate_codes import (
    A_DECLINE,
    A_DOUBLE,
    A_EVEN_MONEY,
    A_HIT,
    A_INSURE,
    A_SPLIT,
    A_STAND,
    A_SURRENDER,
    F64,
    HARD,
    I8,
    I32,
    I64,
    K_BASE_SIZE,
    K_BONUS,
    K_BY_VALUE,
    K_CUT,
    K_DAS,
    K_DOUBLE_ON,
    K_EVEN_MONEY,
    K_EVERY_ROUND,
    K_FACE_DOWN,
    K_H17,
    K_INS_EXTRA,
    K_INS_FORBIDS,
    K_INSURANCE,
    K_INSURANCE_UNITS,
    K_MAX_HANDS,
    K_NATURAL,
    K_PEEK,
    K_RESPLIT_ACES,
    K_SAOC,
    K_SESSION_ROUNDS,
    K_SESSION_STACK,
    K_SPARE,
    K_SURRENDER,
    K_SURRENDER_NATURAL,
    K_SURRENDER_NO_ACE,
    K_UNIT,
    M_BUST,
    M_EVEN_MONEY,
    M_INSURANCE,
    M_LOSE,
    M_NATURAL,
    M_NET,
    M_SUMSQ,
    M_SURRENDER,
    M_WIN,
    MAX_HANDS,
    N_BONUS,
    N_BUST,
    N_DEALER_BUST,
    N_DEALER_NATURAL,
    N_DOUBLE,
    N_EVEN_MONEY,
    N_HANDS,
    N_INSURANCE,
    N_INSURANCE_WON,
    N_LOSE,
    N_NATURAL,
    N_PUSH,
    N_ROUNDS,
    N_SAT_OUT,
    N_SPLIT,
    N_SURRENDER,
    N_WIN,
    PAIRS,
    S_LEFT,
    S_ROUND_START,
    S_SHUFFLES,
    S_SIZE,
    SOFT,
    U64,
    X_BANKROLL,
    X_CHECKPOINT,
    X_TRACE_ACTIONS,
    X_TRACE_CARDS,
)
from tutor.simulate_shoe import _draw, _resolve, _uniform, _value


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
