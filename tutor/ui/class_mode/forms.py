"""The teacher's forms, as plain functions of what they showed when sent: a new class's choices
(``ClassChoice``) and a class reopened by its code and key, with their bounds; the course's
lessons a class is made from.

Why apart from the page: the page draws the forms and reads their widgets where it draws them;
what the values then mean (the table chosen, a key too long to try) is said here once, so that
``tutor/ui/pages/class_teacher.py`` reads as the class's screens.
"""

from __future__ import annotations

from dataclasses import dataclass

import streamlit as st

from tutor.classroom import ClassroomError
from tutor.homework import GroupTeacher
from tutor.lessons import Lesson, load_course
from tutor.lessons.lesson import own_table_of
from tutor.quiz_questions import Category
from tutor.render.class_messages import error_message
from tutor.render.translator import Translator
from tutor.rules import PRESETS, TableRules
from tutor.ui.client import client_address
from tutor.ui.faults import callback_guard
from tutor.ui.resources import classroom
from tutor.visit import AppState, ClassPages, TeacherDesk

#: A class's title as kept (``Classroom.create`` keeps 80 characters): the field stops there, and
#: a longer value (a script sends what it likes) is refused before the title is even split.
TITLE_MAX_CHARS = 80
#: A teacher key is 17 characters as shown (an older class's key, 12): 64 leaves room for spaces
#: typed between the groups, and a longer value is refused before it is read, let alone hashed.
KEY_MAX_CHARS = 64


def too_long(value: object, most: int) -> str | None:
    """The text of a field, or None when it is longer than ``most`` characters. Streamlit 1.67
    also cuts a widget's value to its ``max_chars`` on the server; the check is said here again so
    that the bound holds before any work whatever the widget does in another version."""
    text = str(value) if isinstance(value, str) else ""
    return None if len(text) > most else text


@st.cache_resource(show_spinner=False)
def course_lessons(paths: tuple[str, ...] | None) -> dict[str, Lesson]:
    """The course's lessons by id, loaded once per server (their hands only: no strategy check)."""
    course = load_course(list(paths) if paths is not None else None, strategy=None)
    return {lesson.id: lesson for lesson in course.lessons}


def lesson_choices(state: AppState) -> dict[str, Lesson]:
    """The course's lessons, then this browser's own published ones (« Mes leçons »)."""
    from tutor.ui.resources import shelf

    choices = dict(course_lessons(state.lesson_paths))
    choices.update({lesson.id: lesson for lesson in shelf().published_of(state.learner_token)})
    return choices


def chosen_rules(state: AppState, lesson: Lesson | None, choice: object) -> TableRules:
    """The table the class plays at: the lesson's, a preset, or the one in Settings."""
    if choice == "lesson" and lesson is not None:
        return lesson.rules
    if isinstance(choice, str) and choice in PRESETS:
        return PRESETS[choice]
    return state.rules


@dataclass(frozen=True)
class ClassChoice:
    """What the new-class form shows when "Create the class" is clicked (the widgets' values,
    as drawn in that run: a title typed just before the click is in it)."""

    title: object
    source: object
    rules: TableRules
    lesson: Lesson | None = None
    hands: object = ""
    category: object = Category.HARD
    count: object = 10
    join_step: bool = False
    given_names: bool = False
    #: The lesson's tables: each question at its step's table, in its step's words (else every
    #: hand at ``rules``, in the quiz's words).
    own_tables: bool = False
    #: The study group the class is run for (its results join the group's follow-up).
    group: GroupTeacher | None = None


#: The key of the new-class form's group choice: the group's follow-up page sets it before it
#: opens this page, so that the form starts on that group.
GROUP_CHOICE_KEY = "class-group"


def group_choices(state: AppState) -> dict[str, GroupTeacher]:
    """The study groups a class can be run for, by code: those this browser created, and the one
    open on the homework page (opened there with its key). Never another teacher's: each is a
    ``GroupTeacher``, made only from the group's creating browser or its key."""
    from tutor.ui.resources import homework

    choices = {group.code: group for group in homework().groups_of(state.learner_token)}
    opened = state.homework.teacher
    if opened is not None:
        choices.setdefault(opened.code, opened)
    return choices


@callback_guard
def reopen_class(state: AppState, pages: ClassPages, code: object, typed_key: object) -> bool:
    """Open the class ``code`` with the key typed, both as the form showed them on the click;
    whether the page must be drawn again (the class opened, or the key's box to empty), else
    ``pages.message`` says why, under the form in the same run (a wrong key's lock-out counts
    from this try, not from a second drawing). Guarded as a callback is: a database fault
    returns None, and the run drawn again says it."""
    pages.message = None
    pages.problems = []
    key = too_long(typed_key, KEY_MAX_CHARS)
    if key is None:  # no key is this long: refused before the lock-out or the hash sees it
        pages.message = state.t.gettext("This is not the teacher key of this class.")
        pages.clear_key = True  # its box is emptied before it is drawn again
        return True
    try:
        # The guesser is this browser: wrong keys typed here slow this browser down, never the
        # teacher's own.
        teacher = classroom().open_as_teacher(
            str(code if isinstance(code, str) else "")[:12],
            key,
            learner_token=state.learner_token,
            client=client_address(),  # a made-up code is this address's failure, as a join's
        )
    except ClassroomError as error:
        pages.message = error_message(error, state.t)
        return False
    pages.desk = TeacherDesk(teacher)
    pages.clear_key = True
    return True


def steps_tables_note(lesson: Lesson, t: Translator) -> None:
    """Under the lesson's table, when some steps play at another: each hand is asked at its
    step's table, in the step's words, and which tables those are."""
    tables = list(dict.fromkeys(own_table_of(step) or lesson.rules for step in lesson.steps))
    if len(tables) > 1:
        st.caption(
            t.format(
                "Each hand is asked at its step's table, in the lesson's words: {tables}.",
                tables=", ".join(t.table_name(table) for table in tables),
            )
        )
