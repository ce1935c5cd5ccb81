"""``deploy/school status`` says one state per process (issue 25): what this machine sees (the pid,
the health check) and what the proxy sees (its stats socket) are read together, never printed
side by side to disagree, as "stopped" beside "app2 UP" did for a process killed a moment ago.

Hermetic: the processes and the proxy are stand-ins (a Python process answering the health check
under the command line ``deploy/school`` looks for, and one answering ``show stat`` on the proxy's
socket as HAProxy does), so the states the proxy lags into are set, not waited for.
``tests/test_school.py`` runs the real set.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from serving import ROOT, free_port, free_ports

SCRIPT = ROOT / "deploy" / "school"

#: An app process as ``deploy/school`` recognises one: ``--server.port P`` on its command line,
#: 200 on ``/_stcore/health``.
FAKE_APP = """
import http.server, sys
class Health(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        self.send_response(200 if self.path == "/_stcore/health" else 404)
        self.end_headers()
        self.wfile.write(b"ok")
    def log_message(self, *args):
        pass
http.server.HTTPServer(("127.0.0.1", int(sys.argv[2])), Health).serve_forever()
"""

#: The proxy as ``deploy/school`` reads it: its configuration's path on its command line, and
#: ``show stat`` answered on the stats socket with the states written in ``states``.
FAKE_PROXY = """
import os, socket, sys
config, states = sys.argv[1], sys.argv[2]
path = os.path.join(os.path.dirname(config), "haproxy.sock")
server = socket.socket(socket.AF_UNIX)
server.bind(path)
server.listen()
while True:
    connection, _ = server.accept()
    with connection:
        connection.recv(1024)
        rows = ["# pxname,svname,status"]
        lines = open(states).read().split(chr(10))
        rows += ["apps," + line.replace(" ", ",") for line in lines if line]
        connection.sendall((chr(10).join(rows) + chr(10)).encode())
"""


@dataclass
class FakeSet:
    run: Path
    first_port: int
    env: dict[str, str]
    processes: dict[str, subprocess.Popen[bytes]]

    def start_app(self, number: int) -> None:
        port = self.first_port + number - 1
        process = subprocess.Popen(
            [sys.executable, "-c", FAKE_APP, "--server.port", str(port)],
            start_new_session=True,
        )
        self.processes[f"app{number}"] = process
        (self.run / f"app-{number}.pid").write_text(str(process.pid))
        deadline = time.monotonic() + 20
        while self.status_of(number).startswith(("stopped", "not answering")):
            assert time.monotonic() < deadline, "the stand-in app does not answer"
            time.sleep(0.1)

    def stop(self, name: str) -> None:
        process = self.processes.pop(name)
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=10)

    def proxy_sees(self, **states: str) -> None:
        lines = "".join(f"{name} {state}\n" for name, state in states.items())
        (self.run / "states").write_text(lines)

    def status(self) -> tuple[int, list[str]]:
        done = subprocess.run(
            [str(SCRIPT), "status"], env=self.env, cwd=ROOT, capture_output=True, text=True,
            timeout=60, check=False,
        )
        assert done.stderr == "", done.stderr
        return done.returncode, done.stdout.splitlines()

    def status_of(self, number: int) -> str:
        _code, lines = self.status()
        prefix = f"app process {number} (127.0.0.1:{self.first_port + number - 1}): "
        (line,) = [line for line in lines if line.startswith(prefix)]
        return line.removeprefix(prefix)


@pytest.fixture
def fake_set(tmp_path: Path) -> Iterator[FakeSet]:
    run = tmp_path / "run"
    run.mkdir()
    first = free_ports(2)
    env = dict(os.environ)
    env.update(
        TUTOR_SCHOOL_CONF=os.devnull,
        TUTOR_SCHOOL_RUN=str(run),
        TUTOR_SCHOOL_PROCESSES="2",
        TUTOR_SCHOOL_APP_PORT=str(first),
        TUTOR_SCHOOL_ADDRESS="127.0.0.1",
        TUTOR_SCHOOL_PORT=str(free_port()),
        TUTOR_SCHOOL_PYTHON=sys.executable,
    )
    fakes = FakeSet(run, first, env, {})
    fakes.proxy_sees(app1="UP", app2="UP")
    proxy = subprocess.Popen(
        [sys.executable, "-c", FAKE_PROXY, str(run / "haproxy.cfg"), str(run / "states")],
        start_new_session=True,
    )
    fakes.processes["proxy"] = proxy
    (run / "proxy.pid").write_text(str(proxy.pid))
    deadline = time.monotonic() + 20
    while not (run / "haproxy.sock").exists():
        assert time.monotonic() < deadline
        time.sleep(0.05)
    try:
        yield fakes
    finally:
        for name in list(fakes.processes):
            fakes.stop(name)


def test_a_process_killed_a_moment_ago_is_stopped_and_nothing_else(fake_set: FakeSet) -> None:
    fake_set.start_app(1)
    fake_set.start_app(2)
    code, lines = fake_set.status()
    assert code == 0, lines
    assert fake_set.status_of(1).startswith("up (pid ")
    assert lines[-1].endswith("sending browsers to 2 of 2: app1 app2")
    fake_set.stop("app2")  # killed; the proxy's health check has not run since: still UP to it
    code, lines = fake_set.status()
    assert code == 3
    assert fake_set.status_of(2) == "stopped"
    assert "UP" not in "\n".join(lines)  # the proxy's stale view is not printed beside it
    assert lines[-1].endswith("sending browsers to 1 of 2: app1")
    assert sum("app process 2" in line for line in lines) == 1


def test_a_process_the_proxy_does_not_use_yet_is_starting(fake_set: FakeSet) -> None:
    fake_set.start_app(1)
    fake_set.start_app(2)
    fake_set.proxy_sees(app1="UP", app2="DOWN")  # restarted; the proxy's check has not passed
    code, lines = fake_set.status()
    assert code == 3
    assert fake_set.status_of(2).startswith("starting (pid ")
    assert lines[-1].endswith("sending browsers to 1 of 2: app1")
    fake_set.proxy_sees(app1="UP", app2="UP")
    assert fake_set.status()[0] == 0


def test_a_stopped_proxy_is_said_once(fake_set: FakeSet) -> None:
    fake_set.start_app(1)
    fake_set.start_app(2)
    fake_set.stop("proxy")
    code, lines = fake_set.status()
    assert code == 3
    assert lines[-1] == f"proxy (127.0.0.1:{fake_set.env['TUTOR_SCHOOL_PORT']}): stopped"
    assert fake_set.status_of(1).startswith("up (pid ")  # answering; no proxy to ask
