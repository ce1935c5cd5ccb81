"""A database fault becomes a sentence for the learner and a log record for the operator.

Why: when the database is down, read-only, full or corrupt, SQLAlchemy's and SQLite's exceptions
carry the database's host, port and file paths; left to Streamlit they are drawn as a traceback
on every learner's and student's screen (issue 14). Caught here instead, the page shows one
sentence in the learner's language, the details go to the server's log (Python ``logging``,
which only the operator reads), and the server keeps serving: the next run, or the next poll of
a class page, tries again and recovers by itself once the database is back.

Three places catch: ``app.py`` around each page run (``page_guard``); the polling fragments of
the class pages (``st.fragment(run_every=…)``), which re-run on their own without ``app.py``, by
the decorator ``database_guard``; and the widgets' callbacks, which Streamlit runs before the
script, by ``callback_guard``, which only notes the fault for the run the click starts to say.

The sentence goes by itself once the database answers (issue 25): outside a polling fragment it
is drawn by a fragment of its own that asks the database again every ``RETRY_SECONDS`` and runs
the page again once it answers; inside one, the fragment's next poll draws it no more. And while
the page has lost the server itself (a restart), ``connection_lost_css`` puts our sentence in
the learner's language in place of Streamlit's English dialog.

The operator's log gets one line per refused run or click (``log_fault``), and the traceback
once per fault episode: a fault of the same kind (its exception's class and first line) within
``EPISODE_SECONDS`` of the last one is the same episode. With twenty phones clicking during an
outage, a traceback per click wrote megabytes in seconds, each one the same.
"""

from __future__ import annotations

import functools
import logging
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import ParamSpec, TypeVar

import sqlalchemy.exc
import streamlit as st

from tutor.render.translator import Translator, translator
from tutor.ui.state import made_state

P = ParamSpec("P")
R = TypeVar("R")

log = logging.getLogger("tutor.database")

#: What a broken database raises: SQLAlchemy's errors (down, read-only, full, corrupt, locked) and
#: the operating system's (the SQLite file or its folder cannot be created or opened).
DATABASE_FAULTS: tuple[type[BaseException], ...] = (sqlalchemy.exc.SQLAlchemyError, OSError)


#: A fault of the same kind within this many seconds of the last one is the same episode: its
#: traceback is in the log already.
EPISODE_SECONDS = 60.0
#: The most characters of a fault's first line a log line holds.
LINE_MAX_CHARS = 300


class FaultLog:
    """Which kinds of fault had their traceback logged, and when each was last seen."""

    def __init__(self, episode_seconds: float = EPISODE_SECONDS) -> None:
        self.episode_seconds = episode_seconds
        self._last_seen: dict[str, float] = {}
        self._lock = threading.Lock()

    def new_episode(self, kind: str, now: float) -> bool:
        """Whether a fault of ``kind`` seen at ``now`` starts an episode (then its traceback is
        logged); every sighting extends its episode."""
        with self._lock:
            last = self._last_seen.get(kind)
            self._last_seen[kind] = now
            if len(self._last_seen) > 64:  # kinds long gone are forgotten
                horizon = now - self.episode_seconds
                self._last_seen = {k: t for k, t in self._last_seen.items() if t >= horizon}
            return last is None or now - last > self.episode_seconds


_FAULTS = FaultLog()


def fault_line(error: BaseException) -> str:
    """A fault on one line: its class and the first line of its message (SQLAlchemy's message
    goes on with the statement), bounded.

    >>> fault_line(OSError("disk full\\nmore"))
    'OSError: disk full'
    """
    first = (str(error).splitlines() or [""])[0]
    return f"{type(error).__name__}: {first}"[:LINE_MAX_CHARS]


def log_fault(error: BaseException, where: str, faults: FaultLog | None = None) -> None:
    """One line in the operator's log for this fault; its traceback too if it starts an
    episode (``FaultLog``)."""
    line = fault_line(error)
    if (faults or _FAULTS).new_episode(line, time.monotonic()):
        log.error("database fault in %s: %s", where, line, exc_info=error)
    else:
        log.error("database fault in %s (same fault as before): %s", where, line)


def _translator() -> Translator:
    """The learner's language when the session has one; the default language otherwise (the
    fault may come before the session's state exists)."""
    state = made_state()
    return state.t if state is not None else translator()


#: How often a page showing the sentence asks the database again, and redraws itself once it
#: answers: a phone whose page stopped at the fault (or whose polling screen met it in a click)
#: kept the sentence after the fault was gone, since only a full run clears what it drew.
RETRY_SECONDS = 3.0

#: Set by a callback that met a fault: the run it starts says it, in that run's own place.
_PENDING = "_tutor_fault_pending"
#: Set once this run has said it, so that it is said once.
_TOLD = "_tutor_fault_told"
#: Set just before the self-clearing sentence is first drawn: that run shows it without asking.
_FRESH = "_tutor_fault_fresh"


def _sentence() -> None:
    _ = _translator().gettext
    st.error(
        _(
            "The server cannot use its database right now. The answers you gave before this"
            " message are saved; try again in a moment."
        ),
        icon=":material/cloud_off:",
    )


def database_answers() -> bool:
    """Whether the database answers a read now (a learner's lookup that creates nothing)."""
    from tutor.identity import new_token
    from tutor.ui.resources import store

    try:
        store().learner_for_token(new_token(), create=False)
    except DATABASE_FAULTS:
        return False
    return True


@st.fragment(run_every=RETRY_SECONDS)
def _self_clearing_sentence() -> None:
    """The sentence, asked again every ``RETRY_SECONDS`` on its own: while the database is still
    away it stays; once it answers, the whole page runs again, without it."""
    if not st.session_state.pop(_FRESH, False) and database_answers():
        st.rerun()  # the app's full run: the page the fault stopped, drawn again
    _sentence()


def show_fault(error: BaseException | None, where: str, *, in_fragment: bool = False) -> None:
    """Log the fault for the operator and tell the learner in a sentence, with nothing of the
    exception on the page. Outside a polling fragment the sentence clears itself once the
    database answers again; inside one, the fragment's next poll redraws it anyway."""
    if error is not None:
        log_fault(error, where)
    st.session_state[_TOLD] = True
    if in_fragment:
        _sentence()
    else:
        st.session_state[_FRESH] = True
        _self_clearing_sentence()


def _tell(error: BaseException, where: str, *, in_fragment: bool = False) -> None:
    """Show the sentence, unless this run already did (then only log)."""
    if st.session_state.get(_TOLD, False):
        log_fault(error, where)
    else:
        show_fault(error, where, in_fragment=in_fragment)


def _tell_pending(where: str, *, in_fragment: bool) -> None:
    """Say the fault a callback met before this run, here (once)."""
    if st.session_state.pop(_PENDING, False) and not st.session_state.get(_TOLD, False):
        show_fault(None, where, in_fragment=in_fragment)


@contextmanager
def page_guard(where: str = "page", *, last: bool = False) -> Iterator[None]:
    """Around a part of ``app.py``'s run: a database fault ends the run with the sentence (what
    follows the block may need what the block did not finish, such as the session's state).
    ``last`` marks the run's final block, which forgets what was said however it ends."""
    _tell_pending(where, in_fragment=False)
    try:
        yield
    except DATABASE_FAULTS as error:
        _tell(error, where)
        st.session_state.pop(_TOLD, None)  # the run ends here
        st.stop()
    finally:
        if last:
            st.session_state.pop(_TOLD, None)


def database_guard(function: Callable[P, R]) -> Callable[P, R | None]:
    """Decorate a polling fragment (under ``@st.fragment``): a database fault during one of its
    own runs shows the sentence in its place, and its next poll tries again (and, the database
    back, draws the fragment without it). A fault of a click in the fragment is said here too:
    a click in a fragment runs the fragment only, and a sentence drawn elsewhere would stay."""

    @functools.wraps(function)
    def guarded(*args: P.args, **kwargs: P.kwargs) -> R | None:
        _tell_pending(function.__qualname__, in_fragment=True)
        try:
            return function(*args, **kwargs)
        except DATABASE_FAULTS as error:
            _tell(error, function.__qualname__, in_fragment=True)
            return None
        finally:
            st.session_state.pop(_TOLD, None)

    return guarded


def callback_guard(function: Callable[P, R]) -> Callable[P, R | None]:
    """Decorate a widget's callback (``on_click``, ``on_change``) that uses the database.

    Why callbacks need their own guard: Streamlit runs them before the script, outside
    ``app.py``'s ``page_guard``, and shows what they raise as its own error box (a generic
    English sentence with ``showErrorDetails = "none"``, and the page stops). Caught here, the
    fault is logged and the run the click starts says it once: at the top of the page for a
    full run, in the fragment for a click in a polling fragment, where the fragment's next poll
    clears it (drawn by the callback itself, it stayed on a phone after the fault was gone)."""

    @functools.wraps(function)
    def guarded(*args: P.args, **kwargs: P.kwargs) -> R | None:
        try:
            return function(*args, **kwargs)
        except DATABASE_FAULTS as error:
            log_fault(error, function.__qualname__)
            st.session_state[_PENDING] = True
            return None

    return guarded


# -- the connection to the server lost ------------------------------------------------------------


def _css_string(text: str) -> str:
    """``text`` as a CSS string literal (quotes, backslashes and ``<`` escaped)."""
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("<", "\\3C ")
    return '"' + escaped.replace("\n", "\\A ") + '"'


def connection_lost_css(t: Translator) -> str:
    """While the page has lost its server (a restart, a process of the school's set stopped),
    Streamlit draws an English « Connection error » dialog over it; this style hides that dialog
    and shows our sentence in the learner's language instead, at the top of the page.

    Pure CSS, in the page since its last run: the frontend shows its connection status element
    (``stConnectionStatus``) only while the websocket is down, so the rule holds exactly then,
    and once the page reconnects both the element and the dialog are gone. Streamlit has no
    setting for the dialog's text (1.67), and the app opens no ``st.dialog`` of its own, so every
    dialog hidden then is that one.

    >>> from tutor.render.translator import translator
    >>> "Connection error" in connection_lost_css(translator("en"))
    False
    >>> "reconnecte" in connection_lost_css(translator("fr"))
    True
    """
    sentence = t.gettext(
        "The connection to the server is lost, probably while it restarts. This page reconnects"
        " by itself in a moment; the answers you gave before are saved."
    )
    down = "body:has([data-testid='stConnectionStatus'])"
    return (
        "<style>"
        f"{down} [data-testid='stDialog']{{display:none !important}}"
        f"{down}::after{{content:{_css_string(sentence)};position:fixed;z-index:1000100;"
        "top:3.5rem;left:50%;transform:translateX(-50%);width:min(40rem,calc(100vw - 2rem));"
        "box-sizing:border-box;padding:.9rem 1.1rem;border-radius:.5rem;background:#fff4e5;"
        "color:#5a3200;border:1px solid #e0a458;box-shadow:0 2px 10px rgba(0,0,0,.15);"
        "font-size:1rem;line-height:1.45}"
        "</style>"
    )
