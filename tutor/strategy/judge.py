"""The one judge of every page: was a move right, a close call or a mistake, and why.

Every surface that tells a learner whether a move was good (the lessons' deals and drills, the
practice table, the quiz, class mode and the simulator's profile of a learner) holds a
:class:`Judgement` from :func:`judge`; no other place compares EVs to decide. So the same move on
the same cards gets the same verdict everywhere.

**Two references, never silently mixed.** A learner learns a *chart*: one play per total (or pair)
against each up-card, the average best over all the hands that make that total
(:mod:`tutor.strategy.chart`). The *exact* play for these very cards can differ (10-3 against a 2
from one deck hits where the chart stands on hard 13). By default a learner is graded against the
chart; an advanced learner may choose the exact play. Either way, when the two differ the
judgement says so (``differs``, ``finesse``), and the reason argues for the play graded against
with the figures that decide it.

**One closeness policy**, measured in the exact EVs of these cards (per unit of the hand's bet):

- *right*: the move is worth at least as much as the reference play (``TIE`` absorbs the rounding
  of equal values), so the chart's play, the exact best play, or an equal play;
- *acceptable*: it gives up less than ``CLOSE`` (0.005 of a bet, half a chip per hundred bet)
  against the reference play: a close call, not counted as a mistake;
- *wrong*: it gives up ``CLOSE`` or more.

>>> from tutor.rules import PRESETS
>>> from tutor.table import decision_for
>>> point = decision_for(PRESETS["family"], "K♣ 3♣", "2♦")
>>> stand = judge(point, Action.STAND, bet=2)
>>> stand.grade.value, stand.chart_play.value, stand.exact_play.value
('right', 'stand', 'hit')
>>> judge(point, Action.STAND, reference=Reference.EXACT).grade.value
'wrong'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from enum import Enum

from tutor.cards import Card, Rank, Suit, hand_value
from tutor.cell import Cell, Kind
from tutor.decision import Action, DecisionPoint, Grade
from tutor.game import Money
from tutor.rules import TableRules
from tutor.strategy.advice import (
    CLOSE,
    Reason,
    advise,
    chart_context,
    exact_reason,
    hand_reason,
    insurance_evs,
    insurance_reason,
)
from tutor.strategy.chart import chart
from tutor.strategy.solution import Solution, solve
from tutor.strategy.solver import hand_of

#: Two EVs closer than this are the same value (the rounding of one computation).
TIE = 1e-9


class Reference(Enum):
    """What a learner is graded against."""

    #: The basic-strategy chart of the table's rules: one play per total, as the lessons teach.
    CHART = "chart"
    #: The best play for these exact cards (composition-dependent), for advanced learners.
    EXACT = "exact"


@dataclass(frozen=True)
class Judgement:
    """A move judged, or (``chosen`` None) the advice before a move: everything a page shows."""

    point: DecisionPoint
    #: The move judged; None for advice asked before moving (a hint, a class's reveal).
    chosen: Action | None
    #: None when nothing was chosen.
    grade: Grade | None
    reference: Reference
    #: The chart's play for this hand among the legal actions.
    chart_play: Action
    #: The best play for these exact cards (the chart's play when they are worth the same).
    exact_play: Action
    #: Exact EV per unit of the hand's bet of every legal action, for these cards.
    evs: Mapping[Action, float]
    #: EV given up against the reference play, in bets (0 when the move is as good or better).
    loss: float
    #: The hand's bet in chips, to state the cost in chips.
    bet: Money
    #: Why the reference play rather than the move made (or the runner-up, before a move), from
    #: the same numbers that decide the grade.
    reason: Reason
    #: The chart cell's EVs (averaged over its hands) of the legal actions, which a reason for
    #: the chart's play quotes; empty for a hand the chart has no cell for.
    chart_evs: Mapping[Action, float] = field(default_factory=dict)

    @property
    def play(self) -> Action:
        """The play graded against: the chart's, or the exact one for an advanced learner."""
        return self.chart_play if self.reference is Reference.CHART else self.exact_play

    @property
    def cost(self) -> float:
        """The EV given up, in chips of this hand's bet."""
        return self.loss * float(self.bet)

    @property
    def differs(self) -> bool:
        """The exact play for these cards is not the chart's."""
        return self.exact_play is not self.chart_play

    @property
    def finesse(self) -> float:
        """How much more the exact play is worth than the chart's, in bets (0 when the same)."""
        return self.evs[self.exact_play] - self.evs[self.chart_play]

    @property
    def is_right(self) -> bool:
        return self.grade is Grade.RIGHT

    @property
    def is_mistake(self) -> bool:
        return self.grade is Grade.WRONG


def grade_of(loss: float) -> Grade:
    """The closeness policy: the grade of a move that gives up ``loss`` bets against the
    reference play (see the module docstring)."""
    if loss <= TIE:
        return Grade.RIGHT
    if loss < CLOSE:
        return Grade.ACCEPTABLE
    return Grade.WRONG


def judge(
    point: DecisionPoint,
    chosen: Action | None = None,
    *,
    reference: Reference = Reference.CHART,
    bet: Money = 1,
) -> Judgement:
    """Judge ``chosen`` on ``point`` (or advise, when None) against ``reference``.

    The exact EVs come from :func:`tutor.strategy.advise` (these cards, the cards seen at the
    table out of the shoe, exactly the legal actions); the chart's play from the chart of the
    table's rules. Raises ``ValueError`` for a move that is not legal on ``point``.
    """
    if chosen is not None and chosen not in point.legal:
        raise ValueError(f"{chosen.value} is not a legal action here")
    advice = advise(point)
    evs = advice.evs
    exact = advice.best
    solution = solve(point.rules)
    chart_play, chart_evs = _chart_play(point, solution, evs)
    if evs[chart_play] >= evs[exact] - TIE:
        exact = chart_play  # equal values: the chart's play is the exact play too
    target = chart_play if reference is Reference.CHART else exact
    # The reason sets the play graded against the learner's own move (none when they made it).
    mover = chosen if chosen is not target else None
    if target is chart_play and chart_play is not exact and chart_evs is not None:
        # argue for the chart from the chart's own figures
        reason = _chart_reason(point, solution, chart_evs, target, mover)
    elif target is advice.best and mover is None:
        reason = advice.reason
    else:
        reason = exact_reason(point, evs, target, mover)
    if mover in (None, Action.HIT, Action.STAND):
        reason = _composition(point, solution, target, reason)
    loss = 0.0 if chosen is None else max(0.0, evs[target] - evs[chosen])
    grade = None if chosen is None else grade_of(loss)
    return Judgement(
        point=point,
        chosen=chosen,
        grade=grade,
        reference=reference,
        chart_play=chart_play,
        exact_play=exact,
        evs=evs,
        loss=loss,
        bet=bet,
        reason=reason,
        chart_evs=chart_evs or {},
    )


def _composition(point: DecisionPoint, solution: Solution, play: Action, reason: Reason) -> Reason:
    """The reason for hitting or standing where the chart's row for this total says the other:
    the cards held (a pair's, or these exact cards) change what is left to draw. Without this the
    learner would read the same bust chances argued for opposite plays."""
    if play not in (Action.HIT, Action.STAND) or point.is_insurance_decision:
        return reason
    total = Cell.of_total(point.cards, point.dealer_up)
    if not total.in_chart:
        return reason
    evs = chart(point.rules).evs_of(total)
    row = {a: ev for a, ev in evs.items() if a in (Action.HIT, Action.STAND)}
    if not row:
        return reason
    row_play = max(row, key=row.__getitem__)
    if row_play is play:
        return reason
    params = dict(reason.params)
    params["row_play"] = row_play.value
    return Reason("composition", params)


# -- the chart's play ---------------------------------------------------------------------------


def _chart_play(
    point: DecisionPoint, solution: Solution, evs: Mapping[Action, float]
) -> tuple[Action, dict[Action, float] | None]:
    """The chart's play among the legal actions, and the chart's figures it is chosen by.

    For a hand: the best legal action by the cell's averaged EVs (so a chart's "D" reads "hit"
    once doubling is no longer legal, as its legend says). For insurance: the same answers valued
    with the share of tens of a shoe with only the up-card out. Without a cell, the exact play
    (and no figures of the chart's)."""
    if point.is_insurance_decision:
        hand = hand_of([card.points for card in point.cards])
        averaged = insurance_evs(point, solution, hand, tens=_chart_tens(point, solution))
        return max(averaged, key=averaged.__getitem__), averaged
    averaged = {a: ev for a, ev in chart(point.rules).evs_of(Cell.of(point)).items()
                if a in point.legal}
    if averaged:
        return max(averaged, key=averaged.__getitem__), averaged
    return max(evs, key=evs.__getitem__), None


def _chart_tens(point: DecisionPoint, solution: Solution) -> float:
    """The share of tens the chart's insurance answer counts: a shoe with only the up-card out."""
    solver = solution.ups[point.dealer_up.points]
    return INFINITE_TENS if solver.infinite else solver.shoe[9] / sum(solver.shoe)


def _chart_reason(
    point: DecisionPoint, solution: Solution, averaged: Mapping[Action, float], play: Action,
    chosen: Action | None,
) -> Reason:
    """Why the chart's ``play`` rather than ``chosen``, argued from the chart cell's figures."""
    if point.is_insurance_decision:
        tens = _chart_tens(point, solution)
        return insurance_reason(point, averaged, play, tens, scope="chart", chosen=chosen)
    cell = Cell.of(point)
    value = hand_value(point.cards)
    hard = sum(card.points for card in point.cards)
    pair = cell.row if cell.kind is Kind.PAIRS else None
    context = chart_context(
        solution, point.dealer_up.points, total=value.total, hard=hard, soft=value.soft, pair=pair
    )
    # The chart's figures, but the card that shows: a Queen is named as a Queen.
    context = replace(context, up_rank=point.dealer_up.rank.symbol)
    return hand_reason(averaged, play, context, chosen)


#: Ten-valued cards' share of an infinite shoe.
INFINITE_TENS = 4 / 13


# -- where the exact cards play differently from the chart ---------------------------------------


@dataclass(frozen=True)
class Finesse:
    """A two-card hand whose exact best play is not its chart cell's play."""

    table: str
    row: str
    column: str
    cards: tuple[Card, ...]
    chart_play: Action
    exact_play: Action
    #: How much more the exact play is worth, in bets.
    gain: float


def finesses(rules: TableRules) -> tuple[Finesse, ...]:
    """Every two-card hand, against every up-card, whose exact play differs from the chart's:
    what the Strategy page shows beside the chart (computed once per rule set)."""
    solution = solve(rules)
    return solution.cached("finesses", lambda: tuple(_finesses(rules)))


def _finesses(rules: TableRules) -> list[Finesse]:
    from tutor.table import decision_for

    found = []
    for first in range(1, 11):
        for second in range(first, 11):
            cards = (_card(first, 0), _card(second, 1))
            for up in range(1, 11):
                try:
                    point = decision_for(rules, cards, _card(up, 2))
                except ValueError:
                    continue  # a natural: nothing to decide
                judgement = judge(point)
                if judgement.differs:
                    found.append(Finesse(*Cell.of(point).key, cards, judgement.chart_play,
                                         judgement.exact_play, judgement.finesse))
    return found


def _card(points: int, index: int) -> Card:
    """A card of this value (a King for ten), of a suit chosen so two cards never repeat."""
    rank = Rank.ACE if points == 1 else Rank.KING if points == 10 else Rank.parse(str(points))
    return Card(rank, list(Suit)[index % 4])
