"""The one accessor of a browser session's state: ``app_state()`` returns its ``AppState``
(``tutor.visit``), with class mode's desk or seat and the Simulation page's runs as its fields,
created here and nowhere else: with the learner this browser's cookie names
(``tutor.ui.cookie``) and the settings kept with their code. Every page starts with it.
"""

from __future__ import annotations

import streamlit as st

from tutor.identity import InvalidRecoveryCodeError, parse_code
from tutor.render.catalogue import language_from_browser
from tutor.ui.cookie import (
    forget_restore,
    keep_in_browser,
    read_restore_fragment,
    restore_code_from_browser,
    token_from_browser,
)
from tutor.ui.resources import store
from tutor.visit import AppState, parse_seed

KEY = "app"

#: The Settings page's rule edit form: after a change of table they draw the new table's options.
RULE_WIDGETS = (
    "rule-decks",
    "rule-h17",
    "rule-hole",
    "rule-bj",
    "rule-double-on",
    "rule-das",
    "rule-hands",
    "rule-surrender",
    "rule-surrender-ace",
)

#: The widgets that show a setting: after the settings change under them (a recovery code, the
#: other language switch) their kept values are dropped, so they draw the learner's settings.
SETTING_WIDGETS = (
    "settings-language",
    "sidebar_language",
    "settings-exact",
    "settings-preset",
    *RULE_WIDGETS,
)


def app_state() -> AppState:
    """This session's state, created on first use: a returning learner's progress and settings
    from the store; a first visit's language from the browser (French when it says nothing)."""
    state = st.session_state.get(KEY)
    if not isinstance(state, AppState):
        state = AppState()
        seed = parse_seed(st.query_params.get("seed"))
        if seed is not None:  # a replay: the same deals as another session with this seed
            state.seed = seed
        state.language = language_from_browser(_accept_language())
        token = token_from_browser()
        if token is not None:  # a returning browser: its learner, if it has kept anything
            state.learner_token = token
            state.token_in_browser = True
            state.learner = store().learner_for_token(token, create=False)
            state.load_progress(store())
            state.load_settings(store())
        handed = restore_code_from_browser()
        if handed is not None:  # a scanned QR code's fragment, handed over by the page
            continue_with_code(state, handed)
            state.restore_handed = True
        st.session_state[KEY] = state
    return state


def made_state() -> AppState | None:
    """This session's state if it was made already, without making it (making it reads the
    database: a page telling of a database fault must not)."""
    state = st.session_state.get(KEY)
    return state if isinstance(state, AppState) else None


def continue_with_code(state: AppState, typed: str) -> None:
    """Continue as the learner of a recovery code typed here or scanned: their progress and
    settings; ``state.data_notice`` says what happened."""
    try:
        token = parse_code(typed[:64])
    except InvalidRecoveryCodeError:
        state.data_notice = "bad-code"
        return
    learner = store().learner_for_token(token, create=False)
    if learner is None:
        state.data_notice = "unknown-code"
        return
    state.adopt_token(token, learner)
    state.load_progress(store())
    if state.load_settings(store()):
        settings_restored(state)
    state.data_notice = "continued"


def _accept_language() -> str | None:
    """The browser's ``Accept-Language`` header, or its language as Streamlit reports it."""
    try:
        header = st.context.headers.get("Accept-Language")
        if isinstance(header, str) and header:
            return header
        locale = st.context.locale
    except Exception:  # no browser (a script run outside a page)
        return None
    return locale if isinstance(locale, str) else None


def settings_changed(state: AppState, *, widgets: tuple[str, ...] = ()) -> None:
    """After a setting changed: keep it with the learner's code at once, and let ``widgets``
    (the other switches of the same setting) draw the new value."""
    for key in widgets:
        st.session_state.pop(key, None)
    state.save_settings(store())


def settings_restored(state: AppState) -> None:
    """After the learner's settings came from the store (a recovery code typed or scanned):
    every widget that shows one draws the learner's value."""
    for key in SETTING_WIDGETS:
        st.session_state.pop(key, None)


def remember_browser(state: AppState) -> None:
    """Give a new browser its learner token (every run until a reload shows it was kept), read
    a scanned QR code's fragment, and delete a handed-over code once it was read."""
    if not state.token_in_browser:
        keep_in_browser(state.learner_token)
    if state.restore_handed:
        forget_restore()
    read_restore_fragment()
