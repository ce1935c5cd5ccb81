"""Homework in a real browser (issue 28's Must show): a teacher makes a group and gives it lesson
9 and a 10-hand pairs drill due in three days; three students join from their own browsers; one
does everything, one half, one nothing; the teacher's page shows exactly that, and the
spreadsheet, read back with openpyxl, agrees. Screenshots of the student's « À faire » and the
teacher's follow-up are saved for a person to look at."""

from __future__ import annotations

import re
from datetime import date, timedelta
from pathlib import Path

from serving import (
    LAPTOP,
    PHONE,
    button,
    choose_option,
    new_page,
    play_steps,
    screenshot,
    wait_idle,
)
from tests.conftest import builtin_course
from tests.marks import BROWSER
from tutor.render.translator import translator

pytestmark = BROWSER

LESSON = builtin_course().lesson("splitting")
HANDS = 10
LESSON_TITLE = "Séparer une paire"
DUE = date.today() + timedelta(days=3)
#: The due date as the French pages write it (``5 déc. 2026``).
DUE_TEXT = translator("fr").date(DUE)


def _plain(text: object) -> str:
    """Text with French typography's non-breaking spaces read as spaces."""
    return str(text).replace("\u00a0", " ").replace("\u202f", " ")


def _teacher_gives_the_work(page: object, url: str) -> str:
    page.goto(f"{url}/groups")  # type: ignore[attr-defined]
    page.get_by_role("heading", name="Devoirs — enseignant").wait_for()  # type: ignore[attr-defined]
    page.get_by_label("Nom du groupe").fill("2nde B")  # type: ignore[attr-defined]
    button(page, "Créer le groupe").click()  # type: ignore[attr-defined]
    wait_idle(page)
    text = page.locator('[data-testid="stMarkdown"]').filter(  # type: ignore[attr-defined]
        has_text="Les élèves rejoignent"
    ).inner_text()
    code = re.search(r"code ([A-Z0-9]{6})", text)
    assert code is not None, text
    for kind in ("lesson", "drill"):
        if kind == "drill":
            page.get_by_text("Un entraînement", exact=True).click()  # type: ignore[attr-defined]
            choose_option(page, page.locator(".st-key-group-give-category"), "Paires")  # type: ignore[attr-defined]
        else:
            choose_option(page, page.locator(".st-key-group-give-lesson"),  # type: ignore[attr-defined]
                          LESSON_TITLE)
        # The date field's day, month and year are spin buttons: typed in order, each moves on
        # to the next.
        box = page.locator(".st-key-group-give-due")  # type: ignore[attr-defined]
        box.locator('[data-type="day"]').click()
        page.keyboard.type(DUE.strftime("%d%m%Y"))  # type: ignore[attr-defined]
        assert box.locator("input").get_attribute("value") == DUE.isoformat()
        button(page, "Donner").click()  # type: ignore[attr-defined]
        wait_idle(page)
    return code.group(1)


def _student(browser: object, url: str, code: str, name: str) -> object:
    page = new_page(browser, PHONE)
    page.goto(f"{url}/homework?group={code}")  # type: ignore[attr-defined]
    page.get_by_role("heading", name="Mes devoirs").wait_for()  # type: ignore[attr-defined]
    page.get_by_label("Votre pseudo").fill(name)  # type: ignore[attr-defined]
    button(page, "Rejoindre").click()  # type: ignore[attr-defined]
    wait_idle(page)
    page.get_by_text("À faire", exact=True).first.wait_for()  # type: ignore[attr-defined]
    return page


def _lesson(page: object, steps: int | None) -> None:
    page.locator('[class*="st-key-homework-"] button').filter(has_text="Ouvrir").click()  # type: ignore[attr-defined]
    wait_idle(page)
    play_steps(page, LESSON, steps)
    if steps is None:
        button(page, "Terminer la leçon ✓").click()  # type: ignore[attr-defined]
        wait_idle(page)


def _drill(page: object, url: str, hands: int) -> None:
    page.goto(f"{url}/homework")  # type: ignore[attr-defined]
    button(page, "Commencer").click()  # type: ignore[attr-defined]
    wait_idle(page)
    onward = page.locator(".st-key-homework-next button")  # type: ignore[attr-defined]
    for hand in range(hands):
        answers = page.locator(  # type: ignore[attr-defined]
            '[class*="st-key-homework-"]:not(.st-key-homework-next) button:enabled'
        )
        answers.first.click()
        onward.wait_for()  # the verdict, with « Question suivante » (or « Retour »)
        if hand < hands - 1 or hands == HANDS:
            onward.click()
            # The next question replaces the button: wait for it to go, so that the next turn
            # never answers the question just answered.
            onward.wait_for(state="detached")
            wait_idle(page)


def test_a_group_of_three_all_half_nothing(server: str, chromium_browser: object,
                                           tmp_path: Path) -> None:
    from openpyxl import load_workbook

    teacher = new_page(chromium_browser, LAPTOP)
    code = _teacher_gives_the_work(teacher, server)
    ana = _student(chromium_browser, server, code, "Ana")
    ben = _student(chromium_browser, server, code, "Ben")
    chloe = _student(chromium_browser, server, code, "Chloé")
    screenshot(chloe, "homework-todo-phone")
    todo = _plain(chloe.locator('[data-testid="stMain"]').inner_text())  # type: ignore[attr-defined]
    steps = len(LESSON.steps)
    assert f"Leçon : {LESSON_TITLE} · 0 sur {steps} · à rendre le {_plain(DUE_TEXT)}" in todo
    assert f"Entraînement : Paires, {HANDS} mains · 0 sur {HANDS} · à rendre le" in todo
    half = len(LESSON.steps) // 2
    _lesson(ana, None)
    _drill(ana, server, HANDS)
    _lesson(ben, half)
    _drill(ben, server, HANDS // 2)

    button(teacher, "Actualiser").click()  # type: ignore[attr-defined]
    wait_idle(teacher)
    screenshot(teacher, "homework-follow-up-laptop")
    for heading, shot in (("Mains les plus manquées", "missed"), ("Par élève", "students")):
        teacher.get_by_role("heading", name=heading).scroll_into_view_if_needed()  # type: ignore[attr-defined]
        screenshot(teacher, f"homework-follow-up-{shot}-laptop")
    rows = teacher.locator("table").last.locator("tbody tr")  # type: ignore[attr-defined]
    shown = {tuple(_plain(cell) for cell in rows.nth(i).locator("th, td").all_inner_texts()[:7])
             for i in range(rows.count())}
    total = str(len(LESSON.steps))
    lesson_title = f"Leçon : {LESSON_TITLE}"
    expected_status = {
        ("Ana", "lesson"): ("fait", total, total),
        ("Ana", "drill"): ("fait", str(HANDS), str(HANDS)),
        ("Ben", "lesson"): ("commencé", str(half), total),
        ("Ben", "drill"): ("commencé", str(HANDS // 2), str(HANDS)),
        ("Chloé", "lesson"): ("pas commencé", "0", total),
        ("Chloé", "drill"): ("pas commencé", "0", str(HANDS)),
    }
    for (name, kind), (status, done, out_of) in expected_status.items():
        matching = [row for row in shown if row[0] == name
                    and (row[1] == lesson_title) == (kind == "lesson")]
        assert len(matching) == 1, (name, kind, shown)
        assert matching[0][3:6] == (status, done, out_of), (name, kind, matching[0])

    with teacher.expect_download() as download:  # type: ignore[attr-defined]
        button(teacher, "Tableur (.xlsx)").click()  # type: ignore[attr-defined]
    path = tmp_path / "devoirs.xlsx"
    download.value.save_as(path)
    sheet = load_workbook(path).worksheets[0]
    header = [cell.value for cell in sheet[1]]
    assert header[:6] == ["Élève", "Travail", "À rendre le", "État", "Fait", "Sur"]
    read = {(row[0], _plain(row[1]) == lesson_title): (row[3], str(row[4]), str(row[5]))
            for row in sheet.iter_rows(min_row=2, values_only=True)}
    for (name, kind), values in expected_status.items():
        assert read[(name, kind == "lesson")] == values, (name, kind, read)
