"""The Quiz page and ``tutor.quiz``: questions by category, answers judged right and wrong."""

from __future__ import annotations

import json
import random
import re
from fractions import Fraction

import pytest
import streamlit as st
from streamlit.testing.v1 import AppTest

from tests.conftest import OpenApp
from tutor.decision import Action
from tutor.downloads import Denied, DownloadFile
from tutor.identity import new_token, token_hash
from tutor.quiz import QuizSession
from tutor.quiz_deal import next_question
from tutor.quiz_questions import Category, unavailable_reason
from tutor.render.translator import translator
from tutor.rules import PRESETS
from tutor.store import Store, default_url
from tutor.strategy import advise, judge
from tutor.ui.download_route import TICKETS
from tutor.visit import AppState

RULES = PRESETS["american-s17"]


def _quiz(at: AppTest) -> QuizSession:
    state = at.session_state["app"]
    assert isinstance(state, AppState)
    assert state.quiz is not None
    return state.quiz


def _wrong_action(quiz: QuizSession) -> Action:
    question = quiz.question
    assert question is not None
    assert question.point is not None
    return next(action for action in question.actions if judge(question.point, action).is_mistake)


def test_a_quiz_question_answered_right_then_wrong(open_app: OpenApp) -> None:
    at = open_app("quiz", AppState(rules=RULES, quiz_category=Category.HARD))
    quiz = _quiz(at)
    question = quiz.question
    assert question is not None
    assert question.point is not None
    best = advise(question.point)
    assert best is not None
    at.button(key=f"quiz-{best.best.value}").click().run()
    assert not at.exception
    assert "juste" in at.success[0].value
    assert any("Espérance" in block.value for block in at.markdown), "every action's EV is shown"
    at.button(key="quiz-next").click().run()
    wrong = _wrong_action(quiz)
    at.button(key=f"quiz-{wrong.value}").click().run()
    assert not at.exception
    assert "erreur" in at.error[0].value
    assert "valait mieux" in at.error[0].value
    assert quiz.score.answered == 2
    assert quiz.score.right == 1
    assert quiz.score.ev_lost > 0
    assert any("1 / 2" in block.value for block in at.markdown), "the running score is shown"


@pytest.mark.parametrize("category", list(Category))
def test_every_category_asks_a_question_at_a_table_that_offers_it(
    open_app: OpenApp, category: Category
) -> None:
    at = open_app("quiz", AppState(rules=RULES, quiz_category=category))
    quiz = _quiz(at)
    question = quiz.question
    assert question is not None
    if question.point is None:
        assert question.expected in question.options
        index = question.options.index(question.expected)
        at.button(key=f"quiz-option-{index}").click().run()
    else:
        advice = advise(question.point)
        assert advice is not None
        at.button(key=f"quiz-{advice.best.value}").click().run()
    assert not at.exception
    assert at.success, f"{category.value}: the right answer is judged right"


def test_a_table_without_surrender_says_so_instead_of_asking(open_app: OpenApp) -> None:
    at = open_app("quiz", AppState(rules=PRESETS["family"], quiz_category=Category.SURRENDER))
    assert at.info
    assert "abandon" in at.info[0].value


def test_decision_questions_hold_hands_of_their_category() -> None:
    rng = random.Random(7)
    for _ in range(20):
        soft = next_question(Category.SOFT, RULES, rng)
        assert soft.point is not None
        assert soft.point.value.soft
        pair = next_question(Category.PAIRS, RULES, rng)
        assert pair.point is not None
        assert Action.SPLIT in pair.point.legal
        insurance = next_question(Category.INSURANCE, RULES, rng)
        assert insurance.point is not None
        assert insurance.point.is_insurance_decision
        hard = next_question(Category.HARD, RULES, rng, dealer_ups=(2, 3))
        assert hard.point is not None
        assert hard.point.dealer_up.points in (2, 3)


def test_a_payout_question_is_answered_by_the_engines_settlement() -> None:
    rng = random.Random(3)
    for _ in range(10):
        question = next_question(Category.PAYOUTS, RULES, rng)
        assert question.expected in question.options
        assert len(set(question.options)) == len(question.options)
        if question.outcome is not None and question.outcome.value == "natural":
            assert question.expected == Fraction(3, 2) * question.bet


def test_unavailable_categories_name_the_missing_rule() -> None:
    assert unavailable_reason(Category.SURRENDER, PRESETS["family"]) == "no-surrender"
    assert unavailable_reason(Category.SURRENDER, RULES) is None


def _name(at: AppTest, nickname: str) -> None:
    """Give a display name on the My data panel (never a key to anything)."""
    at.text_input(key="data-name").input(nickname)
    next(b for b in at.button if b.label in ("Enregistrer le nom", "Save the name")).click()
    at.run()
    assert not at.exception


def _answer_best(at: AppTest) -> None:
    quiz = _quiz(at)
    assert quiz.question is not None
    assert quiz.question.point is not None
    at.button(key=f"quiz-{advise(quiz.question.point).best.value}").click().run()
    assert not at.exception


def _returning(token: str) -> AppState:
    """A new session of the browser holding ``token``, as ``tutor.ui.state`` opens it from the
    cookie: the learner is found by the token, nothing else."""
    learner = Store(default_url()).learner_for_token(token, create=False)
    return AppState(
        rules=RULES,
        quiz_category=Category.HARD,
        learner_token=token,
        token_in_browser=True,
        learner=learner,
    )


def test_a_learners_answers_survive_a_restart_and_stay_their_own(open_app: OpenApp) -> None:
    token = new_token()
    at = open_app("quiz", AppState(rules=RULES, quiz_category=Category.HARD, learner_token=token))
    _answer_best(at)
    at.button(key="quiz-next").click().run()
    _answer_best(at)
    _name(at, "Ana")
    # The server restarts: the cached store is dropped, the same browser comes back.
    st.cache_resource.clear()
    again = open_app("quiz", _returning(token))
    assert not again.exception
    assert again.metric[0].value == "2", "Ana's two answers are still there"
    # Another browser whose learner calls herself Ana too sees none of Ana's answers.
    other = open_app("quiz", AppState(rules=RULES, quiz_category=Category.HARD))
    _name(other, "Ana")
    assert not other.metric, "the other Ana sees no statistics: none of Ana's answers"
    assert any(
        "No answer stored yet" in info.value or "Aucune réponse" in info.value
        for info in other.info
    )


def test_a_refused_nickname_says_why(open_app: OpenApp) -> None:
    at = open_app("quiz", AppState(rules=RULES))
    _name(at, "<b>x</b>")
    state = at.session_state["app"]
    assert state.learner is None or state.learner.nickname is None
    assert at.error, "the refusal is shown"


def test_leaning_towards_mistakes_gives_the_drill_a_weight(open_app: OpenApp) -> None:
    at = open_app("quiz", AppState(rules=RULES, quiz_category=Category.SOFT))
    _answer_best(at)
    at.segmented_control(key="quiz-mode").set_value("focus").run()
    assert not at.exception
    assert _quiz(at).weight is not None


def test_a_learner_downloads_then_erases_their_data(open_app: OpenApp) -> None:
    token = new_token()
    at = open_app("quiz", AppState(rules=RULES, quiz_category=Category.HARD, learner_token=token))
    _answer_best(at)
    export = at.button(key="data-export")
    assert export.label in ("Télécharger mes données (JSON)", "Download my data (JSON)")
    export.click().run()
    assert not at.exception
    # The click made a one-time ticket for this browser; the page's script fetches it.
    script = next(h.proto.body for h in at.get("html") if "_tutor/download" in h.proto.body)
    ticket = re.search(r'"body":"([A-Za-z0-9_-]+)"', script)
    assert ticket is not None
    assert TICKETS.take(ticket.group(1), token_hash(new_token())) is Denied.UNKNOWN
    got = TICKETS.take(ticket.group(1), token_hash(token))
    assert isinstance(got, DownloadFile)
    assert len(json.loads(got.body)["answers"]) == 1  # the answer just given
    assert got.file_name == "blackjack-tutor-my-data.json"
    assert TICKETS.take(ticket.group(1), token_hash(token)) is Denied.USED
    at.checkbox(key="data-erase-sure").check().run()
    at.button(key="data-erase").click().run()
    assert not at.exception
    state = at.session_state["app"]
    assert state.learner is None
    assert state.learner_token != token, "this browser starts afresh with a new secret"
    assert Store(default_url()).learner_for_token(token, create=False) is None


@pytest.mark.parametrize("category", [Category.TOTALS, Category.PAYOUTS])
def test_the_answer_pressed_stays_on_screen_with_its_verdict(
    open_app: OpenApp, category: Category
) -> None:
    """The buttons go once answered: the answer chosen is written with the verdict (issue 23)."""
    at = open_app("quiz", AppState(rules=RULES, quiz_category=category))
    question = _quiz(at).question
    assert question is not None
    assert question.expected is not None
    wrong = next(index for index, n in enumerate(question.options) if n != question.expected)
    at.button(key=f"quiz-option-{wrong}").click().run()
    assert not at.exception
    assert at.error
    t = translator("fr")
    option = question.options[wrong]
    pressed = t.signed_chips(option) if category is Category.PAYOUTS else t.chips(option)
    shown = " ".join(block.value for block in at.markdown)
    assert f"Votre réponse\u00a0: **{pressed}**" in shown


def test_two_tens_filed_as_a_pair_are_named_as_the_heat_map_names_them(
    open_app: OpenApp,
) -> None:
    """A king and a queen at a table that splits by value are a pair in the quiz too: « Paire
    de 10 (20) », as the heat map's « paire de 10 », not « 20 dur » (issue 29)."""
    from tutor.cards import Card, parse_cards
    from tutor.cell import Cell, Kind
    from tutor.decision import DecisionPoint
    from tutor.quiz_questions import Question
    from tutor.render.translator import translator

    rules = PRESETS["french-casino"]
    at = open_app("quiz", AppState(rules=rules, quiz_category=Category.PAIRS))
    quiz = _quiz(at)
    cards, up = parse_cards("K♠ Q♥"), Card.parse("6♣")
    legal = frozenset({Action.HIT, Action.STAND, Action.DOUBLE, Action.SPLIT})
    point = DecisionPoint(cards, up, rules, legal)
    assert Cell.of(point).kind is Kind.PAIRS
    quiz.question = Question(Category.PAIRS, cards, (up,), point=point)
    at.run()
    assert not at.exception
    text = " ".join(block.value for block in at.markdown).replace("\u00a0", " ")
    assert "**Paire de 10 (20) : que faites-vous ?**" in text
    assert "20 dur" not in text
    assert translator("fr").cell_name(Cell.of(point)).startswith("paire de 10 ")


def test_a_browser_used_only_to_run_a_class_is_offered_erasure(open_app: OpenApp) -> None:
    """No answer, no lesson step: still a class it created. Settings says so and erases it."""
    from tutor.classroom import ClassQuestion, Classroom

    token = new_token()
    store = Store(default_url())
    Classroom(store).create(
        "Lundi", RULES, [ClassQuestion.parse("10♠ 6♥", "10♣")], learner_token=token
    )
    at = open_app("settings", AppState(learner_token=token))
    assert at.session_state["app"].learner is None
    said = " ".join(m.value for m in at.markdown)
    held = store.token_holds(token)
    assert held >= 1  # the class, and the creation's count this minute
    assert f"le code de ce navigateur nomme {held} ligne" in said.replace("\u00a0", " ")
    at.checkbox(key="data-erase-sure").check().run()
    at.button(key="data-erase").click().run()
    assert not at.exception
    assert store.token_holds(token) == 0
