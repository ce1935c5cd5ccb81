"""Join a class: a student joins with the code and a nickname, answers each hand once, and sees
whether they were right only when the teacher reveals.

The ``Student`` handle kept in this browser session is the student's only proof of who they are
(its token is the capability): nothing in the address or the page names another student. The
screen is drawn again when the class moves on (``tutor.ui.class_mode.push`` tells it), and of
itself every few seconds (``st.fragment(run_every=…)``) for anything else.
"""

from __future__ import annotations

import html

import streamlit as st

from tutor.classroom import (
    PATTERN_LENGTH,
    SYMBOLS,
    ClassroomError,
    SessionInfo,
    StudentView,
    normalise_code,
)
from tutor.decision import Action, Grade
from tutor.render.class_messages import (
    error_message,
    final_score_text,
    html_text,
    markdown_text,
    step_explanation,
)
from tutor.render.style import CAPTION
from tutor.render.translator import Translator
from tutor.store import InvalidNicknameError
from tutor.ui.class_mode.live import question_view
from tutor.ui.class_mode.push import SCREEN_SECONDS, this_fragment, this_phone
from tutor.ui.client import client_address
from tutor.ui.components import shortcut
from tutor.ui.faults import callback_guard, database_guard
from tutor.ui.resources import classroom, followers
from tutor.ui.state import app_state
from tutor.visit import AppState, ClassPages, StudentSeat


def _join(
    state: AppState, pages: ClassPages, code: str, nickname: str, tapped: list[str | None]
) -> None:
    """Join with what the form held when it was sent: the code, the nickname, the symbols."""
    pattern = [symbol for symbol in tapped if isinstance(symbol, str)]
    try:
        student = classroom().join(
            code,
            nickname,
            learner_token=state.learner_token,
            client=client_address(),  # what limits a script that sends no cookie
            pattern=pattern or None,
        )
    except (ClassroomError, InvalidNicknameError) as error:
        if isinstance(error, ClassroomError) and error.code in ("pattern-needed", "wrong-pattern"):
            pages.pattern_needed = True  # the symbols to tap are shown from now on
        pages.message = error_message(error, state.t)
        return
    pages.message = None
    pages.seat = StudentSeat(student)
    # The class code in the address: a reload (a phone waking up) brings the student back.
    st.query_params["code"] = normalise_code(code)


def rejoin(state: AppState, pages: ClassPages) -> None:
    """Back to one's seat without typing anything, when this browser already holds one in the
    class of the address (a reloaded page, a restarted server, the join link opened again)."""
    code = normalise_code(str(st.query_params.get("code", "")))[:12]
    if not code:
        return
    try:
        student = classroom().rejoin(code, state.learner_token)
    except (ClassroomError, ValueError):
        return  # an unknown code: the join form says so when the student submits it
    if student is not None:
        pages.seat = StudentSeat(student, welcome=True)


@callback_guard
def _answer(state: AppState, seat: StudentSeat, action: Action, position: int) -> None:
    seat.welcome = False
    try:
        classroom().answer(seat.student, action, position=position)
    except ClassroomError as error:
        seat.message = error_message(error, state.t)
        return
    seat.message = None


@callback_guard
def _leave(pages: ClassPages) -> None:
    pages.seat = None
    phone = this_phone()
    if phone is not None:
        followers().forget(phone)
    st.query_params.pop("code", None)


def join_form(state: AppState, pages: ClassPages) -> bool:
    """The join form, and the join when it was sent: True once the student holds a seat.

    The form's values are the widgets' return values in the run its button starts, so the join
    happens in that run and the caller draws the seat in it too (issue 30: forty phones join
    within seconds of each other, and a second run to draw the seat was a second page's work for
    the server and for each phone). A refusal draws the form again, saying why above it."""
    _ = state.t.gettext
    code = st.query_params.get("code", "")
    joined = _class_of(code)
    if pages.message:  # above the form: on a phone, below it is past the fold
        st.error(pages.message, icon=":material/error:")
    nickname: str = ""
    tapped: list[str | None] = []
    with st.form("class-join"):
        typed = st.text_input(
            _("Class code"),
            value=normalise_code(code)[:12],
            max_chars=12,
            key="class-join-code",
            placeholder="ABC234",
        )
        if joined is not None and joined.given_names is not None:
            st.info(
                _("In this class the app gives you a name of two friendly words."),
                icon=":material/badge:",
            )
        else:
            nickname = st.text_input(
                _("Your nickname"),
                value=(state.learner.nickname or "") if state.learner is not None else "",
                max_chars=24,
                key="class-join-nickname",
                help=_("Letters, digits, spaces, dots, hyphens and apostrophes; 24 at most."),
            )
        if pages.pattern_needed or (joined is not None and joined.has_join_step):
            tapped = pattern_taps(state.t)
        sent = st.form_submit_button(
            _("Join"),
            key="class-join-submit",
            type="primary",
            width="stretch",
        )
    if not sent:
        return False
    _join(state, pages, str(typed or ""), str(nickname or ""), tapped)
    if pages.seat is None:  # refused: the form again, the reason above it, the symbols if asked
        st.rerun()
    return True


def _class_of(code: str) -> SessionInfo | None:
    """The class of the join address, for the form to ask what it needs (the symbols of a second
    step, no nickname where the app gives names) as soon as the QR code is scanned; None for no
    code or an unknown one."""
    code = normalise_code(code)[:12]
    if not code:
        return None
    try:
        return classroom().info(code)
    except ClassroomError:
        return None


def pattern_taps(t: Translator) -> list[str | None]:
    """The second join step: one row of symbols per tap, in order (a symbol may repeat); the
    symbols tapped (None for a row left alone)."""
    # The symbols drawn at a size a thumb aims at and an eye tells apart: Streamlit's buttons
    # draw them at the body text's size in a font whose suits are small, and a spade and a club
    # then look alike on a phone. The style rides with the sentence (no blank line of its own).
    # A suit alone is drawn by Streamlit as an emoji icon (a span), a star as text (a p).
    buttons = ",".join(
        f".st-key-class-join-symbol-{index} button {part}"
        for index in range(PATTERN_LENGTH)
        for part in ("p", "span")
    )
    st.markdown(
        html.escape(t.gettext("Then tap the symbols shown on the board, in order:"))
        + f"<style>{buttons}{{font-family:'DejaVu Sans',sans-serif;font-size:1.7rem"
        " !important;line-height:1.2}</style>",
        unsafe_allow_html=True,
    )
    return [
        st.segmented_control(
            t.format("Symbol {n}", n=index + 1), SYMBOLS, key=f"class-join-symbol-{index}"
        )
        for index in range(PATTERN_LENGTH)
    ]


def verdict(view: StudentView, t: Translator, *, then: str) -> None:
    """The judge's grade of the student's answer, told only once the teacher has revealed, and
    ``then`` (what comes next) under the reason, in the reason's block (one element less to draw
    on every phone at once)."""
    assert view.best is not None
    best = t.action_name(view.best)
    if view.answer is None:
        st.info(t.format("You did not answer. The best play was **{best}**.", best=best))
    elif view.grade is Grade.RIGHT:
        st.success(
            t.format("Right! **{answer}** is the play to make.", answer=t.action_name(view.answer)),
            icon=":material/check_circle:",
        )
    elif view.grade is Grade.ACCEPTABLE:
        st.warning(
            t.format(
                "A close call: **{best}** is slightly better; you chose {answer}.",
                best=best,
                answer=t.action_name(view.answer),
            ),
            icon=":material/balance:",
        )
    else:
        st.error(
            t.format(
                "Not quite: the best play was **{best}**; you chose {answer}.",
                best=best,
                answer=t.action_name(view.answer),
            ),
            icon=":material/cancel:",
        )
    after = f'<p style="font-size:.875rem;color:{CAPTION}">{html.escape(then)}</p>'
    own = None if view.question is None else step_explanation(view.question, t)
    sentence = t.reason(view.reason.key, view.reason.params) if view.reason is not None else ""
    if own is not None:  # the lesson's own explanation, as the projector shows it: as text
        st.markdown(f":material/lightbulb: {markdown_text(own)}\n\n{after}", unsafe_allow_html=True)
    elif sentence:  # the projector's reason, on the phone too
        # The sentence is the catalogue's markdown; escaped, no HTML of a parameter is drawn.
        said = html.escape(sentence, quote=False)
        st.markdown(f":material/lightbulb: {said}\n\n{after}", unsafe_allow_html=True)
    else:
        st.markdown(after, unsafe_allow_html=True)


@st.fragment(run_every=SCREEN_SECONDS)
@database_guard
def student_screen(state: AppState, pages: ClassPages) -> None:
    """What the student may see now: waiting, the hand and its buttons, or the verdict."""
    t = state.t
    _ = t.gettext
    seat = pages.seat
    if seat is None:
        return
    try:
        view = classroom().student_view(seat.student)
    except ClassroomError as error:
        pages.seat = None
        pages.message = error_message(error, t)
        st.rerun()
    phone, screen = this_phone(), this_fragment()
    if phone is not None and screen is not None:  # told when the class moves from this screen
        followers().follow(phone, screen, seat.student.session_id, view.moment)
    if seat.welcome:  # until the student's next answer
        st.success(
            t.format(
                "Welcome back, {name}: your seat and your answers are here.",
                name=markdown_text(seat.student.nickname),
            ),
            icon=":material/sync:",
        )
    # The title, who the student is and the hand in one block: the screen is drawn again at
    # every step of the class on forty phones at once, and each element costs each of them
    # (``live.question_html``).
    head = (
        f'<h3 style="padding-top:0">{html_text(view.title)}</h3>'
        f'<p style="font-size:.875rem;color:{CAPTION}">'
        + html_text(t.format("You are {nickname}", nickname=seat.student.nickname))
        + "</p>"
    )
    if view.finished or view.question is None:
        st.markdown(head, unsafe_allow_html=True)
    if view.finished:
        st.success(_("The class is over. Thank you!"), icon=":material/celebration:")
        score = classroom().final_score(seat.student)
        if score is not None:
            st.markdown(final_score_text(score, t))
        st.button(_("Leave"), key="class-student-leave", on_click=_leave, args=(pages,))
        return
    if view.question is None:
        st.info(
            t.ngettext(
                "You are in a class of {n} question. Wait for the teacher to show it.",
                "You are in a class of {n} questions. Wait for the teacher to show the first.",
                view.questions,
            ).format(n=view.questions),
            icon=":material/hourglass_top:",
        )
        return
    last = view.position + 1 == view.questions
    asked = (
        t.format("Last question ({n} of {total})", n=view.position + 1, total=view.questions)
        if last and view.questions > 1
        else t.format("Question {n} of {total}", n=view.position + 1, total=view.questions)
    )
    question_view(
        view.question, t, large=False, above=f"{head}<p><strong>{html.escape(asked)}</strong></p>"
    )
    if view.best is not None:
        then = (
            _("That was the last question: your score comes when the teacher ends the class.")
            if last
            else _("Wait for the next hand.")
        )
        verdict(view, t, then=then)
    elif view.answer is not None:
        st.info(
            t.format(
                "Your answer: **{answer}**. Wait for the teacher to reveal the best play.",
                answer=t.action_name(view.answer),
            ),
            icon=":material/hourglass_top:",
        )
    else:
        for action in view.legal:
            st.button(
                t.action_name(action),
                key=f"class-answer-{view.position}-{action.value}",
                on_click=_answer,
                args=(state, seat, action, view.position),
                type="primary",
                width="stretch",
                shortcut=shortcut(action, t),
            )
    if seat.message:
        st.warning(seat.message)


def main() -> None:
    state = app_state()
    pages = state.classes
    _ = state.t.gettext
    if pages.seat is None:
        rejoin(state, pages)
    if pages.seat is None:
        form = st.empty()  # the join form's place, emptied once the student is seated
        with form.container():
            st.title(_("Join a class"), anchor=False)
            seated = join_form(state, pages)
        if not seated:
            return
        form.empty()
    student_screen(state, pages)


main()
