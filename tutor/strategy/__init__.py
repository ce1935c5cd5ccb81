"""Exact strategy for any table rules: dealer probabilities, EVs, charts, house edge and advice.

>>> from tutor.rules import PRESETS
>>> round(dealer_probabilities(PRESETS["family"], 6, after_peek=False).bust, 6)
0.420823

The modules: :mod:`.dealer` (the dealer's final totals), :mod:`.hands` (the graph of player
hands), :mod:`.solver` (EVs of every action, with the method and the split convention; the
resplit patterns' weights in :mod:`.patterns`), :mod:`.solution` (a solved rule set and its
house edge, with the convention), :mod:`.chart` (basic-strategy charts), :mod:`.advice` (the
exact EVs of one decision and why), :mod:`.judge` (a move graded against the chart or the exact
play: the one judge of every page).
"""

from __future__ import annotations

from collections.abc import Sequence

import tutor.blas  # noqa: F401  (one BLAS thread, set before numpy is imported)
from tutor.rules import TableRules
from tutor.strategy.advice import CLOSE, Advice, Reason, advise, best_action
from tutor.strategy.chart import Chart, chart
from tutor.strategy.dealer import (
    OUTCOMES,
    Composition,
    DealerProbabilities,
    dealer_distribution,
    full_shoe,
    shoe_after,
)
from tutor.strategy.judge import TIE, Judgement, Reference, grade_of, judge
from tutor.strategy.solution import Solution, solve

__all__ = [
    "CLOSE",
    "OUTCOMES",
    "TIE",
    "Advice",
    "Chart",
    "DealerProbabilities",
    "Judgement",
    "Reason",
    "Reference",
    "Solution",
    "advise",
    "best_action",
    "chart",
    "dealer_probabilities",
    "grade_of",
    "house_edge",
    "judge",
    "solve",
]


def house_edge(rules: TableRules, *, infinite: bool = False) -> float:
    """The house's expected gain per unit initial bet; convention in :mod:`.solution`."""
    return solve(rules, infinite=infinite).house_edge()


def dealer_probabilities(
    rules: TableRules,
    up: int,
    *,
    shoe: Composition | None = None,
    removed: Sequence[int] = (),
    infinite: bool = False,
    after_peek: bool | None = None,
) -> DealerProbabilities:
    """How the dealer's hand ends from ``up`` (1 = Ace): a full shoe of ``rules.decks`` (or
    ``shoe``) without the up-card and the ``removed`` card values.

    ``after_peek`` (default: whether this dealer peeks) conditions on no dealer natural; otherwise
    a natural is an outcome of its own, as before the peek or without a hole card.
    """
    peek = rules.dealer_peeks
    after = peek if after_peek is None else after_peek
    left: Composition | None = None
    if not infinite:
        left = shoe_after(shoe if shoe is not None else full_shoe(rules.decks), [up, *removed])
    probabilities = dealer_distribution(
        left, up, hits_soft_17=rules.dealer_hits_soft_17, peek=True, after_peek=after
    )
    return DealerProbabilities(up, probabilities, after)
