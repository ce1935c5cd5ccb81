"""Blackjack Tutor: the Streamlit entry point. Page setup, the session's state, navigation.

Everything else lives in ``tutor/ui`` (pages and components) and ``tutor`` (the game, the
strategy, the lessons, the quiz). Run with ``streamlit run app.py``.
"""

from __future__ import annotations

import streamlit as st

from tutor.render.style import CSS
from tutor.ui.components import sidebar
from tutor.ui.faults import connection_lost_css, page_guard
from tutor.ui.page_words import speak_the_page_language
from tutor.ui.state import app_state, remember_browser

# The tab's icon: an emoji Streamlit knows is drawn in the page itself. (A playing-card character
# it does not read as an emoji became a link, and every page load asked the server for "/🂡";
# a Material icon would be fetched from Google's servers.)
st.set_page_config(page_title="Blackjack Tutor", page_icon="♠️", layout="wide")
st.html(CSS)  # the app's CSS (contrast), in one place; a style-only block takes no room

# A database fault (down, read-only, full, corrupt) is a sentence on the page and a record in the
# operator's log, never a traceback; the run stops there and the next one tries again.
with page_guard("session"):
    state = app_state()
_ = state.t.gettext

PAGES = "tutor/ui/pages"
page = st.navigation(
    [
        st.Page(
            f"{PAGES}/lessons_page.py",
            title=_("Lessons"),
            icon=":material/school:",
            url_path="lessons",
            default=True,
        ),
        st.Page(
            f"{PAGES}/practice_page.py",
            title=_("Practice table"),
            icon=":material/playing_cards:",
            url_path="table",
        ),
        st.Page(f"{PAGES}/quiz_page.py", title=_("Quiz"), icon=":material/quiz:", url_path="quiz"),
        st.Page(
            f"{PAGES}/strategy_page.py",
            title=_("Strategy"),
            icon=":material/grid_on:",
            url_path="strategy",
        ),
        st.Page(
            f"{PAGES}/simulation.py",
            title=_("Simulation"),
            icon=":material/casino:",
            url_path="simulation",
        ),
        st.Page(
            f"{PAGES}/my_lessons.py",
            title=_("My lessons"),
            icon=":material/edit_note:",
            url_path="my-lessons",
        ),
        st.Page(
            f"{PAGES}/class_teacher.py",
            title=_("Class — teacher"),
            icon=":material/co_present:",
            url_path="class",
        ),
        st.Page(
            f"{PAGES}/homework_teacher.py",
            title=_("Homework — teacher"),
            icon=":material/assignment:",
            url_path="groups",
        ),
        st.Page(
            f"{PAGES}/homework_student.py",
            title=_("My homework"),
            icon=":material/checklist:",
            url_path="homework",
        ),
        st.Page(
            f"{PAGES}/class_student.py",
            title=_("Join a class"),
            icon=":material/groups:",
            url_path="join",
        ),
        st.Page(
            f"{PAGES}/settings.py",
            title=_("Settings"),
            icon=":material/settings:",
            url_path="settings",
        ),
    ]
)
with page_guard("sidebar"):  # a language picked there is kept at once
    sidebar(state)
st.html(connection_lost_css(state.t))  # our sentence, not Streamlit's English, while offline
speak_the_page_language(state.t)  # Streamlit's own English names said in the learner's language
remember_browser(state)
with page_guard(page.url_path or "lessons", last=True):
    page.run()
