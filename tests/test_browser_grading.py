"""A teacher grades homework (issue 43), in French, on a laptop and three phones: a lesson given
due tomorrow at 18:00 with the form's date and time; Inès does it on time; the due time passes,
then Jules does it, late; Léa joins again from a laptop, is told how to go on as herself (the
recovery code), joins as « Léa B » anyway and does it there; the teacher merges « Léa B » into
« Léa ». The follow-up shows marks out of 20 and « en retard »; the workbook read back has its
title row, date cells and marks.

The day between the due time and Jules's work is not waited for: the test moves the assignment's
due time into the past in the database, as the clock would."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
import sqlalchemy as sa

from serving import (
    LAPTOP,
    PHONE,
    app_server,
    button,
    choose_option,
    create_group,
    new_page,
    play_steps,
    screenshot,
    wait_idle,
)
from tests.conftest import builtin_course, spaced
from tests.marks import BROWSER

pytestmark = BROWSER

LESSON = builtin_course().lesson("hit-or-stand")
LESSON_TITLE = "Tirer ou rester"


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """A server of this test's own, so that the test can reach its database file."""
    data = tmp_path_factory.mktemp("grading-data")
    with app_server(data) as url:
        yield url, data / "tutor.sqlite3"


def _give_the_lesson(page: object, url: str) -> str:
    code = create_group(page, url, "2nde B")
    choose_option(page, page.locator(".st-key-group-give-lesson"), LESSON_TITLE)  # type: ignore[attr-defined]
    tomorrow = datetime.now(UTC).date() + timedelta(days=1)
    box = page.locator(".st-key-group-give-due")  # type: ignore[attr-defined]
    box.locator('[data-type="day"]').click()
    page.keyboard.type(tomorrow.strftime("%d%m%Y"))  # type: ignore[attr-defined]
    hour = page.locator(".st-key-group-give-due-time input")  # type: ignore[attr-defined]
    assert hour.input_value().startswith("18:00")  # the form's first time: the end of a school day
    page.keyboard.press("Escape")  # type: ignore[attr-defined]  # the calendar closed, the form seen
    screenshot(page, "grading-give-laptop")
    button(page, "Donner").click()  # type: ignore[attr-defined]
    wait_idle(page)
    return code


def _join(page: object, url: str, code: str, name: str) -> None:
    page.goto(f"{url}/homework?group={code}")  # type: ignore[attr-defined]
    page.get_by_role("heading", name="Mes devoirs").wait_for()  # type: ignore[attr-defined]
    page.get_by_label("Votre pseudo").fill(name)  # type: ignore[attr-defined]
    button(page, "Rejoindre").click()  # type: ignore[attr-defined]
    wait_idle(page)


def _do_the_lesson(page: object, url: str) -> None:
    page.goto(f"{url}/homework")  # type: ignore[attr-defined]
    page.get_by_text("À faire", exact=True).first.wait_for()  # type: ignore[attr-defined]
    page.locator('[class*="st-key-homework-"] button').filter(has_text="Ouvrir").click()  # type: ignore[attr-defined]
    wait_idle(page)
    play_steps(page, LESSON)
    button(page, "Terminer la leçon ✓").click()  # type: ignore[attr-defined]
    wait_idle(page)


def test_marks_out_of_20_late_work_and_one_student_on_two_devices(
    served: tuple[str, Path], chromium_browser: object, tmp_path: Path
) -> None:
    from openpyxl import load_workbook

    url, database = served
    teacher = new_page(chromium_browser, LAPTOP)
    code = _give_the_lesson(teacher, url)
    ines, jules, lea = (new_page(chromium_browser, PHONE) for _ in range(3))
    for page, name in ((ines, "Inès"), (jules, "Jules"), (lea, "Léa")):
        _join(page, url, code, name)
    todo = spaced(ines.locator('[data-testid="stMain"]').inner_text())  # type: ignore[attr-defined]
    assert "à 18:00" in todo
    _do_the_lesson(ines, url)

    # The due time passes (tomorrow 18:00 brought to now, Inès done before it), then Jules works.
    from tutor.store.groups import assignments

    engine = sa.create_engine(f"sqlite:///{database}")
    with engine.begin() as db:  # through the table's own column type, as the app writes it
        db.execute(assignments.update().values(due_at=datetime.now(UTC)))
    engine.dispose()
    jules.goto(f"{url}/homework")  # type: ignore[attr-defined]
    jules.get_by_text("en retard").first.wait_for()  # type: ignore[attr-defined]
    screenshot(jules, "grading-todo-late-phone")
    _do_the_lesson(jules, url)

    # Léa again, from a laptop: her name is taken, and the page says how to go on as herself.
    laptop = new_page(chromium_browser, LAPTOP)
    _join(laptop, url, code, "Léa")
    refusal = spaced(laptop.locator('[data-testid="stAlert"]').first.inner_text())  # type: ignore[attr-defined]
    assert "s’appelle déjà Léa" in refusal
    assert "code de reprise" in refusal
    _join(laptop, url, code, "Léa B")
    _do_the_lesson(laptop, url)

    button(teacher, "Actualiser").click()  # type: ignore[attr-defined]
    wait_idle(teacher)
    teacher.get_by_text("Un élève sous deux noms").click()  # type: ignore[attr-defined]
    choose_option(teacher, teacher.locator(".st-key-group-merge-keep"), "Léa")  # type: ignore[attr-defined]
    choose_option(teacher, teacher.locator(".st-key-group-merge-other"), "Léa B")  # type: ignore[attr-defined]
    button(teacher, "Fusionner").click()  # type: ignore[attr-defined]
    wait_idle(teacher)
    teacher.get_by_role("heading", name="Carnet de notes").scroll_into_view_if_needed()  # type: ignore[attr-defined]
    screenshot(teacher, "grading-follow-up-laptop")

    per_student = teacher.locator("table").filter(has_text="Retard").first  # type: ignore[attr-defined]
    header = [spaced(h) for h in per_student.locator("thead th").all_inner_texts()]
    rows = per_student.locator("tbody tr")
    shown = {}
    for i in range(rows.count()):
        cells = [spaced(c) for c in rows.nth(i).locator("th, td").all_inner_texts()]
        shown[cells[0]] = dict(zip(header, cells, strict=False))
    assert set(shown) == {"Inès", "Jules", "Léa"}  # « Léa B » is Léa now
    marks = {}
    for name in ("Inès", "Jules", "Léa"):
        row = shown[name]
        assert row["État"] == "fait", row
        # The mark is the right answers of the answers graded, out of 20, to a tenth.
        right, answered = int(row["Bonnes réponses"]), int(row["Réponses"])
        assert answered > 0
        marks[name] = round(20 * right / answered, 1)
        assert row["Note (sur 20)"] == f"{marks[name]:g}".replace(".", ","), row
    assert shown["Jules"]["Retard"] == "en retard"
    assert not shown["Inès"]["Retard"].strip()

    with teacher.expect_download() as download:  # type: ignore[attr-defined]
        button(teacher, "Tableur (.xlsx)").click()  # type: ignore[attr-defined]
    path = tmp_path / "devoirs.xlsx"
    download.value.save_as(path)
    sheet = load_workbook(path)["Par élève"]
    assert spaced(sheet["A1"].value).startswith(f"Devoirs de 2nde B · code {code}")
    names = [cell.value for cell in sheet[2]]
    read = {row[0].value: row for row in sheet.iter_rows(min_row=3)}
    assert set(read) == {"Inès", "Jules", "Léa"}
    due = read["Inès"][names.index("À rendre le")]
    assert due.is_date
    for name in read:
        mark = read[name][names.index("Note (sur 20)")]
        assert mark.data_type == "n"
        assert mark.value == marks[name]
    assert read["Jules"][names.index("Retard")].value == "en retard"
    for page in (ines, jules, lea, laptop, teacher):
        page.close()  # type: ignore[attr-defined]
