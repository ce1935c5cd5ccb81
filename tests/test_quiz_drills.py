"""Drill generators, scoring against the strategy's EVs, and the learner's progress.

Frequencies are checked against the shoe: a drill deals hands as a real shoe would, so within a
category the up-cards and totals come with the shoe's proportions (to sampling error).
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from fractions import Fraction
from itertools import combinations_with_replacement
from pathlib import Path

import pytest

from tests.conftest import builtin_lessons
from tutor import progress
from tutor.cards import Card, Rank, hand_value, is_natural_cards
from tutor.decision import Action
from tutor.game import Outcome
from tutor.identity import new_token
from tutor.lessons import DrillStep, Lesson
from tutor.practice import PracticeTable
from tutor.progress import point_item
from tutor.quiz import QuizSession, Score, judge_answer
from tutor.quiz_deal import dealable, next_question, question_for_item
from tutor.quiz_questions import Category, Hands, Question, item_key
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
    ana = store.learner_for_token(new_token())
    assert ana is not None
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


# -- a lesson's drill draws from the lesson's topic (``hands``) ------------------------------------

COURSE = Path(__file__).resolve().parents[1] / "lessons"


def _lesson(lesson_id: str) -> Lesson:
    return builtin_lessons().lesson(lesson_id)


def _restricted_drills() -> list[tuple[str, int]]:
    """Every drill of the built-in course that names ``hands``: (lesson id, step index)."""
    course = builtin_lessons()
    return [
        (lesson.id, index)
        for lesson in course.lessons
        for index, step in enumerate(lesson.steps)
        if isinstance(step, DrillStep) and step.drill.hands is not None
    ]


def _drill_session(lesson: Lesson, index: int, seed: int) -> QuizSession:
    """The drill as a lesson run starts it: the step's category, up-cards and hands."""
    step = lesson.steps[index]
    assert isinstance(step, DrillStep)
    drill = step.drill
    return QuizSession(
        Category(drill.category.value),
        lesson.rules,
        seed=seed,
        dealer_ups=drill.dealer,
        hands=drill.hands,
        length=drill.count,
    )


def _the_hand(question: Question) -> tuple[Card, ...]:
    """What ``hands`` is about: the whole hand to count, a payout's first two cards, or the two
    cards of a decision."""
    if question.category is Category.PAYOUTS:
        return question.cards[:2]
    return question.cards


def _drill_index(lesson: Lesson) -> int:
    return next(i for i, step in enumerate(lesson.steps) if isinstance(step, DrillStep))


def test_the_ace_lessons_drill_holds_an_ace_in_every_question() -> None:
    lesson = _lesson("hand-totals")
    quiz = _drill_session(lesson, _drill_index(lesson), seed=21)
    for _ in range(200):
        question = quiz.next()
        assert question.category is Category.TOTALS
        assert any(card.rank is Rank.ACE for card in question.cards), question.cards
        assert question.expected == hand_value(question.cards).total


def test_the_card_values_lessons_drill_holds_no_ace() -> None:
    """The first lesson adds cards before the Ace is taught."""
    lesson = _lesson("card-values")
    quiz = _drill_session(lesson, _drill_index(lesson), seed=22)
    for _ in range(200):
        assert all(card.rank is not Rank.ACE for card in quiz.next().cards)


@pytest.mark.parametrize(("lesson_id", "index"), _restricted_drills())
def test_every_restricted_drill_of_the_course_deals_only_its_hands(
    lesson_id: str, index: int
) -> None:
    lesson = _lesson(lesson_id)
    step = lesson.steps[index]
    assert isinstance(step, DrillStep)
    hands = step.drill.hands
    assert hands is not None
    category = Category(step.drill.category.value)
    assert dealable(category, lesson.rules, dealer_ups=step.drill.dealer, hands=hands)
    quiz = _drill_session(lesson, index, seed=23)
    for _ in range(60):
        question = quiz.next()
        assert question.category is category
        assert hands.holds(_the_hand(question)), (lesson_id, question.cards)
        if step.drill.dealer and category.is_decision:
            assert question.dealer[0].points in step.drill.dealer


@pytest.mark.parametrize(
    ("category", "rules", "hands", "holds"),
    [
        (Category.TOTALS, "family", Hands.ACES, lambda c: any(x.points == 1 for x in c)),
        (Category.TOTALS, "family", Hands.NO_ACES, lambda c: all(x.points != 1 for x in c)),
        (Category.TOTALS, "family", Hands.STIFF, lambda c: 12 <= hand_value(c).total <= 16),
        (Category.HARD, "family", Hands.STIFF, lambda c: 12 <= hand_value(c).total <= 16),
        (Category.HARD, "french-casino", Hands.DOUBLE_TOTALS, lambda c: hand_value(c).total < 12),
        (Category.PAIRS, "american-s17", Hands.ACES, lambda c: c[0].points == c[1].points == 1),
        (Category.PAIRS, "american-s17", Hands.STIFF, lambda c: c[0].points in (6, 7, 8)),
        (Category.DOUBLING, "family", Hands.ACES, lambda c: hand_value(c).soft),
        (Category.SURRENDER, "american-s17", Hands.STIFF, lambda c: hand_value(c).total <= 16),
        (Category.INSURANCE, "american-s17", Hands.NATURALS, is_natural_cards),
        (Category.PAYOUTS, "family", Hands.NATURALS, is_natural_cards),
    ],
)
def test_a_restriction_applies_in_every_category(
    category: Category, rules: str, hands: Hands, holds: Callable[[tuple[Card, ...]], bool]
) -> None:
    rng = random.Random(31)
    for _ in range(40):
        question = next_question(category, PRESETS[rules], rng, hands=hands)
        assert question.category is category
        cards = _the_hand(question)
        assert hands.holds(cards)
        assert holds(cards), cards
        if category is Category.INSURANCE:
            assert question.point is not None
            assert question.point.is_insurance_decision


def test_the_ace_restriction_keeps_the_shoes_proportions() -> None:
    """Every soft total from 13 to 20 comes up, hands where the Ace counts 1 too, and among
    two-card hands the share of Ace-ten is one deck's: 2·4·16 of the 2·4·48 + 4·3 ordered
    two-card hands holding an Ace."""
    rng = random.Random(41)
    questions = [
        next_question(Category.TOTALS, PRESETS["family"], rng, hands=Hands.ACES)
        for _ in range(1500)
    ]
    soft = {hand_value(q.cards).total for q in questions if hand_value(q.cards).soft}
    assert set(range(13, 21)) <= soft
    assert any(not hand_value(q.cards).soft for q in questions)  # A♦ 5♣ 8♠: a hard 14
    two = [q.cards for q in questions if len(q.cards) == 2]
    tens = sum(is_natural_cards(cards) for cards in two)
    p = (2 * 4 * 16) / (2 * 4 * 48 + 4 * 3)
    assert abs(tens / len(two) - p) < 4 * math.sqrt(p * (1 - p) / len(two))


def test_stiff_hands_come_with_one_decks_frequencies() -> None:
    """The hit-or-stand drill: hard 12 to 16 (no pairs) in the shares of a one-deck deal."""
    expected: Counter[int] = Counter()
    for first in range(2, 11):
        for second in range(2, 11):
            if first != second and 12 <= first + second <= 16:
                expected[first + second] += (16 if first == 10 else 4) * (16 if second == 10 else 4)
    norm = sum(expected.values())
    rng = random.Random(43)
    n = 1500
    seen = Counter(
        hand_value(
            next_question(Category.HARD, PRESETS["family"], rng, hands=Hands.STIFF).cards
        ).total
        for _ in range(n)
    )
    assert set(seen) == set(range(12, 17))
    for total, weight in expected.items():
        p = weight / norm
        assert abs(seen[total] / n - p) < 4 * math.sqrt(p * (1 - p) / n), total


def test_the_naturals_lessons_payouts_are_naturals_paid_three_to_two() -> None:
    lesson = _lesson("naturals")
    quiz = _drill_session(lesson, _drill_index(lesson), seed=24)
    outcomes: Counter[Outcome | None] = Counter()
    for _ in range(60):
        question = quiz.next()
        assert is_natural_cards(question.cards[:2])
        assert question.outcome in (Outcome.NATURAL, Outcome.PUSH)
        outcomes[question.outcome] += 1
        paid = Fraction(3, 2) * question.bet if question.outcome is Outcome.NATURAL else 0
        assert question.expected == paid
    assert outcomes[Outcome.NATURAL] > outcomes[Outcome.PUSH]


@pytest.mark.parametrize(
    ("category", "rules", "hands", "dealer_ups"),
    [
        (Category.HARD, "family", Hands.ACES, None),  # a two-card hand with an Ace is soft
        (Category.SOFT, "family", Hands.NO_ACES, None),
        (Category.HARD, "family", Hands.NATURALS, None),  # a natural ends the round
        (Category.DOUBLING, "american-s17", Hands.STIFF, None),
        (Category.SURRENDER, "american-s17", Hands.DOUBLE_TOTALS, None),
        (Category.SURRENDER, "american-s17", Hands.STIFF, (2, 3)),
    ],
)
def test_an_impossible_restriction_fails_at_once_with_a_reason(
    category: Category, rules: str, hands: Hands, dealer_ups: tuple[int, ...] | None
) -> None:
    assert not dealable(category, PRESETS[rules], dealer_ups=dealer_ups, hands=hands)
    with pytest.raises(ValueError, match=f"no {category.value} question on a hand"):
        next_question(
            category, PRESETS[rules], random.Random(1), hands=hands, dealer_ups=dealer_ups
        )


@pytest.mark.parametrize(
    ("category", "cards"),
    [
        (Category.HARD, "8♥ 2♦"),
        (Category.SOFT, "3♣ A♥"),
        (Category.PAIRS, "J♠ J♥"),
        (Category.INSURANCE, "J♥ Q♣"),
        (Category.SURRENDER, "5♥ Q♦"),
        (Category.DOUBLING, "8♥ 2♦"),
        (Category.TOTALS, "2♠ 3♥"),
        (Category.PAYOUTS, "J♣ A♥"),
    ],
)
def test_an_unrestricted_drill_deals_as_before(category: Category, cards: str) -> None:
    """Without ``hands`` the generator draws exactly as before it existed (hands recorded from
    the quiz of then, seed 51): a seeded drill or class replays the same questions."""
    question = next_question(category, RULES, random.Random(51))
    assert " ".join(map(str, question.cards)) == cards


# A practice table files a miss on any two-card hand; "My mistakes" deals it again. The hard drill
# deals hard 8 to 17 only, and a total is not a hand: the stored cell is dealt as it is.
@pytest.mark.parametrize(
    ("item", "preset"),
    [
        ("hard:18:7", "family"),  # hitting 18: outside the hard drill's totals
        ("hard:19:10", "french-casino"),
        ("hard:5:2", "family"),
        ("pairs:A-A:A", "family"),  # A-A, not 6-6 of the same total
        ("doubling:s19:6", "family"),
        ("surrender:16:10", "online-six-deck"),
    ],
)
def test_a_stored_item_is_dealt_as_its_own_cell_outside_the_drills_ranges(
    item: str, preset: str
) -> None:
    rules = PRESETS[preset]
    for seed in range(5):
        question = question_for_item(item, rules, random.Random(seed))
        assert question.point is not None
        assert item_key(question) == item


@pytest.mark.parametrize(
    ("item", "preset"),
    [
        ("hard:20:10", "french-casino"),  # 10-10 splits by value there: a pair, never hard 20
        ("soft:s21:5", "family"),  # two cards of soft 21 are a natural
        ("hard:4:5", "family"),  # 2-2 that can be split is a pair's cell
        ("doubling:s19:6", "france-before-2007"),  # doubling on 9 to 11 only
    ],
)
def test_an_item_no_deal_makes_at_this_table_is_refused_not_faked(item: str, preset: str) -> None:
    with pytest.raises(ValueError, match="no two cards make"):
        question_for_item(item, PRESETS[preset], random.Random(0))


def test_mistakes_dealt_again_pass_over_an_item_no_deal_makes_here() -> None:
    table = PracticeTable(PRESETS["french-casino"], seed=1, replay=["hard:20:10", "hard:18:7"])
    table.deal()
    assert table.replaying == "hard:18:7"
    game = table.round
    assert game is not None
    assert point_item(game.decision_point())[1] == "hard:18:7"
    session = QuizSession(
        Category.HARD, PRESETS["french-casino"], seed=1, items=["hard:20:10", "hard:19:10"]
    )
    assert session.question is not None
    assert item_key(session.question) == "hard:19:10"
