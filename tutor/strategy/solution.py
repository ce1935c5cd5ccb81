"""One rule set solved: EVs of every initial hand against every up-card, and the house edge.

Convention of the house edge (what ``python -m tutor edge`` prints): the first round from a full
shoe, every initial two-card hand played by its own composition-dependent optimal strategy (the
best of stand, hit, double, split and surrender for those exact cards against that up-card, and
optimal hit/stand/double choices after), splits as described in :mod:`tutor.strategy.solver`, no
insurance or even money taken, naturals paid at ``blackjack_pays``. It is the expected loss per
unit of the initial bet, as a fraction (0.005 = 0.5 %).

Solutions are cached per rule set (the table name aside) in each process, and saved on disk
(:mod:`tutor.strategy.saved`) for a full shoe or the infinite deck, so the command line, the app's
pages and the class server pay for a solve once per rule set, not once per process. Such a
solution is computed whole (``Solution.prepare``: every up-card, every split value the house edge
and the chart ask for) before it is saved; a shoe with cards seen is solved lazily and kept only in
memory.
"""

from __future__ import annotations

import dataclasses
import logging
import threading
from collections import OrderedDict
from collections.abc import Callable, Collection, Iterator
from functools import lru_cache
from typing import TypeVar

import numpy as np
import numpy.typing as npt

from tutor.decision import Action
from tutor.legality import double_refusal, split_refusal, surrender_refusal
from tutor.rules import TableRules
from tutor.strategy import saved
from tutor.strategy.dealer import Composition, full_shoe
from tutor.strategy.solver import Hand, UpCardSolver, hand_graph, hand_of

T = TypeVar("T")
log = logging.getLogger(__name__)

#: Held while a rule set is solved or a result derived from it is built (re-entrant: a chart asks
#: for the house edge's solution). The solvers' own values have a lock each (``UpCardSolver``).
_LOCK = threading.RLock()

UPS: tuple[int, ...] = (2, 3, 4, 5, 6, 7, 8, 9, 10, 1)


def is_natural(hand: Hand) -> bool:
    return sum(hand) == 2 and hand[0] == 1 and hand[9] == 1


class Solution:
    """Every up-card's solver for one rule set and one shoe, prepared for all initial hands."""

    def __init__(self, rules: TableRules, shoe: Composition | None) -> None:
        self.rules = rules
        self.shoe = shoe
        self.ups = {up: UpCardSolver(rules, shoe, up) for up in range(1, 11)}
        self._cache: dict[str, object] = {}

    def prepare(self) -> None:
        """Compute everything the house edge and the chart ask for, in two stages whose costs
        ``bench/strategy.py`` reports apart: the unsplit hands, then the splits."""
        self.prepare_hands()
        self.prepare_splits()

    def prepare_hands(self) -> None:
        """Every up-card's dealer outcomes for every hand and for the hands of the pairs split
        only once, in one batch, and their values in one pass: the unsplit optimum (which a
        resplit's play follows) and what each single split reads."""
        rules = self.rules
        pairs = range(1, 11) if rules.can_split else range(0)
        for solver in self.ups.values():
            solver.solve_hands(solver.single_splits(pairs))

    def prepare_splits(self) -> None:
        """Every pair's split values (with and without double after split where it is allowed,
        as the chart shows both), each up-card's further dealer outcomes in one batch: the work
        of the rules' own splits only (``UpCardSolver.prepare``, ``solve_splits``)."""
        rules = self.rules
        pairs = range(1, 11) if rules.can_split else range(0)
        das_options = {rules.double_after_split, False}
        for solver in self.ups.values():
            # The resplit values' batch holds those of every way the best split chooses from.
            solver.prepare([(pair, rules.max_hands) for pair in pairs])
            solver.values(0)
            solver.solve_splits(pairs)  # the single splits' hands, all pairs in one batch
            for pair in pairs:
                for das in das_options:
                    solver.best_split(pair, rules.max_hands, das=das)

    def snapshot(self) -> dict[str, npt.NDArray[np.generic]]:
        """Everything a saved solution keeps (:mod:`tutor.strategy.saved`), after ``prepare``."""
        out: dict[str, npt.NDArray[np.generic]] = {}
        for up, solver in self.ups.items():
            for name, array in solver.snapshot().items():
                out[f"up{up}_{name}"] = array
        return out

    def restore(self, saved: dict[str, npt.NDArray[np.generic]]) -> bool:
        """Take back a snapshot; False (and nothing half taken) if it does not fit."""
        try:
            parts = {
                up: {name: saved[f"up{up}_{name}"] for name in ("keys", "dealer", "splits")}
                for up in self.ups
            }
            for up, solver in self.ups.items():
                solver.restore(parts[up])
        except (KeyError, ValueError) as error:
            log.warning("a saved solution of %s does not fit, solving again: %s",
                        self.rules.name, error)
            self.ups = {up: UpCardSolver(self.rules, self.shoe, up) for up in range(1, 11)}
            return False
        return True

    def cached(self, name: str, make: Callable[[], T]) -> T:
        """A result derived from this solution (the chart, the edge), computed once: the server's
        threads (forty phones polling when a class's first answer is revealed) wait for the one
        computing it instead of each computing it again."""
        if name not in self._cache:
            with _LOCK:
                if name not in self._cache:
                    self._cache[name] = make()
        return self._cache[name]  # type: ignore[return-value]

    @staticmethod
    def initial_hands() -> Iterator[tuple[Hand, tuple[int, int]]]:
        for first in range(1, 11):
            for second in range(first, 11):
                yield hand_of((first, second)), (first, second)

    # -- probabilities --------------------------------------------------------------------------
    def deal_probability(self, up: int, cards: tuple[int, int]) -> float:
        """Probability of this up-card and this two-card hand from the full shoe (any order)."""
        first, second = cards
        if self.shoe is None:
            freq = [c / 52 for c in full_shoe(1)]
            p = freq[up - 1] * freq[first - 1] * freq[second - 1]
        else:
            counts = list(self.shoe)
            total = sum(counts)
            p = counts[up - 1] / total
            counts[up - 1] -= 1
            p *= counts[first - 1] / (total - 1)
            counts[first - 1] -= 1
            p *= max(counts[second - 1], 0) / (total - 2)
        return p if first == second else 2 * p

    def same_rank_share(self) -> float:
        """Of two ten-valued cards, the share of the same rank (a pair without split-by-value)."""
        if self.rules.split_by_value:
            return 1.0
        if self.shoe is None:
            return 0.25
        tens = self.shoe[9]
        return (tens / 4 - 1) / (tens - 1)

    # -- values ---------------------------------------------------------------------------------
    def allowed(
        self, up: int, hand: Hand, *, hands_in_seat: int = 1, from_split: bool = False,
        may_split: bool = True, may_double: bool = True,
    ) -> tuple[Action, ...]:
        """The hand actions the rules allow on this hand against this up-card (Ace = 1), asked of
        :mod:`tutor.legality` as the engine asks it (for the chart and the house edge, where no
        round supplies them). ``may_split``/``may_double`` take those actions away (insurance
        that forbids them)."""
        rules = self.rules
        graph = hand_graph()
        node = graph.index[hand]
        total, soft, cards = int(graph.total[node]), bool(graph.soft[node]), sum(hand)
        actions = [Action.STAND]
        if total < 21:
            actions.append(Action.HIT)
            if may_double and double_refusal(
                rules, cards=cards, total=total, soft=soft, from_split=from_split
            ) is None:
                actions.append(Action.DOUBLE)
        pair = cards == 2 and max(hand) == 2
        if may_split and split_refusal(rules, pair=pair, hands_in_seat=hands_in_seat) is None:
            actions.append(Action.SPLIT)
        if surrender_refusal(
            rules, cards=cards, from_split=from_split, hands_in_seat=hands_in_seat, dealer_up=up
        ) is None:
            actions.append(Action.SURRENDER)
        return tuple(actions)

    def action_evs(
        self, up: int, hand: Hand, *, actions: Collection[Action] | None = None,
        hands_in_seat: int = 1, from_split: bool = False, may_split: bool = True,
        may_double: bool = True, within: bool = False,
    ) -> dict[Action, float]:
        """EV of each of ``actions`` (by default every action the rules allow, see ``allowed``)
        on this hand, given no dealer natural where the dealer peeked (the decision comes after
        the check). An action that cannot be valued on this hand (splitting two different
        cards, hitting 21) raises ``ValueError``: the caller's idea of what is legal and the
        strategy's disagree, which must never pass silently. ``within`` values only the hands
        that can grow from this one (cheaper for a one-off shoe)."""
        if actions is None:
            actions = self.allowed(
                up, hand, hands_in_seat=hands_in_seat, from_split=from_split,
                may_split=may_split, may_double=may_double,
            )
        solver = self.ups[up]
        graph = hand_graph()
        node = graph.index[hand]
        values = solver.values(0, hand if within else None)
        total = int(graph.total[node])
        two = sum(hand) == 2
        evs: dict[Action, float] = {}
        for action in actions:
            if action is Action.STAND:
                evs[action] = float(values.stand[node])
            elif action is Action.HIT and total < 21:
                evs[action] = float(values.hit[node])
            elif action is Action.DOUBLE and two and total < 21:
                evs[action] = float(values.double[node])
            elif action is Action.SPLIT and two and max(hand) == 2:
                pair = hand.index(2) + 1
                hands = self.rules.max_hands - hands_in_seat + 1
                evs[action] = solver.best_split(pair, hands).ev
            elif action is Action.SURRENDER and two:
                # Half the bet back. Late surrender without a hole card: the dealer has not
                # checked yet, and a natural on the second card still takes the whole bet (see
                # ``Surrender.LATE``). Immediate surrender is settled at once: exactly -0.5.
                late_natural = (
                    not solver.conditioned and self.rules.surrender.loses_all_to_a_later_natural
                )
                natural = solver.dealer_natural(hand) if late_natural else 0.0
                evs[action] = -0.5 - 0.5 * natural
            else:
                raise ValueError(f"the strategy cannot value {action.value} on this hand")
        return evs

    def round_ev(self, up: int, hand: Hand) -> float:
        """EV of the whole round from the deal for this initial hand, best play, no insurance."""
        solver = self.ups[up]
        natural = solver.dealer_natural(hand)
        if is_natural(hand):
            return float(self.rules.blackjack_pays) * (1 - natural)
        evs = self.action_evs(up, hand)
        best = max(evs.values())
        if hand[9] == 2 and Action.SPLIT in evs:
            share = self.same_rank_share()
            unsplit = max(ev for action, ev in evs.items() if action is not Action.SPLIT)
            best = share * best + (1 - share) * unsplit
        if solver.conditioned:
            return -natural + (1 - natural) * best
        return best

    def house_edge(self) -> float:
        """The house's expected gain per unit initial bet (see the module docstring)."""
        return self.cached("edge", self._house_edge)

    def _house_edge(self) -> float:
        total = 0.0
        for up in range(1, 11):
            for hand, cards in self.initial_hands():
                p = self.deal_probability(up, cards)
                if p > 0:
                    total += p * self.round_ev(up, hand)
        return -total


def _key(rules: TableRules) -> TableRules:
    # The name and the conventions that do not change an EV are not part of the cache key.
    return dataclasses.replace(rules, name="", source="")


def _make(rules: TableRules, shoe: Composition | None, keep: bool) -> Solution:
    solution = Solution(rules, shoe)
    if keep:
        arrays = saved.load(rules, shoe)
        if arrays is None or not solution.restore(arrays):
            solution.prepare()
            saved.save(rules, shoe, solution.snapshot())
    return solution


#: Rule sets other than the presets kept solved in a process, the least recently used dropped
#: first (a teacher's lesson may name a few tables of its own).
OTHERS_KEPT = 32


class _Solutions:
    """The solved rule sets of this process: the presets' for the process's life, the others'
    in a least-recently-used cache of ``OTHERS_KEPT``.

    Why two parts: the presets are what every page, class and lesson plays at; a teacher's
    lesson naming tables of its own (or a visitor's custom table) must never push them out, or
    every other user's next page pays a solve again."""

    def __init__(self) -> None:
        self._pinned: dict[tuple[TableRules, Composition | None, bool], Solution] = {}
        self._others: OrderedDict[tuple[TableRules, Composition | None, bool], Solution] = (
            OrderedDict()
        )

    def __call__(self, rules: TableRules, shoe: Composition | None, keep: bool) -> Solution:
        key = (rules, shoe, keep)
        if keep and rules in preset_keys():
            if key not in self._pinned:
                self._pinned[key] = _make(rules, shoe, keep)
            return self._pinned[key]
        if key in self._others:
            self._others.move_to_end(key)
            return self._others[key]
        solution = self._others[key] = _make(rules, shoe, keep)
        while len(self._others) > OTHERS_KEPT:
            self._others.popitem(last=False)
        return solution

    def cache_clear(self) -> None:
        """Forget every solution (as a new process starts: the tests' fresh start)."""
        self._pinned.clear()
        self._others.clear()

    def kept(self) -> list[TableRules]:
        """The rule sets solved in memory, presets first."""
        return [key[0] for key in (*self._pinned, *self._others)]


@lru_cache(maxsize=1)
def preset_keys() -> frozenset[TableRules]:
    """The presets as the cache keys them (``_key``)."""
    from tutor.rules import PRESETS

    return frozenset(_key(rules) for rules in PRESETS.values())


_solve = _Solutions()


def solve(
    rules: TableRules, *, shoe: Composition | None = None, infinite: bool = False
) -> Solution:
    """The solved rule set, cached: a full shoe of ``rules.decks`` unless a shoe is given."""
    with _LOCK:  # one Solution per rule set, even when many threads ask at once
        if infinite:
            return _solve(_key(rules), None, True)
        full = full_shoe(rules.decks)
        if shoe is None or shoe == full:
            return _solve(_key(rules), full, True)
        # A shoe with cards seen (exact advice) is one-off: solved lazily, never saved.
        return _solve(_key(rules), shoe, False)
