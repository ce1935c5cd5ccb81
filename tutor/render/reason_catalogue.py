"""Every sentence of reason the app can say, enumerated, so that a change of wording shows in a
diff and a teacher can read them all once.

The app explains a decision with ``judge``'s reason (``tutor.strategy.judge``): for a move made,
a hint or a reveal, with or without its figures (a lesson before expected values are taught says
the two moves in words only). Here every table preset is judged at every two-card hand against
every up-card, a few three-card hands (where the exact play and the chart's part), and every
insurance and even-money offer, for no move and for each legal move; each reason is then written
in each language. The figures (expected values, chances) differ from cell to cell and are
checked by the tests against the strategy, so the catalogue writes them as ``±x`` and ``n %``:
what remains is the wording, one line per distinct part of a reason (the reason itself, its
figures, the note on a table without a hole card, a close call), sorted by key.

``python -m tutor.render.reason_catalogue`` writes ``docs/reasons.fr.txt`` and
``docs/reasons.en.txt``; ``tests/test_reason_catalogue.py`` regenerates them and compares.
"""
from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from tutor.cards import Card, Rank, Suit
from tutor.decision import Action, DecisionPoint
from tutor.rules import PRESETS, TableRules
from tutor.strategy.judge import Judgement, judge
from tutor.table import decision_for

#: Where the catalogue is kept, one file per language.
FOLDER = Path(__file__).resolve().parents[2] / "docs"
LANGUAGES = ("fr", "en")

#: Three-card hands: stiff totals (12 to 16), a soft one and a strong one, where a hand's exact
#: play and its chart cell's can differ.
THREE_CARDS: tuple[tuple[int, ...], ...] = (
    (10, 2, 4), (1, 5, 10), (2, 3, 7), (5, 5, 6), (3, 4, 9), (4, 4, 4), (1, 2, 3), (7, 2, 9),
)

SUITS = tuple(Suit)
_EV = re.compile(r"[−+-]\d+(?:[.,]\d+)?|\d+[.,]\d+")
_PERCENT = re.compile(r"\d+(?:[.,]\d+)?[\s\u00a0\u202f]?%")


def card(points: int, index: int) -> Card:
    """A card of this value (a King for ten), of a suit chosen so that cards never repeat."""
    rank = Rank.of_value(points) if points < 10 else Rank.KING
    return Card(rank, SUITS[index % 4])


def decision_points(rules: TableRules) -> Iterator[DecisionPoint]:
    """Every two-card hand (one per pair of values) against every up-card, the insurance offer
    of every hand against an Ace, and the three-card hands of ``THREE_CARDS`` against every
    up-card (a Queen for the tens, named as a Queen)."""
    for first in range(1, 11):
        for second in range(first, 11):
            cards = (card(first, 0), card(second, 1))
            for up in range(1, 11):
                for insurance in (False, True) if up == 1 else (False,):
                    try:
                        yield decision_for(rules, cards, card(up, 2), insurance=insurance)
                    except ValueError:
                        continue  # a natural (or no insurance offered): nothing to decide
    for values in THREE_CARDS:
        hand = tuple(card(v, i) for i, v in enumerate(values))
        for up in range(1, 11):
            dealer = Card(Rank.QUEEN, SUITS[3]) if up == 10 else card(up, 3)
            try:
                yield decision_for(rules, hand, dealer)
            except ValueError:
                continue


def judgements(rules: TableRules) -> Iterator[Judgement]:
    """The reasons a learner can read at this table: for no move (a hint, a reveal) and for
    every legal move at every decision point of ``decision_points``."""
    for point in decision_points(rules):
        moves: list[Action | None] = [None, *sorted(point.legal, key=lambda a: a.value)]
        for move in moves:
            yield judge(point, move)


def masked(sentence: str) -> str:
    """A sentence with its figures written as ``±x`` (a value in bets, or the closeness
    threshold) and ``n %`` (a chance): the wording without the numbers of one cell."""
    return _EV.sub("±x", _PERCENT.sub("n %", sentence))


@dataclass(frozen=True)
class Entry:
    #: The reason's key, or ``*`` for a sentence that follows the reasons of several keys (the
    #: figures, a close call).
    key: str
    sentence: str


def catalogue(language: str, presets: tuple[str, ...] | None = None) -> list[Entry]:
    """The distinct sentences of reason in ``language``, over ``presets`` (all by default), with
    and without figures, sorted by key then sentence."""
    from tutor.render.translator import translator

    t = translator(language)
    keys: dict[str, set[str]] = {}
    for name in presets or tuple(sorted(PRESETS)):
        for judgement in judgements(PRESETS[name]):
            key, params = judgement.reason.key, judgement.reason.params
            for figures in (True, False):
                parts = t.reason_parts(key, params, figures=figures)
                if parts is None:
                    raise ValueError(f"no sentence for the reason {key} ({name})")
                for sentence in parts:
                    keys.setdefault(masked(sentence), set()).add(key)
    entries = [Entry(next(iter(found)) if len(found) == 1 else "*", sentence)
               for sentence, found in keys.items()]
    return sorted(entries, key=lambda entry: (entry.key, entry.sentence))


def text(language: str, entries: list[Entry]) -> str:
    """The catalogue file: a header with the count, then ``[key] sentence`` lines."""
    header = (
        f"# Every sentence of reason the app can say in {language!r}: {len(entries)} distinct"
        " sentences,\n# figures written as ±x (bets) and n % (chances). Regenerate with\n"
        "# python -m tutor.render.reason_catalogue (tests/test_reason_catalogue.py compares).\n"
    )
    return header + "".join(f"[{entry.key}] {entry.sentence}\n" for entry in entries)


def path(language: str) -> Path:
    return FOLDER / f"reasons.{language}.txt"


def main() -> int:
    FOLDER.mkdir(exist_ok=True)
    for language in LANGUAGES:
        entries = catalogue(language)
        path(language).write_text(text(language, entries), encoding="utf-8")
        print(f"reasons_catalogue_{language}: {len(entries)} sentences")
    return 0


if __name__ == "__main__":
    sys.exit(main())
