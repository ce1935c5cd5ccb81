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
script, by ``callback_guard``.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import ParamSpec, TypeVar

import sqlalchemy.exc
import streamlit as st

from tutor.i18n import Translator, translator
from tutor.ui.state import AppState

P = ParamSpec("P")
R = TypeVar("R")

log = logging.getLogger("tutor.database")

#: What a broken database raises: SQLAlchemy's errors (down, read-only, full, corrupt, locked) and
#: the operating system's (the SQLite file or its folder cannot be created or opened).
DATABASE_FAULTS: tuple[type[BaseException], ...] = (sqlalchemy.exc.SQLAlchemyError, OSError)


def _translator() -> Translator:
    """The learner's language when the session has one; the default language otherwise (the
    fault may come before the session's state exists)."""
    state = st.session_state.get("app")
    return state.t if isinstance(state, AppState) else translator()


def show_fault(error: BaseException, where: str) -> None:
    """Log the fault for the operator and tell the learner in a sentence, with nothing of the
    exception on the page."""
    log.error("database fault in %s: %s", where, error, exc_info=error)
    _ = _translator().gettext
    st.error(
        _(
            "The server cannot use its database right now. The answers you gave before this"
            " message are saved; try again in a moment."
        ),
        icon=":material/cloud_off:",
    )


#: Set by a callback that met a fault, so the run it starts does not say it a second time.
_TOLD = "_tutor_fault_told"


def _tell(error: BaseException, where: str) -> None:
    """Show the sentence, unless a callback of this run already did (then only log)."""
    if st.session_state.pop(_TOLD, False):
        log.error("database fault in %s (already told): %s", where, error, exc_info=error)
    else:
        show_fault(error, where)


@contextmanager
def page_guard(where: str = "page", *, last: bool = False) -> Iterator[None]:
    """Around a part of ``app.py``'s run: a database fault ends the run with the sentence (what
    follows the block may need what the block did not finish, such as the session's state).
    ``last`` marks the run's final block, which forgets a callback's fault however it ends."""
    try:
        yield
    except DATABASE_FAULTS as error:
        _tell(error, where)
        st.stop()
    finally:
        if last:
            st.session_state.pop(_TOLD, None)


def database_guard(function: Callable[P, R]) -> Callable[P, R | None]:
    """Decorate a polling fragment (under ``@st.fragment``): a database fault during one of its
    own runs shows the sentence in its place, and its next poll tries again."""

    @functools.wraps(function)
    def guarded(*args: P.args, **kwargs: P.kwargs) -> R | None:
        try:
            return function(*args, **kwargs)
        except DATABASE_FAULTS as error:
            _tell(error, function.__qualname__)
            return None
        finally:
            st.session_state.pop(_TOLD, None)

    return guarded


def callback_guard(function: Callable[P, R]) -> Callable[P, R | None]:
    """Decorate a widget's callback (``on_click``, ``on_change``) that uses the database.

    Why callbacks need their own guard: Streamlit runs them before the script, outside
    ``app.py``'s ``page_guard``, and shows what they raise as its own error box (a generic
    English sentence with ``showErrorDetails = "none"``, and the page stops). Caught here, the
    learner reads our sentence at the top of the page, the run goes on, and if the page's own
    reads meet the same fault, the sentence is not said twice."""

    @functools.wraps(function)
    def guarded(*args: P.args, **kwargs: P.kwargs) -> R | None:
        try:
            return function(*args, **kwargs)
        except DATABASE_FAULTS as error:
            _tell(error, function.__qualname__)
            st.session_state[_TOLD] = True
            return None

    return guarded
