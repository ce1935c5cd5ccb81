"""Where each table's conventions come from, said the way a learner can picture it.

A preset's ``source`` (``tutor.rules``) is the file name of a rule text in ``shared/sources/``
(``004_85fc10a6bbbb7bbc.txt``), or a short English description for the tables the sources do not
describe. Neither means anything on screen, so each is cited here by what the text *is* ("a rules
booklet for a family table"), in every language of the interface. The citations sit in their own
module, beside the presets and not in the gettext catalogue, because they are reference data
about the sources (like the table in ``shared/sources/README.md``), not interface wording.

>>> citation("004_85fc10a6bbbb7bbc.txt", "fr")
'un livret de règles pour une table familiale, avec des exemples commentés et les erreurs courantes'
>>> citation("unknown.txt", "en") is None
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass


@dataclass(frozen=True)
class Citation:
    """What a source is, in French and in English."""

    fr: str
    en: str

    def in_language(self, language: str) -> str:
        """The citation in ``language`` (English for any language but French)."""
        return self.fr if language == "fr" else self.en


#: The rule texts of ``shared/sources/`` by file name, described as its README describes them.
SOURCES: Mapping[str, Citation] = {
    "000_0c2d5cbf6d108733.txt": Citation(
        fr="une page encyclopédique sur le Black-jack et le Vingt-et-Un d’autrefois",
        en="an encyclopedia-style page on Black-jack and the older Vingt-et-Un",
    ),
    "001_c05efaf0daf1676d.txt": Citation(
        fr="la page de règles d’un casino en ligne (les usages des casinos français)",
        en="an online casino's rules page (the French casinos' conventions)",
    ),
    "003_3e906d12f813f817.txt": Citation(
        fr="les règles d’un jeu en ligne pour un seul joueur",
        en="the rules of a single-player online game",
    ),
    "004_85fc10a6bbbb7bbc.txt": Citation(
        fr="un livret de règles pour une table familiale, avec des exemples commentés et les"
        " erreurs courantes",
        en="a rules booklet for a family table, with worked examples and common mistakes",
    ),
}

#: The tables no source text describes, cited by the description ``tutor.rules`` gives them.
DESCRIBED: Mapping[str, Citation] = {
    "common six-deck American table, dealer stands on soft 17": Citation(
        fr="les règles courantes d’un sabot américain à six jeux (pas un texte du cours)",
        en="the usual rules of a six-deck American shoe (not one of the course's texts)",
    ),
    "common six-deck American table, dealer hits soft 17": Citation(
        fr="les règles courantes d’un sabot américain à six jeux, où le croupier tire sur 17"
        " souple (pas un texte du cours)",
        en="the usual rules of a six-deck American shoe where the dealer hits soft 17 (not one"
        " of the course's texts)",
    ),
}


def citation(source: str, language: str) -> str | None:
    """How a preset's ``source`` reads for a learner, or None when it is not known here."""
    known = SOURCES.get(source) or DESCRIBED.get(source)
    return known.in_language(language) if known is not None else None
