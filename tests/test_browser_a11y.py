"""Accessibility checked in a real browser (issue 17): axe-core, the maintained checker, run by
Playwright in Debian's chromium on every page, in French and English, on a laptop (1366×768) and a
phone (390×844). No page may have a violation of any impact (the serious colour contrasts went
first, then the moderate heading order: sections are h2 under the page's h1).

One crawl per language and size (one browser session, moving between pages through the sidebar as
a learner does, so the chosen language holds); each page is its own test, reading that crawl's
results, so a failure names the page, the rule and the elements. Every crawl also writes what it
found, by impact, to ``artifacts/a11y/<language>-<size>.json`` (the figures of the issue's note),
and the French crawls save a full-page screenshot of each page under ``artifacts/screenshots/``.

axe-core comes from the npm registry (``tests/package.json``, installed by ``.ci/run`` with
``npm ci --prefix tests``); without it these tests are skipped and say so.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest

from serving import LAPTOP, PHONE, ROOT, keyed_button, new_page, wait_idle
from serving import screenshot as take_screenshot
from tests.marks import BROWSER
from tutor.render.translator import translator

AXE = ROOT / "tests" / "node_modules" / "axe-core" / "axe.min.js"
REPORTS = ROOT / "artifacts" / "a11y"
#: What a page may not have at all: any violation axe reports.
BLOCKING = ("critical", "serious", "moderate", "minor")
IMPACTS = ("critical", "serious", "moderate", "minor")

pytestmark = [
    *BROWSER,
    pytest.mark.skipif(
        not AXE.exists(), reason="axe-core is not installed: npm ci --prefix tests (see .ci/run)"
    ),
]

SIZES = {"laptop": LAPTOP, "phone": PHONE}
LANGUAGES = ("fr", "en")

#: axe.run() in the page: each violation with its impact and, per element, where it is, a piece
#: of its HTML and what to fix.
RUN_AXE = """async () => {
  const result = await axe.run(document, {resultTypes: ["violations"]});
  return result.violations.map((v) => ({
    id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.map((n) => ({
      target: n.target.join(" ").slice(-90), html: n.html.slice(0, 160), fix: n.failureSummary,
    })),
  }));
}"""


@dataclass
class Audit:
    """What axe found on one page, or why the page could not be reached."""

    violations: list[dict[str, Any]] = field(default_factory=list)
    error: str | None = None

    def count(self, impact: str) -> int:
        return sum(len(v["nodes"]) for v in self.violations if v["impact"] == impact)

    def blocking(self) -> list[str]:
        return [
            f"{v['impact']} {v['id']} ({v['help']}): {node['target']} {node['html']!r}"
            f" — {node['fix']}"
            for v in self.violations
            if v["impact"] in BLOCKING
            for node in v["nodes"]
        ]


# -- moving around the app as a learner does -------------------------------------------------


def _sidebar_open(page: Any) -> None:
    """On a phone the sidebar starts folded away: open it."""
    nav = page.locator('[data-testid="stSidebarNav"]')
    if not nav.is_visible():
        page.locator('[data-testid="stExpandSidebarButton"]').click()
        nav.wait_for(state="visible")


def _sidebar_close(page: Any) -> None:
    """On a phone the open sidebar covers the page: fold it away again."""
    if page.viewport_size["width"] >= 640:
        return
    nav = page.locator('[data-testid="stSidebarNav"]')
    if nav.is_visible():
        page.locator('[data-testid="stSidebarCollapseButton"] button').click()
        nav.wait_for(state="hidden")


def _go(page: Any, title: str) -> None:
    """Open a page by its sidebar entry (the session, and its language, go on)."""
    _sidebar_open(page)
    page.locator('[data-testid="stSidebarNav"] a', has_text=title).first.click()
    wait_idle(page)
    _sidebar_close(page)


def _english(page: Any) -> None:
    _sidebar_open(page)
    page.locator('[data-testid="stSidebar"] button', has_text="English").click()
    wait_idle(page)
    page.get_by_role("heading", name="Lessons").first.wait_for()
    _sidebar_close(page)


# -- the pages, each reached from the one before --------------------------------------------

Step = Callable[[Any, str], None]


def _lessons(page: Any, language: str) -> None:
    _go(page, translator(language).gettext("Lessons"))
    page.locator('[class*="st-key-open-"] button').first.wait_for()


def _inside_a_lesson(page: Any, language: str) -> None:
    keyed_button(page, "open-card-values").click()
    keyed_button(page, "lesson-next").wait_for()
    wait_idle(page)


def _practice(page: Any, language: str) -> None:
    t = translator(language)
    _go(page, t.gettext("Practice table"))
    page.get_by_role("button", name=t.gettext("Sit down and deal")).click()
    wait_idle(page)
    keyed_button(page, "leave").wait_for()


def _quiz(page: Any, language: str) -> None:
    _go(page, translator(language).gettext("Quiz"))
    keyed_button(page, "quiz-stand").wait_for()


def _quiz_answered(page: Any, language: str) -> None:
    keyed_button(page, "quiz-stand").click()
    keyed_button(page, "quiz-next").wait_for()
    wait_idle(page)


def _strategy(page: Any, language: str) -> None:
    _go(page, translator(language).gettext("Strategy"))
    page.locator("table:visible").first.wait_for()


def _simulation(page: Any, language: str) -> None:
    _go(page, translator(language).gettext("Simulation"))


def _settings(page: Any, language: str) -> None:
    _go(page, translator(language).gettext("Settings"))


def _my_lessons(page: Any, language: str) -> None:
    _go(page, translator(language).gettext("My lessons"))
    keyed_button(page, "author-new").wait_for()


def _my_lesson_editor(page: Any, language: str) -> None:
    """A new lesson from the template, its key noted, two mistakes saved: the editor with the
    checker's problems under it."""
    keyed_button(page, "author-new").click()
    wait_idle(page)
    keyed_button(page, "author-key-noted").click()
    wait_idle(page)
    editor = page.locator("[class*='st-key-author-editor'] textarea")
    editor.fill(str(editor.input_value()).replace('"10♠ 7♥"', '"10♠ 1X"'))
    editor.blur()
    wait_idle(page)
    keyed_button(page, "author-save").click()
    wait_idle(page)
    page.locator("[class*='st-key-author-problem-']").first.wait_for()


def _class_teacher(page: Any, language: str) -> None:
    _go(page, translator(language).gettext("Class — teacher"))
    keyed_button(page, "class-create").wait_for()


def _class_student(page: Any, language: str) -> None:
    _go(page, translator(language).gettext("Join a class"))
    keyed_button(page, "class-join-submit").wait_for()


#: Every page, in crawl order (a page may need the one before: a lesson opens from the list).
PAGES: dict[str, Step] = {
    "lessons": _lessons,
    "lesson": _inside_a_lesson,
    "practice": _practice,
    "quiz": _quiz,
    "quiz-answered": _quiz_answered,
    "strategy": _strategy,
    "simulation": _simulation,
    "settings": _settings,
    "my-lessons": _my_lessons,
    "my-lesson-editor": _my_lesson_editor,
    "class-teacher": _class_teacher,
    "class-student": _class_student,
}


def _audit(page: Any) -> Audit:
    wait_idle(page)
    # Streamlit fades the elements of a page while its script runs again (data-stale): audit the
    # page as it settles, not a faded moment of it.
    page.wait_for_function("!document.querySelector('[data-stale=\"true\"]')")
    page.wait_for_timeout(600)  # charts and fonts settle
    page.evaluate(AXE.read_text(encoding="utf-8"))
    return Audit(violations=page.evaluate(RUN_AXE))


def crawl(browser: Any, server: str, language: str, size: str) -> dict[str, Audit]:
    """Every page audited in one session of ``language`` at ``size``; a report file written."""
    page = new_page(browser, SIZES[size], locale="fr-FR" if language == "fr" else "en-GB")
    page.goto(server)
    page.locator('[class*="st-key-open-"] button').first.wait_for()
    wait_idle(page)
    if language == "en":
        _english(page)
    audits: dict[str, Audit] = {}
    for name, step in PAGES.items():
        try:
            step(page, language)
        except Exception as error:  # reported on that page's test, the crawl goes on
            audits[name] = Audit(error=f"{type(error).__name__}: {error}")
            continue
        audits[name] = _audit(page)
        if language == "fr":
            take_screenshot(page, f"a11y-{name}-{size}")
    page.context.close()
    REPORTS.mkdir(parents=True, exist_ok=True)
    report = {
        name: {
            "error": audit.error,
            "by_impact": {impact: audit.count(impact) for impact in IMPACTS},
            "violations": audit.violations,
        }
        for name, audit in audits.items()
    }
    (REPORTS / f"{language}-{size}.json").write_text(
        json.dumps(report, indent=1, ensure_ascii=False), encoding="utf-8"
    )
    return audits


@pytest.fixture(scope="module")
def audits(server: str, chromium_browser: object) -> Callable[[str, str], dict[str, Audit]]:
    """Each language and size crawled once, when a test first asks for it."""
    done: dict[tuple[str, str], dict[str, Audit]] = {}

    def get(language: str, size: str) -> dict[str, Audit]:
        if (language, size) not in done:
            done[language, size] = crawl(chromium_browser, server, language, size)
        return done[language, size]

    return get


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("name", list(PAGES))
def test_no_serious_or_critical_accessibility_violation(
    audits: Callable[[str, str], dict[str, Audit]], name: str, language: str, size: str
) -> None:
    audit = audits(language, size)[name]
    assert audit.error is None, f"the {name} page could not be reached: {audit.error}"
    problems = audit.blocking()
    assert not problems, f"{name} ({language}, {size}):\n" + "\n".join(problems)


def test_the_reports_count_every_page_language_and_size(
    audits: Callable[[str, str], dict[str, Audit]],
) -> None:
    for language in LANGUAGES:
        for size in SIZES:
            audits(language, size)
            report = json.loads((REPORTS / f"{language}-{size}.json").read_text("utf-8"))
            assert sorted(report) == sorted(PAGES)
