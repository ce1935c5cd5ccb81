"""Drill generators, scoring against the strategy's EVs, and the learner's progress.

Frequencies are checked against the shoe: a drill deals hands as a real shoe would, so within a
category the up-cards and totals come with the shoe's proportions (to sampling error).
"""

from __future__ import annotations

import math
import random
from collections import Counter
from datetime import UTC, datetime, timedelta
from fractions import Fraction
from itertools import combinations_with_replacement
from pathlib import Path

import pytest

from tutor import progress
from tutor.decision import Action
from tutor.quiz import (
    Category,
    QuizSession,
    Score,
    item_key,
    judge_answer,
    next_question,
    question_for_item,
)
from tutor.rules import PRESETS
from tutor.srs import Grade
from tutor.store import Store
from tutor.strategy import CLOSE, advise, judge

RULES = PRESETS["american-s17"]  # every category is asked at this table
NOW = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)


@pytest.mark.parametrize("category", [c for c in Category if c.is_decision])
def test_each_generator_deals_only_its_category(category: Category) -> None:
    rng = random.Random(7)
    for _ in range(60):
        question = next_question(category, RULES, rng)
        point = question.point
        assert point is not None
        value = point.value
        if category is Category.HARD:
            assert not value.soft
            assert not point.is_pair
        elif category is Category.SOFT:
            assert value.soft
            assert not point.is_pair
        elif category is Category.PAIRS:
            assert point.is_pair
            assert Action.SPLIT in point.legal
        elif category is Category.INSURANCE:
            assert point.dealer_up.points == 1
            assert point.is_insurance_decision
        elif category is Category.SURRENDER:
            assert Action.SURRENDER in point.legal
        elif category is Category.DOUBLING:
            assert Action.DOUBLE in point.legal
        assert item_key(question).startswith(category.value + ":")


def test_the_dealer_up_card_comes_with_the_shoe_frequencies() -> None:
    """Soft hands do not depend much on the up-card: ten-valued up-cards are about 4 in 13."""
    rng = random.Random(11)
    n = 1500
    tens = sum(next_question(Category.SOFT, RULES, rng).dealer[0].points == 10 for _ in range(n))
    p = 4 / 13
    assert abs(tens / n - p) < 4 * math.sqrt(p * (1 - p) / n)


def test_hard_totals_come_with_the_shoe_frequencies() -> None:
    """The share of each hard total among hard questions matches two cards drawn from six decks
    (enumerated exactly), to four standard errors."""
    counts = dict.fromkeys(range(1, 11), 24)
    counts[10] = 96
    expected: Counter[int] = Counter()
    for first, second in combinations_with_replacement(range(1, 11), 2):
        if 1 in (first, second) or first == second:
            continue  # soft hands and pairs are other categories
        total = first + second
        if not 8 <= total <= 17:
            continue
        expected[total] += 2 * counts[first] * counts[second]
    norm = sum(expected.values())
    rng = random.Random(3)
    n = 2000
    seen = Counter(next_question(Category.HARD, RULES, rng).point.value.total for _ in range(n))  # type: ignore[union-attr]
    for total, weight in expected.items():
        p = weight / norm
        assert abs(seen[total] / n - p) < 4 * math.sqrt(p * (1 - p) / n), total


def test_a_teacher_can_restrict_a_drill() -> None:
    rng = random.Random(5)
    for _ in range(40):
        question = next_question(
            Category.SOFT, RULES, rng, dealer_ups=(2, 3, 4, 5, 6), totals=(17, 18)
        )
        assert question.point is not None
        assert question.dealer[0].points in (2, 3, 4, 5, 6)
        assert question.point.value.total in (17, 18)


def test_weights_lean_the_drill_towards_an_item() -> None:
    rng = random.Random(9)
    target = "hard:16:10"
    plain = sum(item_key(next_question(Category.HARD, RULES, rng)) == target for _ in range(400))
    leaning = sum(
        item_key(
            next_question(
                Category.HARD, RULES, rng, weight=lambda item: 20.0 if item == target else 1.0
            )
        )
        == target
        for _ in range(400)
    )
    assert leaning > 2 * plain + 10


def test_a_stored_item_is_dealt_again_as_the_same_item() -> None:
    rng = random.Random(2)
    for category in (Category.HARD, Category.SOFT, Category.PAIRS, Category.DOUBLING):
        original = next_question(category, RULES, rng)
        again = question_for_item(item_key(original), RULES, rng)
        assert item_key(again) == item_key(original)


def test_answers_are_graded_by_the_judge_against_the_charts_play() -> None:
    rng = random.Random(4)
    for _ in range(30):
        question = next_question(Category.HARD, RULES, rng)
        assert question.point is not None
        chart_play = judge(question.point).chart_play
        evs = advise(question.point).evs
        for action in question.point.legal:
            verdict = judge_answer(question, action)
            assert verdict.judgement is not None
            assert verdict.judgement.chart_play is chart_play
            loss = max(0.0, evs[chart_play] - evs[action])
            assert verdict.loss == pytest.approx(loss, abs=1e-12)
            if loss <= 1e-9:
                assert verdict.grade is Grade.RIGHT
            elif loss < CLOSE:
                assert verdict.grade is Grade.ACCEPTABLE
            else:
                assert verdict.grade is Grade.WRONG


def test_numbers_are_scored_exactly() -> None:
    rng = random.Random(1)
    question = next_question(Category.PAYOUTS, RULES, rng)
    assert question.expected is not None
    assert judge_answer(question, question.expected).grade is Grade.RIGHT
    assert judge_answer(question, question.expected + Fraction(1, 2)).grade is Grade.WRONG


def test_a_session_reports_accuracy_ev_lost_per_100_and_the_worst_hands() -> None:
    quiz = QuizSession(Category.HARD, RULES, seed=8, length=20)
    lost = 0.0
    for index in range(20):
        question = quiz.question
        assert question is not None
        assert question.point is not None
        advice = advise(question.point)
        wrong = [a for a in question.point.legal if a is not advice.best]
        chosen = wrong[0] if index % 2 and wrong else advice.best
        verdict = quiz.answer(chosen)
        lost += verdict.loss
        if index < 19:
            quiz.next()
    score: Score = quiz.score
    assert score.answered == 20
    assert score.ev_lost_per_100 == pytest.approx(100 * lost / 20)
    assert score.accuracy_by_category()[Category.HARD] == pytest.approx(score.right / 20)
    worst = score.worst(3)
    assert worst == sorted(worst, key=lambda item: -item[1])
    assert quiz.finished


def test_progress_is_recorded_scheduled_and_weighted(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'p.sqlite3'}")
    ana = store.learner("Ana")
    quiz = QuizSession(Category.HARD, RULES, seed=12)
    question = quiz.question
    assert question is not None
    assert question.point is not None
    best = advise(question.point).best
    wrong = next(a for a in question.point.legal if a is not best)
    verdict = quiz.answer(wrong)
    review = progress.record(store, ana, verdict, RULES, NOW)
    item = item_key(question)
    assert review.item == item
    assert store.answers(ana)[0].chosen == wrong.value
    # A missed item is due again within minutes, and weighs more than any other meanwhile.
    assert progress.due_items(store, ana, NOW + timedelta(minutes=2)) == [item]
    weigh = progress.weights(store, ana, NOW)
    assert weigh(item) > weigh("hard:12:4") == 1.0
    frame = progress.history(store, ana)
    assert list(frame["right"]) == [False]
    heat = progress.mistakes_by_hand(frame)
    assert int(heat["mistakes"].sum()) == 1
    assert progress.ev_lost_by_category(frame)["ev_lost"].iloc[0] == pytest.approx(verdict.loss)
    assert len(progress.accuracy_over_time(frame)) == 1
    store.close()
