"""Class — teacher: create or reopen a class session, project it, reveal, and read the results.

The page is a small state machine over the session in the database: no desk (create or reopen),
the lobby (before the first hand), a question (answers arriving), its reveal, and the results
once finished. Every change goes through ``tutor.classroom``: in a button's callback, or, for the
forms whose values it needs (a new class, a class reopened by code and key), on the run of the
click, with the values the form shows then.
"""

from __future__ import annotations

import random

import streamlit as st

from tutor.classroom import (
    MAX_HANDS_CHARS,
    MAX_QUESTIONS,
    ClassroomError,
    HandsError,
    SessionInfo,
    UnknownSessionError,
    drill_questions,
    lesson_questions,
    parse_hands,
)
from tutor.lessons import Lesson, localize
from tutor.quiz_questions import Category, unavailable_reason
from tutor.render.class_messages import (
    error_message,
    hand_problem_message,
    markdown_text,
    retention_text,
)
from tutor.render.naming import category_name
from tutor.render.translator import Translator
from tutor.rules import PRESETS
from tutor.ui.class_mode.forms import (
    GROUP_CHOICE_KEY,
    KEY_MAX_CHARS,
    TITLE_MAX_CHARS,
    ClassChoice,
    chosen_rules,
    group_choices,
    lesson_choices,
    reopen_class,
    steps_tables_note,
    too_long,
)
from tutor.ui.class_mode.join import join_panel
from tutor.ui.class_mode.live import (
    best_play,
    distribution_chart,
    evs_view,
    header,
    join_pattern_view,
    live_counter,
    question_view,
    room_controls,
)
from tutor.ui.class_mode.reports import results_view
from tutor.ui.client import client_address
from tutor.ui.faults import callback_guard
from tutor.ui.resources import classroom, homework
from tutor.ui.state import app_state
from tutor.visit import AppState, ClassPages, TeacherDesk

SOURCES = ("lesson", "drill", "hands")
#: This browser's classes listed on the reopen tab (the newest; older ones open by code and key).
OWN_CLASSES_SHOWN = 12
EXAMPLE_HANDS = "10 6 / 10\nA 7 / 9\n8 8 / 10\n11 / 6\nA 10 / A insurance"
@callback_guard
def _create(state: AppState, pages: ClassPages, choice: ClassChoice) -> bool:
    """Build the questions from the chosen source, create the session, open it as its teacher;
    whether it did (the page is drawn again, on the class), else ``pages.message`` says why
    (drawn under the form in the same run). Guarded as a callback is: a database fault returns
    None, and the run drawn again says it."""
    t = state.t
    pages.message = None
    pages.problems = []
    title = too_long(choice.title, TITLE_MAX_CHARS)
    if title is None:
        pages.message = t.format("A title has {most} characters at most.", most=TITLE_MAX_CHARS)
        return False
    source = choice.source
    lesson = choice.lesson if source == "lesson" else None
    rules = choice.rules
    seed = random.SystemRandom().randrange(2**32)
    try:
        if source == "hands":
            questions = parse_hands(str(choice.hands), rules)
        elif source == "drill":
            category = choice.category
            if not isinstance(category, Category):
                category = Category.HARD
            count = int(choice.count) if isinstance(choice.count, (int, float)) else 10
            questions = drill_questions(category, count, rules, seed=seed)
        else:
            tables = None if choice.own_tables else rules
            questions = lesson_questions(lesson, tables, seed=seed) if lesson else []
        if not questions:
            pages.message = t.gettext("These choices give no hand to ask at this table.")
            return False
        room = classroom()
        info, key = room.create(
            title,
            rules,
            questions,
            learner_token=state.learner_token,
            client=client_address(),  # what limits a script that sends no cookie
            join_step=choice.join_step,
            # In the teacher's language: the roster they read and project.
            given_names=state.language if choice.given_names else None,
            group_id=None if choice.group is None else choice.group.group_id,
        )
        if choice.group is not None:
            homework().class_run(choice.group)
        teacher = room.open_as_teacher(info.code, key, learner_token=state.learner_token)
        pages.desk = TeacherDesk(teacher, key=key)
    except HandsError as error:
        pages.message = t.gettext("Some hands cannot be asked:")
        pages.problems = [hand_problem_message(problem, t) for problem in error.problems]
    except (ClassroomError, ValueError) as error:
        pages.message = error_message(error, t)
    return pages.desk is not None


def _key_noted(desk: TeacherDesk) -> None:
    desk.key = None


@callback_guard
def _next(state: AppState, pages: ClassPages, position: int) -> None:
    """Move on from question ``position`` (the one this page showed): a second click, or a
    click in a stale tab, finds the class already moved and does nothing."""
    desk = pages.desk
    assert desk is not None
    try:
        classroom().next_question(desk.teacher, expected_position=position)
    except ClassroomError as error:
        pages.message = error_message(error, state.t)
        return
    desk.key = None
    desk.reveal = None
    pages.message = None


@callback_guard
def _reveal(state: AppState, pages: ClassPages, position: int) -> None:
    """Reveal question ``position``, the one this page showed, never one the class moved to."""
    desk = pages.desk
    assert desk is not None
    try:
        desk.reveal = classroom().reveal(desk.teacher, expected_position=position)
    except ClassroomError as error:
        pages.message = error_message(error, state.t)
        return
    desk.reveal_position = position
    pages.message = None


@callback_guard
def _finish(pages: ClassPages, position: int) -> None:
    desk = pages.desk
    assert desk is not None
    classroom().finish(desk.teacher, expected_position=position)
    desk.key = None


@callback_guard
def _leave(pages: ClassPages) -> None:
    pages.desk = None
    pages.message = None


def start_screen(state: AppState, pages: ClassPages) -> None:
    t = state.t
    _ = t.gettext
    new, reopen = st.tabs([_("New class"), _("Reopen a class")])
    with new:
        title = st.text_input(
            _("Title"),
            key="class-title",
            placeholder=_("Tuesday, group B"),
            max_chars=TITLE_MAX_CHARS,
        )
        source = st.segmented_control(
            _("Questions from"),
            SOURCES,
            default="lesson",
            format_func=lambda s: {
                "lesson": _("a lesson"),
                "drill": _("a drill"),
                "hands": _("hands I type"),
            }[s],
            key="class-source",
            required=True,
        )
        lessons = lesson_choices(state)
        lesson: Lesson | None = None
        hands: object = ""
        category: object = Category.HARD
        count: object = 10
        if source == "lesson" and lessons:
            chosen = st.selectbox(
                _("Lesson"),
                list(lessons),
                format_func=lambda i: localize(lessons[i].title, state.language),
                key="class-lesson",
            )
            lesson = lessons.get(str(chosen))
        elif source == "drill":
            category = st.segmented_control(
                _("Category"),
                [c for c in Category if c.is_decision],
                default=Category.HARD,
                format_func=lambda c: category_name(c, t),
                key="class-category",
                required=True,
            )
            count = st.number_input(
                _("Number of hands"), 1, MAX_QUESTIONS, 10, key="class-count"
            )
        elif source == "hands":
            hands = st.text_area(
                _("Hands, one per line: the player's cards / the dealer's card"),
                key="class-hands",
                placeholder=EXAMPLE_HANDS,
                max_chars=MAX_HANDS_CHARS,
                height=160,
                help=_(
                    "Ranks alone (10 6 / 10) or with suits (10♠ 6♥ / 10♣). Add the word insurance"
                    " to ask for the insurance decision: A 10 / A insurance."
                ),
            )
        options = ["settings", *(["lesson"] if lesson is not None else []), *PRESETS]
        rules_choice = st.selectbox(
            _("Table rules"),
            options,
            index=1 if lesson is not None else 0,
            format_func=lambda o: (
                t.format("The table in Settings ({name})", name=t.table_name(state.rules))
                if o == "settings"
                else t.format(
                    "The lesson's table ({name})", name=t.table_name(lesson.rules) if lesson else ""
                )
                if o == "lesson"
                else t.preset_name(o)
            ),
            key="class-rules",
        )
        rules = chosen_rules(state, lesson, rules_choice)
        if lesson is not None and rules_choice == "lesson":
            steps_tables_note(lesson, t)
        if source == "drill":
            why = unavailable_reason(category, rules) if isinstance(category, Category) else None
            if why is not None:
                st.info(t.refusal(why, {}))
        join_step = st.checkbox(
            _("A second step to join: symbols shown on the projector"),
            key="class-join-step",
            help=_(
                "Each phone taps the symbols shown under the code, after the code: a script"
                " that has only the code cannot join."
            ),
        )
        given_names = st.checkbox(
            _("Names given by the app (two friendly words) instead of typed nicknames"),
            key="class-given-names",
            help=_(
                "Students type no name: each gets two words such as Brave Otter, unique in the"
                " class, in the language of this page."
            ),
        )
        groups = group_choices(state)
        group = None
        if groups:
            chosen_group = st.selectbox(
                _("For a homework group (its follow-up shows the results)"),
                ["", *groups],
                format_func=lambda code: groups[code].name if code else _("No group"),
                key=GROUP_CHOICE_KEY,
            )
            group = groups.get(str(chosen_group))
        if st.button(
            _("Create the class"),
            key="class-create",
            type="primary",
            icon=":material/add_circle:",
        ):  # the form's values of this click
            choice = ClassChoice(
                title=title,
                source=source,
                rules=rules,
                lesson=lesson,
                hands=hands,
                category=category,
                count=count,
                join_step=bool(join_step),
                given_names=bool(given_names),
                own_tables=lesson is not None and rules_choice == "lesson",
                group=group,
            )
            if _create(state, pages, choice) is not False:
                st.rerun()
    with reopen:
        # Only this browser's own classes are listed: whoever opens this page must not learn
        # other teachers' titles, dates or codes. Any other class is reopened by what only its
        # teacher holds, its code and key.
        own_classes(state, pages)
        st.markdown("**" + _("A class created elsewhere: its code and teacher key") + "**")
        code = st.text_input(
            _("Class code"), key="class-reopen", max_chars=12, placeholder="ABC234"
        )
        if pages.clear_key:  # a key tried: its box starts empty again
            st.session_state["class-key"] = ""
            pages.clear_key = False
        typed_key = st.text_input(
            _("Teacher key"), type="password", key="class-key", max_chars=KEY_MAX_CHARS
        )
        opened = st.button(
            _("Open"),
            key="class-open",
            type="primary",
            icon=":material/lock_open:",
        )
        # The code and key of this click, read where they are drawn.
        if opened and reopen_class(state, pages, code, typed_key) is not False:
            st.rerun()
    _messages(pages)


def _class_line(info: SessionInfo, t: Translator) -> str:
    """``Mardi, groupe B · 2026-12-01 09:05 · ABC234 · question 3 of 12`` (or where it stands)."""
    if info.is_finished:
        where = t.gettext("finished")
    elif info.current < 0:
        where = t.gettext("not started")
    else:
        where = t.format("question {n} of {total}", n=info.current + 1, total=info.questions)
    when = f"{info.created_at:%Y-%m-%d %H:%M}"
    return " · ".join([markdown_text(info.title), when, info.code, where])


def own_classes(state: AppState, pages: ClassPages) -> None:
    """The classes this browser created and still kept, newest first, each a click away (the
    browser's private token stands for the key)."""
    t = state.t
    mine = classroom().classes_of(state.learner_token)
    if not mine:
        return
    st.markdown("**" + t.gettext("Your classes on this browser") + "**")
    for info in mine[:OWN_CLASSES_SHOWN]:
        line, button = st.columns([5, 1], vertical_alignment="center")
        line.markdown(_class_line(info, t))
        button.button(
            t.gettext("Open"),
            key=f"class-own-{info.code}",
            on_click=_reopen_own,
            args=(state, pages, info.code),
            width="stretch",
        )


@callback_guard
def _reopen_own(state: AppState, pages: ClassPages, code: str) -> None:
    pages.message = None
    pages.problems = []
    try:
        teacher = classroom().open_own(code, state.learner_token)
    except ClassroomError as error:
        pages.message = error_message(error, state.t)
        return
    pages.desk = TeacherDesk(teacher)


def _messages(pages: ClassPages) -> None:
    if pages.message:
        st.error(pages.message, icon=":material/error:")
        for problem in pages.problems:
            st.markdown("- " + problem)


def key_once(desk: TeacherDesk, t: Translator) -> None:
    """The teacher key, this once, with what it is for: on a screen of its own, before the join
    code and the QR code, so that the key is never on the page the teacher projects."""
    assert desk.key is not None
    with st.container(border=True):
        st.warning(
            t.gettext(
                "Write this teacher key down now: it is shown only this once. You need it to"
                " reopen this class (another tab, another computer, the results next week)."
            ),
            icon=":material/key:",
        )
        st.info(
            t.gettext(
                "Do not project this screen. The join code for students comes next, once you"
                " have written the key down."
            ),
            icon=":material/key:",
        )
        st.code(desk.key, language=None)
        st.button(
            t.gettext("I have written it down"),
            key="class-key-noted",
            on_click=_key_noted,
            args=(desk,),
        )


def projector(state: AppState, pages: ClassPages, info: SessionInfo) -> None:
    """The question on screen for the class: the hand, the answers arriving, then the reveal.

    Laid out for a 1366x768 projector: the cards and the question on the left, what the teacher
    clicks and what the class learns on the right, all above the fold."""
    t = state.t
    _ = t.gettext
    desk = pages.desk
    assert desk is not None
    room = classroom()
    reveal = desk.shown_reveal(info)
    if info.revealed and reveal is None:
        try:
            reveal = desk.reveal = room.reveal(desk.teacher, expected_position=info.current)
        except ClassroomError:  # another tab moved the class on since ``info`` was read
            st.rerun()
        desk.reveal_position = info.current
    question = reveal.question if reveal is not None else room.question(desk.teacher)
    assert question is not None  # 0 <= info.current: a question is on screen
    hand, side = st.columns([5, 3], gap="medium")
    with hand:
        question_view(question, t, large=True)
    if reveal is None:
        with side:
            live_counter(
                desk.teacher,
                state.language,
                lobby=False,
                large=state.presentation,
                desk=desk,
                position=info.current,
            )
            st.button(
                _("Reveal"),
                key="class-reveal",
                on_click=_reveal,
                args=(state, pages, info.current),
                type="primary",
                icon=":material/visibility:",
                width="stretch",
            )
        return
    with side:
        best_play(reveal, t)
        distribution_chart(reveal, t)
        last = info.current + 1 >= info.questions
        if not last:
            st.button(
                _("Next hand"),
                key="class-next",
                on_click=_next,
                args=(state, pages, info.current),
                type="primary",
                icon=":material/skip_next:",
                width="stretch",
            )
        st.button(
            _("Finish and see the results") if last else _("Finish now"),
            key="class-finish",
            on_click=_finish,
            args=(pages, info.current),
            type="primary" if last else "secondary",
            icon=":material/flag:",
            width="stretch",
        )
    with hand:
        evs_view(reveal, t)


def main() -> None:
    state = app_state()
    pages = state.classes
    t = state.t
    _ = t.gettext
    desk = pages.desk
    if desk is None:
        st.title(_("Class — teacher"), anchor=False)
        start_screen(state, pages)
        return
    try:
        info = classroom().info(desk.teacher.code)
    except UnknownSessionError:
        pages.desk = None
        st.rerun()
    if desk.key is not None:  # the key's own screen, before anything is projected
        st.title(markdown_text(info.title), anchor=False)
        key_once(desk, t)
        return
    if info.is_finished:
        st.title(markdown_text(info.title), anchor=False)
        st.markdown("## " + _("Results"))
        st.caption(retention_text(info, t))
        results_view(info, desk.teacher, t)
    elif info.current < 0:
        st.title(markdown_text(info.title), anchor=False)
        count = t.ngettext("{n} question", "{n} questions", info.questions).format(
            n=info.questions
        )
        st.caption(f"{count} · {retention_text(info, t)}")
        with join_panel(info, pages, t):
            pattern = classroom().join_pattern(desk.teacher)
            if pattern is not None:
                join_pattern_view(pattern, t)
            lobby, start = st.columns([1, 2], vertical_alignment="bottom")
            with lobby:
                live_counter(desk.teacher, state.language, lobby=True, large=state.presentation)
            start.button(
                _("Show the first hand"),
                key="class-start",
                on_click=_next,
                args=(state, pages, info.current),
                type="primary",
                icon=":material/play_arrow:",
                width="stretch",
            )
            room_controls(desk, info, state.language, t)
    else:
        header(info, t, classroom().join_pattern(desk.teacher))
        projector(state, pages, info)
        label = (
            _("The class is locked · remove students")
            if info.locked
            else _("Lock the class, remove students")
        )
        with st.expander(label, icon=":material/lock:" if info.locked else ":material/group:"):
            room_controls(desk, info, state.language, t)
    _messages(pages)
    st.divider()
    st.button(
        _("Close the teacher view"),
        key="class-leave",
        on_click=_leave,
        args=(pages,),
        icon=":material/logout:",
        help=_("The class stays on the server: reopen it with its key."),
    )


main()
