"""Where the app's state is created: one ``AppState`` per browser session, in one place, with the
learner this browser's cookie names (``tutor.ui.identity``)."""

from __future__ import annotations

import streamlit as st

from tutor.ui.identity import keep_in_browser, token_from_browser
from tutor.ui.resources import store
from tutor.ui.state import AppState, parse_seed

KEY = "app"


def app_state() -> AppState:
    """This session's state, created on first use."""
    state = st.session_state.get(KEY)
    if not isinstance(state, AppState):
        state = AppState()
        seed = parse_seed(st.query_params.get("seed"))
        if seed is not None:  # a replay: the same deals as another session with this seed
            state.seed = seed
        token = token_from_browser()
        if token is not None:  # a returning browser: its learner, if it has kept anything
            state.learner_token = token
            state.token_in_browser = True
            state.learner = store().learner_for_token(token, create=False)
            state.load_progress(store())
        st.session_state[KEY] = state
    return state


def remember_browser(state: AppState) -> None:
    """Give a new browser its learner token (every run until a reload shows it was kept)."""
    if not state.token_in_browser:
        keep_in_browser(state.learner_token)
