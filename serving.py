"""The app served for real, and Debian's chromium to look at it: one helper for the tests and the
benchmarks alike (``tests/`` and ``bench/`` import it; nothing in ``bench/`` imports ``tests``).

One place knows how to start ``streamlit run serve.py`` (the app as shipped) on a free port (with
a database of its own) and wait for it, how to launch chromium on this machine
(``/usr/bin/chromium``, never a downloaded browser), the page helpers every browser script uses,
where screenshots go, and how to run ``deploy/school`` (app processes behind HAProxy) on a
database of its own.

Why here, at the top of the repository, and not in ``tutor/``: it is a developer's tool, never part
of the app a school installs (``pyproject.toml`` packages ``tutor*`` only), and it drives a
browser through Playwright, a dev-only dependency. Why not in ``tests/``: a benchmark is not a
test, and importing the test package dragged pytest's marks and a test module's fixtures into
every benchmark. So it imports nothing test-only (no pytest); the pytest marks of the browser
tests live in ``tests/marks.py``.
"""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.request
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent
CHROMIUM = Path("/usr/bin/chromium")
SHOTS = ROOT / "artifacts" / "screenshots"
LAPTOP = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}
#: Chromium's flags on this machine: headless as root, and no background calls to a network
#: that is not there.
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


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def free_ports(count: int) -> int:
    """The first of ``count`` consecutive free loopback ports (the script numbers its processes'
    ports from one)."""
    for _attempt in range(50):
        first = free_port()
        sockets = []
        try:
            for port in range(first, first + count):
                sock = socket.socket()
                sockets.append(sock)
                sock.bind(("127.0.0.1", port))
            return first
        except OSError:
            continue
        finally:
            for sock in sockets:
                sock.close()
    raise RuntimeError(f"no {count} consecutive free ports")


@contextmanager
def app_server(
    data_dir: Path | None = None,
    *,
    ready_path: str = "/_stcore/health",
    timeout: float = 60,
    log: Path | None = None,
    port: int | None = None,
) -> Iterator[str]:
    """``streamlit run serve.py`` (``app.py`` as ``make serve`` serves it) on a free loopback
    port until the block ends; yields its URL.

    ``data_dir`` gives the server a database of its own (``TUTOR_DATA_DIR``); the block starts
    once ``ready_path`` answers 200. ``log``: a file that receives the server's output (what an
    operator's log would hold), else it is thrown away. ``port`` serves on a given port (a
    server restarted where the pages left it).
    """
    port = free_port() if port is None else port
    env = dict(os.environ)
    env.pop("TUTOR_DATABASE_URL", None)
    env.pop("TUTOR_PUBLIC_URL", None)
    if data_dir is not None:
        env["TUTOR_DATA_DIR"] = str(data_dir)
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "streamlit",
            "run",
            "serve.py",
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
        stdout=subprocess.DEVNULL if log is None else log.open("ab"),
        stderr=subprocess.DEVNULL if log is None else subprocess.STDOUT,
        start_new_session=True,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + timeout
        while True:
            try:
                with urllib.request.urlopen(url + ready_path, timeout=1) as answer:
                    if answer.status == 200:
                        break
            except OSError:
                if time.monotonic() > deadline:
                    raise RuntimeError(f"streamlit did not answer within {timeout:.0f} s") from None
                time.sleep(0.05)
        yield url
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=10)


def new_page(browser: object, size: dict[str, int], *, locale: str = "fr-FR") -> object:
    """A page in a context of its own (its own Streamlit session), patient with a busy server."""
    context = browser.new_context(viewport=size, locale=locale)  # type: ignore[attr-defined]
    page = context.new_page()
    # Patient: the first page of a cold server loads and checks the whole course, which takes a
    # while on a busy two-core machine.
    page.set_default_timeout(120_000)
    return page


def shown_script(selector: str) -> str:
    """A page's init script (``add_init_script``): when each text of an element matching
    ``selector`` first entered the page's document, in ``window.__shown[text]`` (``Date.now()``,
    the machine's clock). What a person sees is the page: Playwright looks for an element again
    at growing intervals, 0.5 s apart after its first few looks, so a driver notices anything
    slower than a few tenths of a second up to half a second after the page showed it."""
    return _SHOWN_SCRIPT.replace("SELECTOR", json.dumps(selector))


_SHOWN_SCRIPT = """
(() => {
  const selector = SELECTOR;
  window.__shown = {};
  new MutationObserver(() => {
    const now = Date.now();
    for (const element of document.querySelectorAll(selector)) {
      const text = element.textContent.trim();
      if (!(text in window.__shown)) window.__shown[text] = now;
    }
  }).observe(document, {childList: true, subtree: true, characterData: true});
})();
"""


def screenshot(page: object, name: str) -> Path:
    """Save the page for a person to look at; the pointer moved away from any chart toolbar."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.mouse.move(0, 0)  # type: ignore[attr-defined]
    page.wait_for_timeout(500)  # type: ignore[attr-defined]
    path = SHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)  # type: ignore[attr-defined]
    return path


def button(page: object, name: str) -> object:
    """A button by its label: a button with a keyboard shortcut also reads its key, so the name
    is matched from its start."""
    pattern = re.compile("^" + re.escape(name))
    return page.get_by_role("button", name=pattern)  # type: ignore[attr-defined]


def keyed_button(page: object, key: str) -> object:
    """The button of the Streamlit widget with this key (Streamlit adds a ``st-key-…`` class)."""
    return page.locator(f".st-key-{key} button")  # type: ignore[attr-defined]


def wait_idle(page: object) -> None:
    """Wait until Streamlit has finished the script run a click started."""
    page.wait_for_timeout(300)  # type: ignore[attr-defined]
    page.wait_for_selector(  # type: ignore[attr-defined]
        '[data-testid="stStatusWidget"]', state="detached", timeout=60_000
    )


def choose_option(page: object, box: object, name: str) -> None:
    """Choose ``name`` in the select box ``box`` (a locator of its ``st-key-…`` container).

    The list is opened from the keyboard, and the whole gesture is tried again when the option
    never shows or is redrawn under the click (a rerun of the page can detach the list while
    Playwright waits for it to be stable); it ends when the box shows the choice."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    option = page.get_by_role("option", name=name, exact=True)  # type: ignore[attr-defined]
    for _attempt in range(10):
        box.get_by_role("combobox").focus()  # type: ignore[attr-defined]
        page.keyboard.press("ArrowDown")  # type: ignore[attr-defined]
        try:
            option.click(timeout=3_000)
        except PlaywrightTimeout:
            page.keyboard.press("Escape")  # type: ignore[attr-defined]
            continue
        wait_idle(page)
        chosen = box.locator("input").first  # type: ignore[attr-defined]
        if chosen.get_attribute("value") == name:
            return
    raise AssertionError(f"{name!r} could not be chosen")


def answer_right(page: object, index: int, step: object) -> None:
    """Answer a lesson's ask step (``step``, an ``AskStep``) as its file says is right, through
    the page only, and wait for the verdict."""
    from tutor.lessons.models import (
        ActionAnswer,
        ChipsAnswer,
        ChoiceAnswer,
        LossAnswer,
        NumberAnswer,
    )

    answer = step.ask.answer  # type: ignore[attr-defined]
    if isinstance(answer, NumberAnswer | ChipsAnswer | LossAnswer):
        value = (
            answer.number if isinstance(answer, NumberAnswer)
            else answer.chips if isinstance(answer, ChipsAnswer) else answer.loss
        )
        page.get_by_label("Votre réponse").fill(str(value))  # type: ignore[attr-defined]
        button(page, "Vérifier").click()  # type: ignore[attr-defined]
    elif isinstance(answer, ChoiceAnswer):
        keyed_button(page, f"ask-{index}-choice-{answer.choice}").click()  # type: ignore[attr-defined]
    elif isinstance(answer, ActionAnswer):
        keyed_button(page, f"ask-{index}-{answer.action.value}").click()  # type: ignore[attr-defined]
    wait_idle(page)
    page.get_by_text("Exact !").first.wait_for()  # type: ignore[attr-defined]


def play_step(page: object, index: int, step: object, shot: str | None = None) -> None:
    """Do what a lesson's step asks, through the page only (French); the lesson file tells the
    right answers: an ask answered right, a deal played as its file expects, a drill answered
    with the first button until the lesson lets the learner go on. ``shot`` names the
    screenshots taken after a deal and a drill (none without it)."""
    from tutor.lessons import AskStep, DealStep, DrillStep
    from tutor.render.translator import translator

    fr = translator("fr")
    if isinstance(step, AskStep):
        answer_right(page, index, step)
    elif isinstance(step, DealStep):
        for action in step.deal.expect.decisions:
            button(page, fr.action_name(action)).click()  # type: ignore[attr-defined]
            wait_idle(page)
        page.get_by_text("Résultat").first.wait_for()  # type: ignore[attr-defined]
        if shot:
            screenshot(page, f"lesson-deal-{shot}")
    elif isinstance(step, DrillStep):
        for _ in range(step.drill.count * 3):
            onward = page.locator(  # type: ignore[attr-defined]
                ".st-key-lesson-next button, .st-key-lesson-finish button"
            )
            if onward.first.is_enabled():
                break
            following = button(page, "Question suivante")
            if following.count():  # type: ignore[attr-defined]
                following.click()  # type: ignore[attr-defined]
                # The next question replaces the button: wait for it to go, so the next turn
                # of the loop never clicks the old one.
                following.wait_for(state="detached")  # type: ignore[attr-defined]
            else:
                page.locator(  # type: ignore[attr-defined]
                    f'[class*="st-key-drill-{index}-"] button:enabled'
                ).first.click()
                # The verdict comes with "Question suivante", or "Suivant" once the drill is done.
                following.or_(onward.and_(page.locator("button:enabled"))).first.wait_for()  # type: ignore[attr-defined]
            wait_idle(page)
        if shot:
            screenshot(page, f"lesson-drill-{shot}")


def play_steps(page: object, lesson: object, steps: int | None = None) -> None:
    """Play the first ``steps`` steps of the open ``lesson`` (all of them by default), moving on
    with « Suivant → » after each but the last."""
    every = lesson.steps  # type: ignore[attr-defined]
    count = len(every) if steps is None else steps
    for index, step in enumerate(every[:count]):
        page.get_by_text(f"Étape {index + 1} sur {len(every)}").wait_for()  # type: ignore[attr-defined]
        play_step(page, index, step)
        if index < len(every) - 1:
            button(page, "Suivant →").click()  # type: ignore[attr-defined]
            wait_idle(page)


def create_typed_class(
    page: object, title: str, hands: str, *, options: tuple[str, ...] = ()
) -> None:
    """On the teacher's page (French), create a class of typed ``hands``: the title, the
    typed-hands source, the hands, each option's switch (by the start of its label), the click."""
    page.get_by_role("textbox", name="Titre").fill(title)  # type: ignore[attr-defined]
    page.get_by_role("radio", name="des mains que je tape").click()  # type: ignore[attr-defined]
    wait_idle(page)
    field = page.get_by_label(re.compile("^Mains, une par ligne"))  # type: ignore[attr-defined]
    field.fill(hands)
    field.blur()
    for option in options:
        page.get_by_text(option).click()  # type: ignore[attr-defined]
        wait_idle(page)
    button(page, "Créer la classe").click()  # type: ignore[attr-defined]
    wait_idle(page)


def create_group(page: object, url: str, name: str) -> str:
    """On the homework teacher's page (French), create a study group named ``name``, say its
    key is written down, and read the code its students join with."""
    page.goto(f"{url}/groups")  # type: ignore[attr-defined]
    page.get_by_role("heading", name="Devoirs — enseignant").wait_for()  # type: ignore[attr-defined]
    page.get_by_label("Nom du groupe").fill(name)  # type: ignore[attr-defined]
    button(page, "Créer le groupe").click()  # type: ignore[attr-defined]
    wait_idle(page)
    button(page, "Je l’ai notée").click()  # type: ignore[attr-defined]
    wait_idle(page)
    text = page.locator('[data-testid="stMarkdown"]').filter(  # type: ignore[attr-defined]
        has_text="Les élèves rejoignent"
    ).inner_text()
    code = re.search(r"code ([A-Z0-9]{6})", text)
    assert code is not None, text
    return code.group(1)


def projected_code(page: object) -> str:
    """Say the teacher key is written down, then read the join code the lobby projects."""
    button(page, "Je l’ai notée").click()  # type: ignore[attr-defined]
    wait_idle(page)
    code = page.locator('div[aria-label="code"]').first  # type: ignore[attr-defined]
    code.wait_for()
    return str(code.inner_text()).strip()


# -- the school's set: deploy/school's processes behind HAProxy, on a database of its own --

#: The script that starts the set.
SCHOOL_SCRIPT = ROOT / "deploy" / "school"
#: The cookie ``deploy/haproxy.cfg.in`` names the serving process with (``app1``, ``app2``…).
COOKIE = "tutor_server"


@dataclass(frozen=True)
class School:
    """A running set: the proxy's address, the database's URL, and how to drive the script."""

    url: str
    database_url: str
    run: Path
    env: dict[str, str]

    def script(self, command: str) -> str:
        """Run ``deploy/school COMMAND`` with this set's settings; its output."""
        done = subprocess.run(
            [str(SCHOOL_SCRIPT), command],
            env=self.env,
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=300,
        )
        if done.returncode != 0 and command != "status":
            raise RuntimeError(f"deploy/school {command} failed:\n{done.stdout}{done.stderr}")
        return done.stdout

    def pid(self, process: int) -> int:
        return int((self.run / f"app-{process}.pid").read_text())


def new_database(server_url: str) -> str:
    """A new, empty database on the PostgreSQL server of ``server_url``; its URL."""
    import sqlalchemy as sa

    name = f"school_{uuid.uuid4().hex[:12]}"
    admin = sa.create_engine(server_url, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(sa.text(f'CREATE DATABASE "{name}"'))
    admin.dispose()
    return server_url.rsplit("/", 1)[0] + "/" + name


def drop_database(server_url: str, database_url: str) -> None:
    """Remove a database ``new_database`` made (its server may be a long-lived one)."""
    import sqlalchemy as sa

    name = database_url.rsplit("/", 1)[1]
    admin = sa.create_engine(server_url, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(sa.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    admin.dispose()


@contextmanager
def running_school(database_url: str, run: Path, processes: int = 2) -> Iterator[School]:
    """``deploy/school start`` with ``processes`` app processes on free loopback ports, the proxy
    on another, until the block ends (then ``deploy/school stop``)."""
    port = free_port()
    env = dict(os.environ)
    env.pop("TUTOR_DATA_DIR", None)  # the script gives the set one shared folder in its run folder
    env.update(
        TUTOR_SCHOOL_CONF=os.devnull,
        TUTOR_DATABASE_URL=database_url,
        TUTOR_SCHOOL_RUN=str(run),
        TUTOR_SCHOOL_PROCESSES=str(processes),
        TUTOR_SCHOOL_APP_PORT=str(free_ports(processes)),
        TUTOR_SCHOOL_ADDRESS="127.0.0.1",
        TUTOR_SCHOOL_PORT=str(port),
        TUTOR_PUBLIC_URL=f"http://127.0.0.1:{port}",
    )
    school = School(f"http://127.0.0.1:{port}", database_url, run, env)
    try:
        school.script("start")
        yield school
    finally:
        school.script("stop")
