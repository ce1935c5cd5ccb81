"""Where the app's state is created: one ``AppState`` per browser session, in one place."""

from __future__ import annotations

import streamlit as st

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
        st.session_state[KEY] = state
    return state
