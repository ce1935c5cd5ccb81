"""Playing cards drawn as SVG by the project: nothing is fetched at run time.

Why SVG strings built here: the cards must read well from the back of a classroom (they scale
without blur), work offline, and carry their meaning in more than colour. Each face shows the rank
and suit in two corners, a large suit in the centre and the suit's name written under it, so a
colour-blind learner never relies on red or black; the ``alt`` text says the card in words for a
screen reader. A face-down card (the hole card, a double dealt face down) has a patterned back.

Cards are embedded as ``<img src="data:image/svg+xml;base64,…">``: ``st.html`` strips inline SVG
(see TOOLING.md), an image does not, and an image carries ``alt`` text natively.

>>> from tutor.cards import Card
>>> from tutor.render.translator import translator
>>> 'alt="As de pique (noir)"' in card_img(Card.parse("A♠"), translator("fr"))
True
>>> ">R</text>" in card_svg(Card.parse("K♠"), translator("fr"))
True
"""

from __future__ import annotations

import base64
import html
from collections.abc import Sequence
from functools import lru_cache

from tutor.cards import Card
from tutor.render.translator import Translator

RED = "#b71c1c"
BLACK = "#1b1b1b"
#: Card widths in CSS pixels: ordinary, and the presentation mode for a projector.
WIDTH = 78
WIDTH_LARGE = 150


def _face_svg(card: Card, suit_word: str, index: str) -> str:
    colour = RED if card.suit.is_red else BLACK
    rank = html.escape(index)
    suit = card.suit.symbol
    word = html.escape(suit_word.upper())
    corner_size = 22 if len(index) == 1 else 19
    # The word stays between the corners: long names are squeezed to 44 units, never wider.
    fit = ' textLength="44" lengthAdjust="spacingAndGlyphs"' if len(suit_word) > 6 else ""
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 140" width="100" height="140">'
        '<rect x="1.5" y="1.5" width="97" height="137" rx="9" fill="#fffdf7" stroke="#555" '
        'stroke-width="2"/>'
        f'<g fill="{colour}" font-family="DejaVu Sans, Arial, sans-serif" font-weight="bold">'
        f'<text x="9" y="26" font-size="{corner_size}">{rank}</text>'
        f'<text x="9" y="46" font-size="20">{suit}</text>'
        f'<g transform="rotate(180 50 70)"><text x="9" y="26" font-size="{corner_size}">{rank}'
        f'</text><text x="9" y="46" font-size="20">{suit}</text></g>'
        f'<text x="50" y="80" font-size="46" text-anchor="middle">{suit}</text>'
        f'<text x="50" y="100" font-size="9" text-anchor="middle"{fit}>{word}</text>'
        "</g></svg>"
    )


_BACK_SVG = (
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 140" width="100" height="140">'
    '<defs><pattern id="p" width="10" height="10" patternUnits="userSpaceOnUse" '
    'patternTransform="rotate(45)"><rect width="10" height="10" fill="#1f4e8c"/>'
    '<rect width="5" height="10" fill="#2a64ad"/></pattern></defs>'
    '<rect x="1.5" y="1.5" width="97" height="137" rx="9" fill="#fffdf7" stroke="#555" '
    'stroke-width="2"/><rect x="8" y="8" width="84" height="124" rx="6" fill="url(#p)"/></svg>'
)


@lru_cache(maxsize=256)
def _data_uri(svg: str) -> str:
    return "data:image/svg+xml;base64," + base64.b64encode(svg.encode("utf-8")).decode("ascii")


def card_svg(card: Card, t: Translator) -> str:
    """The SVG source of a card's face: the index a pack of the learner's language prints (V, D,
    R on a French pack, J, Q, K on an English one) and the suit's name in that language."""
    return _face_svg(card, t.suit_name(card.suit), t.rank_index(card.rank))


def card_img(card: Card | None, t: Translator, *, large: bool = False) -> str:
    """An ``<img>`` of a card, or of a card's back when ``card`` is None (face down)."""
    width = WIDTH_LARGE if large else WIDTH
    if card is None:
        source = _data_uri(_BACK_SVG)
        alt = t.gettext("Card face down")
    else:
        source = _data_uri(card_svg(card, t))
        alt = t.card_alt(card)
    return (
        f'<img class="bj-card" src="{source}" alt="{html.escape(alt)}" '
        f'title="{html.escape(alt)}" width="{width}" height="{round(width * 1.4)}" '
        'style="margin:0 4px 4px 0;filter:drop-shadow(1px 2px 2px rgba(0,0,0,.25))"/>'
    )


def hand_html(
    cards: Sequence[Card | None],
    t: Translator,
    *,
    large: bool = False,
    label: str | None = None,
) -> str:
    """A row of cards (None for a face-down card) with an optional caption read aloud first."""
    images = "".join(card_img(card, t, large=large) for card in cards)
    caption = ""
    if label:
        size = "1.4rem" if large else "1rem"
        caption = (
            f'<div style="font-weight:600;font-size:{size};margin-bottom:2px">'
            + html.escape(label)
            + "</div>"
        )
    names = ", ".join(
        t.card_name(card) if card is not None else t.gettext("Card face down") for card in cards
    )
    aria = html.escape(t.format("{label}: {cards}", label=label, cards=names) if label else names)
    return (
        f'<div role="group" aria-label="{aria}" style="margin:4px 0 8px 0">{caption}'
        f'<div style="display:flex;flex-wrap:wrap;align-items:flex-end">{images}</div></div>'
    )
