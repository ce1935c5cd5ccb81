"""In a real browser, in French (issue 29): the Strategy page compares two rule sets that differ
by several rules (the dealer hits soft 17 *and* 8 decks, against the family table), keeps the
chosen part of the chart shown selected after a change, and its printable page, downloaded as a
learner would, is titled with the table's name. Screenshots for a person to look at:
``strategy-fr-two-rules`` and ``strategy-printable-fr``."""

from __future__ import annotations

import csv
import io
import re

from serving import LAPTOP, SHOTS
from serving import new_page as _page
from serving import screenshot as _shot
from serving import wait_idle as _wait_idle
from tests.marks import BROWSER
from tutor.render.translator import translator
from tutor.rules import PRESETS
from tutor.strategy.changes import compare

pytestmark = BROWSER


def _part(page: object, name: str) -> object:
    return page.get_by_role("radio", name=re.compile("^" + re.escape(name)))  # type: ignore[attr-defined]


def test_two_rule_sets_compared_and_the_printable_page(
    server: str, chromium_browser: object
) -> None:
    fr = translator("fr")
    family = PRESETS["family"]
    page = _page(chromium_browser, LAPTOP)
    page.goto(f"{server}/strategy")  # type: ignore[attr-defined]
    page.get_by_text("Avantage de la maison").first.wait_for()  # type: ignore[attr-defined]
    _wait_idle(page)
    # The soft totals chosen first, then two rules changed one after the other and kept.
    _part(page, "Totaux souples").check(force=True)  # type: ignore[attr-defined]
    _wait_idle(page)
    pills = page.locator(".st-key-strategy-flip")  # type: ignore[attr-defined]
    pills.get_by_text("Le croupier tire sur 17 souple", exact=True).click()
    page.get_by_text(re.compile(r"\d+ cases? chang")).first.wait_for()  # type: ignore[attr-defined]
    _wait_idle(page)
    assert _part(page, "Totaux souples").is_checked(), "the part chosen stays selected"  # type: ignore[attr-defined]
    page.get_by_role("button", name="Garder ce changement et changer une autre règle").click()  # type: ignore[attr-defined]
    _wait_idle(page)
    pills.get_by_text("8 jeux", exact=True).click()
    page.get_by_text("Règles changées jusqu’ici", exact=False).first.wait_for()  # type: ignore[attr-defined]
    _wait_idle(page)
    after = family.replace(dealer_hits_soft_17=True, decks=8)
    expected = compare(family, after)
    body = page.locator("body").inner_text().replace("\u00a0", " ").replace("\u202f", " ")  # type: ignore[attr-defined]
    assert fr.percent(expected.edge_after).replace("\u00a0", " ") in body
    assert "Le croupier tire sur 17 souple, 8 jeux" in body, "both rules, neither dropped"
    assert body.count("Plusieurs règles diffèrent") == 1
    assert any(
        _part(page, name).is_checked()  # type: ignore[attr-defined]
        for name in ("Totaux souples",)
    ), "after the second change too"
    _shot(page, "strategy-fr-two-rules")
    # The printable page, downloaded from the button as a learner would.
    with page.expect_download() as download:  # type: ignore[attr-defined]
        page.get_by_role("button", name="Télécharger la page à imprimer").click()  # type: ignore[attr-defined]
    html = download.value.path().read_text(encoding="utf-8")
    title = re.search(r"<h1>(.*?)</h1>", html)
    assert title is not None
    assert title.group(1) == f"Stratégie de base — {fr.table_name(family)}"
    # The CSV, downloaded from the same page: French, ``;``-separated, with its legend.
    with page.expect_download() as download:  # type: ignore[attr-defined]
        page.get_by_role("button", name="Télécharger en CSV").click()  # type: ignore[attr-defined]
    rows = list(csv.reader(io.StringIO(download.value.path().read_text(encoding="utf-8")),
                           delimiter=";"))
    assert rows[0][:2] == ["tableau", "main"]
    assert ["code", "signification"] in rows
    assert {"T", "R"} <= {cell for row in rows[1:] for cell in row[2:]}
    printable = page.context.new_page()  # type: ignore[attr-defined]
    printable.set_viewport_size({"width": 900, "height": 1200})
    printable.set_content(html)
    widths = printable.evaluate(
        "() => [...document.querySelectorAll('table')].map("
        "t => [...t.querySelectorAll('tbody tr:first-child > *')].map(c => Math.round("
        "c.getBoundingClientRect().width)))"
    )
    assert len(widths) >= 3
    assert all(w == widths[0] for w in widths), widths  # one column width for every group
    printable.screenshot(path=str(SHOTS / "strategy-printable-fr.png"), full_page=True)
    page.context.close()  # type: ignore[attr-defined]
