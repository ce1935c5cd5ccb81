"""The app's own CSS, in one place, injected once per page by ``app.py``.

Why CSS at all: Streamlit's theme (``.streamlit/config.toml``) sets the colours it names, but it
derives the caption grey and a shortcut key's grey by fading the text colour (opacity), and on our
backgrounds those greys fall under WCAG AA's 4.5:1 (captions 4.46:1 on the page, 4.28:1 in the
sidebar; a shortcut letter on a green button 3.31:1). Each rule below says which check it
answers; ``tests/test_browser_a11y.py`` runs axe-core on every page to keep them passing.
"""

from __future__ import annotations

#: Captions: 6.5:1 on the page (#fbfaf5), 5.8:1 on the sidebar (#e8efe9), still quieter than text.
CAPTION = "#595c59"

#: A row of columns holding buttons and no text (``:has`` cannot nest: text is what is excluded).
_BUTTON_ROW = (
    "[data-testid='stHorizontalBlock']:has(>[data-testid='stColumn'] .stButton)"
    ":not(:has(.stMarkdown,.stProgress,.stCaption,[data-testid='stMetric']))"
)

CSS = (
    "<style>"
    # Captions, on the page and in the sidebar: Streamlit draws them in the text colour at 60 %
    # opacity; a grey of their own at full opacity instead.
    f"[data-testid='stCaptionContainer']{{opacity:1}}"
    f"[data-testid='stCaptionContainer'],[data-testid='stCaptionContainer'] p{{color:{CAPTION}}}"
    # A shortcut key shown on a button: full-strength text of the button's own colour (white on
    # the green primary buttons: 6.2:1), not a faded one.
    "[data-testid^='stBaseButton'] kbd{color:inherit;opacity:1}"
    # A page's sections are h2 under its h1 title (st.header: axe's heading-order wants no level
    # skipped, and st.subheader is an h3), drawn at the size and spacing of Streamlit's h3.
    "[data-testid='stHeading'] h2{font-size:1.75rem;padding-top:.75rem}"
    # The My data panel's headings, h2 or h3 by where the panel sits, look like an h4.
    "[class*='st-key-learner-subheading'] :is(h2,h3){font-size:1.5rem;padding-top:.5rem}"
    # Less empty space above the page's title (Streamlit leaves 6rem): a quiz question, its cards
    # and its answers fit one laptop (1366x768) or phone (390x844) screen.
    ".stMainBlockContainer{padding-top:3.5rem}"
    # Hands shown side by side (tutor.ui.components.show_hands_side_by_side), wrapping if narrow.
    ".tutor-hands{display:flex;flex-wrap:wrap;column-gap:1.5rem}"
    ".tutor-hands>[role=group]:first-child{flex:1 1 5rem;max-width:14rem}"
    # A disabled action's reason, written out where a hover tooltip cannot be reached (touch) or
    # hardly fits (narrow screens); a mouse on a wide screen reads it in the button's tooltip.
    ".tutor-touch-reasons{font-size:.9rem;margin:0;padding-left:1.2rem}"
    # « Mes leçons »: a lesson's YAML in the editor in a fixed-width font, so that its indents
    # line up as the checker reads them and a column number points where the teacher looks.
    "[class*='st-key-author-editor'] textarea{font-family:'DejaVu Sans Mono',monospace;"
    "font-size:.9rem}"
    "@media (hover:hover) and (min-width:641px){.tutor-touch-reasons{display:none}}"
    # On a phone, a row of buttons only (answers, actions) wraps two by two instead of stacking
    # one per line.
    "@media (max-width:640px){"
    f"{_BUTTON_ROW}{{flex-flow:row wrap !important;gap:.5rem !important}}"
    f"{_BUTTON_ROW}>[data-testid='stColumn']"
    "{flex:1 1 calc(50% - .5rem) !important;min-width:calc(50% - .5rem) !important;"
    "width:auto !important}}"
    # A laptop screen at 200 % zoom (1280x800 is 640x400 CSS pixels), or any short wide screen:
    # smaller cards, the actions in one row and the page's top space trimmed, so that a hand
    # and its action buttons fit one screen (issue 29; tests/test_browser_zoom.py).
    "@media (max-height:500px) and (min-width:480px){"
    ".bj-card{height:4.6rem !important;width:auto !important}"
    ".stMainBlockContainer{padding-top:3rem;padding-bottom:2rem}"
    "[data-testid='stHeading'] h1{font-size:1.9rem;padding:.25rem 0}"
    f"{_BUTTON_ROW}{{flex-flow:row nowrap !important;gap:.4rem !important}}"
    f"{_BUTTON_ROW}>[data-testid='stColumn']"
    "{flex:1 1 0 !important;min-width:0 !important;width:auto !important}"
    f"{_BUTTON_ROW} button{{padding-left:.3rem;padding-right:.3rem}}}}"
    "</style>"
)
