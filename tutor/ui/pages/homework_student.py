"""My homework: join a teacher's group with its code (or its link), see « À faire » with the due
dates, and do an assigned drill here (a lesson opens on the Lessons page).

Each drill answer is kept twice, as the learner's own answer (their progress and reviews, as in
the quiz) and as the group's copy the teacher reads (``Homework.record_drill_answer``).
"""

from __future__ import annotations

import time
from datetime import UTC, datetime

import streamlit as st

from tutor import progress
from tutor.authoring import PROGRESS_PREFIX
from tutor.homework import Assignment, HomeworkError, Membership, Todo
from tutor.quiz import QuizSession
from tutor.render.homework_reports import todo_line, work_title
from tutor.render.markup import plain_title
from tutor.render.refusals import refusal_text
from tutor.store import InvalidNicknameError
from tutor.ui import components as ui
from tutor.ui.client import browser_zone, client_address
from tutor.ui.faults import callback_guard
from tutor.ui.homework_box import assigned_lesson, lesson_steps, title_of
from tutor.ui.resources import homework, store
from tutor.ui.state import app_state
from tutor.visit import AppState


@callback_guard
def _join(state: AppState, code: str, nickname: str) -> None:
    pages = state.homework
    try:
        state.ensure_learner(store())  # the learner's row, before the group points at it
        homework().join(code, nickname, state.learner_token, client=client_address())
        pages.message = None
    except (HomeworkError, InvalidNicknameError) as error:
        pages.message = refusal_text(error, state.t)


def _start_drill(state: AppState, item: Todo) -> None:
    assignment = item.assignment
    assert assignment.category is not None
    assert assignment.rules is not None
    assert assignment.hands is not None
    pages = state.homework
    pages.assignment, pages.membership = assignment, item.membership
    pages.drill = QuizSession(
        assignment.category,
        assignment.rules,
        seed=state.next_seed(),
        length=assignment.hands - item.done,
        reference=state.reference,
    )
    pages.shown_at = time.monotonic()


def _open_lesson(state: AppState, lesson_id: str, *, again: bool = False) -> None:
    """Open the assigned lesson on the Lessons page, where the learner left it (from its start
    with ``again``: a lesson finished before it was given is done again for the group); a
    teacher's own lesson by its link (``?l=``), so that a reload of the page finds it again."""
    lesson = assigned_lesson(lesson_id)
    if lesson is None:
        return
    if again:
        state.restart_lesson(lesson, store())
    else:
        state.open_lesson(lesson, store())
    if lesson_id.startswith(PROGRESS_PREFIX):
        st.switch_page(
            "tutor/ui/pages/lessons_page.py", query_params={"l": lesson_id[len(PROGRESS_PREFIX):]}
        )
    st.switch_page("tutor/ui/pages/lessons_page.py", query_params={"lesson": lesson_id})


@callback_guard
def _answered(state: AppState) -> None:
    pages = state.homework
    drill, assignment, member = pages.drill, pages.assignment, pages.membership
    if drill is None or drill.verdict is None or assignment is None or member is None:
        return
    now = datetime.now(UTC)
    rules = assignment.rules or state.rules
    learner = state.ensure_learner(store())
    progress.record(store(), learner, drill.verdict, rules, now)
    answer = progress.answer_of(drill.verdict, rules, now)
    done = homework().todo(state.learner_token, lesson_steps)
    position = next((i.done for i in done if i.assignment.id == assignment.id), 0)
    homework().record_drill_answer(
        member, assignment, position, answer, seconds=int(time.monotonic() - pages.shown_at)
    )


def _next(state: AppState) -> None:
    pages = state.homework
    if pages.drill is not None and not pages.drill.finished:
        pages.drill.next()
        pages.shown_at = time.monotonic()
    else:
        pages.drill = pages.assignment = pages.membership = None


def _drill(state: AppState, assignment: Assignment, drill: QuizSession) -> None:
    t = state.t
    _ = t.gettext
    st.subheader(work_title(assignment, t, title_of(state), markdown=True), anchor=False)
    with st.container(border=True):
        ui.question_prompt(drill, state)
        ui.quiz_answers(drill, state, key="homework", on_done=lambda: _answered(state))
        if drill.verdict is not None:
            label = _("Next question") if not drill.finished else _("Back to my homework")
            st.button(label, key="homework-next", on_click=_next, args=(state,),
                      type="primary", shortcut="Enter")
            ui.verdict_view(drill.verdict, state)
    st.markdown(ui.score_line(drill, t))
    if assignment.rules is not None:
        st.caption(t.format("Table: {name}", name=t.table_name(assignment.rules)))


def _todo(state: AppState, groups: list[Membership]) -> None:
    t = state.t
    _ = t.gettext
    titles = title_of(state)
    items = homework().todo(state.learner_token, lesson_steps)
    st.subheader(_("To do"), anchor=False)
    if not items:
        st.caption(_("Your teacher has given no work yet."))
    now = datetime.now(UTC)
    zone = browser_zone(state.language)
    for item in items:
        with st.container(border=True):
            text, button = st.columns([4, 1], vertical_alignment="center")
            line = todo_line(item, t, titles, zone, now)
            if item.finished:
                line = ":material/check_circle: " + line
            elif item.overdue(now) or item.earlier:
                line = ":material/schedule: " + line
            text.markdown(line)
            if item.finished:
                continue
            if item.earlier and item.assignment.lesson_id is not None:
                if button.button(_("Start again"), key=f"homework-{item.assignment.id}",
                                 width="stretch"):
                    _open_lesson(state, item.assignment.lesson_id, again=True)
                continue
            if item.assignment.kind == "drill":
                label = _("Continue") if item.done else _("Start")  # a drill half done goes on
                button.button(label, key=f"homework-{item.assignment.id}",
                              on_click=_start_drill, args=(state, item), width="stretch")
            elif item.assignment.lesson_id is not None and button.button(
                _("Open"), key=f"homework-{item.assignment.id}", width="stretch"
            ):
                _open_lesson(state, item.assignment.lesson_id)
    st.caption(
        _("Your groups:")
        + " "
        + ", ".join(f"{plain_title(g.group_name)} ({plain_title(g.nickname)})" for g in groups)
    )


def _join_form(state: AppState, *, in_a_group: bool) -> None:
    t = state.t
    _ = t.gettext
    given = str(st.query_params.get("group", ""))[:12]
    with st.form("homework-join", border=True):
        if not in_a_group:
            st.markdown("**" + _("Join a group") + "**")
        code = st.text_input(_("Group code"), value="" if in_a_group else given, max_chars=12)
        nickname = st.text_input(_("Your nickname"), max_chars=24)
        if st.form_submit_button(_("Join"), type="primary"):
            _join(state, code, nickname)
            st.rerun()


def main() -> None:
    state = app_state()
    t = state.t
    st.title(t.gettext("My homework"), anchor=False)
    pages = state.homework
    if pages.message:
        st.error(pages.message, icon=":material/error:")
    if pages.drill is not None and pages.assignment is not None:
        _drill(state, pages.assignment, pages.drill)
        return
    groups = homework().memberships(state.learner_token)
    if groups:
        _todo(state, groups)
        with st.expander(t.gettext("Join another group")):
            _join_form(state, in_a_group=True)
    else:
        _join_form(state, in_a_group=False)


main()
