"""Streamlit pieces of class mode: the join panel, the projected hand, the live counter, the
reveal, the results, and where class mode keeps its state in the session.

Why apart from the pages: the teacher's page is a small state machine (start, lobby, question,
reveal, results) and reads best as a list of these calls. Drawing only: what to show is decided
by ``tutor.classroom`` (answers, reveals, results) and ``tutor.ui.classview`` (hands, addresses,
exports). Every text that came from a person (a nickname, a title) is escaped before it meets
Markdown or HTML.
"""

from __future__ import annotations

import html
import os

import altair as alt
import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from tutor.classroom import ClassQuestion, Reveal, SessionInfo, Teacher
from tutor.i18n import Translator
from tutor.ui import classview as cv
from tutor.ui.cards import hand_html
from tutor.ui.components import evs_markdown, finesse_note
from tutor.ui.faults import database_guard
from tutor.ui.resources import classroom

#: Where class mode keeps its state: one typed object of its own, beside the app's ``AppState``.
KEY = "classes"
#: The address students reach, when the teacher sets it for the server (``https://…``).
PUBLIC_URL_ENV = "TUTOR_PUBLIC_URL"


def class_pages() -> cv.ClassPages:
    """This browser session's class-mode state, created on first use."""
    pages = st.session_state.get(KEY)
    if not isinstance(pages, cv.ClassPages):
        pages = cv.ClassPages()
        st.session_state[KEY] = pages
    return pages


def base_url(pages: cv.ClassPages) -> str:
    """The app's address for students: the teacher's correction, ``TUTOR_PUBLIC_URL``, or a guess
    from the address this page was opened with (the laptop's LAN address instead of localhost)."""
    if pages.base_url:
        return pages.base_url
    configured = os.environ.get(PUBLIC_URL_ENV, "").strip()
    if configured:
        return configured
    port = st.get_option("server.port")
    return cv.suggested_base(st.context.url, port if isinstance(port, int) else None)


def _set_base_url(pages: cv.ClassPages) -> None:
    typed = str(st.session_state.get("class-base-url", "")).strip()
    pages.base_url = cv.origin(typed) or typed


def big_code(code: str, *, size: str = "5.5rem") -> None:
    st.markdown(
        f'<div aria-label="code" style="font-family:DejaVu Sans Mono,monospace;font-size:{size};'
        f'font-weight:800;letter-spacing:.18em;line-height:1.1">{html.escape(code)}</div>',
        unsafe_allow_html=True,
    )


def join_panel(info: SessionInfo, pages: cv.ClassPages, t: Translator) -> DeltaGenerator:
    """The code in letters a class reads from the back, the QR code of the join address, and the
    address itself (editable: the guess can be wrong on a school network). Returns the left
    column, for the page to add what the lobby needs under the code."""
    base = base_url(pages)
    url = cv.join_url(base, info.code)
    left, right = st.columns([3, 2], vertical_alignment="top")
    with left:
        st.markdown("### " + t.gettext("Join the class"))
        st.markdown(t.gettext("Scan the QR code, or open this address and type the class code:"))
        st.markdown(
            f'<p style="font-size:1.5rem;font-weight:600;word-break:break-all;margin:0">'
            f"{html.escape(url)}</p>",
            unsafe_allow_html=True,
        )
        big_code(info.code)
    with right:
        st.markdown(
            f'<img src="{cv.qr_data_uri(url)}" alt="{html.escape(url)}" '
            'style="width:100%;max-width:340px;image-rendering:pixelated"/>',
            unsafe_allow_html=True,
        )
    if cv.is_local(base):
        st.warning(
            t.gettext(
                "This address only reaches this computer: students' devices cannot open it. Give"
                " the laptop's address on the school network below (Streamlit prints it as Network"
                " URL when it starts)."
            ),
            icon=":material/wifi_off:",
        )
    with st.expander(t.gettext("Address for students")):
        st.text_input(
            t.gettext("The app's address on the school network"),
            value=base,
            key="class-base-url",
            on_change=_set_base_url,
            args=(pages,),
            help=t.gettext("Such as http://192.168.1.20:8501 (the laptop's address and port)."),
        )
    return left


def header(info: SessionInfo, t: Translator) -> None:
    """One line for the projector: the class, where it stands, and the code for latecomers."""
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
            f'letter-spacing:.12em">{html.escape(info.code)}</span></p>',
            unsafe_allow_html=True,
        )


def question_view(question: ClassQuestion, t: Translator, *, large: bool) -> None:
    """The dealer's up-card and the player's hand (side by side on a projector), and what is
    asked."""
    # On the projector the short label keeps the dealer's card beside the hand.
    dealer_label = t.gettext("Dealer") if large else t.gettext("Dealer shows")
    dealer = hand_html([question.dealer_up], t, large=large, label=dealer_label)
    hand = hand_html(question.cards, t, large=large, label=t.gettext("The hand"))
    if large:
        # One flex row rather than columns: the hand keeps its cards on one line however many.
        st.markdown(
            '<div style="display:flex;flex-wrap:wrap;column-gap:2rem;align-items:flex-start">'
            f"{dealer}{hand}</div>",
            unsafe_allow_html=True,
        )
    else:
        st.markdown(dealer, unsafe_allow_html=True)
        st.markdown(hand, unsafe_allow_html=True)
    size = "2.2rem" if large else "1.2rem"
    st.markdown(
        f'<p style="font-size:{size};font-weight:700;margin:0">'
        f"{html.escape(cv.prompt(question, t))}</p>",
        unsafe_allow_html=True,
    )


@st.fragment(run_every=cv.POLL_SECONDS)
@database_guard
def live_counter(teacher: Teacher, language: str, *, lobby: bool) -> None:
    """The answers arriving (or the students joining), refreshed every few seconds on its own."""
    from tutor.i18n import translator

    t = translator(language)
    answered, joined = classroom().counts(teacher)
    if lobby:
        st.metric(t.gettext("Students joined"), joined)
        seats = classroom().roster(teacher)
        if seats:
            # Nicknames are typed by students: escaped before they reach any markup. A student
            # whose phone reloaded is the same seat, said to be back, never a second name.
            back = " (" + t.gettext("reconnected") + ")"
            st.markdown(
                " · ".join(
                    cv.markdown_text(seat.nickname) + (back if seat.reconnections else "")
                    for seat in seats
                )
            )
        return
    st.metric(t.gettext("Answers"), f"{answered} / {joined}")
    st.progress(answered / joined if joined else 0.0)
    if joined and answered >= joined:
        st.success(t.gettext("Everyone has answered."), icon=":material/done_all:")


def distribution_chart(reveal: Reveal, t: Translator) -> None:
    """How the class answered: a bar per legal action, the best one in green."""
    frame = cv.distribution_frame(reveal, t)
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
        (bars + labels).properties(height=230),
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


def results_view(info: SessionInfo, teacher: Teacher, t: Translator) -> None:
    """After the class: the hands most missed, each student, each question, and the exports."""
    room = classroom()
    results = room.results(teacher)
    hardest = room.hardest(teacher)
    answered = results.dropna(subset=["answer"])
    right = int(answered["correct"].astype(bool).sum()) if not answered.empty else 0
    c1, c2, c3 = st.columns(3)
    c1.metric(t.gettext("Students"), results["student"].nunique())
    c2.metric(t.gettext("Answers"), len(answered))
    c3.metric(
        t.gettext("Right answers"),
        t.percent(right / len(answered), digits=0) if len(answered) else "—",
    )
    st.subheader(t.gettext("The hands the class got most wrong"))
    worst = cv.hardest_table(hardest, t)
    if worst.empty:
        st.info(t.gettext("No hand was missed."))
    else:
        st.dataframe(worst, hide_index=True, width="stretch")
    st.subheader(t.gettext("Per student"))
    st.dataframe(cv.student_summary(results, t), hide_index=True, width="stretch")
    st.subheader(t.gettext("Per question"))
    st.dataframe(cv.question_summary(results, t), hide_index=True, width="stretch")
    with st.expander(t.gettext("Every answer")):
        st.dataframe(cv.results_table(results, t), hide_index=True, width="stretch")
    name = f"class-{info.code}-{info.created_at:%Y%m%d}"
    d1, d2 = st.columns(2)
    d1.download_button(
        t.gettext("Download the results (CSV)"),
        cv.results_csv(results, t),
        file_name=f"{name}.csv",
        mime="text/csv",
        key="class-csv",
        icon=":material/download:",
        on_click="ignore",
        width="stretch",
    )
    d2.download_button(
        t.gettext("Download a printable page"),
        cv.printable_html(info, results, hardest, t),
        file_name=f"{name}.html",
        mime="text/html",
        key="class-html",
        icon=":material/print:",
        on_click="ignore",
        width="stretch",
    )


def roster(teacher: Teacher, t: Translator) -> None:
    """Send a student away (a rude nickname): the teacher picks the name, then confirms."""
    names = classroom().students(teacher)
    if not names:
        return
    with st.expander(t.gettext("Remove a student")):
        st.selectbox(t.gettext("Nickname"), names, key="class-remove-name")
        st.button(t.gettext("Remove"), key="class-remove", on_click=_remove, args=(teacher,))


def _remove(teacher: Teacher) -> None:
    name = st.session_state.get("class-remove-name")
    if name:
        classroom().remove_student(teacher, str(name))
