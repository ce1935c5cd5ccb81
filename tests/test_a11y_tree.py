"""What a screen reader hears on a French page is French (issue 29): Playwright's ARIA snapshot of
every page (``page.locator("body").aria_snapshot()``, the accessibility tree as text), on a laptop
and a phone, may not hold any of Streamlit's own English strings: the keyboard-shortcut hint
(« Shortcut Enter »), the names of its material icons (« grid_on icon »), the anchors of headings
(« Link to heading »), its skip link, menu and help buttons, its connection dialog.

The pages are reached as ``test_browser_a11y`` reaches them (one session per size, moving through
the sidebar as a learner does); each page is its own test, so a failure names the page and the
English it heard. Every snapshot is also written to ``artifacts/a11y/tree-<page>-<size>.txt``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest

from serving import ROOT, app_server, new_page, wait_idle
from tests.marks import BROWSER
from tests.test_browser_a11y import PAGES, SIZES
from tutor.render.translator import translator

pytestmark = BROWSER

TREES = ROOT / "artifacts" / "a11y"

#: Streamlit's own English words and phrases (1.67), each a whole word or phrase of the tree.
STREAMLIT_ENGLISH = (
    "Shortcut",
    "Enter",
    "icon",
    "Link to heading",
    "Skip to main content",
    "Help",
    "Main menu",
    "Connection error",
    "Running",
    "Stop",
    "Close",
    "Open",
    "Sidebar",
    "App pages",
    "progress",
    "Clear value",
    "Selected values",
    "Deploy",
    "Press Enter",
    "Collapse sidebar",
    "Expand sidebar",
    "Open sidebar",
    "Show password",
    "Fullscreen",
    "Download",
    "Search",
    "Clear all",
    "No results",
    "keyboard_arrow",
    "keyboard_double_arrow",
)
ENGLISH = re.compile(r"\b(" + "|".join(re.escape(word) for word in STREAMLIT_ENGLISH) + r")\b")
#: A material icon's name read out (``grid_on``, ``check_circle``): lower-case words joined by _.
ICON_NAME = re.compile(r"\b[a-z]+(?:_[a-z]+)+\b")


def english_heard(tree: str) -> list[str]:
    """Each line of the tree that holds a word of Streamlit's English, or an icon's name.

    >>> english_heard('- button "Question suivante Shortcut Enter"\\n- img "grid_on icon"')
    ['- button "Question suivante Shortcut Enter"', '- img "grid_on icon"']
    >>> english_heard('- button "Question suivante Raccourci Entrée"\\n- heading "Quiz"')
    []
    """
    return [line for line in tree.splitlines() if ENGLISH.search(line) or ICON_NAME.search(line)]


def _tree(page: object) -> str:
    wait_idle(page)
    page.wait_for_function(  # type: ignore[attr-defined]
        "!document.querySelector('[data-stale=\"true\"]')"
    )
    page.wait_for_timeout(600)  # type: ignore[attr-defined]
    return str(page.locator("body").aria_snapshot())  # type: ignore[attr-defined]


def crawl(browser: object, server: str, size: str) -> dict[str, str]:
    """Every page's tree in one French session at ``size`` (an error instead, when the page could
    not be reached, reported by that page's test)."""
    page = new_page(browser, SIZES[size], locale="fr-FR")
    page.goto(server)  # type: ignore[attr-defined]
    page.locator('[class*="st-key-open-"] button').first.wait_for()  # type: ignore[attr-defined]
    trees: dict[str, str] = {}
    for name, step in PAGES.items():
        try:
            step(page, "fr")
            trees[name] = _tree(page)
        except Exception as error:  # reported on that page's test, the crawl goes on
            trees[name] = f"ERROR {type(error).__name__}: {error}"
            continue
        TREES.mkdir(parents=True, exist_ok=True)
        (TREES / f"tree-{name}-{size}.txt").write_text(trees[name], encoding="utf-8")
    page.context.close()  # type: ignore[attr-defined]
    return trees


@pytest.fixture(scope="module")
def trees(server: str, chromium_browser: object) -> Callable[[str], dict[str, str]]:
    done: dict[str, dict[str, str]] = {}

    def get(size: str) -> dict[str, str]:
        if size not in done:
            done[size] = crawl(chromium_browser, server, size)
        return done[size]

    return get


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("name", list(PAGES))
def test_a_french_page_says_nothing_in_streamlits_english(
    trees: Callable[[str], dict[str, str]], name: str, size: str
) -> None:
    tree = trees(size)[name]
    assert not tree.startswith("ERROR"), f"the {name} page could not be reached: {tree}"
    assert "heading" in tree, f"no heading read on {name}: {tree[:300]}"
    heard = english_heard(tree)
    assert not heard, f"{name} ({size}) reads Streamlit's English:\n" + "\n".join(heard)


def test_a_lost_server_is_heard_in_french_not_in_streamlits_english(
    tmp_path: Path, chromium_browser: object
) -> None:
    """The server stopped under a French page: the accessibility tree holds our sentence (the
    style of ``tutor.ui.faults.connection_lost_css``), not Streamlit's « Connection error »."""
    french = translator("fr").gettext(
        "The connection to the server is lost, probably while it restarts. This page reconnects"
        " by itself in a moment; the answers you gave before are saved."
    )
    with app_server(tmp_path / "data") as url:
        page = new_page(chromium_browser, SIZES["phone"], locale="fr-FR")
        page.goto(f"{url}/quiz")  # type: ignore[attr-defined]
        page.locator(".st-key-quiz-stand button").wait_for()  # type: ignore[attr-defined]
    page.locator("[data-testid='stConnectionStatus']").wait_for()  # type: ignore[attr-defined]
    page.get_by_text("Connection error").wait_for(state="attached")  # type: ignore[attr-defined]
    tree = str(page.locator("body").aria_snapshot())  # type: ignore[attr-defined]
    TREES.mkdir(parents=True, exist_ok=True)
    (TREES / "tree-server-lost-phone.txt").write_text(tree, encoding="utf-8")
    assert "Connection error" not in tree
    assert french.split(",")[0] in tree, tree[-600:]
    heard = english_heard(tree)
    assert not heard, "\n".join(heard)
    page.context.close()  # type: ignore[attr-defined]
