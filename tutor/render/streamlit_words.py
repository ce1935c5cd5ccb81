"""Streamlit's own English, said in the learner's language (issue 29): the accessible names,
labels and hidden texts the frontend writes by itself (1.67 has no setting for them), as a screen
reader hears them on every page: « Skip to main content », « Main menu », « Help », the
keyboard-shortcut hint « Shortcut Enter »...

Only the words live here; ``tutor.ui.page_words`` puts them in the page, where a small script
rewrites Streamlit's English into them as the page draws itself.
"""

from __future__ import annotations

from tutor.render.catalogue import LANGUAGES, N_
from tutor.render.translator import Translator, translator

#: Streamlit's fixed accessible names and texts (its frontend's own English, 1.67), each written
#: as the frontend writes it: an element's ``aria-label`` or its whole text.
STREAMLIT_WORDS: tuple[str, ...] = (
    N_("Skip to main content"),
    N_("Sidebar"),
    N_("App pages"),
    N_("Collapse sidebar"),
    N_("Expand sidebar"),
    N_("Main menu"),
    N_("Help"),
    N_("Open"),
    N_("Close"),
    N_("Clear all"),
    N_("Clear value"),
    N_("Selected values"),
    N_("progress"),
    N_("Running..."),
    N_("Stop script"),
    N_("Enter"),
    N_("Download as CSV"),
    N_("Search"),
    N_("Close Search"),
    N_("Fullscreen"),
    N_("Close fullscreen"),
    N_("Show/hide columns"),
)

#: Names Streamlit builds around a word of its own: the text before the variable part.
STREAMLIT_PREFIXES: tuple[str, ...] = (
    N_("Shortcut "),
    N_("Help for "),
)


def page_words(t: Translator) -> dict[str, str]:
    """Every way a word of Streamlit's may read now (its English, or its rewording in any of our
    languages, left by an earlier page) mapped to the word in ``t``'s language: a page switched
    from French to English says « Main menu » again.

    >>> from tutor.render.translator import translator
    >>> fr = page_words(translator("fr"))
    >>> fr["Main menu"], fr["Skip to main content"], fr["Enter"]
    ('Menu principal', 'Aller au contenu principal', 'Entrée')
    >>> page_words(translator("en"))["Menu principal"]
    'Main menu'
    """
    return _rewordings(STREAMLIT_WORDS, t)


def page_prefixes(t: Translator) -> dict[str, str]:
    """The same for the beginnings of Streamlit's built names (« Shortcut T » → « Raccourci T »).

    >>> from tutor.render.translator import translator
    >>> page_prefixes(translator("fr"))["Shortcut "]
    'Raccourci '
    """
    return _rewordings(STREAMLIT_PREFIXES, t)


def _rewordings(english_words: tuple[str, ...], t: Translator) -> dict[str, str]:
    """Each of ``english_words`` as it reads in any of our languages (and in English), mapped to
    its wording in ``t``'s language."""
    rewordings: dict[str, str] = {}
    for english in english_words:
        for language in LANGUAGES:
            rewordings[translator(language).gettext(english)] = t.gettext(english)
        rewordings[english] = t.gettext(english)
    return rewordings
