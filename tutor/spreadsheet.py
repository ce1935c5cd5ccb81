"""Cells a spreadsheet opens as data, never as a formula: the rule for every CSV the app writes.

Why: a student chooses their nickname, and a spreadsheet reads a CSV cell beginning with ``=``,
``+``, ``-`` or ``@`` (or a tab or a carriage return before one of them) as a formula, so a
nickname ``-1-1`` or ``=HYPERLINK(...)`` in a class's results would be computed, or would link
out, on the teacher's computer. OWASP's rule for CSV injection is applied: such a text cell is
written with a single quote in front, which the spreadsheet shows as the text typed. Numbers the
app computed (a cost of ``-0.5`` chips) are numbers, not text, and are left as they are.

>>> safe_text("-1-1"), safe_text("=1+1"), safe_text("@x"), safe_text("Zoé")
("'-1-1", "'=1+1", "'@x", 'Zoé')
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import tutor.blas  # noqa: F401  (one BLAS thread, set before numpy is imported)

if TYPE_CHECKING:  # pandas only for a frame: ``safe_text`` serves ``tutor chart`` without it
    import pandas as pd

#: What makes a spreadsheet read a cell as a formula (OWASP, "CSV Injection").
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def is_formula_like(text: str) -> bool:
    """Whether a spreadsheet could take ``text`` for a formula."""
    return text.startswith(FORMULA_STARTS)


def safe_text(text: str) -> str:
    """``text`` as a spreadsheet shows it and never computes it (a quote in front if needed)."""
    return "'" + text if is_formula_like(text) else text


def safe_cell(value: object) -> object:
    """A cell of a CSV: text made safe, anything else (numbers, blanks) as it is."""
    return safe_text(value) if isinstance(value, str) else value


def safe_frame(frame: pd.DataFrame) -> pd.DataFrame:
    """A copy of ``frame`` whose text cells, headings and index labels are safe to open."""
    import pandas as pd

    out = frame.copy()
    for column in out.columns:
        if out[column].dtype == object or pd.api.types.is_string_dtype(out[column]):
            out[column] = out[column].map(safe_cell)
    out.columns = pd.Index([safe_cell(name) for name in out.columns])
    out.index = pd.Index([safe_cell(label) for label in out.index], name=out.index.name)
    return out
