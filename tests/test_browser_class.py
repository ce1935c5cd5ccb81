"""Class mode in a real browser: a teacher (laptop, the projector's view) and a student (phone),
two browser contexts against one ``streamlit run``, through a full question.

The student reaches the page by the join address the QR code holds (``/join?code=…``); both
screens follow each other by polling, as they do in class. Screenshots go under
``artifacts/screenshots/`` for a person to look at.
"""

from __future__ import annotations

import re

from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect

from serving import LAPTOP, PHONE, create_typed_class, projected_code
from serving import button as _button
from serving import new_page as _page
from serving import screenshot as _shot
from serving import wait_idle as _wait_idle
from tests.marks import BROWSER
from tutor.classroom import PATTERN_LENGTH

pytestmark = BROWSER


def test_a_teacher_and_a_student_go_through_a_question(
    server: str, chromium_browser: object
) -> None:
    teacher = _page(chromium_browser, LAPTOP)
    teacher.goto(f"{server}/class")  # type: ignore[attr-defined]
    teacher.get_by_role("textbox", name="Titre").fill("Mardi, groupe B")  # type: ignore[attr-defined]
    teacher.get_by_role("radio", name="des mains que je tape").click()  # type: ignore[attr-defined]
    _wait_idle(teacher)
    hands = teacher.get_by_label(re.compile("^Mains, une par ligne"))  # type: ignore[attr-defined]
    hands.fill("10 6 / 10\n8 8 / 10")
    _shot(teacher, "class-teacher-create-laptop")
    _button(teacher, "Créer la classe").click()  # type: ignore[attr-defined]
    _wait_idle(teacher)
    teacher.get_by_text("Notez cette clé enseignant").wait_for()  # type: ignore[attr-defined]
    # The key has a screen of its own, never projected: no join code or QR code beside it.
    assert teacher.locator('div[aria-label="code"]').count() == 0  # type: ignore[attr-defined]
    _shot(teacher, "class-teacher-key-laptop")
    _button(teacher, "Je l’ai notée").click()  # type: ignore[attr-defined]
    _wait_idle(teacher)
    teacher.locator('div[aria-label="code"]').first.wait_for()  # type: ignore[attr-defined]
    code = teacher.locator('div[aria-label="code"]').first.inner_text().strip()  # type: ignore[attr-defined]
    assert re.fullmatch(r"[A-Z2-9]{6}", code)
    qr = teacher.locator('img[src^="data:image/svg+xml"][alt*="/join?code="]')  # type: ignore[attr-defined]
    qr.first.wait_for()  # its column may be drawn a moment after the code's
    assert qr.count() == 1
    assert teacher.get_by_text("Notez cette clé enseignant").count() == 0  # type: ignore[attr-defined]
    _shot(teacher, "class-teacher-lobby-laptop")

    student = _page(chromium_browser, PHONE)
    student.goto(f"{server}/join?code={code}")  # type: ignore[attr-defined]
    # The join address fills the code in (waited for: the form may be drawn before its value).
    expect(student.get_by_role("textbox", name="Code de la classe")).to_have_value(code)  # type: ignore[attr-defined]
    student.get_by_role("textbox", name="Votre pseudo").fill("Zoé <b>")  # type: ignore[attr-defined]
    _button(student, "Rejoindre").click()  # type: ignore[attr-defined]
    _wait_idle(student)
    student.get_by_text("Un pseudo a de 1 à 24 caractères").wait_for()  # type: ignore[attr-defined]
    _shot(student, "class-student-join-refused-phone")
    student.get_by_role("textbox", name="Votre pseudo").fill("Zoé O'Brien")  # type: ignore[attr-defined]
    _button(student, "Rejoindre").click()  # type: ignore[attr-defined]
    _wait_idle(student)
    student.get_by_text("Attendez que l’enseignant").wait_for()  # type: ignore[attr-defined]
    _shot(student, "class-student-waiting-phone")

    # The phone sleeps and reloads the page: the student is back in the same seat, unasked.
    student.reload()  # type: ignore[attr-defined]
    student.get_by_text("Bon retour, Zoé O'Brien").wait_for()  # type: ignore[attr-defined]
    student.get_by_text("Attendez que l’enseignant").wait_for()  # type: ignore[attr-defined]
    _shot(student, "class-student-rejoined-phone")

    # The teacher's lobby counts the student once, said to be reconnected.
    teacher.get_by_test_id("stMetricValue").filter(has_text="1").wait_for()  # type: ignore[attr-defined]
    teacher.get_by_text("Zoé O'Brien (reconnecté)").wait_for()  # type: ignore[attr-defined]
    _shot(teacher, "class-teacher-lobby-reconnected-laptop")
    _button(teacher, "Montrer la première main").click()  # type: ignore[attr-defined]
    _wait_idle(teacher)
    teacher.get_by_text("Question 1 sur 2").wait_for()  # type: ignore[attr-defined]
    _shot(teacher, "class-teacher-question-laptop")

    student.get_by_text("Question 1 sur 2").wait_for()  # type: ignore[attr-defined]
    assert _button(student, "Partager").count() == 0  # type: ignore[attr-defined]
    _shot(student, "class-student-question-phone")
    _button(student, "Tirer").click()  # type: ignore[attr-defined]
    _wait_idle(student)
    student.get_by_text("Votre réponse").wait_for()  # type: ignore[attr-defined]
    _shot(student, "class-student-answered-phone")
    student.reload()  # type: ignore[attr-defined]
    student.get_by_text("Votre réponse : Tirer").wait_for()  # type: ignore[attr-defined]
    assert _button(student, "Tirer").count() == 0, "the answer is kept, not asked again"  # type: ignore[attr-defined]

    teacher.get_by_test_id("stMetricValue").filter(has_text="1 / 1").wait_for()  # type: ignore[attr-defined]
    _button(teacher, "Révéler").click()  # type: ignore[attr-defined]
    _wait_idle(teacher)
    teacher.get_by_text("Meilleur coup : Tirer").wait_for()  # type: ignore[attr-defined]
    teacher.locator('[data-testid="stVegaLiteChart"]').first.wait_for()  # type: ignore[attr-defined]
    _shot(teacher, "class-teacher-reveal-laptop")

    student.get_by_text("Exact ! Tirer est le coup à jouer.").wait_for()  # type: ignore[attr-defined]
    # The reason the projector gives, on the phone too (issue 24).
    student.get_by_text("Le croupier montre").first.wait_for()  # type: ignore[attr-defined]
    _shot(student, "class-student-verdict-phone")

    _button(teacher, "Terminer maintenant").click()  # type: ignore[attr-defined]
    _wait_idle(teacher)
    teacher.get_by_text("Les mains les plus manquées par la classe").wait_for()  # type: ignore[attr-defined]
    teacher.locator('[data-testid="stTable"]').first.wait_for()  # type: ignore[attr-defined]
    teacher.locator("h1").first.scroll_into_view_if_needed()  # type: ignore[attr-defined]
    _shot(teacher, "class-teacher-results-laptop")
    student.get_by_text("La classe est terminée").wait_for()  # type: ignore[attr-defined]
    _shot(student, "class-student-finished-phone")
    teacher.context.close()  # type: ignore[attr-defined]
    student.context.close()  # type: ignore[attr-defined]


def test_a_class_finished_early_on_the_projector_layout(
    server: str, chromium_browser: object, tmp_path: object
) -> None:
    """Presentation mode on the teacher's laptop: the counter the class watches large (not
    shrunk by the mode's larger text), a timer; two students, the class finished after the
    first of three hands; the results about that hand only, and the spreadsheet downloaded and
    read back. Screenshots ``class-projector-laptop`` and ``class-results-partial-laptop``."""
    from io import BytesIO
    from pathlib import Path

    from openpyxl import load_workbook

    teacher = _page(chromium_browser, LAPTOP)
    teacher.goto(f"{server}/class")  # type: ignore[attr-defined]
    teacher.get_by_text("Mode présentation").click()  # type: ignore[attr-defined]
    _wait_idle(teacher)
    create_typed_class(teacher, "Jeudi, groupe A", "10 6 / 10\n8 8 / 10\nA 7 / 9")
    key = teacher.get_by_test_id("stCode").first.inner_text().strip()  # type: ignore[attr-defined]
    assert re.fullmatch(r"[0-9A-HJKMNP-TV-Z]{5}(-[0-9A-HJKMNP-TV-Z]{5}){2}", key)
    code = projected_code(teacher)

    students = []
    for name in ("Inès", "Hugo"):
        phone = _page(chromium_browser, PHONE)
        phone.goto(f"{server}/join?code={code}")  # type: ignore[attr-defined]
        expect(phone.get_by_role("textbox", name="Code de la classe")).to_have_value(code)  # type: ignore[attr-defined]
        phone.get_by_role("textbox", name="Votre pseudo").fill(name)  # type: ignore[attr-defined]
        _button(phone, "Rejoindre").click()  # type: ignore[attr-defined]
        phone.get_by_text("Attendez que l’enseignant").wait_for()  # type: ignore[attr-defined]
        students.append(phone)
    _button(teacher, "Montrer la première main").click()  # type: ignore[attr-defined]
    _wait_idle(teacher)
    for phone, play in zip(students, ("Tirer", "Rester"), strict=True):
        phone.get_by_text("Question 1 sur 3").wait_for()  # type: ignore[attr-defined]
        _button(phone, play).click()  # type: ignore[attr-defined]
        phone.get_by_text("Votre réponse").wait_for()  # type: ignore[attr-defined]
    counter = teacher.get_by_test_id("stMetricValue").filter(has_text="2 / 2")  # type: ignore[attr-defined]
    counter.wait_for()
    size = counter.evaluate("e => parseFloat(getComputedStyle(e.querySelector('p') || e).fontSize)")
    assert size >= 60, f"the projected counter is {size}px"
    teacher.get_by_role("timer", name="Temps sur cette main").wait_for()  # type: ignore[attr-defined]
    _shot(teacher, "class-projector-laptop")

    _button(teacher, "Révéler").click()  # type: ignore[attr-defined]
    _wait_idle(teacher)
    teacher.get_by_text("Meilleur coup : Tirer").wait_for()  # type: ignore[attr-defined]
    _button(teacher, "Terminer maintenant").click()  # type: ignore[attr-defined]
    _wait_idle(teacher)
    teacher.get_by_text("1 question posée sur 3").first.wait_for()  # type: ignore[attr-defined]
    teacher.get_by_text("Les mains les plus manquées par la classe").wait_for()  # type: ignore[attr-defined]
    # Per question, the mistake most made is named, with why the best play is best.
    teacher.get_by_role("columnheader", name="Erreur la plus fréquente").first.wait_for()  # type: ignore[attr-defined]
    teacher.get_by_role("cell", name="Rester").first.wait_for()  # type: ignore[attr-defined]
    assert teacher.get_by_role("row", name=re.compile("^Hugo")).count() == 1  # type: ignore[attr-defined]
    teacher.locator("h1").first.scroll_into_view_if_needed()  # type: ignore[attr-defined]
    _shot(teacher, "class-results-partial-laptop")
    with teacher.expect_download() as download:  # type: ignore[attr-defined]
        _button(teacher, "Télécharger les résultats (tableur)").click()  # type: ignore[attr-defined]
    saved = Path(str(tmp_path)) / "results.xlsx"
    download.value.save_as(saved)
    book = load_workbook(BytesIO(saved.read_bytes()))
    title, *rows = list(book["Par question"].iter_rows(values_only=True))
    assert str(title[0]).startswith("Classe")  # the class's title row above the headings
    assert len(rows) == 1 + 1  # the one hand shown, not the two never asked
    assert rows[1][3] == "Tirer"  # the best play
    assert rows[1][6] == "Rester"  # the mistake made, by Hugo
    people = {row[0]: row for row in book["Par élève"].iter_rows(min_row=3, values_only=True)}
    assert people["Inès"][3] == 1  # right answers, after « Réponses » and « Sans réponse »
    assert people["Hugo"][3] == 0
    for page in (teacher, *students):
        page.context.close()  # type: ignore[attr-defined]


def _join_as(chromium_browser: object, server: str, code: str, name: str) -> object:
    """A phone that opens the join address and types a nickname (seated or refused: the caller
    waits for what it expects)."""
    phone = _page(chromium_browser, PHONE)
    phone.goto(f"{server}/join?code={code}")  # type: ignore[attr-defined]
    expect(phone.get_by_role("textbox", name="Code de la classe")).to_have_value(code)  # type: ignore[attr-defined]
    phone.get_by_role("textbox", name="Votre pseudo").fill(name)  # type: ignore[attr-defined]
    _button(phone, "Rejoindre").click()  # type: ignore[attr-defined]
    _wait_idle(phone)
    return phone


def _pick(page: object, label: str, option: str) -> None:
    """Choose ``option`` in the multiselect ``label``: its list opened (again, if a poll of the
    page redrew it before the click landed), the option clicked, the list closed."""
    picker = page.get_by_role("combobox", name=re.compile(re.escape(label)))  # type: ignore[attr-defined]
    choice = page.get_by_role("option", name=option, exact=True)  # type: ignore[attr-defined]
    for _attempt in range(10):
        picker.click()
        try:
            choice.wait_for(timeout=3_000)
            choice.click(timeout=3_000)
            break
        except PlaywrightTimeout:
            page.keyboard.press("Escape")  # type: ignore[attr-defined]
    else:
        raise AssertionError(f"{option} never showed in {label}")
    _wait_idle(page)
    page.keyboard.press("Escape")  # type: ignore[attr-defined]


def test_the_teacher_locks_the_lobby_and_removes_two_students_with_one_click(
    server: str, chromium_browser: object
) -> None:
    """Issue 25: three phones join; the teacher locks the lobby and removes two of them with one
    click; a fourth phone, and a removed one under a new name, read the locked-class sentence;
    the phone still seated reloads and is back in its seat. Screenshots
    ``class-teacher-lobby-locked-laptop``, ``class-student-locked-phone`` and
    ``class-student-removed-locked-phone``."""
    teacher = _page(chromium_browser, LAPTOP)
    teacher.goto(f"{server}/class")  # type: ignore[attr-defined]
    create_typed_class(teacher, "Vendredi, groupe C", "10 6 / 10")
    code = projected_code(teacher)

    names = ("Ana", "Bot Un", "Bot Deux")
    phones = {name: _join_as(chromium_browser, server, code, name) for name in names}
    for phone in phones.values():
        phone.get_by_text("Attendez que l’enseignant").wait_for()  # type: ignore[attr-defined]
    # The joins arrive on the teacher's lobby by themselves.
    teacher.get_by_text("Ana · Bot Un · Bot Deux").wait_for()  # type: ignore[attr-defined]
    teacher.get_by_test_id("stMetricValue").filter(has_text="3").wait_for()  # type: ignore[attr-defined]

    teacher.get_by_text("Fermer la classe").click()  # type: ignore[attr-defined]
    _wait_idle(teacher)
    shut = "La classe est fermée : personne de nouveau ne peut la rejoindre."
    teacher.get_by_text(shut).wait_for()  # type: ignore[attr-defined]

    for name in ("Bot Un", "Bot Deux"):
        _pick(teacher, "Élèves à retirer", name)
    _button(teacher, "Retirer les élèves choisis").click()  # type: ignore[attr-defined]
    _wait_idle(teacher)
    teacher.get_by_text("2 élèves retirés").wait_for()  # type: ignore[attr-defined]
    teacher.get_by_test_id("stMetricValue").filter(has_text="1").wait_for()  # type: ignore[attr-defined]
    assert teacher.get_by_text("Bot Un").count() == 0  # type: ignore[attr-defined]
    _shot(teacher, "class-teacher-lobby-locked-laptop")

    locked = "La classe est fermée : demandez à votre professeur de l’ouvrir."
    late = _join_as(chromium_browser, server, code, "Zoé")
    late.get_by_text(locked).wait_for()  # type: ignore[attr-defined]
    assert late.get_by_text("Attendez que l’enseignant").count() == 0  # type: ignore[attr-defined]
    _shot(late, "class-student-locked-phone")

    # A removed phone is told at its next poll, then tries another name: refused as locked.
    removed = phones["Bot Un"]
    removed.get_by_role("textbox", name="Votre pseudo").wait_for()  # type: ignore[attr-defined]
    removed.get_by_role("textbox", name="Votre pseudo").fill("Gentil Élève")  # type: ignore[attr-defined]
    _button(removed, "Rejoindre").click()  # type: ignore[attr-defined]
    _wait_idle(removed)
    removed.get_by_text(locked).wait_for()  # type: ignore[attr-defined]
    _shot(removed, "class-student-removed-locked-phone")

    # The student still seated reloads: back in the same seat, unasked.
    ana = phones["Ana"]
    ana.reload()  # type: ignore[attr-defined]
    ana.get_by_text("Bon retour, Ana").wait_for()  # type: ignore[attr-defined]
    ana.get_by_text("Attendez que l’enseignant").wait_for()  # type: ignore[attr-defined]
    teacher.get_by_text("Ana (reconnecté)").wait_for()  # type: ignore[attr-defined]
    assert teacher.get_by_text("Gentil Élève").count() == 0  # type: ignore[attr-defined]
    teacher.get_by_test_id("stMetricValue").filter(has_text="1").wait_for()  # type: ignore[attr-defined]
    for page in (teacher, late, *phones.values()):
        page.context.close()  # type: ignore[attr-defined]


def test_a_phone_taps_the_projectors_symbols_and_gets_a_name_from_the_app(
    server: str, chromium_browser: object
) -> None:
    """The two options a teacher can turn on: the second join step (the symbols are read off
    the projector, tapped on the phone; wrong ones are refused) and names given by the app (the
    phone types none). Screenshots ``class-teacher-lobby-pattern-laptop``,
    ``class-student-pattern-phone`` and ``class-student-given-name-phone``."""
    teacher = _page(chromium_browser, LAPTOP)
    teacher.goto(f"{server}/class")  # type: ignore[attr-defined]
    options = ("Une seconde étape pour rejoindre", "Des noms donnés par l’application")
    create_typed_class(teacher, "Lundi, groupe D", "10 6 / 10", options=options)
    code = projected_code(teacher)
    shown = teacher.get_by_role("img", name=re.compile("^Symboles à toucher"))  # type: ignore[attr-defined]
    shown.first.wait_for()
    pattern = list(shown.first.inner_text().replace(" ", "").strip())
    assert len(pattern) == PATTERN_LENGTH
    # A screen reader hears the symbols by name, in French: « pique, cœur, étoile ».
    named = {"♠": "pique", "♥": "cœur", "♦": "carreau", "♣": "trèfle", "★": "étoile", "●": "rond"}
    spoken = str(shown.first.get_attribute("aria-label")).replace("\u00a0", " ")
    assert spoken == "Symboles à toucher : " + ", ".join(named[s] for s in pattern)
    _shot(teacher, "class-teacher-lobby-pattern-laptop")

    def tap(phone: object, symbols: list[str]) -> None:
        for index, symbol in enumerate(symbols):
            row = phone.locator(f".st-key-class-join-symbol-{index}")  # type: ignore[attr-defined]
            row.get_by_role("radio", name=symbol, exact=True).click()
        _button(phone, "Rejoindre").click()  # type: ignore[attr-defined]
        _wait_idle(phone)

    phone = _page(chromium_browser, PHONE)
    phone.goto(f"{server}/join?code={code}")  # type: ignore[attr-defined]
    phone.get_by_text("l’application vous donne un nom").wait_for()  # type: ignore[attr-defined]
    assert phone.get_by_role("textbox", name="Votre pseudo").count() == 0  # type: ignore[attr-defined]
    phone.get_by_text("Puis touchez les symboles affichés au tableau").wait_for()  # type: ignore[attr-defined]
    wrong = ["★" if symbol != "★" else "●" for symbol in pattern]
    tap(phone, wrong)
    phone.get_by_text("Ce ne sont pas les symboles affichés au tableau").wait_for()  # type: ignore[attr-defined]
    _shot(phone, "class-student-pattern-phone")
    tap(phone, pattern)
    phone.get_by_text("Attendez que l’enseignant").wait_for()  # type: ignore[attr-defined]
    given = phone.get_by_text(re.compile("^Vous êtes ")).first.inner_text()  # type: ignore[attr-defined]
    name = given.removeprefix("Vous êtes ").strip()
    assert len(name.split()) == 2, given
    _shot(phone, "class-student-given-name-phone")
    teacher.get_by_text(name).first.wait_for()  # type: ignore[attr-defined]
    for page in (teacher, phone):
        page.context.close()  # type: ignore[attr-defined]
