"""The Streamlit interface, and only it: every module here imports Streamlit (the architecture
test holds it), pages under ``tutor/ui/pages``, the components, the app's state and its callbacks.

What a page shows is made below this line, without Streamlit: the words, the card pictures, the
chart's tables and the exports in ``tutor.render``; the activities a page drives in
``tutor.practice`` and ``tutor.lessons.run``.
"""
