"""Homework — teacher: make a study group, give it lessons and drills with a due date, and follow
who did what (the tables, the spreadsheet, the printable page).

The rules live in ``tutor.homework`` and the words in ``tutor.render.homework_reports``; this page
draws forms and tables and passes the widgets' values to them.
"""

from __future__ import annotations

from datetime import date, datetime, time, timedelta, tzinfo

import streamlit as st

from tutor.homework import (
    MAX_HANDS,
    Assignment,
    GroupTeacher,
    HomeworkError,
    follow_up,
    live_classes,
)
from tutor.homework.core import MARK_SCALES
from tutor.quiz_questions import Category, unavailable_reason
from tutor.render.class_reports import page_frame
from tutor.render.homework_reports import (
    TitleOf,
    class_columns,
    follow_up_html,
    follow_up_xlsx,
    gradebook_columns,
    gradebook_csv,
    guests_line,
    kind_columns,
    missed_columns,
    not_started_columns,
    work_columns,
    work_title,
)
from tutor.render.markup import plain_title
from tutor.render.naming import category_name
from tutor.render.refusals import refusal_text
from tutor.ui.class_mode.forms import GROUP_CHOICE_KEY
from tutor.ui.class_mode.join import base_url, qr_data_uri
from tutor.ui.class_mode.reports import Download, download_row
from tutor.ui.client import browser_zone, client_address
from tutor.ui.faults import callback_guard
from tutor.ui.homework_box import lesson_steps, lesson_titles, offered_title, title_of
from tutor.ui.resources import classroom, homework
from tutor.ui.state import app_state
from tutor.visit import AppState


def _course_titles(state: AppState) -> tuple[dict[str, str], TitleOf]:
    """The lessons a group can be given (the course's and this browser's own published ones),
    titled in the teacher's language; and every assigned lesson's title by its id."""
    titles = lesson_titles(state)
    return titles, title_of(state, titles)


@callback_guard
def _create(state: AppState, name: str) -> None:
    pages = state.homework
    try:
        pages.teacher, pages.key_shown = homework().create_group(
            name, state.learner_token, client=client_address()
        )
        pages.message = None
    except HomeworkError as error:
        pages.message = refusal_text(error, state.t)


@callback_guard
def _open(state: AppState, code: str, key: str) -> None:
    pages = state.homework
    try:
        # The guesser is this browser (and its network client): wrong keys typed here slow this
        # browser down, never the group's teacher in theirs.
        opened = homework().open_group(
            code, key, learner_token=state.learner_token, client=client_address()
        )
        pages.teacher, pages.key_shown = opened, None
        pages.message = None
    except HomeworkError as error:
        pages.message = refusal_text(error, state.t)


def _reopen(state: AppState, group: GroupTeacher) -> None:
    state.homework.teacher, state.homework.key_shown = group, None


def _close(state: AppState) -> None:
    state.homework.teacher = state.homework.key_shown = None


#: The due time the form offers first: the end of a school day.
DUE_TIME = time(18, 0)


def _due(day: date, hour: time, zone: tzinfo) -> datetime:
    """A due date and time as the teacher typed them, where the teacher is (their browser's
    zone): « 18:00 » is 18:00 in the classroom, whatever the server's clock says."""
    return datetime.combine(day, hour, tzinfo=zone)


@callback_guard
def _give(
    state: AppState, kind: str, lesson_id: str | None, category: Category | None,
    hands: int, due: datetime,
) -> None:
    pages = state.homework
    teacher = pages.teacher
    if teacher is None:
        return
    try:
        if kind == "lesson" and lesson_id is not None:
            homework().give_lesson(teacher, lesson_id, due)
        elif category is not None:
            homework().give_drill(teacher, category, hands, state.rules, due)
        pages.message = None
    except HomeworkError as error:
        pages.message = refusal_text(error, state.t)


@callback_guard
def _merge(state: AppState, teacher: GroupTeacher, member: str, into: str) -> None:
    pages = state.homework
    try:
        homework().merge(teacher, member, into)
        pages.message = None
    except HomeworkError as error:
        pages.message = refusal_text(error, state.t)


@callback_guard
def _extend(
    state: AppState, teacher: GroupTeacher, assignment: Assignment, member: str,
    due: datetime | None,
) -> None:
    pages = state.homework
    try:
        homework().extend(teacher, assignment, member, due)
        pages.message = None
    except HomeworkError as error:
        pages.message = refusal_text(error, state.t)


def _desk(state: AppState) -> None:
    """No group open: make one, reopen one of this browser's, or open one by code and key."""
    t = state.t
    _ = t.gettext
    make, mine, other = st.tabs([_("New group"), _("My groups"), _("Open with a key")])
    with make, st.form("group-new"):
        name = st.text_input(_("Name of the group"), max_chars=80, placeholder="2nde B")
        if st.form_submit_button(_("Create the group"), type="primary"):
            _create(state, name)
            st.rerun()
    with mine:
        groups = homework().groups_of(state.learner_token)
        if not groups:
            st.caption(_("This browser has made no group yet."))
        for group in groups:
            st.button(
                f"{plain_title(group.name)} · {group.code}", key=f"group-{group.code}",
                on_click=_reopen, args=(state, group),
            )
    with other, st.form("group-open"):
        code = st.text_input(_("Group code"), max_chars=12)
        key = st.text_input(_("Teacher key"), max_chars=40, type="password")
        if st.form_submit_button(_("Open")):
            _open(state, code, key)
            st.rerun()


def _date_format(state: AppState) -> str:
    return "DD/MM/YYYY" if state.language == "fr" else "YYYY-MM-DD"


def _give_form(state: AppState, titles: dict[str, str]) -> None:
    """The kind of work first, outside the form, so that the form shows only its fields: a
    lesson to pick, or a drill's kind of hand and length; then the due date and time."""
    t = state.t
    _ = t.gettext
    zone = browser_zone(state.language)
    today = datetime.now(zone).date()
    with st.container(border=True):
        st.markdown("**" + _("Give work") + "**")
        kind = st.radio(
            _("Kind of work"), ["lesson", "drill"], horizontal=True, key="group-give-kind",
            format_func=lambda kind: _("A lesson") if kind == "lesson" else _("A drill"),
        )
        with st.form("group-give", border=False):
            lesson_id: str | None = None
            category: Category | None = None
            hands = 10
            if kind == "lesson":
                lesson_id = st.selectbox(
                    _("Lesson"), list(titles),
                    format_func=lambda lesson: offered_title(lesson, titles, state),
                    key="group-give-lesson",
                )
            else:
                offered = [c for c in Category if unavailable_reason(c, state.rules) is None]
                category = st.selectbox(
                    _("Drill: kind of hand"), offered, format_func=lambda c: category_name(c, t),
                    key="group-give-category",
                )
                hands = int(st.number_input(_("Hands in the drill"), 1, MAX_HANDS, 10))
                st.caption(t.format("Drills are dealt at your table: {name}.",
                                    name=t.table_name(state.rules)))
            day_col, time_col = st.columns(2)
            day = day_col.date_input(
                _("Due date"), value=today + timedelta(days=7), min_value=today,
                format=_date_format(state), key="group-give-due",
            )
            hour = time_col.time_input(
                _("Due time"), value=DUE_TIME, step=timedelta(minutes=15),
                key="group-give-due-time",
            )
            if st.form_submit_button(_("Give"), type="primary"):
                _give(state, str(kind), lesson_id, category, hands, _due(day, hour, zone))
                st.rerun()


def _follow(state: AppState, teacher: GroupTeacher, title_of: TitleOf) -> None:
    t = state.t
    _ = t.gettext
    zone = browser_zone(state.language)
    members = homework().members(teacher)
    seen = follow_up(
        homework(), teacher, lesson_steps, live_classes(classroom(), teacher, members)
    )
    if not seen.assignments and not seen.classes:
        st.caption(_("No work given yet."))
        return
    # Tables in the page's HTML (``st.table``), not a canvas grid: a screen reader reads them,
    # a browser's find and print see them.
    st.button(_("Refresh"), key="group-refresh", icon=":material/refresh:", type="tertiary")
    if seen.assignments:
        st.subheader(_("Not started"), anchor=False)
        st.table(page_frame(not_started_columns(seen, t, title_of, zone), t).set_index(_("Work")))
        missed = missed_columns(seen, t, title_of)
        if missed[0][1]:
            st.subheader(_("Hands most missed"), anchor=False)
            st.table(page_frame(missed, t).set_index(_("Work")))
        st.subheader(_("Gradebook"), anchor=False)
        chosen = st.segmented_control(
            _("Marks out of"), list(MARK_SCALES), default=seen.scale,
            key=f"group-scale-{seen.scale}",  # drawn anew at the scale the group holds
            format_func=lambda scale: t.format("out of {scale}", scale=scale),
        )
        if chosen in MARK_SCALES and chosen != seen.scale:
            homework().set_mark_scale(teacher, int(chosen))
            st.rerun()
        if seen.members:
            st.table(page_frame(gradebook_columns(seen, t, title_of), t).set_index(_("Student")))
        st.subheader(_("Per student"), anchor=False)
        st.table(page_frame(work_columns(seen, t, title_of, zone), t).set_index(_("Student")))
        _extension_form(state, teacher, seen.assignments, members, title_of)
    if len(members) > 1:
        _merge_form(state, teacher, members)
    if seen.classes:
        st.subheader(_("Live classes"), anchor=False)
        for live in seen.classes:
            st.caption(guests_line(live, t))
        st.table(page_frame(class_columns(seen, t), t).set_index(_("Class")))
    kinds = kind_columns(seen, t)
    if kinds[0][1]:
        st.subheader(_("Mistakes by kind of hand"), anchor=False)
        st.table(page_frame(kinds, t).set_index(_("Student")))
    name = f"devoirs-{teacher.code}" if t.language == "fr" else f"homework-{teacher.code}"
    download_row(
        [
            Download(_("Spreadsheet (.xlsx)"), follow_up_xlsx(seen, t, title_of, zone),
                     f"{name}.xlsx", "group-xlsx"),
            Download(_("Gradebook (.csv)"), gradebook_csv(seen, t, title_of),
                     f"{name}-notes.csv" if t.language == "fr" else f"{name}-marks.csv",
                     "group-grades"),
            Download(_("Printable page"), follow_up_html(seen, t, title_of, zone),
                     f"{name}.html", "group-html"),
        ]
    )


def _extension_form(
    state: AppState, teacher: GroupTeacher, given: tuple[Assignment, ...],
    members: list[str], title_of: TitleOf,
) -> None:
    """More time for one student on one piece of work: a later date and time."""
    t = state.t
    _ = t.gettext
    if not members or not given:
        return
    zone = browser_zone(state.language)
    with st.expander(_("Give one student more time")), st.form("group-extend", border=False):
        work = st.selectbox(
            _("Work"), list(given), format_func=lambda a: work_title(a, t, title_of),
            key="group-extend-work",
        )
        member = st.selectbox(_("Student"), members, key="group-extend-member")
        day_col, time_col = st.columns(2)
        day = day_col.date_input(
            _("New due date"), value=datetime.now(zone).date() + timedelta(days=2),
            min_value=datetime.now(zone).date(), format=_date_format(state),
            key="group-extend-day",
        )
        hour = time_col.time_input(
            _("New due time"), value=DUE_TIME, step=timedelta(minutes=15),
            key="group-extend-time",
        )
        give, back = st.columns(2)
        if give.form_submit_button(_("Give more time"), type="primary") and work is not None:
            _extend(state, teacher, work, str(member), _due(day, hour, zone))
            st.rerun()
        if back.form_submit_button(_("Back to the group's date")) and work is not None:
            _extend(state, teacher, work, str(member), None)
            st.rerun()


def _merge_form(state: AppState, teacher: GroupTeacher, members: list[str]) -> None:
    """One student who joined twice (another device, another nickname) made one again: the
    second name's work counts as the first's, nothing deleted."""
    t = state.t
    _ = t.gettext
    with st.expander(_("One student under two names")), st.form("group-merge", border=False):
        st.caption(
            _(
                "A student who joined again from another device under another name: merge the"
                " second name into the first. Their answers are all kept and count once."
            )
        )
        keep = st.selectbox(_("Keep the name"), members, key="group-merge-keep")
        other = st.selectbox(
            _("Name to merge into it"), members, index=1 if len(members) > 1 else 0,
            key="group-merge-other",
        )
        if st.form_submit_button(_("Merge")):
            _merge(state, teacher, str(other), str(keep))
            st.rerun()


def _run_class(teacher: GroupTeacher) -> None:
    """The class page's form, started on this group (its choice's key set before it is drawn)."""
    st.session_state[GROUP_CHOICE_KEY] = teacher.code


def _key_noted(state: AppState) -> None:
    state.homework.key_shown = None


def _key_once(state: AppState, key: str) -> None:
    """The group's teacher key, this once, on a screen of its own: the students' code and QR
    come after it, so that the key is never on the screen a teacher projects."""
    t = state.t
    with st.container(border=True):
        st.warning(
            t.gettext(
                "Write this teacher key down now: it is shown only this once. With the group's"
                " code it opens the group from another browser."
            ),
            icon=":material/key:",
        )
        st.info(
            t.gettext(
                "Do not project this screen. The code for students comes next, once you have"
                " written the key down."
            ),
            icon=":material/key:",
        )
        st.code(key, language=None)
        st.button(
            t.gettext("I have written it down"),
            key="group-key-noted",
            on_click=_key_noted,
            args=(state,),
        )


def _group(state: AppState, teacher: GroupTeacher) -> None:
    t = state.t
    _ = t.gettext
    st.subheader(plain_title(teacher.name), anchor=False)
    if state.homework.key_shown:  # the key's own screen, before anything is projected
        _key_once(state, state.homework.key_shown)
        return
    link = f"{base_url(state.classes).rstrip('/')}/homework?group={teacher.code}"
    code_col, qr_col = st.columns([3, 1])
    with code_col:
        st.markdown(t.format("Students join with the code **{code}** or this link:",
                             code=teacher.code))
        st.code(link, language=None)
    qr_col.image(qr_data_uri(link), width=160, caption=_("Scan to join"))
    members = homework().members(teacher)
    st.caption(t.plural("{n} student", "{n} students", len(members)) + (
        " · " + ", ".join(members) if members else ""))
    titles, title_of = _course_titles(state)
    _give_form(state, titles)
    if st.button(_("Run a live class for this group"), key="group-run-class",
                 icon=":material/co_present:", on_click=_run_class, args=(teacher,)):
        st.switch_page("tutor/ui/pages/class_teacher.py")
    _follow(state, teacher, title_of)
    st.button(_("Close this group"), on_click=_close, args=(state,), type="tertiary")


def main() -> None:
    state = app_state()
    t = state.t
    st.title(t.gettext("Homework — teacher"), anchor=False)
    if state.homework.message:
        st.error(state.homework.message, icon=":material/error:")
    teacher = state.homework.teacher
    if teacher is None:
        _desk(state)
    else:
        _group(state, teacher)


main()
