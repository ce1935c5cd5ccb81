"""A lesson checker's problem as the teacher reads it, in the teacher's language:
``file:line:col: where: sentence``.

Why here: the checker (``tutor.lessons``) gives each problem its reason as data, a code and its
parameters (``Problem.reason``, a ``tutor.refusal.Refusal``), beside an English message for
logs. The sentences a teacher reads are the interface's, so they come from the catalogues like
every other sentence, with French typography. A parameter may be a reason itself (a round's
story, the engine's refusal of a move, the rules' mistakes): it is said in the same language,
by this table or by the engine's and the rules' own sentences (``Translator.refusal``).

The place in the lesson (``steps[2].deal.player``) stays as the file writes it in ``tutor check``'s
lines, whatever the language: it names the YAML keys the teacher types. The app's editor says it
as a teacher reads it, « étape 2 (question « Que faites-vous ? ») » (``place_text``). Moves and
tables are named in the sentence's language (« à la table famille joue Rester, pas Tirer »): the
checker gives their keys (``stand``, ``family``), this module their names.

>>> from pathlib import Path
>>> from tutor.lessons import Code, Problem
>>> from tutor.refusal import Refusal
>>> from tutor.render.translator import translator
>>> problem = Problem(Path("mine.yaml"), 5, 12, "…", Code.PREREQUISITE,
...                   Refusal("lesson-unknown-prerequisite", {"id": "'dealer'", "hint": None}),
...                   "requires[0]")
>>> problem_text(problem, translator("fr"))
"mine.yaml:5:12: requires[0]: prérequis inconnu 'dealer'\\xa0: aucune leçon n’a cet identifiant"
>>> problem_text(problem, translator("en"))
"mine.yaml:5:12: requires[0]: unknown prerequisite 'dealer': no lesson has this id"
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from tutor.decision import Action
from tutor.lessons import Problem
from tutor.refusal import Refusal
from tutor.render.catalogue import N_
from tutor.render.translator import Translator
from tutor.rules import edited_preset

#: Every code of a lesson problem (and of the parts its sentences are made of), in English; the
#: French is in the catalogue. A part that is left out when absent (a hint, a context) starts
#: with its space.
LESSON_PROBLEMS: dict[str, str] = {
    # -- files and the course
    "lesson-no-file": N_("no such lesson file or folder"),
    "lesson-link-outside": N_(
        "the file is a link to a file outside its folder: refused without being read (copy the"
        " lesson into the folder instead)"
    ),
    "lesson-unreadable": N_("cannot read the file: {error}"),
    "lesson-too-large": N_(
        "the file is larger than {kb} KB; a lesson is a few KB: split it into several lessons"
    ),
    "lesson-not-utf8": N_(
        "the file is not UTF-8 text: byte {byte} cannot be read here; save the file as UTF-8"
        " (lesson files are plain text)"
    ),
    "lesson-empty": N_("the file is empty: a lesson starts with {id_key}"),
    "lesson-not-a-mapping": N_(
        "a lesson file is a mapping of keys (id, title, level, rules, goals, requires, steps),"
        " not {found}"
    ),
    "lesson-file-name": N_(
        "the file is named {name} but the lesson's id is '{id}': name the file NN-{id}{suffix}"
        " (NN gives the course order) or change the id"
    ),
    "lesson-duplicate-id": N_(
        "duplicate id {id}: {first} already uses it; every lesson needs its own id"
    ),
    "lesson-unknown-prerequisite": N_("unknown prerequisite {id}{hint}: no lesson has this id"),
    "lesson-cycle": N_(
        "prerequisites form a cycle ({cycle}): a learner could never start these lessons;"
        " remove one of the requirements"
    ),
    "lesson-did-you-mean": N_(" (did you mean '{word}'?)"),
    # -- reading the YAML
    "lesson-character": N_(
        "the file contains {name} ({point}), which YAML does not allow: delete it (an editor"
        " may show it as a box or nothing at all)"
    ),
    "lesson-char-nul": N_("a NUL byte"),
    "lesson-char-vertical-tab": N_("a vertical tab"),
    "lesson-char-form-feed": N_("a form feed"),
    "lesson-char-escape": N_("an escape character"),
    "lesson-char-delete": N_("a delete character"),
    "lesson-char-control": N_("a control character"),
    "lesson-alias": N_(
        "aliases are not allowed in a lesson file (found *{name}): write the value out in full"
    ),
    "lesson-anchor": N_(
        "anchors are not allowed in a lesson file (found &{name}): write the value out in full"
        " wherever it is needed"
    ),
    "lesson-too-many-values": N_(
        "the file holds more than {most} values; a lesson needs far fewer: split it into"
        " several lessons"
    ),
    "lesson-too-deep": N_(
        "lists and mappings nest more than {most} deep here, deeper than any lesson goes:"
        " check the brackets and the indentation"
    ),
    "lesson-value": N_(
        "cannot read this value as YAML reads it ({detail}); put it in quotes to make it a text"
    ),
    "lesson-duplicate-key": N_(
        "key {key} is given twice in this mapping (first at line {line}); YAML would silently"
        " keep only the last one"
    ),
    "lesson-yaml-syntax": N_(
        "YAML syntax: {detail}{context}; check the indentation and quote any text containing"
        " ': ' or starting with a symbol"
    ),
    "lesson-yaml-context": N_(" (context: {context})"),
    # -- the schema
    "lesson-missing-key": N_("missing required key '{key}'"),
    "lesson-unknown-key": N_("unknown key '{key}'{hint}; expected one of: {allowed}"),
    "lesson-unknown-step-key": N_(
        "unknown key '{key}' in this {kind} step: each step is its own list item with one kind"
        " ({kinds}) and, beside it, its 'claims' if any; check the indentation"
    ),
    "lesson-step-kind": N_("unknown step kind '{kind}'{hint}; a step is one of {kinds}"),
    "lesson-not-a-step": N_(
        "a step is one of {kinds}, written {explain_step}; found {found}"
    ),
    "lesson-card": N_("{card} Cards are written A♠ 10♥ K♦ or AS TH KD."),
    "lesson-rules": N_("the table's rules do not hold together: {refusals}"),
    "lesson-too-short": N_("expected at least {least} item(s), found none"),
    "lesson-boolean": N_(
        "{expected}, found {found} (YAML reads yes, no, on, off, true and false as booleans:"
        " put the text in quotes)"
    ),
    "lesson-expected": N_("{expected}, found {found}"),
    "lesson-schema": N_("the value is refused: {detail}"),
    "lesson-want-int": N_("expected a whole number"),
    "lesson-want-text": N_("expected a text"),
    "lesson-want-bool": N_("expected true or false"),
    "lesson-want-mapping": N_("expected a mapping of keys"),
    "lesson-want-list": N_("expected a list"),
    "lesson-want-at-least": N_("expected a number of at least {ge}"),
    "lesson-want-more-than": N_("expected a number above {gt}"),
    "lesson-want-at-most": N_("expected a number of at most {le}"),
    "lesson-want-less-than": N_("expected a number below {lt}"),
    "lesson-want-at-most-items": N_("expected at most {max_length} item(s)"),
    "lesson-want-one-of": N_("expected one of: {expected}"),
    "lesson-want-a-text": N_("expected a text: a string, or a mapping {text_mapping}"),
    "lesson-want-answer": N_(
        "expected an answer: {answer_kinds} or"
        " {choice_answer}"
    ),
    "lesson-want-cards": N_('expected cards as a string such as "A♠ 10♥" or "AS TH"'),
    "lesson-no-cards": N_('expected at least one card, such as "A♠ 10♥"'),
    "lesson-want-action": N_("expected an action such as hit or stand"),
    "lesson-not-an-action": N_("'{found}' is not an action; actions are: {names}"),
    "lesson-want-outcome": N_("expected an outcome, such as win"),
    "lesson-not-an-outcome": N_("{found} is not an outcome; outcomes are: {names}"),
    "lesson-not-an-up-card": N_(
        "{found} is not an up-card value; use 2 to 10, or A (or 1) for an Ace"
    ),
    "lesson-not-an-id": N_(
        "{found} is not a lesson id: write lowercase words joined by hyphens, such as"
        " soft-totals"
    ),
    "lesson-want-rules": N_(
        "expected a preset name ({presets}) or a mapping {rules_mapping}"
    ),
    "lesson-want-hand": N_("expected a hand such as 8,8 or hard 16"),
    "lesson-no-hands": N_("expected at least one hand, such as 8,8 or hard 16"),
    "lesson-text-empty": N_("the text is empty"),
    "lesson-text-no-language": N_("a translated text needs at least one of fr and en"),
    "lesson-claim-hard-total": N_(
        "{found}: a hard total in a claim is {low} to {high} (a 21 stands by itself: there is"
        " no play to claim)"
    ),
    "lesson-claim-soft-total": N_(
        "{found}: a soft total in a claim is {low} to {high} (a 21 stands by itself: there is"
        " no play to claim)"
    ),
    "lesson-claim-not-a-hand": N_(
        "{found} is not a hand of a claim: write a pair as 8,8 or A,A (10,10 for two"
        " ten-valued cards), a total as hard 16 or soft 17"
    ),
    "lesson-claim-play-or-avoid": N_(
        "a claim gives either 'play' (the right play is this one) or 'avoid' (the right play is"
        " never this one), not both or neither"
    ),
    "lesson-claim-no-tables": N_(
        "'tables' lists at least one table, or is left out (every table)"
    ),
    "lesson-total-or-number": N_("an answer is a total or a number, not both"),
    "lesson-total-engine": N_("a total is counted from the cards: it has no 'engine' figure"),
    "lesson-loss-signed": N_(
        "a loss is written as the amount lost, without a sign: {written}, not {found}"
    ),
    "lesson-choice-beyond": N_(
        "choice {choice} is not an option: the {count} options are numbered from 0 to {last}"
    ),
    "lesson-two-cards": N_("the learner is dealt exactly two cards, not {count}"),
    "lesson-dealer-cards": N_(
        "the dealer is dealt the up-card and at most a hole card, not {count} cards; the"
        " dealer's later cards go in 'then'"
    ),
    "lesson-found-nothing": N_("nothing (an empty value)"),
    "lesson-found-empty-mapping": N_("a mapping with no keys"),
    "lesson-found-mapping": N_("a mapping with {keys}"),
    "lesson-found-list": N_("a list of {count} item(s)"),
    "lesson-found-value": N_("the value {value}"),
    "lesson-found-number": N_("a number"),
    "lesson-found-text": N_("a line of text"),
    # -- what the lesson means
    "lesson-only-text": N_(
        "a lesson is not only text: add at least one ask, deal or drill step so the learner"
        " practises what it explains"
    ),
    "lesson-too-many-tables": N_(
        "a lesson plays at most {most} tables of its own besides the presets: use a preset"
        " here, or one of the lesson's tables"
    ),
    "lesson-offers-no-stand": N_(
        "the lesson offers only {offered}: add stand, which every hand may do, so that no"
        " decision is ever left without a button"
    ),
    "lesson-deal-not-offered": N_(
        "the deal plays {action}, which this lesson does not offer (actions: {offered}): add"
        " {action} to the lesson's 'actions' or leave it for a later lesson"
    ),
    "lesson-answer-not-offered": N_(
        "the answer is {action}, which this lesson does not offer (actions: {offered}): add"
        " {action} to the lesson's 'actions' or leave it for a later lesson"
    ),
    "lesson-round-not-offered": N_(
        "the question's round plays {action}, which this lesson does not offer (actions:"
        " {offered}): add {action} to the lesson's 'actions' or leave it for a later lesson"
    ),
    "lesson-drill-not-offered": N_(
        "this drill asks about {action}, which this lesson does not offer (actions: {offered}):"
        " add {action} to the lesson's 'actions' or leave it for a later lesson"
    ),
    "lesson-drill-no-surrender": N_(
        "a {category} drill needs a table that offers it, and the {table} table does not offer"
        " surrender: change the lesson's rules or the category"
    ),
    "lesson-drill-no-insurance": N_(
        "a {category} drill needs a table that offers it, and the {table} table does not offer"
        " insurance: change the lesson's rules or the category"
    ),
    "lesson-drill-no-split": N_(
        "a {category} drill needs a table that offers it, and the {table} table does not allow"
        " splitting: change the lesson's rules or the category"
    ),
    "lesson-drill-insurance-ace": N_(
        "insurance is only offered when the dealer shows an Ace: include A in 'dealer'"
    ),
    "lesson-drill-undealable": N_(
        "no {category} question{hands} can be dealt{against} at the {table} table: change"
        " 'hands', 'dealer' or the category"
    ),
    "lesson-hands-aces": N_(" on a hand holding an Ace"),
    "lesson-hands-no-aces": N_(" on a hand holding no Ace"),
    "lesson-hands-naturals": N_(" on a hand that is a natural"),
    "lesson-hands-stiff": N_(" on a hand of hard 12 to 16"),
    "lesson-hands-double-totals": N_(" on a hand of hard 9 to 11"),
    "lesson-against-ups": N_(" against the dealer's {ups}"),
    "lesson-deal-asks-count": N_(
        "the table labels the learner's hand with its total (« 19 dur »), so a deal that asks"
        " to count the hand gives the answer away: ask the total in an ask step before the deal"
        " (answer {total_answer}) and let the deal ask for the play"
    ),
    "lesson-question-states-total": N_(
        "the question states the total the learner is asked for ({total}) beside the cards:"
        " the learner reads the answer instead of counting; leave it for the explanation"
    ),
    "lesson-caption-states-total": N_(
        "the caption states the total the learner is asked for ({total}) beside the cards: the"
        " learner reads the answer instead of counting; leave it for the explanation"
    ),
    "lesson-translation-plain": N_(
        "missing translation: this text is a plain string; the built-in course gives every text"
        ' in fr and en, as {translated_text}'
    ),
    "lesson-translation-no-fr": N_(
        "missing translation: no fr text here; the built-in course gives every text in fr and en"
    ),
    "lesson-translation-no-en": N_(
        "missing translation: no en text here; the built-in course gives every text in fr and en"
    ),
    # -- the cards and the rounds, replayed by the engine
    "lesson-copies-one-deck": N_(
        "{card} appears {seen} times here, but one deck holds only one {card} ({table} table)"
    ),
    "lesson-copies": N_(
        "{card} appears {seen} times here, but {decks} decks hold only {decks} {card} ({table}"
        " table)"
    ),
    "lesson-american-dealer": N_(
        "with the American deal ({table} table) give the dealer's up-card and hole card, such"
        ' as "9♣ 7♦"; found {count} card'
    ),
    "lesson-european-dealer": N_(
        "with the European deal ({table} table) the dealer has no hole card: give only the"
        " up-card here, and the dealer's second card in 'then' after the learner's cards"
    ),
    "lesson-out-of-cards-at-deal": N_(
        "the scripted cards run out at the deal: add the cards still to be dealt to 'then', in"
        " dealing order (the learner's cards first, then the dealer's)"
    ),
    "lesson-out-of-cards-after": N_(
        "the scripted cards run out after decision {number} ({action}): add the cards still to"
        " be dealt to 'then', in dealing order (the learner's cards first, then the dealer's)"
    ),
    "lesson-round-over": N_(
        "the round is already over ({state}), so decision {number} ({action}) never comes"
    ),
    "lesson-decision-illegal": N_(
        "decision {number} ({action}) is not allowed at the {table} table with {state}: {why}"
    ),
    "lesson-round-goes-on": N_(
        "the stated decisions end but the round goes on: {state} still has to choose among"
        " {legal}"
    ),
    "lesson-cards-unused": N_(
        "{count} scripted card(s) are never dealt ({cards}): the round ends before them; remove"
        " them or check the decisions"
    ),
    "lesson-outcome-count": N_(
        "the round ends with {count} hand(s), so give {count} outcome(s): the engine finds"
        " {found} ({story})"
    ),
    "lesson-outcome-wrong": N_("the engine finds {found}, not {stated} ({story})"),
    "lesson-net-wrong": N_("the seat's net is {net} chips, not {stated} ({story}; bet {bet})"),
    "lesson-state": N_("hand {hands} against the dealer's {dealer}"),
    "lesson-story": N_("player {hands}, dealer {dealer} = {total}"),
    # -- questions
    "lesson-answer-illegal": N_(
        "{action} is not allowed here at the {table} table; the legal actions are: {legal}"
    ),
    "lesson-settle-in-chips": N_(
        "a question about a settled round ('settle') is answered in chips: {chips_answer} for what"
        " the seat wins or loses (negative for a loss), or {loss_answer} for a question that asks"
        " how much is lost"
    ),
    "lesson-settle-chips": N_(
        "the engine settles this round at {net} chips, not {stated} ({story}; bet {bet})"
    ),
    "lesson-settle-loss": N_(
        "the engine settles this round at a loss of {net}, not a loss of {stated} ({story};"
        " bet {bet})"
    ),
    "lesson-settle-loss-gain": N_(
        "the engine settles this round at {net} chips, not a loss of {stated} ({story}; bet"
        " {bet})"
    ),
    "lesson-total-no-cards": N_(
        "a total is the total of the question's cards: give them in 'cards'"
    ),
    "lesson-total-hard": N_("the cards shown ({cards}) make {total}, not {stated}"),
    "lesson-total-soft": N_("the cards shown ({cards}) make soft {total}, not {stated}"),
    "lesson-number-on-cards": N_(
        "this question shows cards and its answer is a number: if it asks what the hand is"
        " worth, write {answer} (the engine's count of {cards}) so the checker compares"
        " it with the cards, and a number the cards do not give is asked without 'cards'"
    ),
    "lesson-money-on-cards": N_(
        "a money question about the cards shown names its round in 'settle' (bet, player,"
        " dealer, then, decisions) instead of 'cards' and 'dealer', so the engine settles it"
        " and the answer is checked against that settlement"
    ),
    "lesson-average-no-engine": N_(
        'this question asks for an average or a share (« en moyenne », "on average", %), which'
        " is a figure of the engine, not of the cards: name it in 'engine' (edge, minus, times)"
        " so the checker compares the key with the engine's value"
    ),
    "lesson-engine-figure": N_(
        "the engine's figure is {value} ({parts}), so the key {key} is not it: write {rounded}"
        " (a key gives the engine's figure to the tenth), and the same figure in the texts"
        " that lead to it"
    ),
    "lesson-figure-parts": N_("house edge {edge} at {table}{minus}{times}"),
    "lesson-figure-minus": N_(" minus {edge} at {table}"),
    "lesson-figure-times": N_(", times {times}"),
    # -- the strategy and the claims
    "lesson-decision-unjudged": N_("the strategy could not judge this decision: {error}"),
    "lesson-against-strategy": N_(
        "basic strategy at the {table} table plays {best}, not {chosen}, with {cards} ({hand})"
        " against {up}; set {follows_strategy} if the lesson shows this mistake on purpose"
    ),
    "lesson-hand-insurance": N_("insurance offered"),
    "lesson-hand-pair": N_("a pair"),
    "lesson-hand-hard": N_("hard {total}"),
    "lesson-hand-soft": N_("soft {total}"),
    "lesson-claim-unjudged": N_("the strategy could not judge this claim: {error}"),
    "lesson-claim-insurance-ace": N_(
        "insurance is only offered against an Ace: write {against_ace}"
    ),
    "lesson-claim-no-point": N_("{hand} against {up}: {error}"),
    "lesson-claim-false": N_(
        "the claim ({claim}) is false at the {table} table, whose chart plays {plays}{more};"
        " {holds}"
    ),
    "lesson-claim-play": N_("{hands}: {plays} against {ups}"),
    "lesson-claim-avoid": N_("{hands}: never {plays} against {ups}"),
    "lesson-every-up": N_("every up-card"),
    "lesson-ups": N_("the dealer's {ups}"),
    "lesson-claim-cell": N_("{play} with {hand} against {up}"),
    "lesson-claim-holds-at": N_(
        "it holds at {tables}: list those in 'tables' and say so in the text, or change the"
        " claim"
    ),
    "lesson-claim-holds-nowhere": N_("it holds at none of the lesson's tables: change the claim"),
    "lesson-word-unbacked": N_(
        "{word} states a general rule about {plays} (“{sentence}”) that no claim backs (a claim"
        " that says the same: that play right, or wrong where the sentence forbids it, for a"
        " hand the sentence names, against every up-card unless the sentence names some): add"
        " one to this step's 'claims' (or the lesson's), which the checker verifies at every"
        " table the lesson plays at or names ({tables}), or say it without an absolute word"
    ),
    "lesson-word-table-unnamed": N_(
        "{word} is backed by a claim made only for the {tables} table(s) ({claim}), but this"
        " text does not say so (“{sentence}”): name the table (« à notre table », « au casino"
        ' français », "at our table"…) where the rule holds'
    ),
}


#: The summary lines of ``tutor check`` (written in ``tutor.lessons.command``, which passes them
#: through the translator the command line gives it), marked here for the catalogue.
CHECK_SUMMARY: tuple[str, ...] = (
    N_("checked {files} file(s): {lessons} lesson(s), {steps} step(s)"),
    N_("{problems} problem(s) in {broken} file(s)"),
    N_("no problems"),
    N_("{checked}; {found}"),
    N_("no lesson files found (lesson files end in .yaml)"),
    N_(
        "note: expected decisions were not checked against basic strategy "
        "(tutor.strategy is not available yet)"
    ),
)

#: YAML the sentences show as the teacher types it, filled in after the typography (which would
#: put a French space before a YAML colon): each is a field of the sentences that show it.
_LITERALS: dict[str, str] = {
    "id_key": "'id:'",
    "explain_step": "'- explain: …'",
    "follows_strategy": "follows_strategy: false",
    "against_ace": "against: [A]",
    "text_mapping": "{fr: …, en: …}",
    "translated_text": '{fr: "…", en: "…"}',
    "answer_kinds": "{total: …}, {number: …}, {chips: …}, {loss: …}, {action: …}",
    "choice_answer": "{choice: …, options: […]}",
    "rules_mapping": "{preset: …, option: …}",
    "total_answer": "{total: …}",
    "chips_answer": "{chips: …}",
    "loss_answer": "{loss: …}",
}


#: The parameters of the checker's sentences that hold moves (``hit``, ``hit, stand``,
#: ``hit or stand``) and those that hold tables (``family``, ``family, french-casino``).
_MOVE_PARAMS = frozenset({"action", "best", "chosen", "offered", "legal", "play", "plays"})
_TABLE_PARAMS = frozenset({"table", "tables"})

#: A preset named inside a sentence, after « la table » / "the … table".
TABLE_WORDS: dict[str, str] = {
    "family": N_("family"),
    "french-casino": N_("French casino"),
    "france-before-2007": N_("French casino before 2007"),
    "home-game": N_("Vingt-et-Un"),
    "online-six-deck": N_("online six-deck"),
    "american-s17": N_("American S17"),
    "american-h17": N_("American H17"),
}
_OR = N_("{first} or {second}")


def move_words(value: str, t: Translator) -> str:
    """Moves as the checker lists them (``hit, stand``, ``hit or stand``), named in ``t``'s
    language; a word that is no move stays as written.

    >>> from tutor.render.translator import translator
    >>> move_words("hit or double, stand", translator("fr"))
    'Tirer ou Doubler, Rester'
    """
    names = {action.value: action for action in Action}

    def one(word: str) -> str:
        action = names.get(word.strip())
        return t.action_name(action) if action is not None else word

    def alternatives(part: str) -> str:
        words = [one(word) for word in part.split(" or ")]
        out = words[0]
        for word in words[1:]:
            out = t.format(_OR, first=out, second=word)
        return out

    return ", ".join(alternatives(part) for part in value.split(", "))


def table_words(value: str, t: Translator) -> str:
    """A table (or tables, ``family, french-casino``) named inside a sentence: « famille »,
    « casino français »; a table of a lesson's own as its name says.

    >>> from tutor.render.translator import translator
    >>> table_words("family", translator("fr")), table_words("french-casino", translator("en"))
    ('famille', 'French casino')
    """

    def one(name: str) -> str:
        base = edited_preset(name) or name
        word = TABLE_WORDS.get(base)
        if word is None:
            return name
        shown = t.gettext(word)
        if t.language == "fr" and shown[:1].isupper() and word != TABLE_WORDS["home-game"]:
            shown = shown[:1].lower() + shown[1:]  # a preset's name, inside a French sentence
        return t.format(N_("{name} (edited)"), name=shown) if base != name else shown

    return ", ".join(one(name.strip()) for name in value.split(","))


def problem_sentence(reason: Refusal, t: Translator) -> str:
    """What ``reason`` says, in ``t``'s language: a lesson problem's code from this table, any
    other (the engine's, the rules', a card's, a number's) from the refusals' own table; moves
    and tables by their names in that language."""
    template = LESSON_PROBLEMS.get(reason.code)
    if template is None:
        return t.refusal(reason.code, reason.params)
    params = reason.params.items()
    values = {**_LITERALS, **{name: _named(name, value, t) for name, value in params}}
    return _fill(t.gettext(template), values)


def _named(name: str, value: object, t: Translator) -> str:
    if isinstance(value, str) and name in _MOVE_PARAMS:
        return move_words(value, t)
    if isinstance(value, str) and name in _TABLE_PARAMS:
        return table_words(value, t)
    return _part(value, t)


def problem_text(problem: Problem, t: Translator) -> str:
    """``file:line:col: where: sentence``, the sentence in ``t``'s language (the English message
    when a problem carries no reason, which the checker's tests forbid)."""
    if problem.reason is None:
        return str(problem)
    where = f"{problem.label}: " if problem.label else ""
    sentence = problem_sentence(problem.reason, t)
    return f"{problem.shown_path}:{problem.line}:{problem.column}: {where}{sentence}"


#: A number as the checker writes it (``+2``, ``-1.5``, ``0.1900%``), to write as the language does.
_NUMBER = re.compile(r"^([+-]?)(\d+(?:\.\d+)?)(%?)$")


def _part(value: object, t: Translator) -> str:
    """A parameter as the sentence shows it: a reason said in the same language, a list of
    reasons one after the other, nothing for a part left out, a number as the language writes
    it (``−1,5`` in French, with the minus sign rather than a hyphen)."""
    if value is None:
        return ""
    if isinstance(value, Refusal):
        return problem_sentence(value, t)
    if isinstance(value, tuple | list) and all(isinstance(item, Refusal) for item in value):
        return (" " if _is_sentences(value) else "; ").join(_part(item, t) for item in value)
    if isinstance(value, int) and not isinstance(value, bool):
        return t.number(value, digits=0)
    text = str(value)
    number = _NUMBER.match(text)
    if number is None:
        return text
    sign, digits, percent = number.groups()
    if t.language == "fr":
        digits = digits.replace(".", ",")
        percent = "\u00a0%" if percent else ""
    return ("−" if sign == "-" else sign) + digits + percent


def _is_sentences(values: tuple[Any, ...] | list[Any]) -> bool:
    """Whether the parts are whole sentences (the rules' mistakes), joined by a space."""
    return any(isinstance(item, Refusal) and item.code not in LESSON_PROBLEMS for item in values)


def _fill(template: str, values: Mapping[str, str]) -> str:
    """``template`` with its ``{name}`` fields filled, and every other brace left as written:
    a sentence may show YAML such as ``{total_answer}`` to the teacher."""
    out = template
    for name, value in values.items():
        out = out.replace("{" + name + "}", value)
    return out


# -- where a problem is, as a teacher reads it ----------------------------------------------

#: The lesson's own keys, named (``goals[0]``: « objectif 1 »).
_HEAD_WORDS: dict[str, str] = {
    "id": N_("the lesson's id"),
    "title": N_("the title"),
    "level": N_("the level"),
    "language": N_("the language"),
    "rules": N_("the table"),
    "goals": N_("the goals"),
    "requires": N_("the lessons to take first"),
    "actions": N_("the moves offered"),
    "claims": N_("the claims"),
    "steps": N_("the steps"),
    "expected_values": N_("the expected values"),
}
#: A step's keys, named after « étape 2 ».
_STEP_WORDS: dict[str, str] = {
    "question": N_("question"),
    "answer": N_("answer"),
    "explanation": N_("explanation"),
    "cards": N_("cards"),
    "dealer": N_("dealer's cards"),
    "player": N_("player's cards"),
    "then": N_("next cards"),
    "expect": N_("expected result"),
    "decisions": N_("decisions"),
    "outcome": N_("outcome"),
    "net": N_("net"),
    "intro": N_("introduction"),
    "caption": N_("caption"),
    "options": N_("options"),
    "settle": N_("round"),
    "bet": N_("bet"),
    "rules": N_("table"),
    "claims": N_("claims"),
    "category": N_("category"),
    "count": N_("count"),
}
_STEP = N_("step {n}")
_STEP_TITLED = N_("step {n} “{title}”")
_STEP_PART = N_("{step}, {part}")

_LABEL_PART = re.compile(r"([A-Za-z_]+)|\[(\d+)\]")


def place_text(label: str, titles: Sequence[str], t: Translator) -> str:
    """Where a problem is, as a teacher reads it: « étape 2 « Que faites-vous ? », réponse »
    for ``steps[1].ask.answer.action`` (``titles``: the few words each step is known by,
    ``tutor.authoring_form.step_title``), « le titre » for ``title``; the label as written
    when it is none of these.

    >>> from tutor.render.translator import translator
    >>> place_text("steps[1].ask.answer.action", ["", "Que faites-vous ?"], translator("fr"))
    'étape 2 «\\xa0Que faites-vous ?\\xa0», réponse'
    >>> place_text("steps[0]", [], translator("en"))
    'step 1'
    >>> place_text("goals[0]", [], translator("en"))
    'the goals'
    """
    parts: list[str | int] = [
        name if name else int(index) for name, index in _LABEL_PART.findall(label)
    ]
    if not parts:
        return label
    head = parts[0]
    if head != "steps" or len(parts) < 2 or not isinstance(parts[1], int):
        word = _HEAD_WORDS.get(str(head))
        return t.gettext(word) if word is not None else label
    index = parts[1]
    title = titles[index] if 0 <= index < len(titles) else ""
    step = (
        t.format(_STEP_TITLED, n=index + 1, title=title)
        if title
        else t.format(_STEP, n=index + 1)
    )
    keys = [part for part in parts[3:] if isinstance(part, str)]
    word = next((_STEP_WORDS[key] for key in reversed(keys) if key in _STEP_WORDS), None)
    return t.format(_STEP_PART, step=step, part=t.gettext(word)) if word else step
