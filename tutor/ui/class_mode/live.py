"""The live views of a class: the projector's header and hand, the answers arriving, the reveal
(the class's answers, the best play and why, every play's EV), and the roster.

Drawing only: what to show comes from ``tutor.classroom`` (answers, reveals) and the judge. Every
text that came from a person (a nickname, a title) is escaped before it meets Markdown or HTML.
"""

from __future__ import annotations

import html
import time
from datetime import timedelta

import altair as alt
import pandas as pd
import streamlit as st
from streamlit.errors import StreamlitAPIException

from tutor.cards import format_cards
from tutor.classroom import (
    ClassQuestion,
    Reveal,
    SessionInfo,
    Teacher,
)
from tutor.decision import Action
from tutor.render.card_pictures import hand_html
from tutor.render.class_messages import (
    markdown_text,
    prompt,
    step_explanation,
    symbol_name,
    table_line,
)
from tutor.render.translator import Translator
from tutor.ui.components import evs_markdown, finesse_note
from tutor.ui.faults import callback_guard, database_guard
from tutor.ui.resources import classroom
from tutor.visit import TeacherDesk

#: Seconds between two refreshes of the teacher's live views (the answer counter, the seats); a
#: student's screen follows the class as it moves (``tutor.ui.pages.class_student``).
POLL_SECONDS = 2.0


def header(info: SessionInfo, t: Translator, pattern: tuple[str, ...] | None = None) -> None:
    """One line for the projector: the class, where it stands, and the code for latecomers
    (with the second join step's symbols, when the class has one)."""
    where = (
        t.format("Question {n} of {total}", n=info.current + 1, total=info.questions)
        if info.current >= 0
        else ""
    )
    left, right = st.columns([5, 2], vertical_alignment="center")
    left.markdown(
        '<p style="font-size:1.7rem;font-weight:700;margin:0">'
        + html.escape(info.title)
        + (
            f' <span style="font-weight:400;color:#555">· {html.escape(where)}</span>'
            if where
            else ""
        )
        + "</p>",
        unsafe_allow_html=True,
    )
    with right:
        st.markdown(
            '<p style="text-align:right;margin:0">'
            f'<span style="color:#555">{html.escape(t.gettext("Class code"))}</span> '
            '<span aria-label="code" style="font-size:1.7rem;font-weight:800;'
            f'letter-spacing:.12em">{html.escape(info.code)}</span>'
            + (" " + pattern_html(pattern, t, size="1.7rem") if pattern else "")
            + "</p>",
            unsafe_allow_html=True,
        )


#: Suits drawn red on the projector, as on the cards.
_RED_SYMBOLS = frozenset({"♥", "♦"})


def pattern_html(pattern: tuple[str, ...], t: Translator, *, size: str) -> str:
    """The second join step's symbols, large and spaced, hearts and diamonds red; the group is
    named for screen readers in the page's language (« Symboles à toucher : pique, cœur… »)."""
    symbols = "".join(
        f'<span style="color:{"#c62828" if symbol in _RED_SYMBOLS else "#111"}">'
        f"{html.escape(symbol)}</span>"
        for symbol in pattern
    )
    named = t.format(
        "Symbols to tap: {symbols}", symbols=", ".join(symbol_name(s, t) for s in pattern)
    )
    return (
        f'<span role="img" aria-label="{html.escape(named)}" '
        f'style="font-size:{size};font-weight:800;letter-spacing:.3em;line-height:1.1">'
        f"{symbols}</span>"
    )


def join_pattern_view(pattern: tuple[str, ...], t: Translator) -> None:
    """Under the join code in the lobby: the symbols each phone taps after the code."""
    st.markdown(t.gettext("Then tap these symbols, in order:"))
    st.markdown(
        f'<div data-testid="class-join-pattern">{pattern_html(pattern, t, size="4.5rem")}</div>',
        unsafe_allow_html=True,
    )


def question_html(question: ClassQuestion, t: Translator, *, large: bool) -> str:
    """The dealer's up-card and the player's hand (side by side on a projector), and what is
    asked, as one block of the page.

    Why one block: Streamlit sends, and the browser draws again, every element of a screen on
    every run of it, and a phone pays per element (issue 30: a class's reveal is forty phones
    drawing their screens at once); four markdown elements drawn as one cost its page about a
    third less to draw."""
    # On the projector the short label keeps the dealer's card beside the hand.
    dealer_label = t.gettext("Dealer") if large else t.gettext("Dealer shows")
    dealer = hand_html([question.dealer_up], t, large=large, label=dealer_label)
    hand = hand_html(question.cards, t, large=large, label=t.gettext("The hand"))
    if large:
        # One flex row rather than columns: the hand keeps its cards on one line however many.
        cards = (
            '<div style="display:flex;flex-wrap:wrap;column-gap:2rem;align-items:flex-start">'
            f"{dealer}{hand}</div>"
        )
    else:
        cards = f'<div style="margin-bottom:1rem">{dealer}</div>{hand}'
    size = "2.2rem" if large else "1.2rem"
    asked = (
        f'<p style="font-size:{size};font-weight:700;margin:0">'
        f"{html.escape(prompt(question, t))}</p>"
    )
    table = table_line(question, t)
    if table is not None:  # a lesson's step at its own table: the class reads which one
        small = "1.4rem" if large else "1rem"
        asked += (
            f'<p data-testid="class-question-table" style="font-size:{small};'
            f'color:#444;margin:.2rem 0 0 0">{html.escape(table)}</p>'
        )
    return cards + asked


def question_view(question: ClassQuestion, t: Translator, *, large: bool, above: str = "") -> None:
    """``question_html`` drawn, after ``above`` (HTML of the same block: a phone's title)."""
    block = f"<div>{above}{question_html(question, t, large=large)}</div>"
    st.markdown(block, unsafe_allow_html=True)


def big_counter(label: str, value: str, *, large: bool) -> None:
    """The number the class watches (``st.metric``, so screen readers and tests find it), sized
    for the back of the room on the projector: presentation mode's larger body text must not
    shrink it, so its size is set here for the metric itself."""
    if large:
        st.markdown(
            "<style>[data-testid='stMetricValue'],[data-testid='stMetricValue'] div,"
            "[data-testid='stMetricValue'] p"
            "{font-size:5rem !important;line-height:1.1}"
            "[data-testid='stMetricLabel'] p{font-size:1.6rem !important}</style>",
            unsafe_allow_html=True,
        )
    st.metric(label, value)


def clock_text(seconds: float) -> str:
    """``0:07``, ``2:45``: minutes and seconds, as a projected timer reads.

    >>> clock_text(7.9), clock_text(165), clock_text(3600)
    ('0:07', '2:45', '60:00')
    """
    whole = int(seconds)
    return f"{whole // 60}:{whole % 60:02d}"


@st.fragment(run_every=POLL_SECONDS)
@database_guard
def live_counter(
    teacher: Teacher,
    language: str,
    *,
    lobby: bool,
    large: bool = False,
    desk: TeacherDesk | None = None,
    position: int = -1,
) -> None:
    """The answers arriving (or the students joining), refreshed every few seconds on its own;
    under a question, how long it has been on screen (``desk``'s clock). ``large`` for the
    projector layout of presentation mode."""
    from tutor.render.translator import translator

    t = translator(language)
    answered, joined = classroom().counts(teacher)
    if lobby:
        big_counter(t.gettext("Students joined"), t.number(joined, digits=0), large=large)
        seats = classroom().roster(teacher)
        if seats:
            # Nicknames are typed by students: escaped before they reach any markup. A student
            # whose phone reloaded is the same seat, said to be back, never a second name.
            back = " (" + t.gettext("reconnected") + ")"
            st.markdown(
                " · ".join(
                    markdown_text(seat.nickname) + (back if seat.reconnections else "")
                    for seat in seats
                )
            )
        return
    big_counter(t.gettext("Answers"), f"{answered} / {joined}", large=large)
    st.progress(answered / joined if joined else 0.0)
    if desk is not None and position >= 0:
        elapsed = clock_text(desk.seconds_on(position, time.monotonic()))
        label = html.escape(t.gettext("Time on this hand"))
        size, label_size = ("2.6rem", "1.3rem") if large else ("1.4rem", "0.9rem")
        st.markdown(
            f'<div role="timer" aria-label="{label}" style="margin:.3rem 0 .6rem 0">'
            f'<div style="font-size:{label_size};color:#444">{label}</div>'
            f'<div style="font-size:{size};font-weight:700;color:#222">{elapsed}</div></div>',
            unsafe_allow_html=True,
        )
    if joined and answered >= joined:
        st.success(t.gettext("Everyone has answered."), icon=":material/done_all:")


def distribution_frame(reveal: Reveal, t: Translator) -> pd.DataFrame:
    """How many students chose each legal action (zeros included), the best one marked."""
    actions = [action for action in Action if action in reveal.judgement.evs]
    for action in reveal.distribution:
        if action not in actions:
            actions.append(action)
    return pd.DataFrame(
        {
            "action": [t.action_name(action) for action in actions],
            "students": [reveal.distribution.get(action, 0) for action in actions],
            "best": [action is reveal.best for action in actions],
            "order": list(range(len(actions))),
        }
    )


def distribution_chart(reveal: Reveal, t: Translator) -> None:
    """How the class answered: a bar per legal action, the best one in green."""
    frame = distribution_frame(reveal, t)
    base = alt.Chart(frame).encode(
        x=alt.X(
            "action:N",
            sort=alt.SortField("order"),
            title=None,
            axis=alt.Axis(labelFontSize=18, labelAngle=0),
        ),
        y=alt.Y("students:Q", title=t.gettext("Students"), axis=alt.Axis(tickMinStep=1)),
    )
    bars = base.mark_bar().encode(
        color=alt.condition("datum.best", alt.value("#2e7d32"), alt.value("#9e9e9e"))
    )
    labels = base.mark_text(dy=-12, fontSize=20, fontWeight="bold").encode(text="students:Q")
    st.altair_chart(
        (bars + labels).properties(height=230).configure(locale=t.chart_locale()),
        width="stretch",
        alt=t.gettext("How the class answered"),
    )


def best_play(reveal: Reveal, t: Translator) -> None:
    """The right play in large letters, the reason in a sentence, and the exact play for these
    cards where it is not the chart's."""
    st.markdown(
        '<p style="font-size:2rem;font-weight:800;color:#2e7d32;margin:0 0 .3rem 0">'
        + html.escape(t.format("Best play: {best}", best=t.action_name(reveal.best)))
        + "</p>",
        unsafe_allow_html=True,
    )
    judgement = reveal.judgement
    own = step_explanation(reveal.question, t)  # the lesson's words for why, when it has them
    if own is not None:
        st.markdown(":material/lightbulb: " + markdown_text(own))
    else:
        sentence = t.reason(judgement.reason.key, judgement.reason.params)
        if sentence:
            st.markdown(":material/lightbulb: " + sentence)
    note = finesse_note(judgement, t)
    if note:
        st.markdown(":material/grid_on: " + note)


def evs_view(reveal: Reveal, t: Translator) -> None:
    """Every legal action's EV, best first, and how many answered right."""
    st.markdown(evs_markdown(reveal.judgement, t))
    st.caption(
        t.format(
            "Right answers: {right} / {answered} · students: {students}",
            right=reveal.right,
            answered=reveal.answered,
            students=reveal.students,
        )
    )


def room_controls(desk: TeacherDesk, info: SessionInfo, language: str, t: Translator) -> None:
    """What keeps the room the teacher's: the lock (nobody new joins) and the names to send
    away, several at once. Drawn in the lobby under the code and, during the questions, in the
    expander under the projector."""
    lock_switch(desk.teacher, info, t)
    remove_students(desk.teacher, language, desk)


def lock_switch(teacher: Teacher, info: SessionInfo, t: Translator) -> None:
    """The lock, drawn from the database's state at each run (another tab of the teacher may
    have changed it), and while locked the sentence the class reads on the projector."""
    # Set before the widget is drawn: the switch shows what the database holds, not this tab's
    # last click (a click whose database write failed snaps back).
    st.session_state["class-lock"] = info.locked
    st.toggle(
        t.gettext("Lock the class"),
        key="class-lock",
        on_change=_set_lock,
        args=(teacher, not info.locked),  # a switch changed is the other way from how it was drawn
        help=t.gettext(
            "While the class is locked nobody new can join; a seated student whose phone"
            " reloads gets their seat back, and a student you remove cannot come back under"
            " another name."
        ),
    )
    if info.locked:
        st.warning(t.gettext("The class is locked: nobody new can join."), icon=":material/lock:")


@callback_guard
def _set_lock(teacher: Teacher, locked: bool) -> None:
    classroom().lock(teacher, locked)


@st.fragment(run_every=POLL_SECONDS)
@database_guard
def remove_students(teacher: Teacher, language: str, desk: TeacherDesk) -> None:
    """Send students away, several with one click (a flood of made-up names): the teacher picks
    the names among those seated (the list follows the joins as they arrive), then removes them;
    how many went is said after."""
    from tutor.render.translator import translator

    t = translator(language)
    if desk.removed is not None:
        count = len(desk.removed)
        st.success(
            t.ngettext("{n} student removed", "{n} students removed", count).format(
                n=t.number(count, digits=0)
            ),
            icon=":material/person_remove:",
        )
    names = classroom().students(teacher)
    if not names:
        return
    if desk.clear_chosen:  # the names just removed: the box starts empty again
        st.session_state["class-remove-names"] = []
        desk.clear_chosen = False
    # Nicknames reach the widget as plain text (a multiselect shows no Markdown).
    chosen = st.multiselect(
        t.gettext("Students to remove"),
        names,
        key="class-remove-names",
        placeholder=t.gettext("Choose one or more names"),
        on_change=_forget_removed,
        args=(desk,),
        select_all=False,  # its option is Streamlit's own English "Select all"
    )
    if st.button(
        t.gettext("Remove the selected students"),
        key="class-remove",
        disabled=not chosen,
        icon=":material/person_remove:",
    ):  # the names chosen when the button was clicked, read where the box is drawn
        _remove(teacher, desk, chosen)
        _run_again()
    bulk_removal(teacher, desk, t)


#: The windows a teacher sends away the latest joins from: a flood of names arrives within
#: seconds, a class's real joins over minutes.
RECENT_WINDOWS = (30, 60, 120, 300)


def bulk_removal(teacher: Teacher, desk: TeacherDesk, t: Translator) -> None:
    """One click for a flood: everyone who joined in the last seconds or minutes (a window to
    pick), or everyone who has not answered the question on screen (in the lobby, where nobody
    has answered yet: everyone)."""
    within = st.selectbox(
        t.gettext("Joined within the last"),
        RECENT_WINDOWS,
        index=1,
        key="class-remove-window",
        format_func=lambda seconds: (
            t.format("{n} s", n=seconds) if seconds < 60 else t.format("{n} min", n=seconds // 60)
        ),
    )
    if st.button(
        t.gettext("Remove everyone who joined then"),
        key="class-remove-recent",
        icon=":material/group_remove:",
    ):
        _remove_recent(teacher, desk, int(within or RECENT_WINDOWS[1]))
        _run_again()
    in_lobby = classroom().info(teacher.code).current < 0
    if st.button(
        t.gettext("Remove everyone")
        if in_lobby
        else t.gettext("Remove everyone who has not answered"),
        key="class-remove-unanswered",
        icon=":material/group_remove:",
    ):
        _remove_unanswered(teacher, desk)
        _run_again()


@callback_guard
def _remove_recent(teacher: Teacher, desk: TeacherDesk, seconds: int) -> None:
    desk.removed = classroom().remove_joined_within(teacher, timedelta(seconds=seconds))
    desk.clear_chosen = True


@callback_guard
def _remove_unanswered(teacher: Teacher, desk: TeacherDesk) -> None:
    desk.removed = classroom().remove_unanswered(teacher)
    desk.clear_chosen = True


def _run_again() -> None:
    """The fragment drawn again: on its own when this is one of its runs (a click in it, as in a
    browser), else the whole page (a click that came with a run of the page, as under AppTest)."""
    try:
        st.rerun(scope="fragment")
    except StreamlitAPIException:  # scope="fragment" outside a fragment's own run
        st.rerun()


def _forget_removed(desk: TeacherDesk) -> None:
    desk.removed = None


@callback_guard
def _remove(teacher: Teacher, desk: TeacherDesk, chosen: list[str]) -> None:
    """Send ``chosen`` away, and empty the box on its next drawing. Guarded as a callback is, and
    for the same reason: a fault is said by the fragment's run the click starts next."""
    names = [str(name) for name in chosen if isinstance(name, str)]
    desk.removed = classroom().remove_students(teacher, names)
    desk.clear_chosen = True


def hand_text(question: ClassQuestion) -> str:
    return f"{format_cards(question.cards)} / {question.dealer_up}"
