"""A class's results as a teacher reads them the next morning: the tables of the page, a
spreadsheet that opens in their language, and a printable page (the page itself is drawn by
``tutor.ui.class_mode.reports``).

What a teacher can act on: per student, the share right and the kinds of hand they miss (pairs,
insurance, doubling...); per question, the mistake most made, what it costs and why the best play
is best. Only the questions the class was shown count (a class finished early is not padded with
empty rows), and every cost is in chips at the class's bet, as on the live pages.

The exports: a real ``.xlsx`` (openpyxl) whose numbers are numbers, shown by the spreadsheet in
the reader's own format (French Excel writes ``0,45``), with headings in the teacher's language;
and a CSV that French Excel splits into columns (semicolons and decimal commas in French, commas
and points in English), UTF-8 with a byte-order mark so the accents survive. Neither runs what a
student typed: a nickname ``-1-1`` or ``=1+1`` is a text cell in both (``tutor.spreadsheet``).
"""

from __future__ import annotations

import tutor.blas  # noqa: F401  (one BLAS thread, set before numpy is imported)

# isort: split
import html
import io
from collections.abc import Sequence
from datetime import date, datetime

import pandas as pd

from tutor.classroom import (
    ClassQuestion,
    ClassResults,
    QuestionResult,
    SessionInfo,
    StudentResult,
)
from tutor.decision import Action
from tutor.render.class_messages import retention_text
from tutor.render.naming import category_name
from tutor.render.translator import Translator
from tutor.spreadsheet import is_formula_like, safe_frame

#: Columns of a table: (heading, values, kind) where kind tells the spreadsheet how to show the
#: numbers: "text", "int", "chips" (two decimals), "share" (a percentage) or "date" (a
#: ``datetime.date``, a date cell in a workbook).
Column = tuple[str, list[object], str]


#: The printable pages' style (a class's results, a group's homework): a plain font, ruled
#: tables, headings kept with what follows them when printed.
PRINT_STYLE = (
    "<style>body{font-family:DejaVu Sans,Arial,sans-serif;margin:2rem;color:#111}"
    "table{border-collapse:collapse;margin:0 0 1.5rem 0}"
    "th,td{border:1px solid #999;padding:.25rem .6rem;text-align:left;vertical-align:top}"
    "th{background:#eee}h1{font-size:1.5rem}h2{font-size:1.15rem;margin-top:1.5rem}"
    "@media print{body{margin:0}h2{break-after:avoid}tr{break-inside:avoid}}</style>"
)


def _action(action: Action | None, t: Translator) -> str:
    return "" if action is None else t.action_name(action)


def _hand(question: ClassQuestion, t: Translator) -> str:
    """The hand as the class's screens write it: ``R♠ 10♦ / 6♥`` in French, ``K♠ 10♦ / 6♥`` in
    English."""
    return f"{t.cards_index_text(question.cards)} / {t.card_index_text(question.dealer_up)}"


def _missed(student: StudentResult, t: Translator) -> str:
    """``Paires (2 sur 3), Assurance (1 sur 1)``: the topics a student missed, worst first."""
    return ", ".join(
        t.format(
            "{topic} ({missed} of {total})",
            topic=category_name(topic, t),
            missed=student.topics[topic][0],
            total=student.topics[topic][1],
        )
        for topic in student.missed
    )


def student_columns(results: ClassResults, t: Translator) -> list[Column]:
    students = sorted(
        results.students, key=lambda s: (s.share_right is None, s.share_right or 0, s.nickname)
    )
    return [
        (t.gettext("Student"), [s.nickname for s in students], "text"),
        (t.gettext("Answers"), [s.answers for s in students], "int"),
        (
            t.gettext("Unanswered"),
            [max(0, results.info.asked - s.answers) for s in students],
            "int",
        ),
        (t.gettext("Right answers"), [s.right for s in students], "int"),
        (t.gettext("Right (%)"), [s.share_right for s in students], "share"),
        (t.gettext("Chips given away"), [s.cost for s in students], "chips"),
        (t.gettext("To work on"), [_missed(s, t) for s in students], "text"),
    ]


def question_columns(
    results: ClassResults, t: Translator, questions: Sequence[QuestionResult] | None = None
) -> list[Column]:
    shown = list(results.questions if questions is None else questions)
    return [
        (t.gettext("Question"), [q.number for q in shown], "int"),
        (t.gettext("Hand"), [_hand(q.question, t) for q in shown], "text"),
        (t.gettext("Kind of hand"), [category_name(q.topic, t) for q in shown], "text"),
        (t.gettext("Best play"), [t.action_name(q.judgement.play) for q in shown], "text"),
        (t.gettext("Answers"), [q.answers for q in shown], "int"),
        (t.gettext("Right (%)"), [q.share_right for q in shown], "share"),
        (t.gettext("Most common mistake"), [_action(q.common_wrong, t) for q in shown], "text"),
        (t.gettext("Students who made it"), [q.common_wrong_count or None for q in shown], "int"),
        (
            t.gettext("Its cost (chips)"),
            [q.common_wrong_cost if q.common_wrong else None for q in shown],
            "chips",
        ),
        (
            t.gettext("Why"),
            [t.reason(q.judgement.reason.key, q.judgement.reason.params) or "" for q in shown],
            "text",
        ),
    ]


def answer_columns(results: ClassResults, t: Translator) -> list[Column]:
    rows = results.rows
    # A student who did not answer says so in words: an empty cell reads as a lost line.
    unanswered = t.gettext("no answer")
    grades = {None: unanswered, True: t.gettext("yes"), False: t.gettext("no")}
    return [
        (t.gettext("Student"), [r.student for r in rows], "text"),
        (t.gettext("Question"), [r.number for r in rows], "int"),
        (t.gettext("Hand"), [_hand(r.question, t) for r in rows], "text"),
        (t.gettext("Answer"), [_action(r.answer, t) or unanswered for r in rows], "text"),
        (t.gettext("Best play"), [t.action_name(r.best) for r in rows], "text"),
        (t.gettext("Right"), [grades[r.is_right] for r in rows], "text"),
        (t.gettext("Chips given away"), [r.cost for r in rows], "chips"),
    ]


def date_and_time(moment: datetime, t: Translator) -> str:
    """« 2 déc. 2026 14:05 »: a day in the reader's words and its time, as a results file and
    the tables on screen write a moment."""
    return f"{t.date(moment.date())} {moment:%H:%M}"


def page_frame(columns: list[Column], t: Translator) -> pd.DataFrame:
    """A table for the page: every cell as the learner's locale writes it (``0,45``, ``50 %``),
    blanks blank. Text cells, so that a column with blanks stays one type for the grid."""

    def shown(value: object, kind: str) -> str:
        if value is None:
            return ""
        if kind == "chips" and isinstance(value, float):
            return t.number(value, digits=2)
        if kind == "share" and isinstance(value, float):
            return t.percent(value, digits=0)
        if kind == "int" and isinstance(value, int):
            return t.number(value, digits=0)
        if kind == "datetime" and isinstance(value, datetime):
            return date_and_time(value, t)
        if kind == "date" and isinstance(value, date):
            return t.date(value)
        if kind == "mark" and isinstance(value, float):
            return t.number(value, digits=1)
        return str(value)

    return pd.DataFrame({name: [shown(v, kind) for v in values] for name, values, kind in columns})


def hardest(results: ClassResults, t: Translator, *, limit: int = 5) -> pd.DataFrame:
    return page_frame(question_columns(results, t, results.hardest()[:limit]), t)


# -- files ------------------------------------------------------------------------------------


def results_csv(results: ClassResults, t: Translator) -> bytes:
    """Every answer as CSV that the teacher's spreadsheet splits into columns: semicolons and
    decimal commas in French (French Excel reads a comma as a decimal mark), UTF-8 with a
    byte-order mark so that the accents survive."""
    french = t.language == "fr"
    frame = pd.DataFrame({name: values for name, values, _kind in answer_columns(results, t)})
    return safe_frame(frame).to_csv(
        index=False,
        sep=";" if french else ",",
        decimal="," if french else ".",
        float_format="%.2f",
    ).encode("utf-8-sig")


def results_xlsx(results: ClassResults, t: Translator) -> bytes:
    """A workbook of three sheets (students, questions, every answer), headings in the teacher's
    language, numbers stored as numbers with a format the spreadsheet shows in its own locale;
    each sheet opens with the class's title row (what it is, when, which table)."""
    return columns_xlsx(
        [
            (t.gettext("Per student"), student_columns(results, t)),
            (t.gettext("Per question"), question_columns(results, t)),
            (t.gettext("Every answer"), answer_columns(results, t)),
        ],
        title=class_facts(results.info, t),
    )


def class_facts(info: SessionInfo, t: Translator) -> str:
    """« Classe : Mardi · code K7PQ · 2 déc. 2026 14:05 · table : Famille · 17 questions »: what a
    filed file says of itself."""
    return t.format(
        "Class: {title} · code {code} · {date} · table: {rules} · {asked}",
        title=info.title,
        code=info.code,
        date=date_and_time(info.created_at, t),
        rules=t.table_name(info.rules),
        asked=asked_line(info, t),
    )


def columns_xlsx(sheets: Sequence[tuple[str, list[Column]]], *, title: str | None = None) -> bytes:
    """A workbook of one sheet per ``(title, columns)``: with ``title``, a first row saying what
    the file is (a group or a class, and when: a file a teacher keeps must say it once it is
    out of its folder); bold wrapped headings, numbers stored as numbers in the column's format,
    text cells always text (a nickname ``=1+1`` is not a formula), widths from the longest cell,
    the rows above the first line of data frozen. Homework's follow-up is written by it too
    (``tutor.render.homework_reports``)."""
    from openpyxl import Workbook
    from openpyxl.styles import Alignment, Font
    from openpyxl.utils import get_column_letter

    # A date in the spreadsheet's own words for the month (« 14 déc. 2026 » in French Excel).
    formats = {
        "chips": "0.00", "share": "0%", "int": "0", "date": "d mmm yyyy",
        "datetime": "d mmm yyyy hh:mm", "mark": "0.0",
    }
    book = Workbook()
    top = 1 if title is None else 2  # the headings' row
    for index, (name_of_sheet, columns) in enumerate(sheets):
        sheet = book.active if index == 0 else book.create_sheet()
        assert sheet is not None
        sheet.title = name_of_sheet[:31]  # Excel's limit on a sheet's name
        if title is not None:
            sheet.append([title])
            sheet["A1"].font = Font(bold=True, size=13)
            sheet["A1"].data_type = "s"
        sheet.append([name for name, _values, _kind in columns])
        for cell in sheet[top]:
            cell.font = Font(bold=True)
            cell.alignment = Alignment(wrap_text=True, vertical="top")
        for row in zip(*(values for _name, values, _kind in columns), strict=True):
            sheet.append([_cell(value) for value in row])
        for cells in sheet.iter_rows(min_row=top + 1):
            for cell in cells:
                if isinstance(cell.value, str):
                    # Text, whatever it begins with: openpyxl stores ``=1+1`` as a formula,
                    # and the quote prefix keeps it text when the teacher edits the cell.
                    cell.data_type = "s"
                    cell.quotePrefix = is_formula_like(cell.value)
        for number, (name, values, kind) in enumerate(columns, start=1):
            letter = get_column_letter(number)
            if kind in formats:
                for cell in sheet[letter][top:]:
                    cell.number_format = formats[kind]
            longest = max([len(name), *(len(str(v)) for v in values if v is not None)])
            sheet.column_dimensions[letter].width = min(60, max(8, longest + 2))
        sheet.freeze_panes = f"A{top + 1}"
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def _cell(value: object) -> object:
    """A value as a workbook cell holds it: a time without its zone (a spreadsheet has none; the
    caller gave it in the reader's zone already)."""
    if isinstance(value, datetime) and value.tzinfo is not None:
        return value.replace(tzinfo=None)
    return value


def asked_line(info: SessionInfo, t: Translator) -> str:
    """``5 questions asked of 17`` for a class finished early (its results are about those 5);
    ``17 questions`` otherwise."""
    if info.asked < info.questions:
        return t.plural(
            "{n} question asked of {total}",
            "{n} questions asked of {total}",
            info.asked,
            total=info.questions,
        )
    return t.plural("{n} question", "{n} questions", info.questions)


def printable_html(results: ClassResults, t: Translator) -> str:
    """A page to print or keep: the class's title, the hands most missed, each student and each
    question. Every text from the database is escaped (nicknames above all)."""
    info = results.info

    def table(columns: list[Column]) -> str:
        return page_frame(columns, t).to_html(index=False, escape=True, border=0, na_rep="")

    title = html.escape(info.title)
    heading = t.format("Class results: {title}", title=info.title)
    facts = t.format(
        "Code {code} · {date} · table: {rules} · {asked}",
        code=info.code,
        date=date_and_time(info.created_at, t),
        rules=t.table_name(info.rules),
        asked=asked_line(info, t),
    )
    parts = [
        "<!doctype html>",
        f'<html lang="{t.language}"><head><meta charset="utf-8">',
        f"<title>{title}</title>",
        PRINT_STYLE,
        "</head><body>",
        f"<h1>{html.escape(heading)}</h1>",
        f"<p>{html.escape(facts)}</p>",
        "<p>" + html.escape(retention_text(info, t)) + "</p>",
        f"<h2>{html.escape(t.gettext('The hands the class got most wrong'))}</h2>",
        table(question_columns(results, t, results.hardest()[:10])),
        f"<h2>{html.escape(t.gettext('Per student'))}</h2>",
        table(student_columns(results, t)),
        f"<h2>{html.escape(t.gettext('Per question'))}</h2>",
        table(question_columns(results, t)),
        f"<h2>{html.escape(t.gettext('Every answer'))}</h2>",
        table(answer_columns(results, t)),
        "</body></html>",
    ]
    return "\n".join(parts)
