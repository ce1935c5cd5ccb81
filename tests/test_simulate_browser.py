"""The Simulation page in a real browser (Debian's chromium through Playwright): a run is drawn.

Saves ``artifacts/screenshots/simulation-laptop.png`` for a person to look at.
"""

from __future__ import annotations

import os
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
LAUNCH_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed"),
]
playwright_sync = pytest.importorskip("playwright.sync_api")


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = int(sock.getsockname()[1])
    process = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", "app.py", "--server.headless", "true",
         "--server.port", str(port), "--server.address", "127.0.0.1",
         "--browser.gatherUsageStats", "false"],
        cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
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


def test_a_run_draws_the_running_average_and_the_bankroll_paths(server: str) -> None:
    with playwright_sync.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=LAUNCH_ARGS)
        page = browser.new_context(
            viewport={"width": 1366, "height": 900}, locale="fr-FR"
        ).new_page()
        page.set_default_timeout(120_000)
        page.goto(f"{server}/simulation")
        page.get_by_role("heading", name="Simulation").wait_for()
        page.locator(".st-key-sim-run button").click()
        page.get_by_text("La moyenne se pose").wait_for()
        page.locator("canvas, svg.marks").first.wait_for()
        page.wait_for_timeout(1500)
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / "simulation-laptop.png"), full_page=True)
        assert page.locator(".stVegaLiteChart, [data-testid='stVegaLiteChart']").count() >= 3
        browser.close()
