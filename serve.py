"""The app's web server: ``streamlit run serve.py`` serves ``app.py`` (the pages) through
Streamlit's own server, with one addition: Streamlit's front-end files are answered from memory,
gzipped once (``tutor.ui.static_files``; issue 30). ``streamlit run`` finds the ``app`` below and
runs it; the pages, the settings (``.streamlit/config.toml``) and the flags stay those of
``app.py``, and every test of the pages (``AppTest``) still opens ``app.py`` itself."""

from __future__ import annotations

import streamlit as st
from starlette.middleware import Middleware

from tutor.ui.static_files import StaticFromMemory

app = st.App("app.py", middleware=[Middleware(StaticFromMemory)])
