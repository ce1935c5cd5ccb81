"""Homework in a real browser (issue 28's Must show): a teacher makes a group and gives it lesson
9 and a 10-hand pairs drill due in three days; three students join from their own browsers; one
does everything, one half, one nothing; the teacher's page shows exactly that, and the
spreadsheet, read back with openpyxl, agrees. Screenshots of the student's « À faire » and the
teacher's follow-up are saved for a person to look at."""

from __future__ import annotations

from datetime import date, timedelta
from pathlib import Path

from serving import (
    LAPTOP,
    PHONE,
    button,
    choose_option,
    create_group,
    create_typed_class,
    new_page,
    play_steps,
    projected_code,
    screenshot,
    wait_idle,
)
from tests.conftest import builtin_course, spaced
from tests.marks import BROWSER
from tutor.render.translator import translator

pytestmark = BROWSER

LESSON = builtin_course().lesson("splitting")
HANDS = 10
LESSON_TITLE = "Séparer une paire"
DUE = date.today() + timedelta(days=3)
#: The due date as the French pages write it (``5 décembre 2026``, in words).
DUE_TEXT = translator("fr").date(DUE)


def _teacher_gives_the_work(page: object, url: str) -> str:
    code = create_group(page, url, "2nde B")
    for kind in ("lesson", "drill"):
        if kind == "drill":
            page.get_by_text("Un entraînement", exact=True).click()  # type: ignore[attr-defined]
            wait_idle(page)  # the form is drawn again with a drill's fields
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
    return code


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
    todo = spaced(chloe.locator('[data-testid="stMain"]').inner_text())  # type: ignore[attr-defined]
    steps = len(LESSON.steps)
    # Due at the form's first time, 18:00 where the teacher's browser is (this one's zone too).
    assert (f"Leçon : {LESSON_TITLE} · 0 sur {steps} · à rendre le {spaced(DUE_TEXT)} à 18:00"
            in todo)
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
    # The per-student table: the one with a status column (the mistakes by kind follow it).
    per_student = teacher.locator("table").filter(has_text="État").first  # type: ignore[attr-defined]
    rows = per_student.locator("tbody tr")
    shown = {tuple(spaced(cell) for cell in rows.nth(i).locator("th, td").all_inner_texts()[:7])
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
    assert spaced(sheet["A1"].value).startswith("Devoirs de 2nde B · code ")  # its title row
    header = [cell.value for cell in sheet[2]]
    assert header[:6] == ["Élève", "Travail", "À rendre le", "État", "Fait", "Sur"]
    read = {(row[0], spaced(row[1]) == lesson_title): (row[3], str(row[4]), str(row[5]))
            for row in sheet.iter_rows(min_row=3, values_only=True)}
    for (name, kind), values in expected_status.items():
        assert read[(name, kind == "lesson")] == values, (name, kind, read)


def _seat(page: object, url: str, code: str, name: str) -> None:
    """A group's student joins the live class from the same browser (its cookie is the member's)."""
    page.goto(f"{url}/join?code={code}")  # type: ignore[attr-defined]
    page.get_by_role("textbox", name="Votre pseudo").fill(name)  # type: ignore[attr-defined]
    button(page, "Rejoindre").click()  # type: ignore[attr-defined]
    wait_idle(page)
    page.get_by_text("Attendez que l’enseignant").wait_for()  # type: ignore[attr-defined]


def _ask(teacher: object, phones: dict[object, str], number: int, last: bool) -> None:
    """Hand ``number`` on the projector: every phone answers its play, the teacher reveals, then
    moves on (or finishes after the last)."""
    teacher.get_by_text(f"Question {number} sur 2").wait_for()  # type: ignore[attr-defined]
    for phone, play in phones.items():
        asked = "Dernière question (2 sur 2)" if number == 2 else f"Question {number} sur 2"
        phone.get_by_text(asked).wait_for()  # type: ignore[attr-defined]
        button(phone, play).click()  # type: ignore[attr-defined]
        wait_idle(phone)
        phone.get_by_text("Votre réponse").wait_for()  # type: ignore[attr-defined]
    teacher.get_by_test_id("stMetricValue").filter(has_text="2 / 2").wait_for()  # type: ignore[attr-defined]
    button(teacher, "Révéler").click()  # type: ignore[attr-defined]
    wait_idle(teacher)
    button(teacher, "Terminer et voir les résultats" if last else "Main suivante").click()  # type: ignore[attr-defined]
    wait_idle(teacher)


def test_a_live_class_run_for_the_group_joins_its_follow_up(
    server: str, chromium_browser: object
) -> None:
    """The teacher runs a class for the group from its page; two members answer from their
    phones (one under another nickname in class); the group's page shows that class's results
    for each member under the group's name, with the judge's figures."""
    from tutor.classroom import parse_hands
    from tutor.classroom.questions import judged
    from tutor.decision import Action
    from tutor.visit import AppState

    rules = AppState().rules  # the table in Settings, which the class plays at
    eleven, seventeen = parse_hands("5 6 / 6\n10 7 / 10", rules)
    assert judged(rules, eleven).play is Action.DOUBLE
    assert judged(rules, seventeen).play is Action.STAND
    ben_loss = judged(rules, eleven, Action.STAND).loss

    teacher = new_page(chromium_browser, LAPTOP)
    group = create_group(teacher, server, "1re C")
    ana = _student(chromium_browser, server, group, "Ana")
    ben = _student(chromium_browser, server, group, "Ben")

    button(teacher, "Lancer une classe pour ce groupe").click()  # type: ignore[attr-defined]
    wait_idle(teacher)
    teacher.get_by_role("heading", name="Classe — enseignant").wait_for()  # type: ignore[attr-defined]
    chosen = teacher.locator(".st-key-class-group input").first  # type: ignore[attr-defined]
    assert chosen.get_attribute("value") == "1re C"
    screenshot(teacher, "homework-class-for-group-laptop")
    create_typed_class(teacher, "Cours du jeudi", "5 6 / 6\n10 7 / 10")
    code = projected_code(teacher)
    _seat(ana, server, code, "Ana")
    _seat(ben, server, code, "Benji")  # another name in class: still Ben in the group
    button(teacher, "Montrer la première main").click()  # type: ignore[attr-defined]
    wait_idle(teacher)
    _ask(teacher, {ana: "Doubler", ben: "Rester"}, 1, last=False)
    _ask(teacher, {ana: "Rester", ben: "Rester"}, 2, last=True)
    teacher.get_by_text("Les mains les plus manquées par la classe").wait_for()  # type: ignore[attr-defined]

    teacher.goto(f"{server}/groups")  # type: ignore[attr-defined]
    teacher.get_by_role("heading", name="Devoirs — enseignant").wait_for()  # type: ignore[attr-defined]
    teacher.get_by_role("tab", name="Mes groupes").click()  # type: ignore[attr-defined]
    button(teacher, "1re C").click()  # type: ignore[attr-defined]
    wait_idle(teacher)
    heading = teacher.get_by_role("heading", name="Classes en direct")  # type: ignore[attr-defined]
    heading.wait_for()
    heading.scroll_into_view_if_needed()
    screenshot(teacher, "homework-follow-up-live-class-laptop")
    page_text = spaced(teacher.locator('[data-testid="stMain"]').inner_text())  # type: ignore[attr-defined]
    assert "Classe : Cours du jeudi" in page_text
    assert "2 élèves du groupe présents" in page_text
    tables = teacher.locator('[data-testid="stTable"]')  # type: ignore[attr-defined]
    live = tables.filter(has_text="Mains montrées").first
    rows = {
        cells[1]: cells[2:]
        for cells in (
            [spaced(c) for c in live.locator("tbody tr").nth(i).locator("th, td").all_inner_texts()]
            for i in range(live.locator("tbody tr").count())
        )
    }
    cost = translator("fr").number(ben_loss, digits=2)
    # Present, answered, hands shown, right, bets given away, mistakes by kind.
    nothing = translator("fr").number(0.0, digits=2)
    assert rows["Ana"][:5] == ["présent", "2", "2", "2", spaced(nothing)], rows
    assert rows["Ben"][:5] == ["présent", "2", "2", "1", spaced(cost)], rows
    assert rows["Ben"][5] == "Doubler : 1", rows
    assert "Benji" not in rows
    kinds = tables.filter(has_text="Erreurs en classe").first
    kinds.scroll_into_view_if_needed()
    screenshot(teacher, "homework-follow-up-kinds-laptop")
    first = kinds.locator("tbody tr").first.locator("th, td")
    kind_rows = [spaced(cell) for cell in first.all_inner_texts()]
    assert kind_rows == ["Ben", "Doubler", "0", "1", spaced(cost)], kind_rows
    for page in (teacher, ana, ben):
        page.context.close()  # type: ignore[attr-defined]
