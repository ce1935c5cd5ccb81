"""The Streamlit interface: pages under ``tutor/ui/pages``, components and the app's state here.

Modules that import Streamlit (``session``, ``components``, the pages) only draw and wire
callbacks; the rest (``state``, ``practice``, ``lesson_run``, ``cards``, ``chart_view``) are plain
Python, tested without a browser.
"""
