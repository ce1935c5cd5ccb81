"""Who is at this browser: the learner's private token, kept in a cookie, and nothing else.

Why a cookie: ``st.session_state`` dies with a reload, and a token in the address would travel
with every link a learner shares. The browser keeps the token (``tutor.identity``: 130 random
bits, also the recovery code) in a first-party cookie; Streamlit reads it back on the next visit
(``st.context.cookies``) and the store finds the learner by its hash. The cookie is written by a
one-line script (``st.html(..., unsafe_allow_javascript=True)``): Streamlit has no server-side
way to set one. The token is only ever written into the page of the browser that holds it.
"""

from __future__ import annotations

import json

import streamlit as st

from tutor.identity import InvalidRecoveryCodeError, parse_code

#: The cookie's name and life (browsers cap a cookie at 400 days; each visit renews it).
COOKIE = "tutor_learner"
MAX_AGE = 400 * 24 * 3600


def token_from_browser() -> str | None:
    """The learner token this browser sent with its connection, if it holds a valid one."""
    try:
        raw = st.context.cookies.get(COOKIE)
    except Exception:
        return None
    if not isinstance(raw, str) or len(raw) > 64:
        return None
    try:
        return parse_code(raw)
    except InvalidRecoveryCodeError:
        return None


def keep_in_browser(token: str) -> None:
    """Write the token into this browser's cookie (the next visit and every reload send it)."""
    value = json.dumps(f"{COOKIE}={parse_code(token)}; Max-Age={MAX_AGE}; Path=/; SameSite=Lax")
    with st.sidebar:
        st.html(f"<script>document.cookie = {value};</script>", unsafe_allow_javascript=True)
