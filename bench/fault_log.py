"""What the operator's log receives while the database is down and learners keep clicking: the
quiz page under AppTest, its database pointed at a port where nothing listens, answered
``--clicks`` times (each answer's write refused). Prints ``name: value unit`` lines: the bytes and
lines the ``tutor.database`` logger wrote, with the format of a server's log.

    .venv/bin/python bench/fault_log.py --clicks 20
"""

from __future__ import annotations

import argparse
import io
import logging
import os
import sys
import tempfile
from pathlib import Path

from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from serving import free_port  # noqa: E402
from tutor.quiz_questions import Category  # noqa: E402
from tutor.rules import PRESETS  # noqa: E402
from tutor.visit import AppState  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clicks", type=int, default=20)
    clicks = parser.parse_args().clicks
    os.environ.pop("TUTOR_DATABASE_URL", None)
    os.environ["TUTOR_DATA_DIR"] = tempfile.mkdtemp()
    written = io.StringIO()
    handler = logging.StreamHandler(written)
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    logging.getLogger("tutor.database").addHandler(handler)
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
    at.session_state["app"] = AppState(rules=PRESETS["american-s17"], quiz_category=Category.HARD)
    at.run()
    at.switch_page("tutor/ui/pages/quiz_page.py")
    at.run()
    os.environ["TUTOR_DATABASE_URL"] = f"postgresql+psycopg://tutor:x@127.0.0.1:{free_port()}/db"
    for _click in range(clicks):
        state = at.session_state["app"]
        assert isinstance(state, AppState)
        assert state.quiz is not None
        question = state.quiz.question
        assert question is not None
        assert question.point is not None
        action = sorted(question.point.legal, key=lambda a: a.value)[0]
        at.button(key=f"quiz-{action.value}").click().run()
        at.button(key="quiz-next").click().run()
    text = written.getvalue()
    print(f"fault_log_clicks: {clicks} clicks")
    print(f"fault_log_bytes: {len(text.encode())} bytes")
    print(f"fault_log_lines: {text.count(chr(10))} lines")


if __name__ == "__main__":
    main()
