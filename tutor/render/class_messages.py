"""Class mode's sentences: each refusal of ``tutor.classroom`` (and of a nickname) as a sentence to
act on, a typed hand's problem, the retention, the question asked, and people's text made safe for
Markdown (a nickname is never a link or markup on the projector and the phones).
"""

from __future__ import annotations

import html
import re

from tutor.cards import Suit
from tutor.classroom import (
    MAX_HANDS_CHARS,
    MAX_QUESTIONS,
    MAX_SEATS,
    RETENTION,
    UNSTARTED_RETENTION,
    UNUSED_CLASSES_PER_CLIENT,
    ClassQuestion,
    ClassroomError,
    FinalScore,
    HandProblem,
    SessionInfo,
)
from tutor.render.catalogue import N_
from tutor.render.translator import Translator
from tutor.store import NICKNAME_MAX, InvalidNicknameError

#: Markdown's punctuation, escaped with a backslash so that ``_x_`` stays ``_x_``.
_MARKDOWN_SPECIAL = re.compile(r"([\\`*_{}\[\]()<>#+!|~$&.:@-])")
#: Where an address starts to be one for GitHub's autolinks, which Streamlit's Markdown applies
#: to the text once parsed (``www.`` and ``http://`` addresses, e-mail addresses): escapes do not
#: stop them, the browser showed ``www\.evil\.example`` as a link. An invisible word joiner
#: (U+2060) before each dot, colon and at sign breaks every pattern and changes nothing seen.
_LINK_MARKS = re.compile(r"(\\[.:@])")
WORD_JOINER = "\u2060"
#: The same marks in HTML's text, where no backslash escapes them.
_HTML_LINK_MARKS = re.compile(r"([.:@])")


def markdown_text(text: str) -> str:
    """Text shown as itself in Streamlit's Markdown: a nickname ``_x_`` is not made italic, and a
    title ``www.evil.example`` is not made a link on the projector and every phone.

    >>> markdown_text("_Zoé_ <b>")
    '\\\\_Zoé\\\\_ \\\\<b\\\\>'
    >>> markdown_text("www.evil.example").replace(WORD_JOINER, "^")
    'www^\\\\.evil^\\\\.example'
    """
    return _LINK_MARKS.sub(WORD_JOINER + r"\1", _MARKDOWN_SPECIAL.sub(r"\\\1", text))


def html_text(text: str) -> str:
    """Text shown as itself inside an HTML block of Streamlit's Markdown (a phone's title and
    nickname, drawn in the question's block): escaped as HTML, on one line (a blank line would
    end the block and give the rest to Markdown), and a word joiner before each dot, colon and at
    sign, as in ``markdown_text``, so that no address is ever a link.

    >>> html_text("<b>www.x</b>\\n\\n_y_").replace(WORD_JOINER, "^")
    '&lt;b&gt;www^.x&lt;/b&gt; _y_'
    """
    escaped = html.escape(" ".join(text.split()), quote=False)
    return _HTML_LINK_MARKS.sub(WORD_JOINER + r"\1", escaped)


def error_message(error: Exception, t: Translator) -> str:
    """A refusal of the classroom (or a nickname the store refuses) as a sentence to act on."""
    if isinstance(error, InvalidNicknameError):
        # Each refusal names why: a student told only "letters, digits…" about an invisible
        # character or a Cyrillic letter that looks Latin could not see what to change.
        if error.code == "invisible":
            return t.gettext(
                "A nickname cannot hold invisible characters (a zero-width space, a Hangul"
                " filler): type visible letters only."
            )
        if error.code == "compatibility":
            return t.gettext(
                "A nickname uses ordinary letters, not full-width or styled ones (ｆｕｌｌ, 𝐛𝐨𝐥𝐝)."
            )
        if error.code == "mixed-scripts":
            return t.gettext(
                "A nickname uses one alphabet: Latin letters mixed with Greek or Cyrillic ones"
                " look like another student's name."
            )
        return t.format(
            "A nickname has 1 to {most} characters: letters, digits, spaces, dots, hyphens and"
            " apostrophes.",
            most=NICKNAME_MAX,
        )
    if isinstance(error, ClassroomError):
        params = error.params
        if error.code == "slow-down":
            seconds = params.get("seconds", 1)
            wait = max(1, round(float(seconds))) if isinstance(seconds, int | float) else 1
            return t.format("Too many wrong keys: wait {seconds} s, then try again.", seconds=wait)
        if error.code == "too-many-joins":
            seconds = params.get("seconds", 60)
            wait = max(1, round(float(seconds))) if isinstance(seconds, int | float) else 60
            return t.format(
                "Too many attempts to join: wait {seconds} s, then try again.", seconds=wait
            )
        if error.code == "too-many-classes":
            seconds = params.get("seconds", 60)
            wait = max(1, round(float(seconds))) if isinstance(seconds, int | float) else 60
            return t.format(
                "Too many classes created in a minute: wait {seconds} s, then try again.",
                seconds=wait,
            )
        if error.code == "too-many-unused-classes":
            return t.format(
                "{most} classes created from your school's network are not started yet: start"
                " one of them, or wait until the unused ones expire, then create this one.",
                most=UNUSED_CLASSES_PER_CLIENT,
            )
        if error.code == "class-full":
            return t.format(
                "This class is full: it seats {seats} students at most.", seats=MAX_SEATS
            )
        if error.code == "expired" and "hours" in params:
            return t.format(
                "This class has expired: a class never started is deleted {hours} hours after"
                " its creation.",
                hours=_unstarted_hours(),
            )
        if error.code == "expired":
            return t.format(
                "This class has expired: classes are deleted {days} days after their creation.",
                days=RETENTION.days,
            )
        if error.code == "nickname-taken":
            return t.format(
                "The nickname {nickname} is already taken in this class: choose another.",
                nickname=markdown_text(str(params.get("nickname", ""))),
            )
        messages = {
            "unknown-session": t.gettext("No class has this code: check it on the board."),
            "wrong-key": t.gettext("This is not the teacher key of this class."),
            "not-your-class": t.gettext(
                "This browser did not create this class: open it with its code and teacher key."
            ),
            "finished": t.gettext("This class is over: it accepts no more answers."),
            "locked": t.gettext("The class is locked: ask your teacher to open it."),
            "pattern-needed": t.gettext(
                "This class asks for a second step: tap the symbols shown on the board, in"
                " order, then join."
            ),
            "wrong-pattern": t.gettext(
                "These are not the symbols shown on the board: look again and tap them in order."
            ),
            "not-open": t.gettext("This question is closed: look at the next one."),
            "moved-on": t.gettext(
                "The class has already moved on: this page now shows where it is."
            ),
            "already-answered": t.gettext("You have already answered this question."),
            "unknown-student": t.gettext("This class does not know you any more: join again."),
            "illegal-answer": t.gettext(
                "This play is not allowed on this hand: answer with one of the buttons shown."
            ),
        }
        return messages.get(error.code, str(error))
    return str(error)


#: The second join step's symbols that are not card suits (``tutor.classroom.joinstep``).
_SHAPE_NAMES = {"★": N_("star"), "●": N_("dot")}
_SUIT_SYMBOLS = {suit.symbol: suit for suit in Suit}


def symbol_name(symbol: str, t: Translator) -> str:
    """A join-step symbol named for a screen reader: ``pique``, ``étoile`` / ``spades``."""
    if symbol in _SUIT_SYMBOLS:
        return t.suit_name(_SUIT_SYMBOLS[symbol])
    return t.gettext(_SHAPE_NAMES.get(symbol, symbol))


def hand_problem_message(problem: HandProblem, t: Translator) -> str:
    messages = {
        "slash": t.gettext("write the player's cards, a slash, then the dealer's card"),
        "player-cards": t.gettext("type at least two cards for the player"),
        "bust": t.format(
            "the player's cards make {total}, past 21: the hand is already lost, there is"
            " nothing to decide",
            total=problem.detail,
        ),
        "dealer-card": t.gettext("the dealer shows exactly one card"),
        "card": t.format(
            "{token} is not a card (write 10, A, K, or with a suit 10♥, AS)",
            token=markdown_text(problem.detail),
        ),
        "no-decision": t.gettext("there is no decision to make on this hand at this table"),
        "empty": t.gettext("type at least one hand, such as 10 6 / 10"),
        "too-many": t.format("a class asks at most {most} hands", most=MAX_QUESTIONS),
        "too-long": t.format(
            "the hands hold at most {most} characters: a class asks {hands} hands at most",
            most=t.number(MAX_HANDS_CHARS, digits=0),
            hands=MAX_QUESTIONS,
        ),
    }
    why = messages.get(problem.code, problem.detail)
    if problem.line <= 0:
        return why
    return t.format(
        "Line {line} ({text}): {why}", line=problem.line, text=markdown_text(problem.text), why=why
    )


def _unstarted_hours() -> int:
    return int(UNSTARTED_RETENTION.total_seconds() // 3600)


def retention_text(info: SessionInfo, t: Translator) -> str:
    """When the class and its results are deleted, for the teacher to download them before (and,
    before its first question, that it must start within hours: what a flood of classes leaves
    nobody starts)."""
    if info.current < 0 and not info.is_finished:
        return t.format(
            "Start this class within {hours} hours of its creation: a class never started is"
            " deleted then. Once started, it is kept until {date} ({days} days after its"
            " creation).",
            hours=_unstarted_hours(),
            date=t.date(info.expires_at.date()),
            days=RETENTION.days,
        )
    return t.format(
        "This class is kept until {date} ({days} days after its creation), then deleted with its"
        " results.",
        date=t.date(info.expires_at.date()),
        days=RETENTION.days,
    )


def prompt(question: ClassQuestion, t: Translator) -> str:
    """What is asked about a hand: the lesson's own sentence for a question taken from a step,
    in the reader's language and typography; else the quiz's own sentences."""
    own = question.text(t.language)
    if own is not None:
        return t.typeset(own)
    if question.insurance:
        return t.gettext("The dealer shows an Ace: insurance?")
    # The hand named as everywhere else (a pair of Aces is "paire d'as (2 ou 12)", not 12).
    hand = t.hand_text(question.cards)
    return t.format("{hand}: what do you do?", hand=hand[:1].upper() + hand[1:])


def final_score_text(score: FinalScore, t: Translator) -> str:
    """The phone's own result at the end: right answers, and the place in the class."""
    right = t.ngettext(
        "**{right} right answer out of {asked}**",
        "**{right} right answers out of {asked}**",
        score.right,
    ).format(right=score.right, asked=score.asked)
    if score.students < 2:
        return right
    # The first place apart: French writes it « 1re », every other « 2e », « 3e »…
    if score.rank == 1:
        place = (
            t.format("first place of {students}, tied", students=score.students)
            if score.tied
            else t.format("first place of {students}", students=score.students)
        )
    else:
        place = (
            t.format("place {rank} of {students}, tied", rank=score.rank, students=score.students)
            if score.tied
            else t.format("place {rank} of {students}", rank=score.rank, students=score.students)
        )
    return f"{right} · {place}"


def step_explanation(question: ClassQuestion, t: Translator) -> str | None:
    """The explanation of the lesson's step a question was taken from, in the reader's language
    and typography, for the reveal; None for a question that has none (its reason is then the
    judge's sentence)."""
    own = question.explanation(t.language)
    return None if own is None else t.typeset(own)


def table_line(question: ClassQuestion, t: Translator) -> str | None:
    """The table a question is played at, named for the class (« À la table : Casino
    français »), when the question has a table of its own; None for one at the class's table."""
    if question.rules is None:
        return None
    return t.format("At the table: {table}", table=t.table_name(question.rules))
