"""No answer found by its place: every question with options puts the right one anywhere.

Issue 23: the right total was the 3rd of 4 options in nearly every « Combien vaut cette main ? »
question, so pressing "3" scored 100 %. For every kind of question that offers options (the
quiz's totals and payouts, the same questions in a lesson's drill, a lesson's own choices),
thousands of questions are generated with fixed seeds and the right answer's place is counted:
a chi-square test of "every place is as likely" must not reject at the 0.001 level. The seeds
are fixed, so the test is deterministic; it is strict enough that the code before the change
fails it by a wide margin (the right total at the 3rd place gave a chi-square in the thousands).

Decision questions are not here: their buttons are the legal actions in the table's fixed order
(Hit, Stand, Double…), each named, and which one is right depends on the hand, not on a place.
Class mode asks only decisions.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Iterable, Sequence
from fractions import Fraction
from functools import cache
from itertools import pairwise

import pytest

from tests.conftest import builtin_lessons
from tutor.decision import Action
from tutor.lessons import AskStep, DrillStep, Lesson
from tutor.lessons.models import ChoiceAnswer
from tutor.lessons.run import LessonRun
from tutor.quiz_deal import OPTIONS, next_question
from tutor.quiz_questions import Category, Hands, Question
from tutor.rules import PRESETS

#: A place test rejects "every place is as likely" below this p-value.
LEVEL = 0.001
#: Questions generated per kind: enough that a place favoured by a fifth shows.
N = 2000
#: Payout questions are played to the end by the engine: fewer of them, as their places were
#: as lopsided as the totals'.
N_PAYOUTS = 1000


def chi_square_survival(stat: float, dof: int) -> float:
    """P(X > stat) for a chi-square variable with ``dof`` degrees of freedom, in closed form: an
    even number of degrees is a finite sum of Poisson terms, an odd one the complementary error
    function and a finite sum (no statistics library in the project)."""
    half = stat / 2
    if dof % 2 == 0:
        return math.exp(-half) * sum(half**j / math.factorial(j) for j in range(dof // 2))
    return math.erfc(math.sqrt(half)) + math.exp(-half) * sum(
        half ** (j - 0.5) / math.gamma(j + 0.5) for j in range(1, dof // 2 + 1)
    )


def chi_square_p(counts: Sequence[int]) -> float:
    """The p-value of Pearson's chi-square test that ``counts`` (one per place) come from
    equally likely places."""
    expected = sum(counts) / len(counts)
    stat = sum((count - expected) ** 2 / expected for count in counts)
    return chi_square_survival(stat, len(counts) - 1)


def test_the_chi_square_tail_matches_the_published_critical_values() -> None:
    """Critical values of the chi-square distribution at 0.001 (any statistics table): 10.828
    for 1 degree of freedom, 13.816 for 2, 16.266 for 3; and at 0.05, 7.815 for 3."""
    for dof, critical in ((1, 10.828), (2, 13.816), (3, 16.266)):
        assert chi_square_survival(critical, dof) == pytest.approx(LEVEL, rel=1e-3)
    assert chi_square_survival(7.815, 3) == pytest.approx(0.05, rel=1e-3)
    assert chi_square_p([100, 100, 100, 100]) == pytest.approx(1.0)
    assert chi_square_p([0, 0, N, 0]) < 1e-100, "every answer at one place is rejected"


def _places(questions: Iterable[Question]) -> Counter[int]:
    """How often the right answer is at each place among the options shown."""
    places: Counter[int] = Counter()
    for question in questions:
        assert question.expected is not None
        places[question.options.index(question.expected)] += 1
    return places


def _assert_readable(question: Question) -> None:
    """``OPTIONS`` different answers, in increasing order, evenly spaced (a run): nothing but
    the learner's count tells which one is right."""
    options = question.options
    assert len(options) == OPTIONS
    assert list(options) == sorted(set(options)), "different answers, in increasing order"
    step = options[1] - options[0]
    assert all(later - earlier == step for earlier, later in pairwise(options)), options


def _assert_every_place_alike(places: Counter[int], count: int, what: str) -> None:
    p = chi_square_p([places[place] for place in range(count)])
    counts = dict(sorted(places.items()))
    assert p > LEVEL, f"{what}: the right answer's places {counts} (p={p:.2g})"


@pytest.mark.parametrize("hands", [None, Hands.NO_ACES, Hands.ACES])
def test_the_right_total_is_at_every_place_alike(hands: Hands | None) -> None:
    rng = random.Random(2023)
    questions = [next_question(Category.TOTALS, PRESETS["family"], rng, hands=hands)
                 for _ in range(N)]
    _assert_every_place_alike(_places(questions), OPTIONS, f"totals, hands {hands}")
    for question in questions:
        _assert_readable(question)
        assert question.options[1] - question.options[0] == 1, "consecutive totals"
        assert all(option > 0 for option in question.options), "a total offered is above 0"


@pytest.mark.parametrize(
    ("preset", "hands", "actions"),
    [
        ("family", None, None),
        ("american-s17", None, None),
        ("french-casino", None, None),
        ("family", Hands.NATURALS, None),  # the naturals lesson's drill
        ("family", None, frozenset({Action.HIT, Action.STAND})),  # the settlement lesson's
    ],
)
def test_the_right_payout_is_at_every_place_alike(
    preset: str, hands: Hands | None, actions: frozenset[Action] | None
) -> None:
    rules = PRESETS[preset]
    rng = random.Random(1723)
    questions = [
        next_question(Category.PAYOUTS, rules, rng, hands=hands, actions=actions)
        for _ in range(N_PAYOUTS)
    ]
    _assert_every_place_alike(_places(questions), OPTIONS, f"payouts at {preset}")
    for question in questions:
        _assert_readable(question)
        # Every option is an amount this table could pay on this bet: the step between them
        # divides half the bet (2 chips: steps of 1; 5 chips: 2.5).
        assert Fraction(question.bet, 2) % (question.options[1] - question.options[0]) == 0


@cache
def _course() -> list[Lesson]:
    """The built-in lessons, loaded once and without the strategy's check (others test it)."""
    course = builtin_lessons()
    return [file.lesson for file in course.files if file.lesson is not None]


def _option_drills() -> list[tuple[Lesson, int, DrillStep]]:
    return [
        (lesson, index, step)
        for lesson in _course()
        for index, step in enumerate(lesson.steps)
        if isinstance(step, DrillStep) and not Category(step.drill.category.value).is_decision
    ]


def test_the_course_has_drills_with_options() -> None:
    """The test below is not empty: lessons 1, 2, 3 and 7 drill totals and payouts."""
    assert {lesson.id for lesson, _, _ in _option_drills()} >= {
        "card-values", "hand-totals", "naturals", "settlement"
    }


@pytest.mark.parametrize(
    ("lesson", "index", "step"),
    _option_drills(),
    ids=[f"{lesson.id}-{index + 1}" for lesson, index, _ in _option_drills()],
)
def test_a_lessons_drill_puts_the_right_answer_at_every_place_alike(
    lesson: Lesson, index: int, step: DrillStep
) -> None:
    """Each drill as the lesson runs it (its own session seed per learner), first questions of
    ``N`` learners' sessions and the next ones."""
    questions: list[Question] = []
    count = N if step.drill.category.value == "totals" else N_PAYOUTS
    for seed in range(count // 4):
        run = LessonRun(lesson, seed=seed)
        run._prepare_at(index)
        quiz = run.drills[index]
        for _ in range(4):
            assert quiz.question is not None
            questions.append(quiz.question)
            quiz.next()
    _assert_every_place_alike(_places(questions), OPTIONS, f"{lesson.id} step {index + 1}")
    for question in questions:
        _assert_readable(question)


def _choice_asks() -> list[tuple[Lesson, int, ChoiceAnswer]]:
    return [
        (lesson, index, step.ask.answer)
        for lesson in _course()
        for index, step in enumerate(lesson.steps)
        if isinstance(step, AskStep) and isinstance(step.ask.answer, ChoiceAnswer)
    ]


def test_every_choice_ask_shows_its_right_option_at_every_place_alike() -> None:
    """A lesson's own choices, shown in each run's order: over ``N`` learners (their session
    seeds), the right option is at every place as often, for each of the course's choices."""
    asks = _choice_asks()
    assert len(asks) >= 30
    failures = []
    for lesson, index, answer in asks:
        count = len(answer.options)
        places: Counter[int] = Counter()
        for seed in range(N):
            order = LessonRun(lesson, seed=seed).choice_order(index)
            assert sorted(order) == list(range(count)), "each option shown once"
            places[order.index(answer.choice)] += 1
        p = chi_square_p([places[place] for place in range(count)])
        if p <= LEVEL:
            failures.append(f"{lesson.id} step {index + 1}: {dict(sorted(places.items()))}")
    assert not failures, failures


def test_a_runs_choice_order_is_the_same_when_resumed() -> None:
    """The order comes from the run's stored seed: a reload shows the options where they were."""
    lesson, index, _ = _choice_asks()[0]
    assert LessonRun(lesson, seed=41).choice_order(index) == LessonRun(
        lesson, seed=41
    ).choice_order(index)
    orders = {LessonRun(lesson, seed=seed).choice_order(index) for seed in range(40)}
    assert len(orders) > 1, "different learners see different orders"


def test_a_choice_is_still_judged_by_the_option_pressed_not_its_place() -> None:
    lesson, index, answer = _choice_asks()[0]
    run = LessonRun(lesson, seed=5)
    run.step = index
    assert run.answer(answer.choice).correct
    wrong = next(option for option in range(len(answer.options)) if option != answer.choice)
    other = LessonRun(lesson, seed=5)
    other.step = index
    assert not other.answer(wrong).correct


def test_a_six_to_five_natural_is_offered_among_amounts_that_table_pays() -> None:
    rules = PRESETS["family"].replace(blackjack_pays=Fraction(6, 5))
    rng = random.Random(3)
    for _ in range(200):
        question = next_question(Category.PAYOUTS, rules, rng, hands=Hands.NATURALS)
        assert question.expected in question.options
        assert question.expected is not None
        step = question.options[1] - question.options[0]
        assert question.expected % step == 0
        assert Fraction(question.bet, 2) % step == 0
