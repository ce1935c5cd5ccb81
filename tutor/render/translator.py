"""The translator a page holds: every word of the interface in one language, one object per
language per process.

Why one class made of parts: a page needs one thing to ask for any sentence, while a newcomer
looking for *how a refusal reads* or *how a round is told* should find one module each. So each
subject is a part in its own module, and ``Translator`` is their sum:

- ``tutor.render.catalogue`` — ``Words``: gettext, plurals, French typography, numbers, dates;
- ``tutor.render.naming`` — ``Names``: actions, cards, hands, cells, items, presets, up-cards;
- ``tutor.render.reasons`` — ``Reasons``: the strategy's reasons and the engine's refusals;
- ``tutor.render.narration`` — ``Narration``: the engine's events told as sentences.

>>> from tutor.decision import Action
>>> fr, en = translator("fr"), translator("en")
>>> fr.percent(0.004), en.percent(0.004)
('0,40\\xa0%', '0.40%')
>>> fr.action_name(Action.HIT), en.action_name(Action.DOUBLE)
('Tirer', 'Double')
"""

from __future__ import annotations

from functools import lru_cache

from tutor.render.catalogue import DEFAULT_LANGUAGE, LANGUAGES, load_translations
from tutor.render.narration import Narration
from tutor.render.reasons import Reasons


class Translator(Reasons, Narration):
    """The interface's words and number formats in one language: names, reasons and refusals,
    narration, over the catalogue's words and numbers (``Words``).

    One per language per process (``translator()`` caches them): the catalogues never change
    while the app runs, so sharing them between users is safe.
    """


@lru_cache(maxsize=len(LANGUAGES))
def translator(language: str = DEFAULT_LANGUAGE) -> Translator:
    """The cached translator of a language (an unknown one falls back to the default)."""
    if language not in LANGUAGES:
        language = DEFAULT_LANGUAGE
    return Translator(language, load_translations(language))
