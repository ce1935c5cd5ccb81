""" "My data": what is kept about the learner at this browser, how to take it to another device,
and how to take it away. Drawing and callbacks only; the store decides what a learner owns.

Everything here acts on the learner of *this* browser (``AppState.learner_token``): no name,
code or id typed here reaches anyone else's data except a recovery code, which is the learner's
own secret (130 bits; see ``tutor.identity``).
"""

from __future__ import annotations

import html
import json
from collections import Counter

import streamlit as st

from tutor.cards import format_cards, parse_cards
from tutor.decision import Action, Grade
from tutor.identity import format_code, new_token
from tutor.render.translator import Translator
from tutor.store import InvalidNicknameError, Learner
from tutor.ui.class_mode.join import base_url, qr_data_uri
from tutor.ui.cookie import RESTORE_FRAGMENT
from tutor.ui.download_buttons import Offer, download_buttons
from tutor.ui.resources import store
from tutor.ui.state import continue_with_code
from tutor.visit import AppState


def _typed_code(state: AppState, typed: str) -> None:
    continue_with_code(state, typed[:64])


def _set_name(state: AppState, typed: str) -> None:
    try:
        learner = state.ensure_learner(store())
        state.learner = store().set_nickname(learner, typed.strip() or None)
        state.quiz_error = None
    except InvalidNicknameError as error:
        state.quiz_error = str(error)


def _erase(state: AppState, sure: bool) -> None:
    if not sure:
        return
    if state.learner is not None:
        store().delete_learner(state.learner)
    else:  # a browser used only for class mode, lessons or groups: its rows hold its hash alone
        store().erase_token(state.learner_token)
    # A new secret for this browser: the old one named nothing any more.
    state.adopt_token(new_token(), None)
    state.data_notice = "erased"


#: The most answers the panel lists (the download holds them all).
LISTED = 50


def kept_answers(state: AppState, learner: Learner) -> None:
    """What is kept of the learner's answers: how many from each place, and the latest ones at
    the practice table and in lessons listed (the hand, the up-card, the move, the better play,
    the grade and the cost), so that a learner sees their hands are kept before downloading."""
    t = state.t
    _ = t.gettext
    answers = store().answers(learner)
    if not answers:
        return
    counts = Counter(answer.origin for answer in answers)
    quiz, table, lesson = (counts[origin] for origin in ("quiz", "table", "lesson"))
    st.markdown(
        t.format(
            "Kept: {quiz} in the quiz, {table} at the practice table, {lesson} in lessons.",
            quiz=t.ngettext("{n} answer", "{n} answers", quiz).format(n=quiz),
            table=t.ngettext("{n} move", "{n} moves", table).format(n=table),
            lesson=t.ngettext("{n} move", "{n} moves", lesson).format(n=lesson),
        )
    )
    played = [answer for answer in answers if answer.origin != "quiz"][-LISTED:]
    if not played:
        return
    grades = {
        Grade.RIGHT: _("right"),
        Grade.ACCEPTABLE: _("close call"),
        Grade.WRONG: _("mistake"),
    }
    with st.expander(_("My moves at the practice table and in lessons")):
        st.table(
            [
                {
                    _("Where"): _("practice table") if answer.origin == "table" else _("lesson"),
                    _("Hand"): t.item_name(answer.item),
                    _("Cards"): _cards(answer.cards),
                    _("My move"): _action(answer.chosen, t),
                    _("Better play"): _action(answer.best, t),
                    _("Grade"): grades[answer.grade],
                    _("Cost (in bets)"): t.small(answer.ev_loss),
                }
                for answer in reversed(played)
            ]
        )


def _cards(stored: str) -> str:
    """Stored cards (``AD 3H``) as the page shows cards in text (``A♦ 3♥``)."""
    try:
        return format_cards(parse_cards(stored))
    except ValueError:
        return stored


def _action(value: str, t: Translator) -> str:
    try:
        return t.action_name(Action(value))
    except ValueError:
        return value


def name_form(state: AppState) -> None:
    """The learner's display name: shown on their progress and offered in class; never a key."""
    t = state.t
    _ = t.gettext
    current = state.learner.nickname if state.learner is not None else None
    with st.form("data-name-form", border=False):
        columns = st.columns([3, 1], vertical_alignment="bottom")
        typed = columns[0].text_input(
            _("Your name, if you want one (shown on your progress, never needed)"),
            value=current or "",
            key="data-name",
            max_chars=24,
        )
        sent = columns[1].form_submit_button(_("Save the name"), width="stretch")
    if sent:  # the name as sent; the page is drawn again with it (or with why it was refused)
        _set_name(state, str(typed or ""))
        st.rerun()
    if state.quiz_error:
        st.error(_("This name cannot be used: letters, digits, spaces, . ' - only, 24 at most."))


def notice(state: AppState) -> None:
    """What the last code, erasure or restore did, once."""
    t = state.t
    message = state.data_notice
    state.data_notice = None
    if message == "continued":
        st.success(
            t.gettext("Welcome back: this browser continues with your progress."),
            icon=":material/sync:",
        )
    elif message == "unknown-code":
        st.error(t.gettext("No progress is kept under this code. Check it and try again."))
    elif message == "bad-code":
        st.error(
            t.gettext(
                "A recovery code has 26 letters and digits (dashes and spaces do not matter)."
            )
        )
    elif message == "erased":
        st.success(t.gettext("Your data is erased. This browser starts afresh."))


def _subheading(text: str, level: int, key: str) -> None:
    """One of the panel's own headings at ``level`` (its place in the page's outline), drawn at
    the size of Streamlit's h4 whatever the level (``tutor/render/style.py``)."""
    with st.container(key=f"learner-subheading-{key}"):
        st.markdown("#" * level + " " + text)


def my_data(state: AppState, *, heading_level: int = 3) -> None:
    """Where the data is, the recovery code and its QR code, a code from another device, export
    and erasure.

    ``heading_level``: the level of the panel's headings, one below the heading it sits under
    (h3 under Settings' "My data", h2 in the Quiz's data tab under the page's title), so that no
    level is skipped for a screen reader's outline."""
    t = state.t
    _ = t.gettext
    notice(state)
    st.markdown(
        _(
            "Your progress (lessons, quiz answers, hands at the practice table, class seats) and"
            " your settings are kept on the server that runs this app, in its database, under a"
            " private code that this browser keeps in a cookie. There is no account and no"
            " password. It stays until you erase it below, or until the server's administrator"
            " deletes the database. Nobody can see it without your code: a name you type is"
            " only shown, never used to find your data."
        )
    )
    name_form(state)
    code = format_code(state.learner_token)
    _subheading(_("Continue on another device"), heading_level, "device")
    left, right = st.columns([3, 2], vertical_alignment="top")
    with left:
        st.markdown(
            _(
                "On the other device, open this app and type this code below, or scan the QR code."
                " Keep it to yourself: whoever has it has your progress."
            )
        )
        st.markdown(
            '<p aria-label="recovery code" style="font-family:DejaVu Sans Mono,monospace;'
            'font-size:1.35rem;font-weight:700;letter-spacing:.05em;word-break:break-all">'
            f"{html.escape(code)}</p>",
            unsafe_allow_html=True,
        )
    with right:
        # The code in the fragment: never sent in a request or a Referer (``tutor.ui.cookie``).
        url = base_url(state.classes).rstrip("/") + f"/settings#{RESTORE_FRAGMENT}={code}"
        alt = html.escape(_("QR code of your recovery code"))
        st.markdown(
            f'<img src="{qr_data_uri(url)}" alt="{alt}" '
            'style="width:100%;max-width:220px;image-rendering:pixelated"/>',
            unsafe_allow_html=True,
        )
    with st.form("data-code-form", border=False):
        columns = st.columns([3, 1], vertical_alignment="bottom")
        code = columns[0].text_input(
            _("A code from another device"), key="data-code", max_chars=64
        )
        sent = columns[1].form_submit_button(_("Continue with this code"), width="stretch")
    if sent:  # the learner's settings and progress may change: the page is drawn again
        _typed_code(state, str(code or ""))
        st.rerun()
    _subheading(_("Download or erase"), heading_level, "download")
    learner = state.learner
    if learner is None:
        held = store().token_holds(state.learner_token)
        if not held:
            st.caption(_("Nothing is kept yet: your first answer or lesson step starts it."))
            return
        st.markdown(
            t.ngettext(
                "No answer is kept, but this browser's code names {n} row: a class seat, a"
                " class, a group or a lesson it made, or a count of its tries.",
                "No answer is kept, but this browser's code names {n} rows: class seats,"
                " classes, groups or lessons it made, or counts of its tries.",
                held,
            ).format(n=held)
        )
        _erase_box(state)
        return
    kept_answers(state, learner)
    # Read from the store when clicked: the export holds every answer, and the page shows few.
    download_buttons([
        Offer(
            _("Download my data (JSON)"),
            lambda: json.dumps(store().export(learner), ensure_ascii=False, indent=2),
            file_name="blackjack-tutor-my-data.json",
            mime="application/json",
            key="data-export",
        )
    ], width="content")
    _erase_box(state)


def _erase_box(state: AppState) -> None:
    """The erasure: a box to tick, then the button."""
    _ = state.t.gettext
    sure = st.checkbox(_("I understand that my progress will be erased"), key="data-erase-sure")
    if st.button(_("Erase my data"), key="data-erase", disabled=not sure):
        _erase(state, sure)
        st.rerun()
