"""Homework where the student already is: the « À faire » box on the home page (the Lessons
page), and the time and steps of an assigned lesson counted as it is played.

A module of its own so that the Lessons page calls one function for each, and homework's rules
stay in ``tutor.homework``.
"""

from __future__ import annotations

import time

import streamlit as st

from tutor.lessons import localize
from tutor.render.homework_reports import todo_line
from tutor.ui.resources import course_check, homework
from tutor.visit import AppState


def lesson_steps(lesson_id: str) -> int | None:
    """How many steps a lesson of the served course has (None for one it no longer has): what
    « À faire » and the follow-up count a lesson's work out of."""
    for file in course_check(None).course.files:
        if file.lesson is not None and file.lesson.id == lesson_id:
            return len(file.lesson.steps)
    return None


def lesson_titles(state: AppState) -> dict[str, str]:
    """The served course's playable lessons by id, titled in the learner's language (a broken
    file is never offered as work, nor named as one)."""
    return {
        file.lesson.id: localize(file.lesson.title, state.language)
        for file in course_check(None).course.files
        if file.lesson is not None and file.is_ok
    }


def todo_box(state: AppState) -> None:
    """« À faire »: the work not finished yet, the soonest due first, with a link to do it; nothing
    for a learner in no group. A newcomer (no learner yet) opens no database for it."""
    if state.learner is None:
        return
    items = [
        item for item in homework().todo(state.learner_token, lesson_steps) if not item.finished
    ]
    if not items:
        return
    t = state.t
    titles = lesson_titles(state)
    with st.container(border=True):
        st.markdown("**" + t.gettext("To do") + "**")
        for item in items[:5]:
            st.markdown("- " + todo_line(item, t, titles.get))
        st.page_link("tutor/ui/pages/homework_student.py", label=t.gettext("My homework"),
                     icon=":material/checklist:")


def lesson_worked(state: AppState) -> None:
    """Count the step just done of an assigned lesson: the time since the previous step of the
    same lesson, and the steps done so far, for every group that was given it."""
    run = state.lesson
    if run is None or state.learner is None:
        return
    lesson_id = run.lesson.id
    now = time.monotonic()
    previous = state.homework.lesson_timed
    seconds = int(now - previous[1]) if previous is not None and previous[0] == lesson_id else 0
    state.homework.lesson_timed = (lesson_id, now)
    service = homework()
    for item in service.todo(state.learner_token, lesson_steps):
        if item.assignment.kind == "lesson" and item.assignment.lesson_id == lesson_id:
            total = item.total or len(run.lesson.steps)
            service.record_lesson_time(
                item.membership,
                item.assignment,
                seconds=seconds,
                steps_done=run.completed,
                finished=run.completed >= total,
            )
