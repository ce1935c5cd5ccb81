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

The rooms: the compiled loop in :mod:`tutor.simulate_loop` (its random numbers and shoe in
:mod:`tutor.simulate_shoe`), the slots and codes both sides read in :mod:`tutor.simulate_codes`;
here, the strategies, the table's configuration as the loop reads it, and the results.
"""

from __future__ import annotations

import tutor.blas  # noqa: F401  (one BLAS thread, set before numpy is imported)

# isort: split
import math
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np

from tutor.cards import Card, is_pair, parse_cards
from tutor.cell import CHART_ROWS, Cell, Kind
from tutor.decision import Grade
from tutor.rules import PRESETS, DoubleOn, TableRules
from tutor.simulate_codes import (
    A_DOUBLE,
    A_HIT,
    A_SPLIT,
    A_STAND,
    A_SURRENDER,
    ACTION_NAMES,
    C_H,
    C_NONE,
    C_S,
    CODES,
    CONFIG_SIZE,
    COUNT_NAMES,
    COUNTERS_SIZE,
    F64,
    HARD,
    I8,
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
    M_NET,
    M_SUMSQ,
    MONEY_NAMES,
    N_ROUNDS,
    PAIRS,
    SOFT,
    X_CHECKPOINT,
)
from tutor.simulate_loop import _play

_DOUBLE_ON = {DoubleOn.ANY_TWO: 0, DoubleOn.NINE_TO_ELEVEN: 1, DoubleOn.TEN_OR_ELEVEN: 2}


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


def warm() -> float:
    """Compile the loop's machine code now, or load it from numba's cache; the seconds it took.

    Why: with numba's cache empty (a fresh install, a school server's first start) the first
    simulation spends about 7 s compiling before it plays a round. ``make install`` and
    ``deploy/school start`` call this (``python -m tutor warm``), so a learner's first run plays at
    full speed. Every strategy and table passes the loop the same array types, so one small run
    fills the cache for all of them (``tests/test_simulate_warm.py`` checks that nothing is
    compiled afterwards).
    """
    start = time.perf_counter()
    family = PRESETS["family"]
    Simulation(family, mimic_dealer(family), seed=0).run(10)
    return time.perf_counter() - start


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
