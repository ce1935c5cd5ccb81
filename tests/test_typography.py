"""One French style in every word a learner reads (issue 29): the French catalogue and every
lesson's French texts use the typographic apostrophe ’ (never the straight ') and the minus sign
− (U+2212) before a number (never the hyphen-minus), whatever the text carries besides: card
notation (``A♠``, ``10♥``), placeholders (``{up}``), code between backquotes, URLs, HTML tags and
YAML keys are not French text and are left out of the reading."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml
from babel.messages.pofile import read_po

from tutor.render.catalogue import LOCALE_DIR
from tutor.sources import DESCRIBED, SOURCES

LESSONS_DIR = Path(__file__).resolve().parent.parent / "lessons"

#: What is not prose inside a French text: code, placeholders, addresses, tags, HTML entities.
NOT_PROSE = re.compile(
    r"`[^`]*`"  # code
    r"|\{[^{}]*\}"  # a placeholder {x} or {x:.2f}
    r"|https?://\S+"  # an address
    r"|<[^<>]*>"  # an HTML tag (its attributes use quotes)
    r"|&\w+;"  # an entity
)
#: A hyphen-minus standing for a minus: before a digit, not inside a word or a range (``2-6``,
#: ``c-à-d``) nor after a letter (a card code like ``A-10``).
HYPHEN_MINUS = re.compile(r"(?<![\w\-])-(?=\d)")
STRAIGHT_APOSTROPHE = "'"


def findings_in(text: str) -> list[str]:
    """What breaks the French style in one French text: each bad spot quoted with its context.

    >>> findings_in("L'As vaut 11")
    ["straight apostrophe: «L'As vaut 11»"]
    >>> findings_in("Bilan : -2 jetons, −4 ailleurs, {x} `a'b` https://a.fr/x'y")
    ['hyphen-minus before a number: «an : -2 jetons»']
    >>> findings_in("L’As vaut 11, de 2-6, bilan −2")
    []
    """
    prose = NOT_PROSE.sub(" ", text)
    found = []
    for match in re.finditer(STRAIGHT_APOSTROPHE, prose):
        found.append(f"straight apostrophe: «{_around(prose, match.start())}»")
    for match in HYPHEN_MINUS.finditer(prose):
        found.append(f"hyphen-minus before a number: «{_around(prose, match.start())}»")
    return found


def _around(text: str, at: int) -> str:
    return text[max(0, at - 6) : at + 9].replace("\n", " ")


def french_catalogue_texts() -> Iterator[tuple[str, str]]:
    """Every French translation in the catalogue, plural forms included, with its source."""
    path = LOCALE_DIR / "fr" / "LC_MESSAGES" / "messages.po"
    with path.open("rb") as handle:
        catalogue = read_po(handle)
    for message in catalogue:
        if not message.id:
            continue
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        source = message.id if isinstance(message.id, str) else message.id[0]
        for string in strings:
            if string:
                yield f"messages.po: {source[:50]!r}", string


def french_lesson_texts() -> Iterator[tuple[str, str]]:
    """Every French text of every built-in lesson: the values under a ``fr`` key (titles, goals,
    explanations, intros, choices...), read from the YAML so that keys and codes stay out."""
    for path in sorted(LESSONS_DIR.glob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        yield from _french_in(data, path.name)


def _french_in(node: object, where: str, french: bool = False) -> Iterator[tuple[str, str]]:
    if isinstance(node, dict):
        for key, value in node.items():
            yield from _french_in(value, f"{where}/{key}", french or key == "fr")
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _french_in(value, f"{where}/{index}", french)
    elif isinstance(node, str) and french:
        yield where, node


def french_citation_texts() -> Iterator[tuple[str, str]]:
    """The sources' French citations (« Source : la page de règles d’un casino… »)."""
    for table in (SOURCES, DESCRIBED):
        for key, cited in table.items():
            yield f"sources.py: {key}", cited.fr


def all_findings(texts: Iterator[tuple[str, str]]) -> list[str]:
    return [f"{where}: {finding}" for where, text in texts for finding in findings_in(text)]


def test_the_reading_finds_french_texts_in_the_catalogue_and_every_lesson() -> None:
    """The test reads something: hundreds of catalogue strings, and French text in each lesson."""
    assert len(list(french_catalogue_texts())) > 500
    lessons = {where.split("/")[0] for where, _text in french_lesson_texts()}
    assert lessons == {path.name for path in LESSONS_DIR.glob("*.yaml")}


@pytest.mark.parametrize(
    ("text", "count"),
    [
        ("n'importe", 1),
        ("main -2, assurance +2", 1),
        ("environ **-0,2 %**", 1),
        ("Bilan -3 : contre", 1),
        ("n’importe, −2, de 2-6, 10♥ A♠, {hand}, `x'y`", 0),
        ('<span class="x">a</span>', 0),
    ],
)
def test_each_fault_is_found_and_what_is_not_prose_is_left_alone(text: str, count: int) -> None:
    assert len(findings_in(text)) == count


def test_the_french_catalogue_has_typographic_apostrophes_and_minus_signs() -> None:
    findings = all_findings(french_catalogue_texts())
    assert not findings, f"{len(findings)} findings:\n" + "\n".join(findings)


def test_every_lessons_french_text_has_typographic_apostrophes_and_minus_signs() -> None:
    findings = all_findings(french_lesson_texts())
    assert not findings, f"{len(findings)} findings:\n" + "\n".join(findings)


def test_the_sources_french_citations_have_typographic_apostrophes() -> None:
    findings = all_findings(french_citation_texts())
    assert not findings, f"{len(findings)} findings:\n" + "\n".join(findings)
