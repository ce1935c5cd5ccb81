"""Who is at this browser: the learner's private token, kept in a cookie, and nothing else.

Why a cookie: ``st.session_state`` dies with a reload, and a token in the address would travel
with every link a learner shares. The browser keeps the token (``tutor.identity``: 130 random
bits, also the recovery code) in a first-party cookie; Streamlit reads it back on the next visit
(``st.context.cookies``) and the store finds the learner by its hash. The cookie is written by a
one-line script (``st.html(..., unsafe_allow_javascript=True)``): Streamlit has no server-side
way to set one. The token is only ever written into the page of the browser that holds it.

The cookie is as tight as a page-written cookie can be: ``SameSite=Strict`` (no other site's
page, link or form ever makes the browser send it: the QR codes and join links are opened by
typing or scanning, which is a top-level visit of our own address, and the page reads the
cookie over its own websocket), ``Secure`` whenever the page is served over HTTPS. It cannot be
``HttpOnly``: the page writes it, so the page's scripts can read it (see the README).

A recovery code never travels in an address (issue 24): the "continue on another device" QR
code holds it in the URL's *fragment* (``/settings#restore=<code>``), which browsers never send
in a request line or a ``Referer``, so no access log of the app or of a proxy can hold it. The
page reads the fragment (``restore_script``), takes it out of the address, hands the code over in
a short-lived cookie (``RESTORE_COOKIE``, sent in a header, never logged) and reloads; the server
reads it once (``restore_code_from_browser``) and the page deletes it (``forget_restore``).
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


#: The cookie a scanned QR code's recovery code is handed over in, for one minute at most.
RESTORE_COOKIE = "tutor_restore"
RESTORE_MAX_AGE = 60
#: Whether the page is served over HTTPS, as a script expression: then the cookie is ``Secure``.
#: Written without spaces around the ``?`` and ``:``: the pages' French typography check reads
#: the page's text, scripts included.
_SECURE = '(location.protocol==="https:"?"; Secure":"")'
#: The fragment's key: ``#restore=<code>``.
RESTORE_FRAGMENT = "restore"


def _attributes(max_age: int) -> str:
    """A cookie's attributes, written by the page: ``Secure`` added there when the page is
    served over HTTPS (the page knows its own scheme; behind a proxy the server may not)."""
    return f"; Max-Age={max_age}; Path=/; SameSite=Strict"


def cookie_script(name: str, value: str, max_age: int) -> str:
    """The script line that writes cookie ``name`` (``Secure`` over HTTPS).

    >>> line = cookie_script("tutor_learner", "ABC", 60)
    >>> print(line[:76])
    document.cookie = "tutor_learner=ABC; Max-Age=60; Path=/; SameSite=Strict" +
    >>> print(line[77:])
    (location.protocol==="https:"?"; Secure":"");
    """
    written = json.dumps(f"{name}={value}{_attributes(max_age)}")
    return f"document.cookie = {written} + {_SECURE};"


def keep_in_browser(token: str) -> None:
    """Write the token into this browser's cookie (the next visit and every reload send it)."""
    line = cookie_script(COOKIE, parse_code(token), MAX_AGE)
    with st.sidebar:
        st.html(f"<script>{line}</script>", unsafe_allow_javascript=True)


def restore_script() -> str:
    """The page's reader of a scanned QR code's ``#restore=<code>``: the fragment leaves the
    address (``history.replaceState``: no history entry, nothing sent), the code goes into the
    one-minute ``RESTORE_COOKIE`` and the page reloads, so the server receives it in a header.
    Only the code's alphabet and hyphens (64 characters at most) are taken. The reader also
    listens for a fragment given to a page already open (an address edited, a link followed on
    the same page: the browser then loads nothing, and the code would stay in the address and
    its history entry); once per document, however many runs put the script on the page."""
    attributes = json.dumps(_attributes(RESTORE_MAX_AGE))
    handover = (
        f'document.cookie = "{RESTORE_COOKIE}=" + found[1] + {attributes}'
        f" + {_SECURE};"
    )
    return (
        "(function () {"
        " function take() {"
        f" var found = /[#&]{RESTORE_FRAGMENT}=([0-9A-Za-z-]{{1,64}})/.exec(location.hash);"
        " if (!found) { return; }"
        ' history.replaceState(null, "", location.pathname + location.search);'
        f" {handover}"
        " location.reload();"
        " }"
        " if (!window.tutorRestoreReader) {"
        ' window.tutorRestoreReader = true; window.addEventListener("hashchange", take);'
        " }"
        " take();"
        " })();"
    )


def read_restore_fragment() -> None:
    """Put the fragment reader on the page (every page: the QR code opens Settings, but a
    learner may have edited the address)."""
    with st.sidebar:
        st.html(f"<script>{restore_script()}</script>", unsafe_allow_javascript=True)


def restore_code_from_browser() -> str | None:
    """The recovery code a scanned QR code handed over (``RESTORE_COOKIE``), if any: the text
    as the page took it, for ``parse_code`` to read (bounded to 64 characters)."""
    try:
        raw = st.context.cookies.get(RESTORE_COOKIE)
    except Exception:
        return None
    if not isinstance(raw, str) or not raw or len(raw) > 64:
        return None
    return raw


def forget_restore() -> None:
    """Delete the handed-over code's cookie: it has done its work."""
    line = cookie_script(RESTORE_COOKIE, "", 0)
    with st.sidebar:
        st.html(f"<script>{line}</script>", unsafe_allow_javascript=True)
