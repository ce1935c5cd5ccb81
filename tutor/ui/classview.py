"""Class mode's interface logic, without Streamlit: what the two class pages need besides drawing.

Why a plain module: the class pages must stay thin, and what they decide (which hands a lesson
gives a class, how a typed line of cards reads, where the join address points, what the exports
hold) is easier to trust when a test can call it without a browser session. Nothing here decides
a rule or an EV: the questions are judged by ``tutor.classroom`` through the strategy.

Hands typed by a teacher are one per line, the player's cards, a slash, the dealer's up-card, and
``insurance`` at the end to ask the insurance decision rather than the play:

>>> [str(q.dealer_up) for q in parse_hands("10 6 / 10\\nA♠ 7♥ / 9♣")]
['10♣', '9♣']
>>> parse_hands("10 6 / 10\\n10 Z / 9")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
tutor.ui.classview.HandsError: line 2: 'Z' is not a card
"""

from __future__ import annotations

import base64
import html
import io
import ipaddress
import random
import re
import socket
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import cycle
from urllib.parse import urlsplit

import pandas as pd
import segno

from tutor.cards import Card, InvalidCardError, Rank, Suit, format_cards, hand_value
from tutor.classroom import (
    MAX_SEATS,
    RETENTION,
    ClassQuestion,
    ClassroomError,
    Reveal,
    SessionInfo,
    Student,
    Teacher,
)
from tutor.decision import Action
from tutor.i18n import Translator
from tutor.lessons import AskStep, DealStep, DrillStep, Lesson
from tutor.lessons.models import ActionAnswer
from tutor.quiz import Category, Hands, next_question, unavailable_reason
from tutor.rules import PRESETS, TableRules
from tutor.store import NICKNAME_MAX, InvalidNicknameError

#: A class session of more questions than this is a typing accident, not a lesson.
MAX_QUESTIONS = 60
#: The student page's path (``url_path`` of its ``st.Page`` in ``app.py``).
JOIN_PATH = "join"
#: Seconds between two refreshes of a live view (the teacher's counter, a student's screen).
POLL_SECONDS = 2.0
_INSURANCE_WORDS = frozenset({"insurance", "assurance", "ins", "i"})


# -- the state the pages keep --------------------------------------------------------------------


@dataclass
class TeacherDesk:
    """The teacher's side of a class in one browser session: the key-checked handle and what the
    projector shows."""

    teacher: Teacher
    #: The teacher key, kept only until the teacher says it is written down (then never shown).
    key: str | None = None
    #: The reveal of the question on screen, fetched once (answers are closed once revealed).
    reveal: Reveal | None = None
    reveal_position: int = -1

    def shown_reveal(self, info: SessionInfo) -> Reveal | None:
        if self.reveal is not None and self.reveal_position == info.current and info.revealed:
            return self.reveal
        return None


@dataclass
class StudentSeat:
    """A student's place in a class: the ``Student`` handle (its token is the capability) and the
    last refusal to explain, as a translated message."""

    student: Student
    message: str | None = None
    #: The student came back to a seat they held (a reload): said until their next answer.
    welcome: bool = False


@dataclass
class ClassPages:
    """Everything class mode keeps in the app's state for one browser session."""

    desk: TeacherDesk | None = None
    seat: StudentSeat | None = None
    #: The address students type or scan, when the teacher corrected the one guessed.
    base_url: str = ""
    #: What the last attempt to create or open a session said, translated.
    message: str | None = None
    problems: list[str] = field(default_factory=list)


# -- questions -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class HandProblem:
    """A typed line that cannot be asked: its number, the text, and why (a code for translation)."""

    line: int
    text: str
    code: str
    detail: str = ""

    def __str__(self) -> str:
        if self.code == "card":
            return f"line {self.line}: {self.detail!r} is not a card"
        return f"line {self.line}: {self.detail or self.code}"


class HandsError(ValueError):
    """Typed hands that cannot all be asked; ``problems`` says which line and why."""

    def __init__(self, problems: Sequence[HandProblem]) -> None:
        super().__init__("; ".join(str(problem) for problem in problems))
        self.problems = tuple(problems)


def _card(token: str, suits: Iterator[Suit]) -> Card:
    """A card written with its suit (``10♥``, ``TH``), or a rank alone (``10``, ``A``) given the
    next suit of ``suits`` so that a pair shows two different cards."""
    try:
        return Card.parse(token)
    except InvalidCardError:
        try:
            rank = Rank.parse(token)
        except InvalidCardError:
            raise InvalidCardError(
                token, "write a rank (A, 2-10, J, Q, K) with or without a suit, such as 10 or 10♥"
            ) from None
        return Card(rank, next(suits))


def parse_hand_line(text: str, rules: TableRules, *, line: int = 1) -> ClassQuestion:
    """One typed line, ``10 6 / 10`` or ``A♠ A♥ / 6♦`` or ``A 10 / A insurance``, as a question
    the table can ask; ``HandsError`` with the line's problem otherwise."""

    def problem(code: str, detail: str = "") -> HandsError:
        return HandsError([HandProblem(line, text.strip(), code, detail)])

    if text.count("/") != 1:
        raise problem("slash", "write the player's cards, a slash, the dealer's card")
    player_text, dealer_text = (part.replace(",", " ").split() for part in text.split("/"))
    insurance = bool(dealer_text) and dealer_text[-1].lower() in _INSURANCE_WORDS
    if insurance:
        dealer_text = dealer_text[:-1]
    if len(player_text) < 2:
        raise problem("player-cards", "the player needs at least two cards")
    if len(dealer_text) != 1:
        raise problem("dealer-card", "the dealer shows exactly one card")
    suits = cycle((Suit.SPADES, Suit.HEARTS, Suit.CLUBS, Suit.DIAMONDS))
    try:
        cards = tuple(_card(token, suits) for token in player_text)
        dealer_up = _card(dealer_text[0], suits)
    except InvalidCardError as error:
        raise problem("card", error.token) from None
    question = ClassQuestion(cards, dealer_up, insurance)
    try:
        question.point(rules)
    except ValueError as error:
        raise problem("no-decision", str(error)) from None
    return question


def parse_hands(text: str, rules: TableRules | None = None) -> list[ClassQuestion]:
    """Every non-empty line of ``text`` (``#`` starts a comment) as a question; all the lines'
    problems at once, so a teacher fixes them in one go."""
    table = rules if rules is not None else PRESETS["family"]
    questions: list[ClassQuestion] = []
    problems: list[HandProblem] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        try:
            questions.append(parse_hand_line(line, table, line=number))
        except HandsError as error:
            problems.extend(error.problems)
    if problems:
        raise HandsError(problems)
    if not questions:
        raise HandsError([HandProblem(0, "", "empty", "type at least one hand")])
    if len(questions) > MAX_QUESTIONS:
        raise HandsError([HandProblem(0, "", "too-many", f"at most {MAX_QUESTIONS} hands")])
    return questions


def _askable(question: ClassQuestion, rules: TableRules) -> bool:
    try:
        question.point(rules)
    except ValueError:
        return False
    return True


def _unique(questions: Iterable[ClassQuestion]) -> list[ClassQuestion]:
    seen: set[ClassQuestion] = set()
    kept = []
    for question in questions:
        if question not in seen:
            seen.add(question)
            kept.append(question)
    return kept


def drill_questions(
    category: Category,
    count: int,
    rules: TableRules,
    *,
    seed: int,
    dealer_ups: Sequence[int] | None = None,
    hands: Hands | None = None,
) -> list[ClassQuestion]:
    """``count`` different decision hands of ``category`` dealt by the quiz at this table (fewer
    when the category has fewer different hands). ``ValueError`` when the table cannot ask it."""
    if not category.is_decision:
        raise ValueError(f"{category.value} questions are not decisions")
    why = unavailable_reason(category, rules)
    if why is not None:
        raise ValueError(f"this table cannot ask {category.value} questions ({why})")
    rng = random.Random(seed)
    questions: list[ClassQuestion] = []
    for _ in range(count * 20):
        if len(questions) >= count:
            break
        dealt = next_question(category, rules, rng, dealer_ups=dealer_ups, hands=hands)
        assert dealt.point is not None
        question = ClassQuestion(dealt.cards, dealt.dealer[0], dealt.point.is_insurance_decision)
        if question not in questions and _askable(question, rules):
            questions.append(question)
    return questions


def lesson_questions(lesson: Lesson, rules: TableRules, *, seed: int) -> list[ClassQuestion]:
    """The decisions a lesson holds, in its order: its questions on a hand, its scripted deals'
    first decision, and its drills dealt by the quiz. Hands this table cannot ask (a surrender
    question at a table without surrender, a natural) are left out."""
    questions: list[ClassQuestion] = []
    for index, step in enumerate(lesson.steps):
        if isinstance(step, AskStep):
            ask = step.ask
            if isinstance(ask.answer, ActionAnswer) and ask.cards and ask.dealer:
                insurance = ask.answer.action.is_insurance_decision
                questions.append(ClassQuestion(ask.cards, ask.dealer[0], insurance))
        elif isinstance(step, DealStep):
            deal = step.deal
            decisions = deal.expect.decisions
            insurance = bool(decisions) and decisions[0].is_insurance_decision
            questions.append(ClassQuestion(deal.player, deal.dealer[0], insurance))
        elif isinstance(step, DrillStep):
            category = Category(step.drill.category.value)
            if category.is_decision and unavailable_reason(category, rules) is None:
                questions.extend(
                    drill_questions(
                        category,
                        step.drill.count,
                        rules,
                        seed=seed + index,
                        dealer_ups=step.drill.dealer,
                        hands=step.drill.hands,
                    )
                )
    return [q for q in _unique(questions) if _askable(q, rules)][:MAX_QUESTIONS]


def prompt(question: ClassQuestion, t: Translator) -> str:
    """What is asked about a hand, in the learner's words (the quiz's own sentences)."""
    if question.insurance:
        return t.gettext("The dealer shows an Ace: insurance?")
    value = hand_value(question.cards)
    kind = t.gettext("soft") if value.soft else t.gettext("hard")
    return t.format("{kind} {total}: what do you do?", kind=kind, total=value.total)


# -- the join address ----------------------------------------------------------------------------


def origin(url: str | None) -> str:
    """``http://host:port`` of a page's address (the app's root), or "" when there is none."""
    if not url:
        return ""
    parts = urlsplit(url)
    if not parts.scheme or not parts.netloc:
        return ""
    return f"{parts.scheme}://{parts.netloc}"


def join_url(base: str, code: str) -> str:
    """The student page with the code filled in: what the QR code holds.

    >>> join_url("http://192.168.1.20:8501/", "ABC234")
    'http://192.168.1.20:8501/join?code=ABC234'
    """
    return f"{base.rstrip('/')}/{JOIN_PATH}?code={code}"


def is_local(url: str) -> bool:
    """Whether an address only reaches this computer (students' phones cannot use it).

    >>> is_local("http://localhost:8501"), is_local("http://192.168.1.20:8501")
    (True, False)
    """
    host = urlsplit(url).hostname or ""
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def lan_address() -> str | None:
    """This computer's address on its local network, as a guess for the join address.

    A UDP socket "connected" to a private address sends nothing: it only asks the system which
    interface would be used, which is the one students' devices reach on the school network.
    """
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("10.255.255.255", 1))
            address = str(probe.getsockname()[0])
    except OSError:
        return None
    return None if ipaddress.ip_address(address).is_loopback else address


def suggested_base(page_url: str | None, port: int | None = None) -> str:
    """The address to give students: the page's own, or the LAN address when the page was opened
    as ``localhost`` on the teacher's laptop."""
    base = origin(page_url)
    if base and not is_local(base):
        return base
    address = lan_address()
    if address is None:
        return base
    parts = urlsplit(base) if base else None
    scheme = parts.scheme if parts else "http"
    chosen_port = (parts.port if parts else None) or port
    return f"{scheme}://{address}" + (f":{chosen_port}" if chosen_port else "")


def qr_data_uri(url: str) -> str:
    """The QR code of ``url`` as an SVG image (dark on white, a wide quiet zone for a projector)."""
    code = segno.make(url, error="m")
    out = io.BytesIO()
    code.save(out, kind="svg", scale=10, border=3, dark="#000", light="#fff", xmldecl=False)
    return "data:image/svg+xml;base64," + base64.b64encode(out.getvalue()).decode("ascii")


# -- messages ------------------------------------------------------------------------------------


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
        if error.code == "class-full":
            return t.format(
                "This class is full: it seats {seats} students at most.", seats=MAX_SEATS
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
            "finished": t.gettext("This class is over: it accepts no more answers."),
            "not-open": t.gettext("This question is closed: look at the next one."),
            "moved-on": t.gettext(
                "The class has already moved on: this page now shows where it is."
            ),
            "already-answered": t.gettext("You have already answered this question."),
            "unknown-student": t.gettext("This class does not know you any more: join again."),
        }
        return messages.get(error.code, str(error))
    return str(error)


def hand_problem_message(problem: HandProblem, t: Translator) -> str:
    messages = {
        "slash": t.gettext("write the player's cards, a slash, then the dealer's card"),
        "player-cards": t.gettext("the player needs at least two cards"),
        "dealer-card": t.gettext("the dealer shows exactly one card"),
        "card": t.format(
            "{token} is not a card (write 10, A, K, or with a suit 10♥, AS)",
            token=markdown_text(problem.detail),
        ),
        "no-decision": t.gettext("there is no decision to make on this hand at this table"),
        "empty": t.gettext("type at least one hand, such as 10 6 / 10"),
        "too-many": t.format("a class asks at most {most} hands", most=MAX_QUESTIONS),
    }
    why = messages.get(problem.code, problem.detail)
    if problem.line <= 0:
        return why
    return t.format(
        "Line {line} ({text}): {why}", line=problem.line, text=markdown_text(problem.text), why=why
    )


#: Markdown's punctuation, and what makes a link of plain text (GitHub's autolinks, which
#: Streamlit follows: ``www.`` and ``http:`` addresses, e-mail addresses): an escaped dot, colon
#: or at sign breaks them.
_MARKDOWN_SPECIAL = re.compile(r"([\\`*_{}\[\]()<>#+!|~$&.:@-])")


def markdown_text(text: str) -> str:
    """Text shown as itself in Streamlit's Markdown: a nickname ``_x_`` is not made italic, and a
    title ``www.evil.example`` is not made a link on the projector and every phone.

    >>> markdown_text("_Zoé_ <b>")
    '\\\\_Zoé\\\\_ \\\\<b\\\\>'
    >>> markdown_text("www.evil.example")
    'www\\\\.evil\\\\.example'
    """
    return _MARKDOWN_SPECIAL.sub(r"\\\1", text)


def retention_text(info: SessionInfo, t: Translator) -> str:
    """When the class and its results are deleted, for the teacher to download them before."""
    return t.format(
        "This class is kept until {date} ({days} days after its creation), then deleted with its"
        " results.",
        date=f"{info.expires_at:%Y-%m-%d}",
        days=RETENTION.days,
    )


# -- results -------------------------------------------------------------------------------------


def _action_names(values: pd.Series, t: Translator) -> pd.Series:
    return values.map(lambda value: t.action_name(Action(value)) if isinstance(value, str) else "")


def results_table(results: pd.DataFrame, t: Translator) -> pd.DataFrame:
    """Every student's answer to every question, with translated headings and action names."""
    frame = pd.DataFrame(
        {
            t.gettext("Student"): results["student"],
            t.gettext("Question"): results["question"],
            t.gettext("Hand"): results["hand"],
            t.gettext("Dealer"): results["dealer"],
            t.gettext("Answer"): _action_names(results["answer"], t),
            t.gettext("Best play"): _action_names(results["best"], t),
            t.gettext("Right"): results["correct"].map(
                lambda c: (
                    "" if c is None or pd.isna(c) else (t.gettext("yes") if c else t.gettext("no"))
                )
            ),
            t.gettext("EV lost"): results["ev_lost"].round(3),
        }
    )
    return frame


def student_summary(results: pd.DataFrame, t: Translator) -> pd.DataFrame:
    """One row per student: answers given, right answers, the share right, EV given away."""
    columns = [
        t.gettext("Student"),
        t.gettext("Answers"),
        t.gettext("Right answers"),
        t.gettext("Right (%)"),
        t.gettext("EV lost"),
    ]
    if results.empty:
        return pd.DataFrame(columns=columns)
    rows = []
    for student, group in results.groupby("student", sort=True):
        answered = group.dropna(subset=["answer"])
        right = int(answered["correct"].astype(bool).sum())
        rows.append(
            [
                str(student),
                len(answered),
                right,
                round(100 * right / len(answered)) if len(answered) else 0,
                round(float(answered["ev_lost"].fillna(0).sum()), 3),
            ]
        )
    frame = pd.DataFrame(rows, columns=columns)
    return frame.sort_values([columns[3], columns[0]], ascending=[True, True]).reset_index(
        drop=True
    )


def question_summary(results: pd.DataFrame, t: Translator) -> pd.DataFrame:
    """One row per question: the hand, the best play, answers, the share right."""
    columns = [
        t.gettext("Question"),
        t.gettext("Hand"),
        t.gettext("Dealer"),
        t.gettext("Best play"),
        t.gettext("Answers"),
        t.gettext("Right (%)"),
    ]
    rows = []
    for _, group in results.groupby("question", sort=True):
        first = group.iloc[0]
        answered = group.dropna(subset=["answer"])
        right = int(answered["correct"].astype(bool).sum())
        rows.append(
            [
                int(first["question"]),
                str(first["hand"]),
                str(first["dealer"]),
                t.action_name(Action(first["best"])),
                len(answered),
                round(100 * right / len(answered)) if len(answered) else None,
            ]
        )
    return pd.DataFrame(rows, columns=columns)


def hardest_table(hardest: pd.DataFrame, t: Translator, *, limit: int = 5) -> pd.DataFrame:
    """The hands the class got most wrong (``Classroom.hardest``), worst first, translated."""
    top = hardest[hardest["wrong"] > 0].head(limit)
    return pd.DataFrame(
        {
            t.gettext("Question"): top["question"],
            t.gettext("Hand"): top["hand"],
            t.gettext("Dealer"): top["dealer"],
            t.gettext("Best play"): _action_names(top["best"], t),
            t.gettext("Wrong (%)"): (top["wrong"] * 100).round().astype(int),
            t.gettext("Answers"): top["answers"],
        }
    )


def results_csv(results: pd.DataFrame, t: Translator) -> bytes:
    """The full results as CSV, UTF-8 with a byte-order mark so a spreadsheet reads the accents."""
    return results_table(results, t).to_csv(index=False).encode("utf-8-sig")


def printable_html(
    info: SessionInfo, results: pd.DataFrame, hardest: pd.DataFrame, t: Translator
) -> str:
    """A page to print or keep: the class's title, the hands most missed, each student and each
    question. Every text from the database is escaped (nicknames above all)."""

    def table(frame: pd.DataFrame) -> str:
        return frame.to_html(index=False, escape=True, border=0, na_rep="")

    title = html.escape(info.title)
    when = info.created_at.strftime("%Y-%m-%d %H:%M")
    heading = t.format("Class results: {title}", title=info.title)
    parts = [
        "<!doctype html>",
        f'<html lang="{t.language}"><head><meta charset="utf-8">',
        f"<title>{title}</title>",
        "<style>body{font-family:DejaVu Sans,Arial,sans-serif;margin:2rem;color:#111}"
        "table{border-collapse:collapse;margin:0 0 1.5rem 0}"
        "th,td{border:1px solid #999;padding:.25rem .6rem;text-align:left}"
        "th{background:#eee}h1{font-size:1.5rem}h2{font-size:1.15rem;margin-top:1.5rem}"
        "@media print{body{margin:0}h2{break-after:avoid}tr{break-inside:avoid}}</style>",
        "</head><body>",
        f"<h1>{html.escape(heading)}</h1>",
        "<p>"
        + html.escape(
            t.format(
                "Code {code} · {date} · table: {rules} · {questions} questions",
                code=info.code,
                date=when,
                rules=info.rules.name,
                questions=info.questions,
            )
        )
        + "</p>",
        "<p>" + html.escape(retention_text(info, t)) + "</p>",
        f"<h2>{html.escape(t.gettext('The hands the class got most wrong'))}</h2>",
        table(hardest_table(hardest, t, limit=10)),
        f"<h2>{html.escape(t.gettext('Per student'))}</h2>",
        table(student_summary(results, t)),
        f"<h2>{html.escape(t.gettext('Per question'))}</h2>",
        table(question_summary(results, t)),
        f"<h2>{html.escape(t.gettext('Every answer'))}</h2>",
        table(results_table(results, t)),
        "</body></html>",
    ]
    return "\n".join(parts)


def distribution_frame(reveal: Reveal, t: Translator) -> pd.DataFrame:
    """How many students chose each legal action (zeros included), the best one marked."""
    actions = [action for action in Action if action in reveal.judgement.evs]
    for action in reveal.distribution:
        if action not in actions:
            actions.append(action)
    return pd.DataFrame(
        {
            "action": [t.action_name(action) for action in actions],
            "students": [reveal.distribution.get(action, 0) for action in actions],
            "best": [action is reveal.best for action in actions],
            "order": list(range(len(actions))),
        }
    )


def hand_text(question: ClassQuestion) -> str:
    return f"{format_cards(question.cards)} / {question.dealer_up}"
