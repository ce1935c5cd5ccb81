"""A chart's tables as the command line prints them: text, CSV and HTML, without pandas.

Why here and not ``DataFrame.to_string``/``to_csv``/``to_html``: importing pandas cost a cold
``tutor chart`` 94 % of its difference with ``tutor edge`` (issue 30), for three small tables of
short codes. The layouts are the ones pandas gives these tables, kept so that a script reading
the command's output sees no change; ``tests/test_strategy_chart.py`` compares the two.

- text: the row labels left-aligned, each column right-aligned to its widest entry with the one
  space pandas puts before every text cell, columns one space apart;
- CSV: a ``hand`` column then one per up-card, every cell a spreadsheet could take for a formula
  written with a quote in front (:func:`tutor.spreadsheet.safe_text`);
- HTML: pandas' ``<table border="1" class="dataframe">`` with a header row and one ``<th>`` per
  row label, every text escaped.
"""

from __future__ import annotations

import csv
import html
import io

from tutor.spreadsheet import safe_text
from tutor.strategy.chart import CodeTable


def as_text(table: CodeTable) -> str:
    """The table in columns of text, as ``DataFrame.to_string`` lays it out.

    >>> print(as_text(CodeTable((("15", ("H", "Rh")), ("16", ("", "Rh"))), ("9", "10"))))
        9  10
    15  H  Rh
    16     Rh
    """
    labels = [label for label, _ in table.rows]
    index_width = max((len(label) for label in labels), default=0)
    columns = []
    for at, name in enumerate(table.columns):
        cells = [" " + codes[at] for _, codes in table.rows]
        width = max(len(name), *(len(cell) for cell in cells))
        columns.append([name.rjust(width), *(cell.rjust(width) for cell in cells)])
    lines = []
    for line, label in enumerate(["", *labels]):
        lines.append(" ".join([label.ljust(index_width), *(column[line] for column in columns)]))
    return "\n".join(lines)


def as_csv(table: CodeTable) -> str:
    """The table as CSV lines (a header ``hand,2,...,A``), each cell safe to open in a
    spreadsheet."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["hand", *(safe_text(name) for name in table.columns)])
    for label, codes in table.rows:
        writer.writerow([safe_text(label), *(safe_text(code) for code in codes)])
    return out.getvalue()


def as_html(table: CodeTable) -> str:
    """The table as an HTML ``<table>``, as ``DataFrame.to_html`` writes it."""
    lines = [
        '<table border="1" class="dataframe">',
        "  <thead>",
        '    <tr style="text-align: right;">',
        "      <th></th>",
        *(f"      <th>{html.escape(name, quote=False)}</th>" for name in table.columns),
        "    </tr>",
        "  </thead>",
        "  <tbody>",
    ]
    for label, codes in table.rows:
        lines += ["    <tr>", f"      <th>{html.escape(label, quote=False)}</th>"]
        lines += [f"      <td>{html.escape(code, quote=False)}</td>" for code in codes]
        lines.append("    </tr>")
    lines += ["  </tbody>", "</table>"]
    return "\n".join(lines)
