"""Class mode in a real browser: a teacher (laptop, the projector's view) and a student (phone),
two browser contexts against one ``streamlit run``, through a full question.

The student reaches the page by the join address the QR code holds (``/join?code=…``); both
screens follow each other by polling, as they do in class. Screenshots go under
``artifacts/screenshots/`` for a person to look at.
"""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = Path("/usr/bin/chromium")
SHOTS = ROOT / "artifacts" / "screenshots"
LAPTOP = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}
LAUNCH_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(
        not CHROMIUM.exists(),
        reason="Debian's chromium is not installed (/usr/bin/chromium): apt-get install chromium",
    ),
]

playwright_sync = pytest.importorskip("playwright.sync_api")


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``streamlit run app.py`` on a free port with a database of its own, for the module."""
    port = _free_port()
    env = dict(os.environ)
    env["TUTOR_DATA_DIR"] = str(tmp_path_factory.mktemp("class-data"))
    env.pop("TUTOR_DATABASE_URL", None)
    env.pop("TUTOR_PUBLIC_URL", None)
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "streamlit",
            "run",
            "app.py",
            "--server.headless",
            "true",
            "--server.port",
            str(port),
            "--server.address",
            "127.0.0.1",
            "--browser.gatherUsageStats",
            "false",
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(f"{url}/_stcore/health", timeout=1) as answer:
                    if answer.read() == b"ok":
                        break
            except OSError:
                time.sleep(0.2)
        else:
            raise RuntimeError("streamlit did not answer within 60 s")
        yield url
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=10)


@pytest.fixture(scope="module")
def chromium_browser() -> Iterator[object]:
    with playwright_sync.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=LAUNCH_ARGS)
        yield chromium
        chromium.close()


def _page(browser: object, size: dict[str, int]) -> object:
    context = browser.new_context(viewport=size, locale="fr-FR")  # type: ignore[attr-defined]
    page = context.new_page()
    page.set_default_timeout(60_000)
    return page


def _shot(page: object, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.mouse.move(0, 0)  # type: ignore[attr-defined]  # no hover toolbar over a chart
    page.wait_for_timeout(500)  # type: ignore[attr-defined]
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)  # type: ignore[attr-defined]


def _button(page: object, name: str) -> object:
    # A button with a keyboard shortcut also reads its key: match the start of the name.
    pattern = re.compile("^" + re.escape(name))
    return page.get_by_role("button", name=pattern)  # type: ignore[attr-defined]


def _wait_idle(page: object) -> None:
    page.wait_for_timeout(300)  # type: ignore[attr-defined]
    page.wait_for_selector(  # type: ignore[attr-defined]
        '[data-testid="stStatusWidget"]', state="detached", timeout=60_000
    )


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
    code = teacher.locator('div[aria-label="code"]').first.inner_text().strip()  # type: ignore[attr-defined]
    assert re.fullmatch(r"[A-Z2-9]{6}", code)
    assert teacher.locator('img[src^="data:image/svg+xml"][alt*="/join?code="]').count() == 1  # type: ignore[attr-defined]
    _shot(teacher, "class-teacher-lobby-laptop")
    _button(teacher, "Je l'ai notée").click()  # type: ignore[attr-defined]
    _wait_idle(teacher)

    student = _page(chromium_browser, PHONE)
    student.goto(f"{server}/join?code={code}")  # type: ignore[attr-defined]
    assert student.get_by_role("textbox", name="Code de la classe").input_value() == code  # type: ignore[attr-defined]
    student.get_by_role("textbox", name="Votre pseudo").fill("Zoé <b>")  # type: ignore[attr-defined]
    _button(student, "Rejoindre").click()  # type: ignore[attr-defined]
    _wait_idle(student)
    student.get_by_text("Un pseudo a de 1 à 24 caractères").wait_for()  # type: ignore[attr-defined]
    _shot(student, "class-student-join-refused-phone")
    student.get_by_role("textbox", name="Votre pseudo").fill("Zoé O'Brien")  # type: ignore[attr-defined]
    _button(student, "Rejoindre").click()  # type: ignore[attr-defined]
    _wait_idle(student)
    student.get_by_text("Attendez que l'enseignant").wait_for()  # type: ignore[attr-defined]
    _shot(student, "class-student-waiting-phone")

    # The teacher's lobby counts the student within a poll or two.
    teacher.get_by_test_id("stMetricValue").filter(has_text="1").wait_for()  # type: ignore[attr-defined]
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

    teacher.get_by_test_id("stMetricValue").filter(has_text="1 / 1").wait_for()  # type: ignore[attr-defined]
    _button(teacher, "Révéler").click()  # type: ignore[attr-defined]
    _wait_idle(teacher)
    teacher.get_by_text("Meilleur coup : Tirer").wait_for()  # type: ignore[attr-defined]
    teacher.locator('[data-testid="stVegaLiteChart"]').first.wait_for()  # type: ignore[attr-defined]
    _shot(teacher, "class-teacher-reveal-laptop")

    student.get_by_text("Exact !").wait_for()  # type: ignore[attr-defined]
    _shot(student, "class-student-verdict-phone")

    _button(teacher, "Terminer maintenant").click()  # type: ignore[attr-defined]
    _wait_idle(teacher)
    teacher.get_by_text("Les mains les plus manquées par la classe").wait_for()  # type: ignore[attr-defined]
    teacher.locator('[data-testid="stDataFrame"]').first.wait_for()  # type: ignore[attr-defined]
    teacher.locator("h1").first.scroll_into_view_if_needed()  # type: ignore[attr-defined]
    _shot(teacher, "class-teacher-results-laptop")
    student.get_by_text("La classe est terminée").wait_for()  # type: ignore[attr-defined]
    _shot(student, "class-student-finished-phone")
    teacher.context.close()  # type: ignore[attr-defined]
    student.context.close()  # type: ignore[attr-defined]
