"""General statements about the right play: checked as data, and found in the free text.

A lesson that says « on sépare toujours les 8 » teaches a rule, and a rule can be false at a table
the lesson plays at: the French casino surrenders 8-8 against a 10 and hits it against an Ace. So
such a statement is written twice, once for the learner in the text and once as data in a
``claims`` list (the hands, the up-cards, the play, the tables), and the checker does two things:

- **every claim is asked of the strategy** of every table the lesson plays at or names (the
  lesson's rules, each deal's and settled question's own rules, each preset its text names), or
  of the tables the claim lists; a claim false at one of them is a problem at the claim;
- **every absolute word about a play in the text** (« toujours », « jamais », "always",
  "never"…, in a sentence that names a play: séparer, tirer, split, hit…) must be backed by a
  claim of its step or of the lesson about that play, or it is a problem at that very word; a
  claim made only for some of the lesson's tables must be said, in its text, to hold there.

Finding the words is plain pattern matching over sentences, in both languages of the course: it
cannot understand a sentence, so it errs on the side of asking. A hedged word (« presque
toujours », "almost never", "not always") is no absolute; a sentence about something else that
happens to use both kinds of words is rephrased or backed. Matching a sentence to a claim goes by
the play only (the sentence says "split", the claim is about split), which a lesson cannot get
wrong without the claim itself being checked against the chart.

The rooms: finding the absolute words and the hands a sentence names is in
``tutor.lessons.wording``; here, the tables a lesson plays at, the claims asked of the strategy,
and which claims back which words.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from tutor.cards import Card, Rank, Suit
from tutor.decision import Action, DecisionPoint
from tutor.lessons.fields import PlainText, Translations
from tutor.lessons.lesson import Lesson, ask_of, own_table_of
from tutor.lessons.models import ChoiceAnswer, Claim, HandClass
from tutor.lessons.source import DataPath
from tutor.lessons.texts import iter_texts
from tutor.lessons.wording import (
    absolutes,
    backs,
)
from tutor.refusal import Refusal
from tutor.rules import PRESETS, TableRules
from tutor.table import decision_for

# -- the tables a lesson plays at or names ------------------------------------------------------

#: How the lessons' texts name a preset's table, per language (case-insensitive). Only names a
#: learner reads for that table and no other: « casinos français » (plural) is French casinos in
#: general, not the app's table; "American" alone is the deal, not one preset.
PRESET_NAMES: dict[str, tuple[str, ...]] = {
    "family": (r"table familiale", r"family table"),
    "french-casino": (
        r"casino français(?!\s+avant)",
        r"french casino(?!\s+before)",
        r"tables françaises",
        r"french tables",
    ),
    "france-before-2007": (
        r"france avant 2007",
        r"france before 2007",
        r"casino français avant 2007",
        r"french casino before 2007",
        r"tables françaises",
        r"french tables",
    ),
    "online-six-deck": (r"jeu en ligne", r"online game", r"six-deck online"),
}
#: How a text names the table it is played at (the lesson's, or its step's own).
OWN_TABLE = (r"notre table", r"cette table", r"our table", r"this table")


def _names(patterns: Sequence[str]) -> re.Pattern[str]:
    return re.compile("|".join(rf"(?<!\w){pattern}(?!\w)" for pattern in patterns), re.I)


_PRESET_PATTERNS = {name: _names(patterns) for name, patterns in PRESET_NAMES.items()}
_OWN_PATTERN = _names(OWN_TABLE)


def _preset_of(rules: TableRules) -> str:
    """The preset a table is, or is a variant of (``TableRules.edits``, for one with changes)."""
    return rules.preset


def _add(tables: list[TableRules], rules: TableRules) -> None:
    if rules not in tables:
        tables.append(rules)


def step_rules(lesson: Lesson, index: int) -> TableRules:
    """The table a step is played at: its deal's or settled question's own, or the lesson's."""
    return own_table_of(lesson.steps[index]) or lesson.rules


def lesson_tables(lesson: Lesson) -> list[TableRules]:
    """Every table the lesson plays at (its rules, each step's own) or names in its texts."""
    tables = [lesson.rules]
    for index in range(len(lesson.steps)):
        _add(tables, step_rules(lesson, index))
    for text in _all_texts(lesson):
        for name, pattern in _PRESET_PATTERNS.items():
            if pattern.search(text):
                _add(tables, PRESETS[name])
    return tables


def _all_texts(lesson: Lesson) -> Iterator[str]:
    for _path, text in iter_texts(lesson):
        if isinstance(text, Translations):
            yield from (value for value in (text.fr, text.en) if value is not None)
        else:
            yield str(text)


def names_table(text: str, rules: TableRules, own: Sequence[TableRules]) -> bool:
    """Whether ``text`` names the table ``rules``: by its preset's name, or as « notre table »
    / "this table" when it is the table the text is played at."""
    pattern = _PRESET_PATTERNS.get(_preset_of(rules))
    if pattern is not None and rules == PRESETS[_preset_of(rules)] and pattern.search(text):
        return True
    return rules in own and _OWN_PATTERN.search(text) is not None


# -- claims checked against the strategy --------------------------------------------------------


@dataclass(frozen=True)
class ClaimFinding:
    """A claim the strategy contradicts: where, and what to say (``checks`` makes it a Finding)."""

    path: DataPath
    message: str
    #: The same as data, for the teacher's language.
    reason: Refusal | None = None


def _cell_text(cell: tuple[str, str, str]) -> str:
    """A contradicting cell as the English message says it: ``surrender with 8,8 against 10``."""
    play, hand, up = cell
    return f"{play} with {hand} against {up}"


def _up_card(points: int) -> Card:
    return Card(Rank.parse("A" if points == 1 else str(points)), Suit.parse("♣"))


def _up_name(points: int) -> str:
    return "A" if points == 1 else str(points)


def describe_reason(claim: Claim) -> Refusal:
    """``describe`` as data: the hands, the plays (or those to avoid) and the up-cards."""
    hands = ", ".join(str(hand) for hand in claim.hands)
    plays = claim.play if claim.play is not None else claim.avoid
    assert plays is not None
    what = " or ".join(action.value for action in plays)
    ups = (
        Refusal("lesson-every-up")
        if claim.against == tuple(range(1, 11))
        else Refusal("lesson-ups", {"ups": ", ".join(_up_name(up) for up in claim.against)})
    )
    code = "lesson-claim-play" if claim.play is not None else "lesson-claim-avoid"
    return Refusal(code, {"hands": hands, "plays": what, "ups": ups})


def describe(claim: Claim) -> str:
    """A claim in a few words, for a message: ``8,8: split against every up-card``."""
    hands = ", ".join(str(hand) for hand in claim.hands)
    if claim.play is not None:
        what = " or ".join(action.value for action in claim.play)
    else:
        assert claim.avoid is not None
        what = "never " + " or ".join(action.value for action in claim.avoid)
    if claim.against == tuple(range(1, 11)):
        ups = "every up-card"
    else:
        ups = "the dealer's " + ", ".join(_up_name(up) for up in claim.against)
    return f"{hands}: {what} against {ups}"


#: The chart's plays already asked, by table, hand, up-card and whether it is insurance: the
#: claims of a lesson ask the same cells again and again.
PlayCache = dict[tuple[TableRules, HandClass, int, bool], Action]


def check_claim(
    claim: Claim,
    path: DataPath,
    tables: Sequence[TableRules],
    strategy: Callable[[DecisionPoint], Action],
    cache: PlayCache | None = None,
) -> list[ClaimFinding]:
    """The tables where ``claim`` is false, each with the plays of its chart that contradict it.

    The claim is checked at the tables it lists, or at every table of the lesson (``tables``);
    a message says where else it holds, so the fix is in the message.
    """
    insurance = any(action.is_insurance_decision for action in claim.actions)
    if insurance and claim.against != (1,):
        return [
            ClaimFinding(
                (*path, "against"),
                "insurance is only offered against an Ace: write against: [A]",
                Refusal("lesson-claim-insurance-ace"),
            )
        ]
    wanted = list(claim.tables) if claim.tables is not None else list(tables)
    contradicted: dict[str, list[tuple[str, str, str]]] = {}
    holds_at: list[str] = []
    for rules in [*wanted, *(t for t in tables if t not in wanted)]:
        against = _contradictions(claim, rules, strategy, insurance, {} if cache is None else cache)
        if isinstance(against, ClaimFinding):
            return [ClaimFinding((*path, *against.path), against.message, against.reason)]
        if against:
            contradicted[rules.name] = against
        else:
            holds_at.append(rules.name)
    findings: list[ClaimFinding] = []
    key = "tables" if claim.tables is not None else ("play" if claim.play else "avoid")
    for rules in wanted:
        plays = contradicted.get(rules.name)
        if plays is None:
            continue
        shown = "; ".join(_cell_text(cell) for cell in plays[:4]) + (
            "; …" if len(plays) > 4 else ""
        )
        cells = tuple(
            Refusal("lesson-claim-cell", {"play": play, "hand": hand, "up": up})
            for play, hand, up in plays[:4]
        )
        holds = (
            Refusal("lesson-claim-holds-at", {"tables": ", ".join(holds_at)})
            if holds_at
            else Refusal("lesson-claim-holds-nowhere")
        )
        where = (
            f"it holds at {', '.join(holds_at)}: list those in 'tables' and say so in the "
            "text, or change the claim"
            if holds_at
            else "it holds at none of the lesson's tables: change the claim"
        )
        findings.append(
            ClaimFinding(
                (*path, key),
                f"the claim ({describe(claim)}) is false at the {rules.name} table, whose "
                f"chart plays {shown}; {where}",
                Refusal(
                    "lesson-claim-false",
                    {
                        "claim": describe_reason(claim),
                        "table": rules.name,
                        "plays": cells,
                        "more": "…" if len(plays) > 4 else "",
                        "holds": holds,
                    },
                ),
            )
        )
    return findings


def _contradictions(
    claim: Claim,
    rules: TableRules,
    strategy: Callable[[DecisionPoint], Action],
    insurance: bool,
    cache: PlayCache,
) -> list[tuple[str, str, str]] | ClaimFinding:
    """The plays of ``rules``' chart that contradict ``claim`` (``("surrender", "8,8", "10")``),
    or why the claim's hand cannot be asked about."""
    found: list[tuple[str, str, str]] = []
    for hand in claim.hands:
        for up in claim.against:
            key = (rules, hand, up, insurance)
            best = cache.get(key)
            if best is None:
                try:
                    point = decision_for(rules, hand.cards, _up_card(up), insurance=insurance)
                except ValueError as error:
                    reason = Refusal(
                        "lesson-claim-no-point",
                        {"hand": str(hand), "up": _up_name(up), "error": str(error)},
                    )
                    message = f"{hand} against {_up_name(up)}: {error}"
                    return ClaimFinding(("hands",), message, reason)
                best = cache[key] = strategy(point)
            if not claim.holds_for(best):
                found.append((best.value, str(hand), _up_name(up)))
    return found


# -- which texts, and which claims back them -----------------------------------------------------


@dataclass(frozen=True)
class TextToCheck:
    """One text in one language, with the words that give it its sense and the claims that may
    back an absolute word in it."""

    path: DataPath
    text: str
    context: str
    claims: tuple[tuple[DataPath, Claim], ...]
    #: The tables the text is played at, which « notre table » names.
    own: tuple[TableRules, ...]


def texts_to_check(lesson: Lesson) -> Iterator[TextToCheck]:
    """Every text of the lesson a learner reads as the lesson's word, in each language.

    The wrong options of a choice are left out (they are false on purpose); the right option is
    read with its question, which names the play.
    """
    lesson_claims: tuple[tuple[DataPath, Claim], ...] = tuple(
        (("claims", n), claim) for n, claim in enumerate(lesson.claims)
    )
    for path, text in iter_texts(lesson):
        context = ""
        claims = lesson_claims
        own: tuple[TableRules, ...] = (lesson.rules,)
        if path and path[0] == "steps" and isinstance(path[1], int):
            index = path[1]
            step = lesson.steps[index]
            claims = (
                *((("steps", index, "claims", n), c) for n, c in enumerate(step.claims)),
                *lesson_claims,
            )
            own = (lesson.rules, step_rules(lesson, index))
            ask = ask_of(step)
            if ask is not None and isinstance(ask.answer, ChoiceAnswer):
                options = ("steps", index, "ask", "answer", "options")
                if path[: len(options)] == options:
                    if path[len(options)] != ask.answer.choice:
                        continue
                    question = ask.question
                    context = question if isinstance(question, str) else ""
                    if isinstance(question, Translations):
                        context = " ".join(v for v in (question.fr, question.en) if v)
        if isinstance(text, Translations):
            for language in ("fr", "en"):
                value = getattr(text, language)
                if value is not None:
                    yield TextToCheck((*path, language), value, context, claims, own)
        elif isinstance(text, PlainText):
            yield TextToCheck(path, str(text), context, claims, own)


@dataclass(frozen=True)
class WordingFinding:
    """An absolute word no claim backs, or a claim for some tables its text does not name."""

    path: DataPath
    word: str
    occurrence: int
    message: str
    #: The same as data, for the teacher's language.
    reason: Refusal | None = None


def check_wording(lesson: Lesson, tables: Sequence[TableRules]) -> list[WordingFinding]:
    """Every absolute word about a play that no claim backs, and every one backed only by claims
    made for some tables that its text does not name."""
    findings: list[WordingFinding] = []
    table_names = ", ".join(rules.name for rules in tables)
    read = 0
    for item in texts_to_check(lesson):
        if len(findings) >= MAX_WORDING or read >= 10 * MAX_WORDING:
            break
        found = absolutes(item.text, item.context)[:MAX_WORDING]
        read += len(found)
        for absolute in found:
            backing = [
                (path, claim)
                for path, claim in item.claims
                if backs(claim, absolute)
                and any(absolute.named.names(hand) for hand in claim.hands)
            ]
            quoted = _quote(absolute.sentence)
            plays = " or ".join(sorted(action.value for action in absolute.plays))
            if not backing:
                findings.append(
                    WordingFinding(
                        item.path,
                        absolute.word,
                        absolute.occurrence,
                        f"{absolute.word!r} states a general rule about {plays} ({quoted}) "
                        "that no claim backs (a claim that says the same: that play right, or "
                        "wrong where the sentence forbids it, for a hand the sentence names, "
                        "against every up-card unless the sentence names some): add one to "
                        "this step's 'claims' "
                        "(or the lesson's), which the checker verifies at every table the "
                        f"lesson plays at or names ({table_names}), or say it without an "
                        "absolute word",
                        Refusal(
                            "lesson-word-unbacked",
                            {
                                "word": repr(absolute.word),
                                "plays": plays,
                                "sentence": _shorten(absolute.sentence),
                                "tables": table_names,
                            },
                        ),
                    )
                )
                continue
            if any(_covers(claim, tables) for _path, claim in backing):
                continue
            named = [
                claim
                for _path, claim in backing
                if all(names_table(item.text, rules, item.own) for rules in claim.tables or ())
            ]
            if named:
                continue
            path, claim = backing[0]
            only = ", ".join(rules.name for rules in claim.tables or ())
            findings.append(
                WordingFinding(
                    item.path,
                    absolute.word,
                    absolute.occurrence,
                    f"{absolute.word!r} is backed by a claim made only for the {only} "
                    f"table(s) ({_label(path)}), but this text does not say so ({quoted}): name "
                    'the table (« à notre table », « au casino français », "at our table"…) '
                    "where the rule holds",
                    Refusal(
                        "lesson-word-table-unnamed",
                        {
                            "word": repr(absolute.word),
                            "tables": only,
                            "claim": _label(path),
                            "sentence": _shorten(absolute.sentence),
                        },
                    ),
                )
            )
    return findings


#: The most absolute words reported in one lesson, and read in one text (ten times as many are
#: read in a lesson): a lesson has a few, and a hostile file holding thousands costs no more.
MAX_WORDING = 100


def _covers(claim: Claim, tables: Sequence[TableRules]) -> bool:
    return claim.tables is None or all(rules in claim.tables for rules in tables)


def _quote(sentence: str) -> str:
    return f"“{_shorten(sentence)}”"


def _shorten(sentence: str) -> str:
    return sentence if len(sentence) <= 90 else sentence[:87] + "…"


def _label(path: DataPath) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


__all__ = [
    "ClaimFinding",
    "HandClass",
    "PlayCache",
    "WordingFinding",
    "check_claim",
    "check_wording",
    "describe",
    "lesson_tables",
    "names_table",
    "step_rules",
]
