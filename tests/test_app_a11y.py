"""What a learner on a phone or a beginner needs besides the buttons (issue 17): a disabled
action's reason written out (a hover tooltip cannot be reached by touch), and one plain sentence
under every EV table saying what the figures mean."""

from __future__ import annotations

from tests.conftest import OpenApp
from tutor.practice import PracticeTable
from tutor.quiz import QuizSession
from tutor.quiz_questions import Category
from tutor.rules import PRESETS
from tutor.visit import AppState


def test_a_disabled_action_says_why_in_text_as_well_as_in_its_tooltip(open_app: OpenApp) -> None:
    state = AppState(rules=PRESETS["american-s17"])
    state.practice = PracticeTable(state.rules, seed=3)
    table = state.practice
    table.deal()
    while table.round is not None and table.round.to_act() is None:
        table.deal()
    at = open_app("practice", state)
    refused = [b for b in at.button if b.key and b.key.startswith("table-") and b.disabled]
    assert refused, "a fresh hand always has an action it cannot take (a split without a pair…)"
    blocks = [block.value for block in at.markdown]
    written = "\n".join(block for block in blocks if "tutor-touch-reasons" in block)
    for button in refused:
        assert button.help, f"{button.key} has its reason as a tooltip"
        action = button.label.split()[0]
        assert f"<li>{action}" in written, f"the reason for {action} is also written out"


def test_an_ev_table_comes_with_a_sentence_saying_what_its_figures_mean(
    open_app: OpenApp,
) -> None:
    for language, words in (("fr", "jetons misés"), ("en", "chips bet")):
        state = AppState(language=language, rules=PRESETS["family"])
        state.quiz = QuizSession(Category.HARD, state.rules, seed=5)
        at = open_app("quiz", state)
        assert state.quiz.question is not None
        at.button(key="quiz-stand").click().run()
        assert not at.exception
        captions = [c.value for c in at.caption]
        assert any(words in caption for caption in captions), captions
