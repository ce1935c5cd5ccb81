"""What the lesson player uses: a deal step's ready round, and judging a learner's answer."""

from __future__ import annotations

import re
from fractions import Fraction

import pytest

from tests.conftest import builtin_lessons
from tutor.decision import Action
from tutor.game import Outcome
from tutor.lessons import (
    Ask,
    Deal,
    Translations,
    check_answer,
    deal_round,
    deal_script,
    localize,
)
from tutor.lessons.fields import PlainText
from tutor.rules import PRESETS


def make_deal(**fields: object) -> Deal:
    data: dict[str, object] = {"expect": {"outcome": "win", "net": 2}}
    data.update(fields)
    return Deal.model_validate(data)


def make_ask(answer: dict[str, object]) -> Ask:
    return Ask.model_validate({"question": "?", "answer": answer, "explanation": "!"})


def test_the_american_deal_puts_the_hole_card_after_the_players_second_card() -> None:
    deal = make_deal(player="A♠ 6♥", dealer="9♣ 7♦", then="9♦ 5♣")
    order = [str(card) for card in deal_script(deal, PRESETS["family"])]
    assert order == ["A♠", "9♣", "6♥", "7♦", "9♦", "5♣"]


def test_the_european_deal_has_no_hole_card() -> None:
    deal = make_deal(player="10♠ 9♥", dealer="6♣", then="10♦ 5♣")
    order = [str(card) for card in deal_script(deal, PRESETS["french-casino"])]
    assert order == ["10♠", "6♣", "9♥", "10♦", "5♣"]


def test_a_deal_step_becomes_a_ready_round_for_the_learner() -> None:
    deal = make_deal(bet=4, player="A♠ 6♥", dealer="9♣ 7♦", then="9♦ 5♣ K♠")
    game = deal_round(deal, PRESETS["family"])
    assert [str(card) for card in game.seats[0].hands[0].cards] == ["A♠", "6♥"]
    assert game.seats[0].bet == 4
    game.hit()
    game.hit()
    assert game.is_over
    assert game.results[0].hands[0].outcome is Outcome.WIN
    assert game.results[0].net == 4


def test_a_learner_who_leaves_the_script_gets_cards_from_the_rest_of_the_shoe() -> None:
    deal = make_deal(player="10♠ 2♥", dealer="9♣ 7♦")
    game = deal_round(deal, PRESETS["family"], seed=1)
    game.hit()  # the script holds no more cards: the shoe deals on
    assert len(game.seats[0].hands[0].cards) == 3


@pytest.mark.parametrize("given", [17, "17", " 17 ", Fraction(17), 17.0])
def test_a_number_answer_is_compared_exactly(given: object) -> None:
    assert check_answer(make_ask({"number": 17}), given)


@pytest.mark.parametrize("given", [16, "seventeen", None, True, "", [17]])
def test_a_wrong_or_unreadable_number_is_wrong_never_an_error(given: object) -> None:
    assert not check_answer(make_ask({"number": 17}), given)


@pytest.mark.parametrize("given", ["3/2", "1.5", "1,5", 1.5, Fraction(3, 2)])
def test_chips_may_be_a_fraction(given: object) -> None:
    assert check_answer(make_ask({"chips": "3/2"}), given)


def test_an_action_answer_takes_the_action_its_name_or_its_letter() -> None:
    ask = make_ask({"action": "double"})
    assert check_answer(ask, Action.DOUBLE)
    assert check_answer(ask, "double")
    assert check_answer(ask, "D")
    assert not check_answer(ask, "hit")
    assert not check_answer(ask, "dbl")


def test_a_choice_answer_is_the_index_of_the_right_option() -> None:
    ask = make_ask({"choice": 1, "options": ["yes", "no"]})
    assert check_answer(ask, 1)
    assert check_answer(ask, "1")
    assert not check_answer(ask, 0)
    assert not check_answer(ask, True)


def test_a_text_is_shown_in_the_learners_language_or_the_other_one() -> None:
    both = Translations(fr="Bonjour", en="Hello")
    assert localize(both, "fr") == "Bonjour"
    assert localize(both, "en") == "Hello"
    assert localize(Translations(fr="Bonjour"), "en") == "Bonjour"
    assert localize(PlainText("21"), "en") == "21"


# -- answer keys that accept every right answer (issue 13) --------------------------------------


@pytest.mark.parametrize(
    ("answer", "given", "right"),
    [
        # "Combien perdez-vous ?": the question gives the sign; the amount and the net both count
        ({"loss": 2}, "2", True),
        ({"loss": 2}, "-2", True),
        ({"loss": 2}, "−2", True),
        ({"loss": 2}, "2 jetons", True),
        ({"loss": 2}, "+2", False),
        ({"loss": 2}, "4", False),
        ({"loss": 4}, "4", True),
        ({"loss": 4}, "-4", True),
        ({"loss": 4}, "2", False),
        # "3 jetons" for a natural on 2 chips is 3
        ({"chips": 3}, "3 jetons", True),
        ({"chips": 3}, "3 chips", True),
        ({"chips": 3}, "3", True),
        ({"chips": 3}, "2 jetons", False),
        ({"chips": 3}, "trois", False),
        ({"chips": -2}, "−2", True),
        ({"chips": -2}, "2", False),
    ],
)
def test_a_money_answer_accepts_the_right_amount_however_typed(
    answer: dict[str, object], given: str, right: bool
) -> None:
    assert check_answer(make_ask(answer), given) is right


def test_the_courses_fixed_keys_accept_the_right_answers() -> None:
    from tutor.lessons import AskStep

    course = builtin_lessons()

    def ask_about(lesson_id: str, words: str) -> AskStep:
        return next(
            step
            for step in course.lesson(lesson_id).steps
            if isinstance(step, AskStep) and words in localize(step.ask.question, "fr")
        )

    surrender = ask_about("surrender", "Combien perdez-vous")
    given = ("2", "-2", "4", "+2")
    assert [check_answer(surrender, g) for g in given] == [True, True, False, False]
    doubled = ask_about("european-deal", "Que perdez-vous")
    assert [check_answer(doubled, g) for g in ("4", "-4", "2", "8")] == [True, True, False, False]
    natural = ask_about("naturals", "Combien de jetons gagnez-vous")
    assert [check_answer(natural, g) for g in ("3", "3 jetons", "2", "-3")] == [
        True,
        True,
        False,
        False,
    ]


def test_a_settled_question_is_played_by_the_engine() -> None:
    from tutor.lessons.play import settle_round

    ask = Ask.model_validate(
        {
            "question": "?",
            "explanation": "!",
            "settle": {
                "bet": 4,
                "player": "10♠ 6♥",
                "dealer": "10♣ 7♦",
                "decisions": ["surrender"],
            },
            "answer": {"loss": 2},
        }
    )
    assert ask.settle is not None
    game = settle_round(ask.settle, PRESETS["american-s17"])
    assert game.is_over
    assert game.results[0].net == -2


def test_a_deal_with_its_own_rules_is_dealt_at_that_table() -> None:
    deal = make_deal(rules="french-casino", player="10♠ 9♥", dealer="6♣", then="10♦ 5♣")
    game = deal_round(deal, PRESETS["family"])
    assert game.rules.name == PRESETS["french-casino"].name
    assert len(game.dealer) == 1  # European deal: no hole card


# -- a lesson offers only the moves it has taught (issue 13) ------------------------------------


def test_lesson_ones_deals_offer_no_double_and_refuse_one() -> None:
    from tutor.lessons import DealStep
    from tutor.lessons.run import LessonRun, NotOfferedError

    lesson = builtin_lessons().lesson("card-values")
    index = next(i for i, step in enumerate(lesson.steps) if isinstance(step, DealStep))
    run = LessonRun(lesson, step=index)
    run.start()
    play = run.deal_play()
    assert play is not None
    assert Action.DOUBLE in play.round.legal_actions()  # the table would allow it...
    assert play.legal_actions() == {Action.HIT, Action.STAND}  # ...the lesson does not offer it
    with pytest.raises(NotOfferedError):
        play.act(Action.DOUBLE)
    assert play.decisions == []
    assert not play.round.is_over


def test_a_payout_drill_before_doubling_asks_no_doubled_bet() -> None:
    from tutor.quiz import QuizSession
    from tutor.quiz_questions import Category

    offered = frozenset({Action.HIT, Action.STAND})
    for seed in range(60):
        quiz = QuizSession(Category.PAYOUTS, PRESETS["family"], seed=seed, actions=offered)
        assert quiz.question is not None
        assert not quiz.question.doubled
    doubled = [
        QuizSession(Category.PAYOUTS, PRESETS["family"], seed=seed).question for seed in range(60)
    ]
    assert any(question is not None and question.doubled for question in doubled)


# -- typed answers are parsed with bounds before any arithmetic (issue 14) -----------------------


@pytest.mark.parametrize(
    ("typed", "right"),
    [
        ("1.5", True), ("3/2", True), ("1,5", True), (" 1.5 jetons ", True), ("+1.5", True),
        ("1.50", True), (".5", False), ("1e0", False), ("15e-1", False), ("1e9999999", False),
        ("9" * 1000, False), ("1" + "0" * 23, False), ("1/0", False), ("17/0", False),
        ("inf", False), ("nan", False), ("1_5", False), ("١٫٥", False), ("", False),
        (" " * 100_000 + "1.5", False), ("3 / 2", True),
    ],
)
def test_a_typed_chips_answer_is_read_within_bounds(typed: str, right: bool) -> None:
    assert check_answer(make_ask({"chips": "3/2"}), typed) is right


def test_a_huge_typed_number_is_refused_before_any_fraction_is_built(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import tutor.exact

    class NoFraction(Fraction):
        def __new__(cls, *args: object, **kwargs: object) -> NoFraction:
            raise AssertionError(f"Fraction{args!r} was built from a refused answer")

    ask = make_ask({"number": 17})
    monkeypatch.setattr(tutor.exact, "Fraction", NoFraction)
    for typed in ("1e9999999", "9" * 1000, "9" * 24 + "/1", "-" + "9" * 30, "1" * 10**6):
        assert check_answer(ask, typed) is False


def test_a_number_beyond_a_million_is_wrong_not_slow() -> None:
    ask = make_ask({"number": 17})
    assert check_answer(ask, 10**5000) is False
    assert check_answer(ask, "1000001") is False
    assert check_answer(ask, "17") is True


@pytest.mark.parametrize(
    ("raw", "reason"),
    [
        ("17/0", "divides by 0"),
        ("1e9999999", "no exponent"),
        ("99999999", "beyond ±1,000,000"),
        ("1" * 25, "too long"),
        (True, "yes/no"),
        (float("inf"), "not a number within"),
    ],
)
def test_a_lessons_number_is_a_schema_problem_that_says_why(raw: object, reason: str) -> None:
    from pydantic import ValidationError

    with pytest.raises(ValidationError, match=re.escape(reason)):
        make_ask({"number": raw})


# -- a number typed with its noun (issue 23) -----------------------------------------------------


def _course_typed_asks() -> list[tuple[str, int, Ask]]:
    from tutor.lessons import AskStep
    from tutor.lessons.models import ChipsAnswer, LossAnswer, NumberAnswer

    course = builtin_lessons()
    return [
        (file.lesson.id, index, step.ask)
        for file in course.files
        if file.lesson is not None
        for index, step in enumerate(file.lesson.steps)
        if isinstance(step, AskStep)
        and isinstance(step.ask.answer, NumberAnswer | ChipsAnswer | LossAnswer)
    ]


def _key(ask: Ask) -> Fraction:
    from tutor.lessons.models import ChipsAnswer, NumberAnswer

    answer = ask.answer
    if isinstance(answer, NumberAnswer):
        return answer.number
    return answer.chips if isinstance(answer, ChipsAnswer) else answer.loss  # type: ignore[union-attr]


def test_sixteen_buches_answers_how_many_buches_a_deck_holds() -> None:
    """The issue's answer: « 16 bûches » was « Pas tout à fait »."""
    lesson, _, ask = next(
        item for item in _course_typed_asks() if "bûches" in localize(item[2].question, "fr")
    )
    assert lesson == "card-values"
    accepted = ("16 bûches", "16 bûche", "16 Bûches.", "16 buches", "16bûches", " 16 bûches ",
                "16 tens", "16 ten-valued cards", "16 cartes", "16 cards", "16")
    assert [given for given in accepted if not check_answer(ask, given)] == []
    refused = ("15 bûches", "16 oranges", "16 jetons", "16 points", "bûches 16", "16 bûches bûches")
    assert [given for given in refused if check_answer(ask, given)] == []


def test_every_typed_answer_of_the_course_is_read_with_the_nouns_its_question_names() -> None:
    """For every typed question of the course, its key followed by each form of each noun the
    question names or takes as its unit (singular, plural, with a full stop) is right, in both
    languages' words; every other noun of the list is refused, as is a word off the list."""
    from tutor.lessons.play import NOUNS, nouns_of

    asks = _course_typed_asks()
    assert len(asks) >= 20
    problems = []
    for lesson, index, ask in asks:
        key = _key(ask)
        shown = str(key) if key.denominator == 1 else f"{key.numerator}/{key.denominator}"
        kinds = nouns_of(ask)
        assert kinds, f"{lesson} step {index + 1} names no noun at all"
        for kind, forms in NOUNS.items():
            for form in forms:
                for typed in (f"{shown} {form}", f"{shown} {form}."):
                    if check_answer(ask, typed) is not (kind in kinds):
                        problems.append(f"{lesson} step {index + 1}: {typed!r}")
        if check_answer(ask, f"{shown} oranges"):
            problems.append(f"{lesson} step {index + 1}: a word off the list was read")
    assert problems == []


@pytest.mark.parametrize(
    ("question", "answer", "given", "right"),
    [
        ("Combien vaut cette main ?", {"number": 17}, "17 points", True),  # with cards shown
        ("Combien vaut cette main ?", {"number": 17}, "17 pts.", True),
        ("Combien vaut cette main ?", {"number": 17}, "17 jetons", False),
        ("Combien de fois la mise ?", {"number": 2}, "2 fois", True),
        ("How many times the bet?", {"number": 2}, "2 times", True),
        ("How many hands do you play?", {"number": 3}, "3 hands", True),
        ("Combien de mains jouez-vous ?", {"number": 3}, "3 mains", True),
        ("Combien de mains jouez-vous ?", {"number": 3}, "3 cartes", False),
        ("What do you win?", {"chips": 2}, "2 jetons", True),  # chips: the unit, whatever said
        ("What do you lose?", {"loss": 2}, "−2 chips", True),
        ("What do you win?", {"chips": 2}, "2 tens", False),
    ],
)
def test_a_number_is_read_with_its_questions_noun_in_either_language(
    question: str, answer: dict[str, object], given: str, right: bool
) -> None:
    ask = Ask.model_validate(
        {"question": question, "answer": answer, "explanation": "!", "cards": "10♠ 7♥"}
    )
    assert check_answer(ask, given) is right


def test_a_typed_answer_with_its_noun_stays_within_the_length_bound() -> None:
    from tutor.lessons.play import MAX_TYPED

    ask = make_ask({"chips": 3})
    typed = "3 jetons"
    assert check_answer(ask, typed)
    assert not check_answer(ask, " " * (MAX_TYPED - len(typed) + 1) + typed)
