"""One voice: the same move on the same cards gets the same grade and the same play to make on
every surface that judges it (quiz, practice table, lesson deal, class mode, the simulator's
profile of a learner), because each of them holds the one judge's verdict."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from tutor import progress
from tutor.cards import Card, parse_cards
from tutor.classroom import ClassQuestion, Classroom
from tutor.decision import Action, DecisionPoint, Grade
from tutor.game import Phase, Round
from tutor.identity import new_token
from tutor.lessons.run import DealPlay
from tutor.practice import PracticeTable
from tutor.quiz import judge_answer
from tutor.quiz_questions import Category, Question
from tutor.rules import PRESETS, TableRules
from tutor.simulate import cell_of, error_profile
from tutor.store import Store
from tutor.strategy import Judgement, judge
from tutor.table import decision_for, scripted_round

NOW = datetime(2026, 12, 1, 12, tzinfo=UTC)

#: (rules, player's cards, up-card, insurance decision, move): the issue's cases, each move.
CASES = [
    # One deck: the chart stands on hard 13 against a 2, the exact play for 10-3 hits.
    ("family", "10♣ 3♣", "2♦", False, Action.STAND),
    ("family", "10♣ 3♣", "2♦", False, Action.HIT),
    ("family", "10♣ 3♣", "2♦", False, Action.DOUBLE),
    # 16 against 10 with surrender offered.
    ("american-s17", "10♠ 6♥", "10♣", False, Action.SURRENDER),
    ("american-s17", "10♠ 6♥", "10♣", False, Action.STAND),
    ("american-s17", "10♠ 6♥", "10♣", False, Action.HIT),
    # Insurance (even money) with a natural.
    ("american-s17", "A♠ K♥", "A♦", True, Action.EVEN_MONEY),
    ("american-s17", "A♠ K♥", "A♦", True, Action.DECLINE_INSURANCE),
    # A soft 18 double.
    ("american-s17", "A♠ 7♥", "4♦", False, Action.DOUBLE),
    ("american-s17", "A♠ 7♥", "4♦", False, Action.STAND),
    ("american-s17", "A♠ 7♥", "4♦", False, Action.HIT),
]


def _round(rules: TableRules, cards: str, up: str, insurance: bool) -> Round:
    """The hand dealt by a real round, as the practice table and a lesson deal it."""
    hand = parse_cards(cards)
    dealer = [Card.parse(up)]
    if rules.dealer_peeks:
        dealer.append(next(c for c in parse_cards("5♣ 6♣ 7♣") if c not in hand))
    game = scripted_round(rules, [hand], dealer, strict=False, seed=0)
    if game.phase is Phase.INSURANCE and not insurance:
        game.decline_insurance()
    return game


def quiz(point: DecisionPoint, action: Action) -> tuple[Grade, Action]:
    question = Question(Category.HARD, point.cards, (point.dealer_up,), point=point)
    verdict = judge_answer(question, action)
    assert verdict.judgement is not None
    return verdict.grade, verdict.judgement.play


def practice(rules: TableRules, cards: str, up: str, insurance: bool, action: Action) -> Judgement:
    table = PracticeTable(rules, seed=1)
    table.round = _round(rules, cards, up, insurance)
    return table.act(action).judgement


def lesson(rules: TableRules, cards: str, up: str, insurance: bool, action: Action) -> Judgement:
    play = DealPlay(_round(rules, cards, up, insurance), expected=(action,))
    return play.act(action).judgement


def classroom(
    store: Store, rules: TableRules, cards: str, up: str, insurance: bool, action: Action
) -> tuple[Grade, Action, Action]:
    room = Classroom(store, clock=lambda: NOW)
    question = ClassQuestion.parse(cards, up, insurance=insurance)
    info, key = room.create("One voice", rules, [question])
    teacher = room.open_as_teacher(info.code, key)
    room.next_question(teacher)
    student = room.join(info.code, "Ana", learner_token=new_token())
    room.answer(student, action)
    reveal = room.reveal(teacher)
    row = room.results(teacher).rows[0]
    assert row.grade is not None
    return row.grade, row.best, reveal.best


def simulator(
    store: Store, rules: TableRules, point: DecisionPoint, action: Action
) -> tuple[bool, str]:
    """Whether the learner's profile plays this cell (or insures) off the book, and the play
    stored with the answer."""
    learner = store.learner_for_token(new_token())
    assert learner is not None
    question = Question(
        Category.INSURANCE if point.is_insurance_decision else Category.HARD,
        point.cards,
        (point.dealer_up,),
        point=point,
    )
    progress.record(store, learner, judge_answer(question, action), rules, NOW)
    answers = store.answers(learner)
    profile = error_profile(rules, answers)
    if point.is_insurance_decision:
        return profile.insure > 0, answers[0].best
    cell = cell_of(point.cards, point.dealer_up, rules=rules)
    return bool(profile.deviation_probability[cell] > 0), answers[0].best


@pytest.mark.parametrize(("preset", "cards", "up", "insurance", "action"), CASES)
def test_the_same_move_gets_the_same_verdict_on_every_surface(
    tmp_path: Path, preset: str, cards: str, up: str, insurance: bool, action: Action
) -> None:
    rules = PRESETS[preset]
    point = decision_for(rules, cards, up, insurance=insurance)
    expected = judge(point, action)
    assert expected.grade is not None
    store = Store(f"sqlite:///{tmp_path / 'voice.sqlite3'}")
    try:
        surfaces = {
            "quiz": quiz(point, action),
            "practice table": (lambda j: (j.grade, j.play))(
                practice(rules, cards, up, insurance, action)
            ),
            "lesson deal": (lambda j: (j.grade, j.play))(
                lesson(rules, cards, up, insurance, action)
            ),
        }
        grade, best, revealed = classroom(store, rules, cards, up, insurance, action)
        assert revealed is best, "the class reveal shows the play its results grade against"
        surfaces["class mode"] = (grade, best)
        for surface, (got_grade, got_play) in surfaces.items():
            assert (got_grade, got_play) == (expected.grade, expected.play), surface
        # The simulator plays the learner's profile: off the book exactly when not right.
        off_book, stored_best = simulator(store, rules, point, action)
        assert off_book is (expected.grade is not Grade.RIGHT), "simulator profile"
        assert stored_best == expected.play.value
    finally:
        store.close()


def test_the_cases_cover_the_three_grades_and_a_chart_that_differs_from_the_exact_play() -> None:
    judgements = [
        judge(decision_for(PRESETS[p], c, u, insurance=i), a) for p, c, u, i, a in CASES
    ]
    assert {j.grade for j in judgements} >= {Grade.RIGHT, Grade.WRONG}
    assert any(j.differs for j in judgements)
