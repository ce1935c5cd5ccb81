"""Benchmark of the Strategy page's answer to a flipped rule, as a learner meets it (issue 15).

Target: the page answers a changed rule in under a second on a quiet machine once solutions are
fast or saved. Measured in a real browser: headless Debian chromium against ``streamlit run``,
French, a 1366x768 laptop. The learner picks the table in Settings, opens the Strategy page, then
clicks each of the page's one-rule flips in turn (dealer hits soft 17, no double after split, the
deck counts, no hole card, surrender, doubling on 9-11, split hands, a 6:5 payout). The clock
starts at the click and stops when the flipped table's house edge is on screen and Streamlit has
finished the run (the changed cells, their reasons and the explained cell are drawn by then).

Three figures, medians over the flips, each twice: as this script's driver notices the house edge
(``strategy_page_flip_*``), and as the page itself put it in its document
(``strategy_page_flip_*_shown``, a ``MutationObserver`` in the page, on the machine's clock from
the click). Playwright looks for an element again at growing intervals, 0.5 s apart after its
first few looks, so a run longer than a few tenths of a second is noticed up to half a second
after the page showed it: what a learner sees is the ``_shown`` figure.

- ``strategy_page_flip_new``: a fresh server with an empty data folder, so every flip is a rule
  set this process has never solved and nothing has been saved;
- ``strategy_page_flip_saved``: a second fresh server on the same data folder, so a store of
  saved solutions (when the strategy package keeps one there) answers instead of a solve;
- ``strategy_page_flip_again``: the same flips again in the first server, solved in-process: the
  page's own cost.

Prints one ``name: value unit`` line per figure, with the machine's load for context.

    .venv/bin/python bench/strategy_page.py                      # american-s17, every flip
    .venv/bin/python bench/strategy_page.py --rules family --flips 4
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from serving import (  # noqa: E402
    CHROMIUM,
    LAPTOP,
    LAUNCH_ARGS,
    app_server,
    choose_option,
    new_page,
    shown_script,
)
from tutor.render.chart_view import flip_label  # noqa: E402
from tutor.render.translator import translator  # noqa: E402
from tutor.rules import PRESETS  # noqa: E402
from tutor.strategy.changes import flips  # noqa: E402

STATUS = '[data-testid="stStatusWidget"]'
METRIC_LABEL = '[data-testid="stMetricLabel"]'


def _idle(page: object) -> None:
    page.wait_for_selector(STATUS, state="detached", timeout=600_000)  # type: ignore[attr-defined]


def _open_strategy(page: object, url: str, preset: str) -> None:
    """Settings: choose the table; then the Strategy page through the sidebar (a reload would
    start a new session with the default table)."""
    fr = translator("fr")
    page.goto(f"{url}/settings")  # type: ignore[attr-defined]
    page.get_by_text("Règles de la table").first.wait_for(timeout=600_000)  # type: ignore[attr-defined]
    _idle(page)
    if preset != "family":
        chosen = fr.preset_name(preset)
        choose_option(page, page.locator(".st-key-settings-preset"), chosen)  # type: ignore[attr-defined]
    page.get_by_role("link", name="Stratégie").click()  # type: ignore[attr-defined]
    page.get_by_text("Changer une règle de cette table").first.wait_for(timeout=600_000)  # type: ignore[attr-defined]
    _idle(page)


def _flip_seconds(page: object, label: str) -> tuple[float, float]:
    """Click one flip; seconds until its house edge is shown and the run is over, as the driver
    notices it, and as the page showed the house edge."""
    metric = page.locator(METRIC_LABEL).filter(  # type: ignore[attr-defined]
        has_text=re.compile("^" + re.escape(label) + "$")
    )
    page.evaluate("() => { window.__shown = {}; }")  # type: ignore[attr-defined]
    start, clicked = time.perf_counter(), time.time()
    page.get_by_text(label, exact=True).first.click()  # type: ignore[attr-defined]
    metric.first.wait_for(timeout=600_000)
    _idle(page)
    noticed = time.perf_counter() - start
    shown_at = page.evaluate("(label) => window.__shown[label]", label)  # type: ignore[attr-defined]
    return noticed, shown_at / 1000 - clicked


def _session(browser: object, url: str, preset: str, labels: list[str], passes: int) -> list[
    list[tuple[float, float]]
]:
    page = new_page(browser, LAPTOP)
    page.context.add_init_script(shown_script(METRIC_LABEL))  # type: ignore[attr-defined]
    _open_strategy(page, url, preset)
    out = [[_flip_seconds(page, label) for label in labels] for _ in range(passes)]
    page.context.close()  # type: ignore[attr-defined]
    return out


def _print(name: str, flips: list[tuple[float, float]], *, worst: bool = False) -> None:
    """The driver's and the page's figure of a list of flips (medians; the worst too)."""
    noticed, shown = [flip[0] for flip in flips], [flip[1] for flip in flips]
    print(f"strategy_page_flip_{name}: {statistics.median(noticed):.2f} s")
    if worst:
        print(f"strategy_page_flip_{name}_max: {max(noticed):.2f} s")
    print(f"strategy_page_flip_{name}_shown: {statistics.median(shown):.2f} s")
    if worst:
        print(f"strategy_page_flip_{name}_shown_max: {max(shown):.2f} s", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rules", default="american-s17", choices=list(PRESETS))
    parser.add_argument("--flips", type=int, default=0, help="only the first N flips (0: all)")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    fr = translator("fr")
    labels = [flip_label(flip, fr) for flip in flips(PRESETS[args.rules])]
    if args.flips:
        labels = labels[: args.flips]
    with tempfile.TemporaryDirectory() as data, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=LAUNCH_ARGS)
        print(f"strategy_page_flips: {len(labels)} count", flush=True)
        with app_server(Path(data), timeout=300) as url:
            new, again = _session(browser, url, args.rules, labels, passes=2)
        _print("new", new, worst=True)
        _print("again", again)
        with app_server(Path(data), timeout=300) as url:
            (saved,) = _session(browser, url, args.rules, labels, passes=1)
        _print("saved", saved)
        browser.close()
    print(f"load_average_1min: {os.getloadavg()[0]:.2f} processes")


if __name__ == "__main__":
    main()
