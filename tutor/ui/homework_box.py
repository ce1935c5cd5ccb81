"""Homework where the student already is: the « À faire » box on the home page (the Lessons
page), and the time and steps of an assigned lesson counted as it is played; and the lessons a
group can be given, built-in or the teacher's own (« Mes leçons »), looked up by id.

A module of its own so that the Lessons page calls one function for each, and homework's rules
stay in ``tutor.homework``.

A teacher's own lesson is given by its progress key (``@`` and its link token,
``tutor.authoring.progress_key``): the id its students' progress is kept under when its link
opens it, so that « À faire », the follow-up and the time counted read the same rows as for a
built-in lesson. Only its published version counts: a draft or a lesson no longer valid has no
steps (``None``) and opens nothing.
"""

from __future__ import annotations

import time
from datetime import UTC, datetime

import streamlit as st

from tutor.authoring import PROGRESS_PREFIX
from tutor.homework.lesson_work import step_answers
from tutor.lessons import Lesson, localize
from tutor.render.homework_reports import TitleOf, todo_line
from tutor.ui.client import browser_zone
from tutor.ui.resources import course_check, homework, shelf
from tutor.visit import AppState


def assigned_lesson(lesson_id: str) -> Lesson | None:
    """The lesson an assignment names: a playable lesson of the served course, or a teacher's
    published lesson by its progress key, as its students play it; None for neither."""
    if lesson_id.startswith(PROGRESS_PREFIX):
        return shelf().published_lesson(lesson_id[len(PROGRESS_PREFIX):])
    for file in course_check(None).course.files:
        if file.lesson is not None and file.lesson.id == lesson_id and file.is_ok:
            return file.lesson
    return None


def lesson_steps(lesson_id: str) -> int | None:
    """How many steps an assigned lesson has (None for one that no longer opens): what
    « À faire » and the follow-up count a lesson's work out of."""
    lesson = assigned_lesson(lesson_id)
    return None if lesson is None else len(lesson.steps)


def lesson_titles(state: AppState) -> dict[str, str]:
    """The lessons this browser can give a group, by id, titled in the learner's language: the
    served course's playable lessons (a broken file is never offered as work, nor named as
    one), then this browser's own published ones (« Mes leçons »)."""
    titles = {
        file.lesson.id: localize(file.lesson.title, state.language)
        for file in course_check(None).course.files
        if file.lesson is not None and file.is_ok
    }
    for own in shelf().published_of(state.learner_token):
        titles[own.id] = localize(own.title, state.language)
    return titles


def offered_title(lesson_id: str, titles: dict[str, str], state: AppState) -> str:
    """A lesson as the assignment form lists it: a teacher's own marked « Mes leçons »."""
    if lesson_id.startswith(PROGRESS_PREFIX):
        return state.t.format("My lessons: {title}", title=titles[lesson_id])
    return titles[lesson_id]


def title_of(state: AppState, known: dict[str, str] | None = None) -> TitleOf:
    """A lesson's title by its id, for any assigned lesson (a student's teacher's own lesson
    too, which is not this browser's): the course's and this browser's titles (``known``, when
    the caller has them already; else looked up at the first title asked, so a drill's title
    reads no course), else the published lesson's own."""
    titles: list[dict[str, str]] = [known] if known is not None else []

    def title(lesson_id: str) -> str | None:
        if not titles:
            titles.append(lesson_titles(state))
        if lesson_id in titles[0]:
            return titles[0][lesson_id]
        lesson = assigned_lesson(lesson_id) if lesson_id.startswith(PROGRESS_PREFIX) else None
        return None if lesson is None else localize(lesson.title, state.language)

    return title


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
    titles = title_of(state)
    zone, now = browser_zone(state.language), datetime.now(UTC)
    with st.container(border=True):
        st.markdown("**" + t.gettext("To do") + "**")
        for item in items[:5]:
            st.markdown("- " + todo_line(item, t, titles, zone, now))
        st.page_link("tutor/ui/pages/homework_student.py", label=t.gettext("My homework"),
                     icon=":material/checklist:")


def lesson_worked(state: AppState) -> None:
    """Count the step just done of an assigned lesson for every group that was given it: its
    graded answers (the group's copy, ``tutor.homework.lesson_work``), the time since the
    previous step of the same lesson, and the steps done so far."""
    run = state.lesson
    if run is None or state.learner is None:
        return
    lesson_id = run.lesson.id
    now = time.monotonic()
    previous = state.homework.lesson_timed
    seconds = int(now - previous[1]) if previous is not None and previous[0] == lesson_id else 0
    state.homework.lesson_timed = (lesson_id, now)
    service = homework()
    answers = step_answers(run, run.step, datetime.now(UTC))
    for item in service.todo(state.learner_token, lesson_steps):
        if item.assignment.kind == "lesson" and item.assignment.lesson_id == lesson_id:
            if item.earlier and run.finished:  # finished before it was given: started again
                continue
            total = item.total or len(run.lesson.steps)
            service.record_lesson_answers(item.membership, item.assignment, answers)
            service.record_lesson_time(
                item.membership,
                item.assignment,
                seconds=seconds,
                steps_done=run.completed,
                finished=run.completed >= total,
            )
