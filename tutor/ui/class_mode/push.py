"""Telling a class's phones that it moved on, rather than waiting for their next poll (issue 30).

Why: a phone's screen was a fragment drawn again every two seconds, so a reveal reached it one to
two seconds after the teacher's click, and polling faster costs what it saves: a Streamlit script
run costs the server about 5 ms whatever it draws (a look that drew nothing, twice a second, cost
three times the server CPU of the two-second screen). Instead one thread per server process looks
at each class its phones follow, ten times a second (one read of the session's row per class,
``Classroom.watched_moment``), and has Streamlit draw again the screen of each phone whose screen
shows an older moment. A reveal is on the phones a fraction of a second after the teacher's
click, whichever server process the teacher used, and the screen's own poll can be slow (it
brings only what the moment does not name: a seat taken away, a database back).

How a phone is told: ``AppSession.request_rerun`` with the session's last client state, the call
Streamlit makes itself to run a page again when its source changes (from its file watcher's
thread, as here), scoped to the screen's fragment as the page's own ``run_every`` timer asks for
it. It reaches into Streamlit's runtime, which has no public way to do it; the version is pinned,
``tests/test_class_push.py`` checks each piece this module touches, and if one is missing a
phone is simply not told: its poll still brings the screen up to date, later.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from streamlit.runtime.scriptrunner import get_script_run_ctx

_LOG = logging.getLogger(__name__)

#: Seconds between two looks at the classes a process's phones follow (a look is one read of a
#: session's row per class followed: ten a second cost the server nothing it can measure beside
#: the phones' own runs, ``bench/class_browser.py``'s CPU per phone).
LOOK_SECONDS = 0.1
#: How often a phone's screen is drawn again of itself (``class_student``'s screen fragment). The
#: class's steps reach it as they happen (told from here); this brings the rest (a seat taken
#: away, a database back), which can wait a few seconds. Each of these draws costs the phone's
#: browser about 80 ms of CPU and the server about 4 ms, however little changed: Streamlit's
#: front end draws the whole page again at every fragment run. Every 10 s rather than 5 s, a
#: waiting phone's page spends 0.7 % of a core instead of 1.1-1.7 %, and the server's CPU per
#: waiting phone falls by a quarter (``bench/class_browser.py``; the rest is the look above).
#: Here rather than in the page so that a benchmark can read it: importing a page module runs
#: the page.
SCREEN_SECONDS = 10.0
#: A phone whose screen has not been drawn for this long is forgotten: its page was closed (a
#: screen open draws itself again every ``SCREEN_SECONDS``, so three draws missed in a row).
FORGET_SECONDS = 3 * SCREEN_SECONDS

Moment = tuple[int, bool, bool]


@dataclass
class _Phone:
    session_id: int
    #: The fragment that draws the phone's screen: what is run again (not the whole page).
    screen: str
    #: The moment its screen shows; None once it was told to draw again (told once only).
    shown: Moment | None
    #: When its screen was last drawn (the clock of ``Followers``).
    seen_at: float = 0.0


class Followers:
    """The phones of this process and the class each follows, with what their screens show.

    ``moment_of(session_id)`` reads where a class stands now (None when it is gone);
    ``tell(phone, screen)`` asks a phone to draw its screen again and says whether it was
    reached.
    Both are given, so the bookkeeping is tested without a server."""

    def __init__(
        self,
        moment_of: Callable[[int], Moment | None],
        tell: Callable[[str, str], bool],
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._moment_of = moment_of
        self._tell = tell
        self._clock = clock
        self._phones: dict[str, _Phone] = {}
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None

    def follow(self, phone: str, screen: str, session_id: int, shown: Moment) -> None:
        """The phone's screen (a fragment) was just drawn for this class at this moment (the
        looking thread starts with the first phone and ends with the last)."""
        with self._lock:
            self._phones[phone] = _Phone(session_id, screen, shown, self._clock())
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="class-push", daemon=True)
                self._thread.start()

    def forget(self, phone: str) -> None:
        with self._lock:
            self._phones.pop(phone, None)

    def following(self) -> int:
        with self._lock:
            return len(self._phones)

    def look(self) -> int:
        """One look: read each followed class once, tell every phone whose screen is out of
        date; returns how many were told. A phone not reached is forgotten (its page closed), and
        so is one whose screen has not been drawn for ``FORGET_SECONDS``."""
        with self._lock:
            now = self._clock()
            for phone in [p for p, f in self._phones.items() if now - f.seen_at > FORGET_SECONDS]:
                del self._phones[phone]
            waiting = {p: f.session_id for p, f in self._phones.items() if f.shown is not None}
        moments = {sid: self._moment_of(sid) for sid in set(waiting.values())}
        told = 0
        for phone, sid in waiting.items():
            with self._lock:
                entry = self._phones.get(phone)
                if entry is None or entry.shown is None or entry.shown == moments[sid]:
                    continue
                entry.shown = None  # told once; its next screen follows again
            if self._tell(phone, entry.screen):
                told += 1
            else:
                self.forget(phone)
        return told

    def _run(self) -> None:
        """Look every ``LOOK_SECONDS`` while a phone is followed."""
        while True:
            time.sleep(LOOK_SECONDS)
            try:
                self.look()
            except Exception:  # a database fault: the phones' own polls say it; look again later
                _LOG.exception("could not look at the classes this server's phones follow")
            with self._lock:
                if not self._phones:
                    self._thread = None
                    return


def this_phone() -> str | None:
    """The Streamlit session of the page being drawn (the phone), or None outside a server."""
    context = get_script_run_ctx()
    return None if context is None else context.session_id


def this_fragment() -> str | None:
    """The fragment being drawn, or None outside one (or outside the pinned Streamlit)."""
    try:
        from streamlit.runtime.scriptrunner_utils.script_run_context import ThreadState

        return ThreadState.get().fragment_id
    except (ImportError, AttributeError, RuntimeError):  # RuntimeError: not in a script run
        return None


def rerun_fragment(phone: str, fragment: str) -> bool:
    """Ask Streamlit to run ``fragment`` of session ``phone`` again, with the session's last
    client state as its file watcher does for a page, scoped to the fragment as the page's own
    ``run_every`` timer asks for it; False when the session is gone or the runtime is not the
    one this module knows."""
    try:
        from streamlit import runtime
        from streamlit.proto.ClientState_pb2 import ClientState

        if not runtime.exists():
            return False
        active = runtime.get_instance()._session_mgr.get_active_session_info(phone)
        if active is None:
            return False
        session = active.session
        state = ClientState()
        state.CopyFrom(session._client_state)
        state.fragment_id = fragment
        state.is_auto_rerun = True  # no person's click: a fragment gone meanwhile is no error
        session.request_rerun(state)
    except (ImportError, AttributeError):  # another Streamlit than the pinned one: the poll does it
        _LOG.warning("cannot tell a phone to draw again with this version of Streamlit")
        return False
    return True
