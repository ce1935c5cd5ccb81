"""The keyboard a phone opens for a typed number: the numeric one, not the letters.

Streamlit's ``st.text_input`` has no ``inputmode`` parameter, and ``st.number_input`` would refuse
the answers a lesson accepts ("3/2", "16 bûches", "−2"). So the answer stays a text input, and a
one-line script in the page (``st.html(..., unsafe_allow_javascript=True)``, run in the page
itself, not in a frame) sets the attribute on that input, found by the class Streamlit gives a
keyed widget's container (``st-key-<key>``). The script carries no learner data: only the key,
written by the page, and the mode.
"""

from __future__ import annotations

import json
import re
from typing import Literal

import streamlit as st

from tutor.lessons.models import Answer, ChipsAnswer, LossAnswer, NumberAnswer

#: ``decimal``: digits and the decimal separator (iOS shows no minus key on it); ``numeric``:
#: digits only; ``text``: the ordinary keyboard, for an answer that needs a sign.
InputMode = Literal["decimal", "numeric", "text"]

_KEY = re.compile(r"^[A-Za-z0-9_-]{1,80}$")


def keyboard_script(key: str, mode: InputMode) -> str:
    """The script that gives the text input of widget ``key`` this ``inputmode``: at once if
    the input is already in the page, else as soon as Streamlit draws it (a watcher that stops
    once done, or after ten seconds).

    >>> "inputmode" in keyboard_script("ask-3-typed", "decimal")
    True
    >>> keyboard_script("a key", "decimal")
    Traceback (most recent call last):
    ...
    ValueError: not a widget key for a selector: 'a key'
    """
    if not _KEY.match(key):
        raise ValueError(f"not a widget key for a selector: {key!r}")
    selector = json.dumps(f".st-key-{key} input")
    return (
        "<script>(() => {"
        f"const selector = {selector}, mode = {json.dumps(mode)};"
        "const apply = () => {"
        " const input = window.document.querySelector(selector);"
        " if (!input) return false;"
        " input.setAttribute('inputmode', mode);"
        " input.setAttribute('enterkeyhint', 'done');"
        " input.setAttribute('autocomplete', 'off');"
        " return true; };"
        "if (apply()) return;"
        "const watcher = new MutationObserver(() => { if (apply()) watcher.disconnect(); });"
        "watcher.observe(window.document.body, {childList: true, subtree: true});"
        "setTimeout(() => watcher.disconnect(), 10000);"
        "})();</script>"
    )


def keyboard_for(answer: Answer) -> InputMode:
    """The keyboard a typed answer needs: the decimal one for a count, a total or an amount
    (a loss is typed without its sign), the ordinary one only for a key below zero, whose minus
    sign the iOS decimal keyboard cannot type (no lesson of the course has one: a net loss is
    asked as a ``loss``)."""
    if isinstance(answer, LossAnswer):
        return "decimal"
    if isinstance(answer, NumberAnswer) and answer.number < 0:
        return "text"
    if isinstance(answer, ChipsAnswer) and answer.chips < 0:
        return "text"
    return "decimal"


def numeric_keyboard(key: str, mode: InputMode = "decimal") -> None:
    """Open the numeric keyboard on phones for the text input of widget ``key``."""
    st.html(keyboard_script(key, mode), unsafe_allow_javascript=True)
