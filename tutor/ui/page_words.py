"""Streamlit's own English rewritten in the learner's language, and the keyboard's focus kept
where the learner is (issue 29).

Streamlit 1.67 writes its accessible names in English whatever the page's language (« Skip to
main content », « Main menu », « Help », « Shortcut Enter », « grid_on icon », « Link to heading »)
and offers no setting for them. One script per page (``st.html(...,
unsafe_allow_javascript=True)``, run in the page itself, as ``tutor.ui.keyboard`` does) watches
the page as Streamlit draws it (a ``MutationObserver``) and:

- rewrites those names and texts into the words of ``tutor.render.streamlit_words`` (from the
  catalogues);
- hides from the accessibility tree what is only decoration: the material icons' names (the
  sentence beside each says it) and the headings' anchor links;
- after an answer, moves the focus to the verdict (``verdict_box``), and once the next question
  is drawn, to its first answer (``answers_box``), so a keyboard-only learner never presses Tab to
  go on; the browser's focus otherwise fell back to the page, 18 Tab presses from the answers.

The script carries no learner data: only the interface's words. It installs its watcher once per
browser tab; a later run (another language) only gives it new words.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager

import streamlit as st

from tutor.render.streamlit_words import page_prefixes, page_words
from tutor.render.translator import Translator

#: The key prefixes of the containers the script moves the focus to (Streamlit gives a keyed
#: container the class ``st-key-<key>``).
VERDICT_KEY = "tutor-verdict"
ANSWERS_KEY = "tutor-answers"

_SCRIPT = """<script>(() => {
const w = window;
w.__tutorWords = %(words)s;
w.__tutorPrefixes = %(prefixes)s;
w.__tutorEnterByStyle = %(enter_by_style)s;
const say = (text) => {
  const words = w.__tutorWords;
  if (Object.prototype.hasOwnProperty.call(words, text)) return words[text];
  for (const [from, to] of Object.entries(w.__tutorPrefixes)) {
    if (text.startsWith(from)) {
      const rest = text.slice(from.length);
      return to + (Object.prototype.hasOwnProperty.call(words, rest) ? words[rest] : rest);
    }
  }
  return text;
};
const label = (el) => {
  const name = el.getAttribute('aria-label');
  if (name === null) return;
  if (/^[a-z0-9_]+ icon$/.test(name) || el.dataset.testid === 'stIconMaterial') {
    if (el.getAttribute('aria-hidden') !== 'true') el.setAttribute('aria-hidden', 'true');
    return;
  }
  if (name === 'Link to heading' || el.dataset.tutorAnchor === '1') {
    el.dataset.tutorAnchor = '1';
    el.setAttribute('aria-hidden', 'true');
    el.setAttribute('tabindex', '-1');
    return;
  }
  const said = say(name);
  if (said !== name) el.setAttribute('aria-label', said);
};
const TEXTS = "a[href='#stMain'], kbd, [data-testid='stConnectionStatus'] *";
const text = (el) => {
  if (el.children.length) return;
  const now = el.textContent;
  if (el.tagName === 'KBD' && (now === 'Enter' || now === '')) {
    // The Enter key's name is drawn by the style of components.enter_key_css, after the text:
    // the English text goes where that style names it, comes back where it does not (English).
    const want = w.__tutorEnterByStyle ? '' : 'Enter';
    if (now !== want && (now !== '' || /Enter$/.test(el.getAttribute('aria-label') || ''))) {
      el.textContent = want;
    }
    return;
  }
  const said = say(now);
  if (said !== now) el.textContent = said;
};
const VERDICT = "[class*='st-key-%(verdict)s']", ANSWERS = "[class*='st-key-%(answers)s']";
const running = () => !!document.querySelector(
  "[data-stale='true'], [data-testid='stStatusWidget']");
const firstAnswer = () => {
  for (const box of document.querySelectorAll(ANSWERS)) {
    const first = box.querySelector('button:not([disabled]), input:not([disabled])');
    if (first) return first;
  }
  return null;
};
const focus = () => {
  for (const box of document.querySelectorAll(VERDICT)) {
    if (!box.textContent.trim()) { delete box.dataset.tutorFocused; continue; }
    if (box.dataset.tutorFocused) continue;
    box.dataset.tutorFocused = '1';
    box.setAttribute('tabindex', '-1');
    box.focus();
    w.__tutorFlow = true;
    w.__tutorKeep = 0;
  }
  for (const box of document.querySelectorAll(ANSWERS)) {
    const first = box.querySelector('button:not([disabled]), input:not([disabled])');
    if (!first) { delete box.dataset.tutorFocused; continue; }
    if (box.dataset.tutorFocused) continue;
    box.dataset.tutorFocused = '1';
    if (w.__tutorFlow) { w.__tutorPending = true; w.__tutorFlow = false; }
  }
  // The next question's first answer takes the focus once the run is over (the last question's
  // faded Next button holds Enter until then), and keeps it while Streamlit redraws.
  if (w.__tutorPending && !running()) {
    const first = firstAnswer();
    if (first) { first.focus(); w.__tutorPending = false; w.__tutorKeep = Date.now() + 3000; }
  }
  const a = document.activeElement;
  if (w.__tutorKeep && Date.now() < w.__tutorKeep && (!a || a === document.body)) {
    const first = firstAnswer();
    if (first) first.focus();
  }
};
const sweep = (root) => {
  if (!(root instanceof Element)) return;
  if (root.hasAttribute('aria-label')) label(root);
  root.querySelectorAll('[aria-label]').forEach(label);
  if (root.matches(TEXTS)) text(root);
  root.querySelectorAll(TEXTS).forEach(text);
};
sweep(document.body);
focus();
if (w.__tutorWatcher) return;
// A pointer's click says where the learner is: the focus follows the keyboard only.
document.addEventListener('pointerdown', () => {
  w.__tutorFlow = false; w.__tutorPending = false; w.__tutorKeep = 0;
}, true);
w.__tutorWatcher = new MutationObserver((changes) => {
  for (const change of changes) {
    if (change.type === 'attributes') {
      if (change.attributeName === 'aria-label') label(change.target);
    }
    else if (change.type === 'characterData') {
      const el = change.target.parentElement;
      if (el && el.matches(TEXTS)) text(el);
    } else change.addedNodes.forEach(sweep);
  }
  focus();
});
w.__tutorWatcher.observe(document.body, {childList: true, subtree: true, characterData: true,
  attributes: true, attributeFilter: ['aria-label', 'data-stale']});
})();</script>"""


def page_words_script(t: Translator) -> str:
    """The script, with the words of ``t``'s language.

    >>> from tutor.render.translator import translator
    >>> script = page_words_script(translator("fr"))
    >>> "Menu principal" in script, "MutationObserver" in script
    (True, True)
    """
    return _SCRIPT % {
        "words": json.dumps(page_words(t), ensure_ascii=False),
        "prefixes": json.dumps(page_prefixes(t), ensure_ascii=False),
        "enter_by_style": json.dumps(t.gettext("Enter") != "Enter"),
        "verdict": VERDICT_KEY,
        "answers": ANSWERS_KEY,
    }


def speak_the_page_language(t: Translator) -> None:
    """Put the script in the page (once per run of the entry point; the browser runs it again
    only when its words change)."""
    st.html(page_words_script(t), unsafe_allow_javascript=True)


@contextmanager
def verdict_box(name: str) -> Iterator[None]:
    """A verdict the focus moves to when it appears (``name`` tells the page's verdicts apart)."""
    with st.container(key=f"{VERDICT_KEY}-{name}"):
        yield


@contextmanager
def answers_box(name: str) -> Iterator[None]:
    """A question's answers: after a verdict, the focus goes to the first one when they appear."""
    with st.container(key=f"{ANSWERS_KEY}-{name}"):
        yield
