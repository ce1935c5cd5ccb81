"""Objects shared by every browser session of one server: the database and what sits on it.

``st.cache_resource`` keeps one ``Store`` (one SQLAlchemy engine and its connection pool) per
database URL for the server's life, rather than one per click or per learner. The URL is
``tutor.store.default_url()``: ``TUTOR_DATABASE_URL``, or a SQLite file under ``TUTOR_DATA_DIR``
(``./data`` by default), read when a page first asks, so tests point the app at a temporary file
by setting the environment.
"""

from __future__ import annotations

import streamlit as st

from tutor.classroom import Classroom
from tutor.store import Store, default_url


@st.cache_resource(show_spinner=False)
def _store(url: str) -> Store:
    return Store(url)


def store() -> Store:
    """The server's progress store (created, and migrated, on first use)."""
    return _store(default_url())


def classroom() -> Classroom:
    """Class sessions over the server's store."""
    return Classroom(store())
