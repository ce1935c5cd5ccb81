"""A class's results on the teacher's page: the figures, the tables and the three downloads; and
the row of downloads a group's homework shares with it (``download_row``).

The tables and the files are made in ``tutor.render.class_reports`` (plain Python, tested without
a page); this only places them with Streamlit.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import pandas as pd
import streamlit as st

from tutor.classroom import SessionInfo, Teacher
from tutor.render.class_messages import markdown_text
from tutor.render.class_reports import (
    answer_columns,
    asked_line,
    hardest,
    page_frame,
    printable_html,
    question_columns,
    results_csv,
    results_xlsx,
    student_columns,
)
from tutor.render.translator import Translator
from tutor.ui.download_buttons import Offer, download_buttons
from tutor.ui.resources import classroom

#: The files' kinds: their type, as a browser names it, and the icon of their button.
FILE_KINDS = {
    "xlsx": ("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
             ":material/table_view:"),
    "csv": ("text/csv", ":material/download:"),
    "html": ("text/html", ":material/print:"),
}


@dataclass(frozen=True)
class Download:
    """One file of a row of downloads: its button's label, its bytes or text, its name (the
    extension says its kind, ``FILE_KINDS``) and the button's key."""

    label: str
    data: bytes | str
    file_name: str
    key: str


def download_row(downloads: Sequence[Download]) -> None:
    """The files side by side, each button as wide as its column: one-time downloads for this
    browser only (``tutor.ui.download_buttons``), whose click runs the buttons again, not the
    page (a class's results, a group's follow-up, are not read a second time for a
    download)."""
    offers = []
    for download in downloads:
        mime, icon = FILE_KINDS[download.file_name.rsplit(".", 1)[-1]]
        offers.append(Offer(download.label, download.data, download.file_name, mime,
                            download.key, icon))
    download_buttons(offers)


def _table(frame: pd.DataFrame) -> None:
    """A plain table whose cells read as typed: ``st.table`` draws each cell as Markdown, where
    a nickname ``www.evil.example`` became a link in the results."""
    shown = frame.map(lambda cell: markdown_text(cell) if isinstance(cell, str) else cell)
    shown.columns = pd.Index([markdown_text(str(name)) for name in frame.columns])
    st.table(shown.set_index(shown.columns[0]))


def results_view(info: SessionInfo, teacher: Teacher, t: Translator) -> None:
    """After the class: the hands most missed with the mistake made, each student with what to
    work on, each question, and the exports."""
    results = classroom().results(teacher)
    answered = results.answered
    right = sum(1 for row in answered if row.is_right)
    st.caption(asked_line(results.info, t))
    c1, c2, c3 = st.columns(3)
    c1.metric(t.gettext("Students"), len(results.students))
    c2.metric(t.gettext("Answers"), len(answered))
    c3.metric(
        t.gettext("Right answers"),
        t.percent(right / len(answered), digits=0) if answered else "—",
    )
    # Plain tables rather than grids: the reasons are sentences that must wrap, a teacher reads
    # (and prints) them whole, and the first column names each row.
    st.header(t.gettext("The hands the class got most wrong"), anchor=False)
    if not results.hardest():
        st.info(t.gettext("No hand was missed."))
    else:
        _table(hardest(results, t))
    st.header(t.gettext("Per student"), anchor=False)
    _table(page_frame(student_columns(results, t), t))
    st.header(t.gettext("Per question"), anchor=False)
    _table(page_frame(question_columns(results, t), t))
    with st.expander(t.gettext("Every answer")):
        st.dataframe(page_frame(answer_columns(results, t), t), hide_index=True, width="stretch")
    name = f"class-{info.code}-{info.created_at:%Y%m%d}"
    download_row(
        [
            Download(t.gettext("Download the results (spreadsheet)"), results_xlsx(results, t),
                     f"{name}.xlsx", "class-xlsx"),
            Download(t.gettext("Download the answers (CSV)"), results_csv(results, t),
                     f"{name}.csv", "class-csv"),
            Download(t.gettext("Download a printable page"), printable_html(results, t),
                     f"{name}.html", "class-html"),
        ]
    )
