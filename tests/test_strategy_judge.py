"""The one judge: the closeness policy, the two references, and reasons that hold on every chart
cell of every preset, in both languages."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations_with_replacement

import pytest

from tutor.cards import Card, Rank, Suit, hand_value
from tutor.cell import Cell
from tutor.decision import Action, DecisionPoint, Grade
from tutor.render.translator import translator
from tutor.rules import PRESETS, TableRules
from tutor.strategy import CLOSE, Reference, advise, chart, judge
from tutor.table import decision_for

FAMILY = PRESETS["family"]
SIX_DECKS = PRESETS["american-s17"]


def test_the_chart_and_the_exact_play_differ_on_ten_three_against_two_from_one_deck() -> None:
    point = decision_for(FAMILY, "K♣ 3♣", "2♦")
    stand = judge(point, Action.STAND, bet=2)
    # The chart stands on hard 13 against a 2: every hand of the cell averaged, standing loses
    # less. With a ten and a three out of one deck, hitting is worth a little more.
    assert stand.chart_play is Action.STAND
    assert stand.exact_play is Action.HIT
    assert stand.differs
    assert stand.finesse > 0
    assert stand.grade is Grade.RIGHT, "following the chart is never a mistake by default"
    assert judge(point, Action.HIT).grade is Grade.RIGHT, "the exact play is right too"
    exact = judge(point, Action.STAND, reference=Reference.EXACT, bet=2)
    assert exact.play is Action.HIT
    assert exact.loss == pytest.approx(stand.finesse)
    assert exact.grade is (Grade.WRONG if exact.loss >= CLOSE else Grade.ACCEPTABLE)
    assert exact.cost == pytest.approx(2 * exact.loss)


def test_the_closeness_policy_grades_by_the_ev_given_up_against_the_reference() -> None:
    for cards, up in (("10♠ 6♥", "10♣"), ("9♠ 7♥", "10♦"), ("A♠ 7♥", "9♣"), ("8♠ 8♥", "A♦")):
        point = decision_for(SIX_DECKS, cards, up)
        evs = advise(point).evs
        for action in point.legal:
            judgement = judge(point, action)
            loss = max(0.0, evs[judgement.chart_play] - evs[action])
            assert judgement.loss == pytest.approx(loss, abs=1e-12)
            expected = (
                Grade.RIGHT if loss <= 1e-9 else Grade.ACCEPTABLE if loss < CLOSE else Grade.WRONG
            )
            assert judgement.grade is expected, (cards, up, action)


def test_sixteen_against_ten_surrenders_and_standing_is_a_mistake() -> None:
    point = decision_for(SIX_DECKS, "10♠ 6♥", "10♣")
    assert judge(point, Action.SURRENDER).grade is Grade.RIGHT
    assert judge(point, Action.STAND).grade is Grade.WRONG
    assert judge(point, Action.STAND).cost == pytest.approx(judge(point, Action.STAND).loss)


def test_even_money_on_a_natural_is_a_mistake_at_three_to_two_but_right_at_six_to_five() -> None:
    point = decision_for(SIX_DECKS, "A♠ K♥", "A♦", insurance=True)
    assert judge(point, Action.DECLINE_INSURANCE).grade is Grade.RIGHT
    assert judge(point, Action.EVEN_MONEY).grade is Grade.WRONG
    six_to_five = SIX_DECKS.replace(blackjack_pays="6/5")
    point = decision_for(six_to_five, "A♠ K♥", "A♦", insurance=True)
    # 6:5 on 69 % of the hole cards is worth 0.83 bet: a sure 1 is better.
    assert judge(point, Action.EVEN_MONEY).grade is Grade.RIGHT
    assert judge(point, Action.DECLINE_INSURANCE).grade is Grade.WRONG


def test_advice_without_a_move_has_no_grade_and_a_move_must_be_legal() -> None:
    point = decision_for(FAMILY, "10♠ 6♥", "10♣")
    assert judge(point).grade is None
    with pytest.raises(ValueError, match="not a legal action"):
        judge(point, Action.SURRENDER)  # the family table offers no surrender


def test_a_double_that_is_no_longer_legal_reads_as_the_charts_fallback() -> None:
    # Hard 11 against 6 is a double on the chart; with three cards the chart's "D" means hit.
    point = decision_for(SIX_DECKS, "2♠ 4♥ 5♦", "6♣")
    assert Action.DOUBLE not in point.legal
    assert judge(point).chart_play is Action.HIT


# -- reasons over every chart cell -------------------------------------------------------------

def _argue(keys: tuple[str, ...], plays: set[Action]) -> dict[str, set[Action]]:
    return {key: set(plays) for key in keys}


#: The plays each reason key may argue for.
ARGUES_FOR = {
    **_argue(
        ("twenty-one", "soft-stand", "dealer-busts-often", "stiff-stand", "stand-hard",
         "stand-not-double", "stand-not-double-soft", "stand-not-split", "stand-not-split-less"),
        {Action.STAND},
    ),
    **_argue(
        ("cannot-bust", "soft-hit", "soft-hit-improves", "dealer-strong", "stiff-hit",
         "hit-hard-high", "hit-not-double", "hit-not-split", "hit-not-split-weak"),
        {Action.HIT},
    ),
    **_argue(
        ("double-edge", "double-not-stand", "double-strong", "double-strong-not-stand",
         "double-busts", "double-not-split"), {Action.DOUBLE}
    ),
    **_argue(
        ("split-aces", "split-edge", "split-stiff", "split-less-loss", "split-not-surrender"),
        {Action.SPLIT},
    ),
    "surrender-saves": {Action.SURRENDER},
    "composition": {Action.HIT, Action.STAND},
    "keep-playing": {Action.HIT, Action.STAND, Action.DOUBLE, Action.SPLIT},
    "insurance-odds": {Action.DECLINE_INSURANCE},
    "insurance-pays": {Action.INSURE},
    "even-money-declined": {Action.DECLINE_INSURANCE},
    "even-money-sure": {Action.EVEN_MONEY, Action.INSURE},
}
SUITS = list(Suit)


def _card(points: int, index: int) -> Card:
    rank = Rank.ACE if points == 1 else (Rank.KING if points == 10 else Rank.parse(str(points)))
    return Card(rank, SUITS[index % 4])


def _points(rules: TableRules) -> Iterator[DecisionPoint]:
    """A decision point for every two-card hand against every up-card (each chart cell's hands),
    and the insurance offer with a natural and without one."""
    for first, second in combinations_with_replacement(range(1, 11), 2):
        cards = (_card(first, 0), _card(second, 1))
        for up in range(1, 11):
            try:
                yield decision_for(rules, cards, _card(up, 2))
            except ValueError:
                continue  # a natural: no decision on the hand
    if rules.insurance:
        for cards in (("A♠", "K♥"), ("10♠", "8♥"), ("10♠", "10♥"), ("6♠", "5♥")):
            yield decision_for(rules, [Card.parse(card) for card in cards], "A♦", insurance=True)


def _check_reason(point: DecisionPoint, reference: Reference) -> tuple[str, str, str] | None:
    judgement = judge(point, reference=reference)
    reason = judgement.reason
    params = reason.params
    assert params["play"] == judgement.play.value, "the reason argues for the play graded against"
    assert judgement.play in ARGUES_FOR[reason.key], (reason.key, judgement.play)
    if "other" in params:
        play_ev, other_ev = params["play_ev"], params["other_ev"]
        assert isinstance(play_ev, float)
        assert isinstance(other_ev, float)
        assert play_ev >= other_ev - 1e-12, "the reason's figures rank its own play first"
        if params["scope"] == "cards":
            assert play_ev == judgement.evs[judgement.play], "the figures that decide the grade"
    if "tens" in params:
        tens, break_even = params["tens"], params["break_even"]
        assert isinstance(tens, float)
        assert isinstance(break_even, float)
        pays_to_take = tens > break_even
        assert pays_to_take is (judgement.play is not Action.DECLINE_INSURANCE)
    for language in ("fr", "en"):
        t = translator(language)
        sentence = t.reason(reason.key, params)
        assert sentence, (language, reason.key)
        if "other" in params and params["play_ev"] != params["other_ev"]:
            shown = t._distinct("play_ev", float(params["play_ev"]), float(params["other_ev"]))
            assert shown[0] != shown[1]
            assert shown[0] in sentence
            assert shown[1] in sentence
        if "tens" in params:
            shown = t._distinct("tens", float(params["tens"]), float(params["break_even"]))
            assert shown[0] != shown[1], sentence
            assert shown[0] in sentence, sentence
    if reason.key in ("dealer-busts-often", "dealer-strong", "stiff-stand", "stiff-hit"):
        t = translator("fr")
        return (
            judgement.play.value,
            t.percent(float(params["bust"]), digits=0),  # type: ignore[arg-type]
            t.percent(float(params["player_bust"]), digits=0),  # type: ignore[arg-type]
        )
    return None


@pytest.mark.slow
@pytest.mark.parametrize("name", list(PRESETS))
def test_every_reason_of_every_cell_holds_in_both_languages(name: str) -> None:
    rules = PRESETS[name]
    stiff: dict[tuple[str, str, str], set[tuple[str, str]]] = {}
    for point in _points(rules):
        for reference in Reference:
            found = _check_reason(point, reference)
            if found is not None:
                key, bust, player_bust = found
                stiff.setdefault((reference.value, bust, player_bust), set()).add(
                    (key, f"{hand_value(point.cards).total} v {point.dealer_up.points}")
                )
    # Never the same figures for opposite plays: a stand and a hit on stiff totals, argued from
    # the same shown bust chances, would tell the learner two things at once.
    for figures, reasons in stiff.items():
        assert len({key for key, _ in reasons}) == 1, (figures, sorted(reasons))


@pytest.mark.parametrize("name", list(PRESETS))
def test_every_cell_of_the_chart_is_the_judges_chart_play_for_its_two_card_hands(
    name: str,
) -> None:
    rules = PRESETS[name]
    table_chart = chart(rules)
    for point in _points(rules):
        if point.is_insurance_decision:
            continue
        cell = Cell.of(point)
        assert cell.in_chart
        code = table_chart.code(cell)
        play = judge(point).chart_play
        first = {"H": Action.HIT, "S": Action.STAND, "D": Action.DOUBLE, "P": Action.SPLIT,
                 "R": Action.SURRENDER}[code[0]]
        if first in point.legal:
            assert play is first, (name, point.cards, point.dealer_up, code)
