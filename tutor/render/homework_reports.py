"""A group's homework as a teacher reads it: per student and assignment, what is done, the score,
the time and the cost; per assignment, who has not started and the hands most missed with why
the best play is best; the same tables in a spreadsheet (headings in the teacher's language)
and on a printable page. And a student's « À faire » line.

The page (``tutor.ui.pages.homework_teacher``), the ``.xlsx`` and the printable page are all
drawn from the columns made here, so the three cannot disagree; the workbook is written by the
same code as a live class's (``tutor.render.class_reports.columns_xlsx``).
"""

from __future__ import annotations

import tutor.blas  # noqa: F401  (one BLAS thread, set before numpy is imported)

# isort: split
import html
from collections.abc import Callable, Sequence
from datetime import UTC, datetime, tzinfo

import pandas as pd
from babel.dates import format_time

from tutor.cards import Card, parse_cards
from tutor.classroom.questions import ClassQuestion, judged
from tutor.decision import Action
from tutor.homework import Assignment, ClassKind, FollowUp, LiveClass, Todo
from tutor.quiz_questions import Category
from tutor.render.class_reports import PRINT_STYLE, Column, columns_xlsx, page_frame
from tutor.render.markup import plain_title
from tutor.render.naming import category_name
from tutor.render.translator import Translator
from tutor.spreadsheet import safe_frame

#: A lesson's title in the teacher's language, by its id (None when the course lacks it).
TitleOf = Callable[[str], str | None]


def work_title(
    assignment: Assignment, t: Translator, title_of: TitleOf, *, markdown: bool = False
) -> str:
    """« Leçon : Séparer les paires » or « Entraînement : Paires, 10 mains ». ``markdown``: for a
    line of Markdown, the lesson's title (a teacher's, it may be) shown as typed and bounded
    (``tutor.render.markup.plain_title``); plain text for a table or a file otherwise."""
    if assignment.kind == "lesson":
        assert assignment.lesson_id is not None
        title = title_of(assignment.lesson_id) or assignment.lesson_id
        return t.format("Lesson: {title}", title=plain_title(title) if markdown else title)
    assert assignment.category is not None
    assert assignment.hands is not None
    return t.plural(
        "Drill: {category}, {n} hand",
        "Drill: {category}, {n} hands",
        assignment.hands,
        category=category_name(assignment.category, t),
    )


def when(moment: datetime, t: Translator, zone: tzinfo = UTC) -> str:
    """« 8 déc. 2026 à 18:00 », « Dec 8, 2026 at 6:00 PM »: a time in the reader's zone."""
    local = moment.astimezone(zone)
    return t.format(
        "{date} at {time}",
        date=t.date(local.date()),
        time=format_time(local, format="short", locale=t.locale),
    )


def due_text(due: datetime, t: Translator, zone: tzinfo = UTC) -> str:
    """« à rendre le 8 déc. 2026 à 18:00 »."""
    return t.format("due {when}", when=when(due, t, zone))


def todo_line(
    item: Todo, t: Translator, title_of: TitleOf, zone: tzinfo = UTC,
    now: datetime | None = None,
) -> str:
    """One line of « À faire »: the work, how far the student is, by when (their own date when
    the teacher gave them more time), and late or done before it was given when so."""
    progress = (
        t.format("{done} of {total}", done=item.done, total=item.total)
        if item.total is not None
        else t.format("{done} done", done=item.done)
    )
    title = work_title(item.assignment, t, title_of, markdown=True)
    parts = [title, progress, due_text(item.due, t, zone)]
    if item.due_at is not None:
        parts.append(t.gettext("more time given"))
    if item.earlier:
        parts.append(t.gettext("done before it was given: start it again for the group"))
    elif item.late:
        parts.append(t.gettext("handed in late"))
    elif now is not None and item.overdue(now):
        parts.append(t.gettext("past due"))
    return " · ".join(parts)


def _status(status: str, t: Translator) -> str:
    return {
        "done": t.gettext("done"),
        "started": t.gettext("started"),
        "not-started": t.gettext("not started yet"),
        "earlier": t.gettext("done before it was given"),
    }[status]


def scale_heading(t: Translator, scale: int) -> str:
    """« Note (sur 20) »."""
    return t.format("Mark (out of {scale})", scale=scale)


def _local(moment: datetime | None, zone: tzinfo) -> datetime | None:
    return None if moment is None else moment.astimezone(zone)


def work_columns(
    follow: FollowUp, t: Translator, title_of: TitleOf, zone: tzinfo = UTC
) -> list[Column]:
    """One row per student and assignment, in the order the teacher reads the roster: the
    student's own due time (an extension when they have one), late or not, what is done, the
    answers graded and right, the mark on the group's scale and the share right, the time and
    what the mistakes gave away. A mark only for work done for the group."""
    rows = [
        (nickname, assignment, follow.work[(nickname, assignment.id)])
        for nickname in follow.members
        for assignment in follow.assignments
    ]
    late, extended = t.gettext("past due"), t.gettext("more time given")
    return [
        (t.gettext("Student"), [name for name, _a, _w in rows], "text"),
        (t.gettext("Work"), [work_title(a, t, title_of) for _n, a, _w in rows], "text"),
        (t.gettext("Due"), [_local(w.due_at or a.due_at, zone) for _n, a, w in rows],
         "datetime"),
        (t.gettext("Status"), [_status(w.status, t) for _n, _a, w in rows], "text"),
        (t.gettext("Done"), [w.done for _n, _a, w in rows], "int"),
        (t.gettext("Out of"), [w.total for _n, _a, w in rows], "int"),
        (t.gettext("Answers"), [w.answered for _n, _a, w in rows], "int"),
        (t.gettext("Right answers"), [w.right for _n, _a, w in rows], "int"),
        (scale_heading(t, follow.scale), [w.mark for _n, _a, w in rows], "mark"),
        (t.gettext("Right (%)"), [w.share for _n, _a, w in rows], "share"),
        (
            t.gettext("Lateness"),
            [" · ".join(([late] if w.late else []) + ([extended] if w.extended else []))
             for _n, _a, w in rows],
            "text",
        ),
        (t.gettext("Finished"), [_local(w.finished_at, zone) for _n, _a, w in rows], "datetime"),
        (t.gettext("Minutes"), [round(w.seconds / 60) for _n, _a, w in rows], "int"),
        (t.gettext("Bets given away"), [w.cost if w.answered else None
                                        for _n, _a, w in rows], "chips"),
    ]


def gradebook_columns(follow: FollowUp, t: Translator, title_of: TitleOf) -> list[Column]:
    """The gradebook: one row per student, one column per piece of work (« Leçon : … (sur
    20) »), each mark a number, blank for work not done for the group."""
    columns: list[Column] = [(t.gettext("Student"), list(follow.members), "text")]
    for assignment in follow.assignments:
        heading = t.format(
            "{work} (out of {scale})", work=work_title(assignment, t, title_of),
            scale=follow.scale,
        )
        columns.append(
            (
                heading,
                [follow.work[(name, assignment.id)].mark for name in follow.members],
                "mark",
            )
        )
    return columns


def gradebook_csv(follow: FollowUp, t: Translator, title_of: TitleOf) -> bytes:
    """The gradebook as CSV, the file a school's platform imports grades from: a heading row,
    then one row per student, marks as numbers (semicolons and decimal commas in French, as
    French spreadsheets read them), UTF-8 with a byte-order mark."""
    french = t.language == "fr"
    frame = pd.DataFrame(
        {name: values for name, values, _kind in gradebook_columns(follow, t, title_of)}
    )
    return safe_frame(frame).to_csv(
        index=False, sep=";" if french else ",", decimal="," if french else ".",
        float_format="%.1f",
    ).encode("utf-8-sig")


def follow_up_heading(follow: FollowUp, t: Translator, zone: tzinfo = UTC) -> str:
    """« Devoirs de 2nde B · code K7PQ · lu le 8 déc. 2026 à 16:40 · notes sur 20 »."""
    read = follow.read_at or datetime.now(UTC)
    return t.format(
        "Homework of {group} · code {code} · read {when} · marks out of {scale}",
        group=follow.group.name,
        code=follow.group.code,
        when=when(read, t, zone),
        scale=follow.scale,
    )


def _reason(assignment: Assignment, hand: object, t: Translator) -> str:
    """Why the best play is best, by the same judge as every page, at the drill's table."""
    rules = assignment.rules
    if rules is None:
        return ""
    try:
        question = ClassQuestion(
            parse_cards(hand.cards),  # type: ignore[attr-defined]
            Card.parse(hand.dealer_up),  # type: ignore[attr-defined]
            hand.category == "insurance",  # type: ignore[attr-defined]
        )
        reason = judged(rules, question).reason
    except ValueError:  # a hand written by an older version: no reason rather than a wrong one
        return ""
    return t.reason(reason.key, reason.params) or ""


def hand_shown(cards: str, dealer_up: str, t: Translator) -> str:
    """A stored hand as the screen writes its cards, the corner letter in the reader's language:
    ``V♣ V♦ / 7♣`` in French, ``J♣ J♦ / 7♣`` in English (kept as ``JC JD`` and ``7C``)."""

    def written(card: Card) -> str:
        return t.rank_index(card.rank) + card.suit.symbol

    try:
        hand = " ".join(written(card) for card in parse_cards(cards))
        return f"{hand} / {written(Card.parse(dealer_up))}"
    except ValueError:  # a hand stored by an older version: as it was kept
        return f"{cards} / {dealer_up}"


def missed_columns(follow: FollowUp, t: Translator, title_of: TitleOf) -> list[Column]:
    """The hands each drill's students missed most, with the best play and its reason."""
    rows = [
        (assignment, hand)
        for assignment in follow.assignments
        for hand in follow.missed_hands.get(assignment.id, ())
    ]

    def best(name: str) -> str:
        try:
            return t.action_name(Action(name))
        except ValueError:
            return name

    return [
        (t.gettext("Work"), [work_title(a, t, title_of) for a, _h in rows], "text"),
        (t.gettext("Hand"), [hand_shown(h.cards, h.dealer_up, t) for _a, h in rows], "text"),
        (t.gettext("Best play"), [best(h.best) for _a, h in rows], "text"),
        (t.gettext("Missed"), [h.missed for _a, h in rows], "int"),
        (t.gettext("Asked"), [h.asked for _a, h in rows], "int"),
        (t.gettext("Bets given away"), [h.cost for _a, h in rows], "chips"),
        (t.gettext("Why"), [_reason(a, h, t) for a, h in rows], "text"),
    ]


def not_started_columns(
    follow: FollowUp, t: Translator, title_of: TitleOf, zone: tzinfo = UTC
) -> list[Column]:
    works = list(follow.assignments)
    return [
        (t.gettext("Work"), [work_title(a, t, title_of) for a in works], "text"),
        (t.gettext("Due"), [_local(a.due_at, zone) for a in works], "datetime"),
        (
            t.gettext("Not started"),
            [", ".join(follow.not_started.get(a.id, ())) for a in works],
            "text",
        ),
    ]


def class_title(live: LiveClass, t: Translator) -> str:
    """« Classe : Mardi, groupe B (2 déc. 2026) »."""
    return t.format("Class: {title} ({date})", title=live.title, date=t.date(live.held_at.date()))


def _kind_name(category: str, t: Translator) -> str:
    try:
        return category_name(Category(category), t)
    except ValueError:  # a kind a later version may add: its stored name
        return category


def class_columns(follow: FollowUp, t: Translator) -> list[Column]:
    """One row per live class run for the group and member: present or not, the hands
    answered out of those shown, the right ones, what the answers gave away, the kinds of hand
    missed."""
    rows = [(live, seen) for live in follow.classes for seen in live.members]

    def missed(kinds: Sequence[ClassKind]) -> str:
        return ", ".join(
            t.format("{kind}: {n}", kind=_kind_name(k.category, t), n=k.missed) for k in kinds
        )

    return [
        (t.gettext("Class"), [class_title(live, t) for live, _s in rows], "text"),
        (t.gettext("Student"), [seen.nickname for _l, seen in rows], "text"),
        (
            t.gettext("Present"),
            [t.gettext("present") if seen.present else t.gettext("absent") for _l, seen in rows],
            "text",
        ),
        (t.gettext("Answered"), [seen.answered for _l, seen in rows], "int"),
        (t.gettext("Hands shown"), [live.asked for live, _s in rows], "int"),
        (t.gettext("Right answers"), [seen.right if seen.present else None
                                      for _l, seen in rows], "int"),
        (t.gettext("Bets given away"), [seen.cost if seen.present else None
                                        for _l, seen in rows], "chips"),
        (t.gettext("Mistakes by kind of hand"), [missed(seen.kinds) for _l, seen in rows],
         "text"),
    ]


def guests_line(live: LiveClass, t: Translator) -> str:
    """« Classe : Mardi (2 déc. 2026) · 3 élèves du groupe présents · 1 autre place »."""
    present = sum(seen.present for seen in live.members)
    parts = [
        class_title(live, t),
        t.plural("{n} member of the group present", "{n} members of the group present",
                 present),
    ]
    if live.guests:
        parts.append(t.plural("{n} other seat", "{n} other seats", live.guests))
    return " · ".join(parts)


def kind_columns(follow: FollowUp, t: Translator) -> list[Column]:
    """The group's record of mistakes by kind of hand, per student: the drills' and the live
    classes' side by side, and what they gave away in all (bets)."""
    table: dict[tuple[str, str], list[float]] = {}  # (student, kind): drill, class, cost
    for nickname in follow.members:
        for kind in follow.mistakes.get(nickname, ()):
            line = table.setdefault((nickname, kind.category), [0, 0, 0.0])
            line[0] += kind.missed
            line[2] += kind.cost
    for live in follow.classes:
        for seen in live.members:
            for got in seen.kinds:
                line = table.setdefault((seen.nickname, got.category), [0, 0, 0.0])
                line[1] += got.missed
                line[2] += got.cost
    order = {name: index for index, name in enumerate(follow.members)}
    keys = sorted(table, key=lambda key: (order.get(key[0], len(order)), key[1]))
    return [
        (t.gettext("Student"), [name for name, _k in keys], "text"),
        (t.gettext("Kind of hand"), [_kind_name(kind, t) for _n, kind in keys], "text"),
        (t.gettext("Mistakes in homework"), [int(table[key][0]) for key in keys], "int"),
        (t.gettext("Mistakes in class"), [int(table[key][1]) for key in keys], "int"),
        (t.gettext("Bets given away"), [table[key][2] for key in keys], "chips"),
    ]


def follow_up_xlsx(
    follow: FollowUp, t: Translator, title_of: TitleOf, zone: tzinfo = UTC
) -> bytes:
    """The follow-up as a workbook, each sheet under the group's title row: per student and
    work, the gradebook, the hands most missed, who has not started; numbers stored as numbers,
    dates and times as date cells in the teacher's zone."""
    return columns_xlsx(
        [
            (t.gettext("Per student"), work_columns(follow, t, title_of, zone)),
            (t.gettext("Gradebook"), gradebook_columns(follow, t, title_of)),
            (t.gettext("Hands most missed"), missed_columns(follow, t, title_of)),
            (t.gettext("Not started"), not_started_columns(follow, t, title_of, zone)),
            (t.gettext("Live classes"), class_columns(follow, t)),
            (t.gettext("Mistakes by kind of hand"), kind_columns(follow, t)),
        ],
        title=follow_up_heading(follow, t, zone),
    )


def follow_up_html(
    follow: FollowUp, t: Translator, title_of: TitleOf, zone: tzinfo = UTC
) -> str:
    """A page to print: the group's name, who has not started, the hands most missed, each
    student's work. Every text from the database is escaped (nicknames, the group's name)."""

    def table(columns: list[Column]) -> str:
        return page_frame(columns, t).to_html(index=False, escape=True, border=0, na_rep="")

    heading = t.format("Homework of {group}", group=follow.group.name)
    facts = follow_up_heading(follow, t, zone)
    return "\n".join(
        [
            "<!doctype html>",
            f'<html lang="{t.language}"><head><meta charset="utf-8">',
            f"<title>{html.escape(heading)}</title>",
            PRINT_STYLE,
            "</head><body>",
            f"<h1>{html.escape(heading)}</h1>",
            f"<p>{html.escape(facts)}</p>",
            f"<h2>{html.escape(t.gettext('Gradebook'))}</h2>",
            table(gradebook_columns(follow, t, title_of)),
            f"<h2>{html.escape(t.gettext('Not started'))}</h2>",
            table(not_started_columns(follow, t, title_of, zone)),
            f"<h2>{html.escape(t.gettext('Hands most missed'))}</h2>",
            table(missed_columns(follow, t, title_of)),
            f"<h2>{html.escape(t.gettext('Per student'))}</h2>",
            table(work_columns(follow, t, title_of, zone)),
            f"<h2>{html.escape(t.gettext('Live classes'))}</h2>",
            *(f"<p>{html.escape(guests_line(live, t))}</p>" for live in follow.classes),
            table(class_columns(follow, t)),
            f"<h2>{html.escape(t.gettext('Mistakes by kind of hand'))}</h2>",
            table(kind_columns(follow, t)),
            "</body></html>",
        ]
    )
