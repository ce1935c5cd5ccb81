"""The command line prints a chart as pandas laid it out, without importing pandas (issue 30):
the same text, CSV and HTML for any table of codes, and for every preset's chart."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tutor.cli import main
from tutor.rules import PRESETS
from tutor.spreadsheet import safe_frame
from tutor.strategy import chart
from tutor.strategy.chart import CodeTable
from tutor.strategy.chart_formats import as_csv, as_html, as_text

# Codes, labels and headings as a chart has them, and the characters a format must treat with
# care: a comma or a quote (CSV), <, > and & (HTML), a formula's first character (a spreadsheet).
TEXT = st.text(alphabet="AHSDPRhs0123456789,<>&\"'=+-@", min_size=0, max_size=5)
NAMES = st.text(alphabet="A0123456789,<>&=-", min_size=1, max_size=4)


@st.composite
def tables(draw: st.DrawFn) -> CodeTable:
    columns = tuple(draw(st.lists(NAMES, min_size=1, max_size=5, unique=True)))
    labels = draw(st.lists(NAMES, max_size=6, unique=True))
    rows = tuple(
        (label, tuple(draw(TEXT) for _ in columns)) for label in labels
    )
    return CodeTable(rows, columns)


@given(tables())
def test_any_table_is_laid_out_as_pandas_lays_out_its_frame(table: CodeTable) -> None:
    frame = table.frame()
    if len(table):  # the command prints "(none)" for an empty table, never its text
        assert as_text(table) == frame.to_string()
    assert as_html(table) == frame.to_html()
    assert as_csv(table) == safe_frame(frame).to_csv(index_label="hand")
    assert table.as_dict() == frame.to_dict(orient="index")


def test_a_table_answers_a_cell_as_its_frame_does() -> None:
    table = chart(PRESETS["american-s17"]).codes["hard"]
    frame = table.frame()
    assert [table.code(label, up) for label in frame.index for up in frame.columns] == list(
        frame.to_numpy().ravel()
    )
    with pytest.raises(KeyError):
        table.code("4", "A")
    with pytest.raises(KeyError):
        table.code("16", "1")


def _pandas_output(name: str, form: str) -> str:
    """What ``tutor chart`` printed when it formatted the chart's DataFrames with pandas."""
    rules = PRESETS[name]
    frames = chart(rules).tables()
    if form == "json":
        data = {key: frame.to_dict(orient="index") for key, frame in frames.items()}
        return json.dumps({"rules": rules.name, **data}, indent=2) + "\n"
    out = []
    for key, frame in frames.items():
        if form == "csv":
            out.append(f"# {key}\n" + safe_frame(frame).to_csv(index_label="hand"))
        elif form == "html":
            out.append(f"<h2>{key}</h2>\n{frame.to_html()}\n")
        else:
            body = frame.to_string() if len(frame) else "(none)"
            out.append(f"{key} ({rules.name})\n{body}\n\n")
    return "".join(out)


@pytest.mark.parametrize("form", ["text", "csv", "html", "json"])
@pytest.mark.parametrize("name", sorted(PRESETS))
def test_the_chart_command_prints_what_pandas_printed(
    name: str, form: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["chart", "--rules", name, "--format", form]) == 0
    assert capsys.readouterr().out == _pandas_output(name, form)
