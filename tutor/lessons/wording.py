"""Absolute words about a play, found in a lesson's free text: the sentences of a text, the
« toujours » / "never" that make one a rule, the hedges that do not, the plays a sentence names and
the hands it is about.

A module of its own because it is plain pattern matching over sentences, in both languages of
the course, with no strategy in it; ``tutor.lessons.claims`` asks it which sentences need a claim
to back them.
"""


from __future__ import annotations

import bisect
import re
from collections.abc import Iterator
from dataclasses import dataclass

from tutor.decision import Action
from tutor.lessons.models import ALL_UPS, Claim, HandClass

# -- absolute words in the text -----------------------------------------------------------------

#: Words that make a sentence a rule for every hand and table: the absolutes, and the words
#: that say a play goes without saying (« de toute façon », "anyway").
_ABSOLUTE = re.compile(
    r"(?<!\w)(?:toujours|jamais|systématiquement|en aucun cas|dans tous les cas|à chaque fois"
    r"|sans exception|quoi qu['’]il arrive|de toute façon"
    r"|quel(?:le)?s? que soi(?:t|ent) (?:la|les) cartes? (?:du croupier|de la banque)"
    r"|always|never|every time|in every case|in all cases|without exception"
    r"|no matter what|under no circumstances|whatever happens|anyway"
    r"|whatever (?:the dealer|the bank) (?:shows|has)|whatever the up-?card)(?!\w)",
    re.I,
)
#: The absolutes that forbid a play (« jamais », "never"): backed by a claim that the play is
#: not the right one; every other absolute is backed by a claim that it is.
_NEGATIVE = re.compile(r"jamais|en aucun cas|never|under no circumstances", re.I)
#: Words that turn a sentence against a play (« toujours une erreur », "not", « ne … pas »): an
#: absolute in such a sentence may be backed by a claim that the play is not the right one.
_AGAINST = re.compile(
    r"(?<!\w)(?:ne|n['’]|pas|jamais|erreur|faute|mistake|error|wrong|not|no|never|don't)(?!\w)",
    re.I,
)
#: Words by which a sentence names the up-cards it is about (« contre un 10 », "against a 6"):
#: a sentence without any speaks of every up-card, and only a claim for every up-card backs it.
_UP_CARDS_NAMED = re.compile(
    r"(?<!\w)(?:contre (?:un|une|le|la|l['’]|les|des)|face à|montre|against (?:a|an|the)|shows?"
    r"|versus|vs\.?)(?!\w)",
    re.I,
)
#: A word just before the absolute that takes its absoluteness away.
_HEDGE = re.compile(r"(?<!\w)(?:presque|quasi|quasiment|pas|almost|nearly|virtually|not)\s+$", re.I)
#: The plays, by the words both languages name them with (verbs in their usual forms).
_PLAY_WORDS: tuple[tuple[Action, str], ...] = (
    (
        Action.HIT,
        r"tir(?:e|er|ez|ons|ent|era|erait|ant|ée?s?|é)|hit(?:s|ting)?|draw(?:s|ing|n)?|drew",
    ),
    (Action.STAND, r"rest(?:e|er|ez|ons|ent|era|ant|ée?s?|é)|stand(?:s|ing)?|stood"),
    (Action.DOUBLE, r"doubl(?:e|er|ez|ons|ent|era|ant|es|ed|ing|ée?s?|é)"),
    (
        Action.SPLIT,
        r"s[ée]par(?:e|er|ez|ons|ent|era|ant|ée?s?|é)|partag(?:e|er|ez|ée?s?|é)"
        r"|cass(?:e|er|ez|ée?s?|é)|split(?:s|ting)?|break(?:s|ing)? up",
    ),
    (Action.SURRENDER, r"abandonn(?:e|er|ez|ons|ent|era|ée?s?|é)|surrender(?:s|ed|ing)?"),
    (Action.INSURE, r"assur(?:e|er|ez|ance)|s['’]assurer|insur(?:e|es|ed|ing|ance)"),
    (Action.EVEN_MONEY, r"paiement égal|even money"),
)
_PLAYS = tuple(
    (action, re.compile(rf"(?<!\w)(?:{words})(?!\w)", re.I)) for action, words in _PLAY_WORDS
)
_SENTENCE_END = re.compile(r"[.!?…](?=\s|$)")
_LIST_ITEM = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s")


@dataclass(frozen=True)
class Sentence:
    """One sentence of a text: where it is, and the words around it that give it its sense (a
    table row's header, a choice's question)."""

    start: int
    end: int
    context: str = ""


def sentences(text: str) -> Iterator[Sentence]:
    """The sentences of a Markdown text: paragraphs and list items cut at their full stops, and
    each row of a table with its header (« | 8-8 | toujours | » is about its column « séparer »).
    """
    offset = 0
    paragraph: list[tuple[int, int]] = []
    header: str | None = None

    def flush() -> Iterator[Sentence]:
        if not paragraph:
            return
        start, end = paragraph[0][0], paragraph[-1][1]
        at = start
        for match in _SENTENCE_END.finditer(text, start, end):
            yield Sentence(at, match.end())
            at = match.end()
        if text[at:end].strip():
            yield Sentence(at, end)
        paragraph.clear()

    for line in text.splitlines(keepends=True):
        start, end = offset, offset + len(line.rstrip("\r\n"))
        offset += len(line)
        body = text[start:end].strip()
        if body.startswith("|"):
            yield from flush()
            if header is None:
                header = body
            elif not set(body) <= set("|-: "):
                yield Sentence(start, end, header)
            continue
        header = None
        if not body or body.startswith("#") or _LIST_ITEM.match(line):
            yield from flush()
            if body.startswith("#"):
                yield Sentence(start, end)
                continue
        if body:
            paragraph.append((start, end))
    yield from flush()


@dataclass(frozen=True)
class Absolute:
    """An absolute word about a play: which word, how many times the same word comes before it
    in the text, the plays its sentence names, and the sentence."""

    word: str
    occurrence: int
    plays: frozenset[Action]
    sentence: str
    #: The hands the sentence names, with the words that give it its sense.
    named: Named
    #: The word forbids a play (« jamais », "never") rather than prescribing one.
    negative: bool = False
    #: The sentence names the up-cards it is about (« contre un 10 »); else it is about all.
    against_some: bool = False
    #: The sentence speaks against a play (a negation, « une erreur »), whatever its absolute.
    turned: bool = False


def absolutes(text: str, context: str = "") -> list[Absolute]:
    """Every absolute word of ``text`` in a sentence that names a play (see the module)."""
    found: list[Absolute] = []
    starts: dict[str, list[int]] = {}
    for sentence in sentences(text):
        words = text[sentence.start : sentence.end]
        matches = list(_ABSOLUTE.finditer(words))
        if not matches:
            continue
        widened = " ".join((words, sentence.context, context))
        plays = _plays(widened)
        if not plays:
            continue
        named = Named.of(widened)
        shown = " ".join(words[:_QUOTED].split())  # once per sentence: it may be long
        # (the absolute itself may name "the dealer's card": it names no up-card)
        against_some = _UP_CARDS_NAMED.search(_ABSOLUTE.sub(" ", widened)) is not None
        turned = _AGAINST.search(words) is not None
        for match in matches:
            if _HEDGE.search(words[max(0, match.start() - _HEDGE_REACH) : match.start()]):
                continue
            word = match.group()
            # Counted as the file's scan counts (``SourceDocument.word_position``): every whole
            # word, hedged or not, before this one; each word's places are found once.
            places = starts.get(word.lower())
            if places is None:
                places = starts[word.lower()] = [
                    m.start() for m in _whole_word(word).finditer(text)
                ]
            occurrence = bisect.bisect_left(places, sentence.start + match.start())
            found.append(Absolute(
                word, occurrence, plays, shown, named,
                negative=_NEGATIVE.fullmatch(word) is not None,
                against_some=against_some,
                turned=turned,
            ))
    return found


def backs(claim: Claim, absolute: Absolute) -> bool:
    """Whether ``claim`` says what the absolute sentence says: the same way round (« toujours »
    needs a claim that a play it names is right, « jamais » one that a play it names is not,
    which a claim for another play implies), and for every up-card unless the sentence names
    the up-cards it is about."""
    # Insurance is only offered against an Ace: a claim against the Ace is about every case.
    insurance = all(action.is_insurance_decision for action in claim.actions)
    everywhere = claim.against == ALL_UPS or (insurance and 1 in claim.against)
    if not absolute.against_some and not everywhere:
        return False
    forbidden = frozenset(claim.avoid or ())
    if claim.play is not None:  # the right play is one of these: every other is not
        forbidden = absolute.plays - frozenset(claim.play)
    if absolute.negative:
        return bool(forbidden & absolute.plays)
    prescribed = claim.play is not None and bool(frozenset(claim.play) & absolute.plays)
    return prescribed or (absolute.turned and bool(forbidden & absolute.plays))


#: How much of a sentence a message quotes (``_quote`` shortens it further).
_QUOTED = 200

#: How far before an absolute word a hedge is looked for (« presque », "almost", "not").
_HEDGE_REACH = 20


def _whole_word(word: str) -> re.Pattern[str]:
    return re.compile(rf"(?<!\w){re.escape(word)}(?!\w)", re.I)


def _plays(words: str) -> frozenset[Action]:
    return frozenset(action for action, pattern in _PLAYS if pattern.search(words))


#: How a sentence names a pair of Aces or of ten-valued cards besides their number. French
#: writes a card in lower case in running text (« les as », « l’as »): a lower-case ``as`` is
#: the card after an article or a number, never the English word.
_ACES = re.compile(
    r"(?<!\w)(?:As|[Aa]ces?|A-A|A,A)(?!\w)"
    r"|(?:(?<![\w])(?:[Ll]es|[Dd]es|[Dd]eux|[Aa]ux|[Uu]n|[Ll]eurs?|[Vv]os|[Ss]es)\s+|[LlDd][’'])as(?!\w)"
)
_TENS = re.compile(
    r"(?<!\w)(?:bûches?|dix|tens|ten-valued|rois?|kings?|dames?|queens?|valets?|jacks?)(?!\w)",
    re.I,
)


_NUMBER = re.compile(r"(?<![\d,.])(\d{1,2})(?!\d)")


@dataclass(frozen=True)
class Named:
    """The hands a sentence names, read once: its numbers, and whether it names Aces or tens."""

    numbers: frozenset[int]
    aces: bool
    tens: bool

    @classmethod
    def of(cls, words: str) -> Named:
        numbers = frozenset(int(found) for found in _NUMBER.findall(words))
        return cls(numbers, _ACES.search(words) is not None, _TENS.search(words) is not None)

    def names(self, hand: HandClass) -> bool:
        """Whether ``hand`` is named: its number (« les 8 », "8s", "soft 17", « 17 souple »),
        or for a pair of Aces or of tens their names (« les As », « deux bûches »)."""
        if hand.kind == "pair" and hand.value == 1:
            return self.aces
        if hand.kind == "pair" and hand.value == 10 and self.tens:
            return True
        return hand.value in self.numbers


def mentions(hand: HandClass, words: str) -> bool:
    """Whether a sentence names the hands of ``hand`` (see ``Named.names``)."""
    return Named.of(words).names(hand)
