"""The Strategy page's files in the learner's language (issue 29), read back as a spreadsheet and
a browser would: the French CSV has French headings, the French chart's letters (T tirer, R
rester, D doubler, S séparer, A abandonner), ``;`` between fields and a legend; the printable
page is titled with the table's name and draws every group with the same column widths."""

from __future__ import annotations

import csv
import io
import re
from html.parser import HTMLParser

from tutor.render import chart_view
from tutor.render.translator import translator
from tutor.rules import PRESETS
from tutor.strategy import chart

FR, EN = translator("fr"), translator("en")
FAMILY = PRESETS["family"]


def _read_csv(text: str) -> tuple[list[list[str]], list[list[str]]]:
    """The chart's rows and the legend's, split at the blank line between them."""
    rows = list(csv.reader(io.StringIO(text), delimiter=";"))
    blank = rows.index([])
    return rows[:blank], rows[blank + 1 :]


def test_the_french_csv_reads_back_in_french_with_the_french_charts_letters() -> None:
    family = chart(FAMILY)
    rows, legend = _read_csv(chart_view.chart_csv(family, FR))
    header, body = rows[0], rows[1:]
    assert header == ["tableau", "main", *(str(c) for c in family.tables()["hard"].columns)]
    # Each cell is the code the French chart shows for it, computed, not typed.
    for table in ("hard", "soft", "pairs"):
        frame = family.tables()[table]
        title = chart_view.table_title(table, FR)
        mine = {row[1]: row[2:] for row in body if row[0] == title}
        hands = [chart_view.csv_hand(table, str(label), FR) for label in frame.index]
        assert list(mine) == hands
        for label, hand in zip(frame.index, hands, strict=True):
            expected = [chart_view.code_text(str(code), FR) for code in frame.loc[label]]
            assert mine[hand] == expected
    codes = {code for row in body for code in row[2:]}
    assert codes <= {chart_view.code_text(c, FR) for c in chart_view.CODE_LETTERS}
    assert {"T", "R", "D", "S"} <= codes  # the French letters...
    assert "H" not in codes  # ...never the English ones beside them
    # A pair is words a spreadsheet keeps as text, never « 10,10 » that French Excel reads 10.1.
    pairs = [row[1] for row in body if row[0] == chart_view.table_title("pairs", FR)]
    assert "10 et 10" in pairs
    assert "2 et 2" in pairs
    assert not any(re.fullmatch(r"[\d,.\s]+", hand) for hand in pairs)
    # 16 against a 10 at the family table: hit, which the French chart writes T.
    assert next(r for r in body if r[0] == "Totaux durs" and r[1] == "16")[-2] == "T"
    # The legend says what each letter means, in French.
    assert legend[0] == ["code", "signification"]
    meanings = dict(legend[1:])
    assert (meanings["T"], meanings["R"], meanings["S"]) == ("tirer", "rester", "séparer")
    assert len(meanings) == len(chart_view.CODE_LETTERS)


def test_the_english_csv_keeps_commas_and_english_letters() -> None:
    text = chart_view.chart_csv(chart(FAMILY), EN)
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0][:3] == ["table", "hand", "2"]
    assert ["Hard totals", "16", "S", "S", "S", "S", "S", "H", "H", "H", "H", "H"] in rows
    assert rows[rows.index([]) + 1] == ["code", "meaning"]


class _Page(HTMLParser):
    """The printable page as a browser reads it: its title, each table's column widths, its
    cells' texts."""

    def __init__(self) -> None:
        super().__init__()
        self.title = ""
        self.h1 = ""
        self.widths: list[list[str]] = []
        self.cells: list[str] = []
        self._in: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "table":
            self.widths.append([])
        if tag == "col":
            style = dict(attrs).get("style") or ""
            self.widths[-1].append(re.sub(r"\s", "", style))
        self._in = tag

    def handle_endtag(self, tag: str) -> None:
        self._in = None

    def handle_data(self, data: str) -> None:
        if self._in == "title":
            self.title += data
        elif self._in == "h1":
            self.h1 += data
        elif self._in == "td":
            self.cells.append(data)


def test_the_printable_page_is_titled_with_the_tables_name_and_one_column_width() -> None:
    family = chart(FAMILY)
    edited = FAMILY.edited(decks=2)
    for rules in (FAMILY, edited):
        page = _Page()
        page.feed(chart_view.printable_html(chart(rules), FR, 0.001, rules=rules))
        name = FR.table_name(rules)
        assert page.h1 == page.title == f"Stratégie de base — {name}"
        assert page.h1.split("—", 1)[1].strip()  # nothing empty after the dash
    page = _Page()
    page.feed(chart_view.printable_html(family, FR, 0.001, rules=FAMILY))
    # Every group (hard, soft, pairs, surrender when there is one) with the same columns.
    drawn = [widths for widths in page.widths if widths]
    assert len(drawn) >= 3
    assert all(widths == drawn[0] for widths in drawn)
    assert len(set(drawn[0][1:])) == 1  # one width for every up-card
    assert {"T", "R", "D", "S"} <= set(page.cells)
    assert "H" not in page.cells


def test_a_chart_without_a_named_table_still_has_a_name_after_the_dash() -> None:
    """A chart's own rules carry no name (two tables with the same rules share it): a page
    made from the chart alone says « vos propres règles », never an empty title."""
    page = _Page()
    page.feed(chart_view.printable_html(chart(FAMILY), FR, None))
    assert page.h1.split("—", 1)[1].strip()
