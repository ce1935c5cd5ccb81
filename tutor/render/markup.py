"""What an author's text may make a reader's browser do: teachers write lessons, titles and
group names, and every student who opens them runs what the page draws from them.

Why here, in one place: Streamlit's Markdown draws ``![alt](http://any.host/pixel.png)`` as an
image its readers' browsers fetch from that host, so a lesson could tell its writer who read it,
when and from where. Every teacher-written text reaches the page through ``lesson_markdown``
(a lesson's prose: its Markdown kept, its pictures not fetched) or ``plain_title`` (a title or a
name: shown as typed, on one line, bounded). Raw HTML is never drawn by the app's Markdown calls
(no ``unsafe_allow_html`` for a teacher's words), so an ``<img>`` tag is text already.
"""

from __future__ import annotations

import re

from tutor.render.class_messages import markdown_text

#: The characters of a title or a name as a heading shows it: a lesson title is a few words, and a
#: ten-thousand-character one is the page's first screen, whole, on every phone that opens it.
TITLE_MAX = 80

#: An inline image (``![alt](address "title")``), its alternative text kept.
_IMAGE = re.compile(r"!\[([^\]\n]*)\]\([^)\n]*\)")
#: What is left of an image once inline ones are gone: a reference (``![alt][ref]``).
_IMAGE_MARK = re.compile(r"!(?=\[)")


def lesson_markdown(text: str) -> str:
    """A lesson's Markdown as the page draws it: headings, emphasis, lists and links as written,
    and each image replaced by its alternative text, so nothing is fetched from any host.

    >>> lesson_markdown("Voir ![le pixel](http://198.51.100.7/track.png) et **ceci**.")
    'Voir le pixel et **ceci**.'
    >>> lesson_markdown("![a][ref]\\n\\n[ref]: http://198.51.100.7/t.png")
    '\\\\![a][ref]\\n\\n[ref]: http://198.51.100.7/t.png'
    """
    return _IMAGE_MARK.sub(r"\\!", _IMAGE.sub(lambda match: match.group(1), text))


def plain_title(text: str, most: int = TITLE_MAX) -> str:
    """A title or a name written by a teacher, for a heading or a line of Markdown: on one line,
    at most ``most`` characters (an ellipsis says where it was cut), every Markdown mark shown as
    itself (no image, no link, no emphasis).

    >>> plain_title("![x](http://198.51.100.7/t.png)").startswith("\\\\!\\\\[x\\\\]")
    True
    >>> len(plain_title("a" * 10_000)), plain_title("a" * 10_000)[-1]
    (80, '…')
    """
    one_line = " ".join(text.split())
    if len(one_line) > most:
        one_line = one_line[: most - 1].rstrip() + "…"
    return markdown_text(one_line)
