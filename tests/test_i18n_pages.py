"""No internal key on a page (issue 17): after a learner has answered questions of every kind and
played rounds, the quiz's drill and *My progress*, and the practice table, show hands as a
learner reads them (``14 dur contre un 9``, ``As-2 (13 souple)``), never ``hard:14:9``, ``s13`` or
``10-10``; and the French the pages show has its non-breaking spaces."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from streamlit.testing.v1 import AppTest
from streamlit.testing.v1.element_tree import Node

from tests.conftest import OpenApp
from tests.marks import sampled
from tutor.decision import Action
from tutor.quiz_questions import Category
from tutor.render.translator import translator
from tutor.rules import PRESETS
from tutor.strategy import judge
from tutor.visit import AppState

RULES = PRESETS["american-s17"]
#: What an internal key looks like on screen: an item key (``hard:14:9``, ``insurance:hand``),
#: a soft code (``s13``) or a pair code (``10-10``, ``A-A``).
INTERNAL_KEY = re.compile(
    r"\b(?:hard|soft|pairs|insurance|surrender|doubling|totals|payouts):\S*"
    r"|(?<![\w/-])s\d{1,2}\b"
    r"|\b(?:\d{1,2}|A)-(?:\d{1,2}|A)\b"
)
#: An ordinary space before French high punctuation (not a ratio, an icon or an address).
LOOSE_FRENCH_SPACE = re.compile(r" [:;!?](?![\w/])")


#: What an HTML element holds that nobody reads: its scripts and style sheets.
UNREAD = re.compile(r"<(script|style)\b.*?</\1>", re.S)


def _texts(node: Node) -> Iterator[str]:
    """Every string a learner can read under ``node``: values, labels, bodies, table cells."""
    for name in ("value", "label", "body", "help", "placeholder"):
        try:
            text = getattr(node, name, None)
        except Exception:  # some elements compute these from a missing proto field
            continue
        if isinstance(text, str):
            yield UNREAD.sub("", text)  # a page's scripts and styles are not read by anyone
    if type(node).__name__ == "Table":
        yield node.value.to_string()
    children = getattr(node, "children", None)
    if isinstance(children, dict):
        for child in children.values():
            yield from _texts(child)


def _page_text(at: AppTest) -> str:
    return "\n".join(_texts(at.main)) + "\n" + "\n".join(_texts(at.sidebar))


def _answer_wrongly(at: AppTest, count: int) -> None:
    """Answer ``count`` questions of the drill on screen, each one wrong where it can be."""
    for _ in range(count):
        state = at.session_state["app"]
        quiz = state.quiz
        assert quiz is not None
        question = quiz.question
        assert question is not None
        if question.point is not None:
            wrong = next(
                (a for a in question.actions if judge(question.point, a).is_mistake),
                question.actions[0],
            )
            at.button(key=f"quiz-{wrong.value}").click().run()
        else:
            at.button(key="quiz-option-0").click().run()
        assert not at.exception
        at.button(key="quiz-next").click().run()
        assert not at.exception


def test_the_quiz_and_my_progress_show_no_internal_key(open_app: OpenApp) -> None:
    at = open_app("quiz", AppState(rules=RULES, quiz_category=Category.HARD))
    for category in (Category.TOTALS, Category.PAYOUTS, Category.INSURANCE, Category.SOFT,
                     Category.PAIRS, Category.HARD):
        at.segmented_control(key="quiz-category").set_value(category).run()
        assert not at.exception
        _answer_wrongly(at, 4)
        text = _page_text(at)
        assert not INTERNAL_KEY.search(text), INTERNAL_KEY.search(text)
    text = _page_text(at)
    assert "Mains les plus coûteuses" in text
    assert not LOOSE_FRENCH_SPACE.search(text), LOOSE_FRENCH_SPACE.search(text)
    # My progress: the heatmap's text alternative names every hand in chart order.
    tables = [element.value for element in at.table]
    assert tables, "the mistakes' table is on the page"
    hands = list(tables[0].iloc[:, 0])
    assert not any(INTERNAL_KEY.search(str(hand)) for hand in hands), hands
    kinds = ["dur" if hand.endswith("dur") else "souple" if "souple" in hand else "paire"
             for hand in hands]
    order = {"dur": 0, "souple": 1, "paire": 2}
    assert [order[kind] for kind in kinds] == sorted(order[kind] for kind in kinds), hands
    assert any("souple" in hand and hand.startswith("As-") for hand in hands), hands


# The fast lane plays the round in French, whose typography the test also holds; make test in both.
@pytest.mark.parametrize("language", sampled(["fr", "en"], ["fr"]))
def test_a_practice_round_reads_without_keys_and_with_plurals(
    open_app: OpenApp, language: str
) -> None:
    at = open_app("practice", AppState(rules=RULES, language=language))
    deal = translator(language).gettext("Sit down and deal")
    next(b for b in at.button if b.label == deal).click().run()
    assert not at.exception
    state = at.session_state["app"]
    table = state.practice
    assert table is not None
    for _ in range(30):  # play rounds, standing on everything: mistakes, pushes, busts
        game = table.round
        assert game is not None
        while game.to_act() is not None:
            legal = game.legal_actions()
            action = Action.STAND if Action.STAND in legal else sorted(legal, key=str)[0]
            at.button(key=f"table-{action.value}").click().run()
            assert not at.exception
        text = _page_text(at)
        assert not INTERNAL_KEY.search(text), INTERNAL_KEY.search(text)
        if language == "fr":
            assert "jetons jetons" not in text
            assert not re.search(r"\b[01](?:,\d+)?\u00a0jetons\b", text), text
            assert not LOOSE_FRENCH_SPACE.search(text), LOOSE_FRENCH_SPACE.search(text)
        else:
            assert not re.search(r"(?<![\d.,])1 chips\b", text), text
        at.button(key="deal").click().run()
        assert not at.exception
