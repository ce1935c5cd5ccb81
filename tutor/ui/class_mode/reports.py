"""A class's results on the teacher's page: the figures, the tables and the three downloads.

The tables and the files are made in ``tutor.render.class_reports`` (plain Python, tested without
a page); this only places them with Streamlit.
"""

from __future__ import annotations

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
from tutor.ui.resources import classroom


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
    st.header(t.gettext("The hands the class got most wrong"))
    if not results.hardest():
        st.info(t.gettext("No hand was missed."))
    else:
        _table(hardest(results, t))
    st.header(t.gettext("Per student"))
    _table(page_frame(student_columns(results, t), t))
    st.header(t.gettext("Per question"))
    _table(page_frame(question_columns(results, t), t))
    with st.expander(t.gettext("Every answer")):
        st.dataframe(page_frame(answer_columns(results, t), t), hide_index=True, width="stretch")
    name = f"class-{info.code}-{info.created_at:%Y%m%d}"
    d1, d2, d3 = st.columns(3)
    d1.download_button(
        t.gettext("Download the results (spreadsheet)"),
        results_xlsx(results, t),
        file_name=f"{name}.xlsx",
        mime="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        key="class-xlsx",
        icon=":material/table_view:",
        on_click="ignore",
        width="stretch",
    )
    d2.download_button(
        t.gettext("Download the answers (CSV)"),
        results_csv(results, t),
        file_name=f"{name}.csv",
        mime="text/csv",
        key="class-csv",
        icon=":material/download:",
        on_click="ignore",
        width="stretch",
    )
    d3.download_button(
        t.gettext("Download a printable page"),
        printable_html(results, t),
        file_name=f"{name}.html",
        mime="text/html",
        key="class-html",
        icon=":material/print:",
        on_click="ignore",
        width="stretch",
    )
