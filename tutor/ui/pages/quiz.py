"""Quiz: drills by category, one decision at a time, judged with every action's EV."""

from __future__ import annotations

import streamlit as st

from tutor.quiz import Category, unavailable_reason
from tutor.ui import components as ui
from tutor.ui.session import app_state
from tutor.ui.state import AppState


def _choose(state: AppState) -> None:
    chosen = st.session_state.get("quiz-category")
    if isinstance(chosen, Category):
        state.quiz_category = chosen
        state.quiz = None


def _next(state: AppState) -> None:
    if state.quiz is not None:
        state.quiz.next()


def main() -> None:
    state = app_state()
    t = state.t
    _ = t.gettext
    st.title(_("Quiz"))
    st.segmented_control(
        _("Category"),
        list(Category),
        default=state.quiz_category,
        format_func=lambda category: ui.category_name(category, t),
        key="quiz-category",
        on_change=_choose,
        args=(state,),
        required=True,
    )
    category = state.quiz_category
    why = unavailable_reason(category, state.rules)
    if why is not None:
        st.info(t.refusal(why, {}) + " " + _("Choose other rules in Settings."))
        return
    if state.quiz is None or state.quiz.category is not category:
        state.start_quiz(category)
    quiz = state.quiz
    assert quiz is not None
    st.caption(
        t.format("Table: {name}", name=state.rules.name)
        + " · "
        + _("Keys: H hit, S stand, D double, P split, U surrender, 1–4 numbers, Enter next")
    )
    with st.container(border=True):
        ui.question_prompt(quiz, state)
        ui.quiz_answers(quiz, state, key="quiz", on_done=lambda: None)
        if quiz.verdict is not None:
            ui.verdict_view(quiz.verdict, state)
            st.button(
                _("Next question"),
                key="quiz-next",
                on_click=_next,
                args=(state,),
                type="primary",
                shortcut="Enter",
            )
    st.markdown(ui.score_line(quiz, t))


main()
