"""Telling a class's phones that it moved on (``tutor.ui.class_mode.push``, issue 30): each phone is
told once when the class moves from what its screen shows, not before and not twice; a phone that
is gone is forgotten; and the pieces of Streamlit's runtime the telling uses are there."""

from __future__ import annotations

import dataclasses
import inspect

from tutor.classroom import Classroom
from tutor.store import Store
from tutor.ui.class_mode import push
from tutor.ui.class_mode.push import FORGET_SECONDS, Followers, Moment

WAITING: Moment = (-1, False, False)
FIRST: Moment = (0, False, False)
FIRST_REVEALED: Moment = (0, True, False)


class Room:
    """Where each class stands, set by the test, and the phones told, in order."""

    def __init__(self) -> None:
        self.moments: dict[int, Moment | None] = {}
        self.told: list[tuple[str, str]] = []
        self.gone: set[str] = set()
        self.reads = 0
        self.now = 0.0

    def moment_of(self, session_id: int) -> Moment | None:
        self.reads += 1
        return self.moments.get(session_id)

    def tell(self, phone: str, screen: str) -> bool:
        if phone in self.gone:
            return False
        self.told.append((phone, screen))
        return True

    def followers(self) -> Followers:
        return Followers(self.moment_of, self.tell, clock=lambda: self.now)


def test_a_phone_is_told_once_when_its_class_moves_and_not_before() -> None:
    room = Room()
    phones = room.followers()
    room.moments[1] = WAITING
    phones.follow("ana", "screen-a", 1, WAITING)
    assert phones.look() == 0
    assert room.told == []
    room.moments[1] = FIRST
    assert phones.look() == 1
    assert room.told == [("ana", "screen-a")]
    assert phones.look() == 0  # told once: it has not drawn again yet
    phones.follow("ana", "screen-a", 1, FIRST)  # its screen drawn again, at the new hand
    assert phones.look() == 0
    room.moments[1] = FIRST_REVEALED
    assert phones.look() == 1
    assert room.told == [("ana", "screen-a"), ("ana", "screen-a")]


def test_one_read_a_look_for_each_class_however_many_phones_follow_it() -> None:
    room = Room()
    phones = room.followers()
    room.moments.update({1: WAITING, 2: WAITING})
    for index in range(40):
        phones.follow(f"phone-{index}", f"screen-{index}", 1 + index % 2, WAITING)
    room.moments[1] = FIRST
    assert phones.look() == 20  # only the phones of the class that moved
    assert room.reads == 2
    assert {phone for phone, _ in room.told} == {f"phone-{i}" for i in range(0, 40, 2)}


def test_a_phone_gone_or_left_or_silent_is_forgotten() -> None:
    room = Room()
    phones = room.followers()
    room.moments[1] = WAITING
    for phone in ("ana", "ben", "cleo", "dan"):
        phones.follow(phone, "screen", 1, WAITING)
    room.gone.add("ben")  # its page closed: not reached
    phones.forget("cleo")  # left the class
    room.moments[1] = FIRST
    assert phones.look() == 2  # ana and dan
    assert phones.following() == 2
    phones.follow("eve", "screen", 1, FIRST)  # a phone that will close its page, untold
    room.now += FORGET_SECONDS + 1  # dan: told, and never drew again; eve: silent
    phones.follow("ana", "screen", 1, FIRST)
    assert phones.look() == 0
    assert phones.following() == 1  # dan and eve forgotten, ana follows on


def test_a_class_that_is_gone_tells_its_phones_so_their_screens_say_it() -> None:
    room = Room()
    phones = room.followers()
    room.moments[1] = FIRST
    phones.follow("ana", "screen", 1, FIRST)
    room.moments[1] = None  # deleted, or expired
    assert phones.look() == 1


def test_the_looking_thread_starts_with_the_first_phone_and_ends_with_the_last() -> None:
    room = Room()
    phones = room.followers()
    room.moments[1] = WAITING
    phones.follow("ana", "screen", 1, WAITING)
    thread = phones._thread
    assert thread is not None
    assert thread.is_alive()
    phones.forget("ana")
    thread.join(timeout=5)
    assert not thread.is_alive()
    assert phones._thread is None


def test_the_watched_moment_is_read_afresh_and_clears_what_the_phones_share(
    migrated_database_url: str,
) -> None:
    """A step taken on another server (another ``Classroom`` on the same database) is seen by
    the next look at once, and the phones' shared reads of the session are forgotten then, so
    the screen told to draw again shows the new hand rather than the tick's old one."""
    from tests.test_classroom import FAMILY, HANDS

    store = Store(migrated_database_url)
    phones_server = Classroom(store, tick=60)  # a tick far longer than the test
    teacher_server = Classroom(store)
    info, key = teacher_server.create("A", FAMILY, HANDS)
    teacher = teacher_server.open_as_teacher(info.code, key)
    ana = phones_server.join(info.code, "Ana")
    assert phones_server.watched_moment(info.id) == WAITING
    assert phones_server.student_view(ana).moment == WAITING
    teacher_server.next_question(teacher)
    assert phones_server.student_view(ana).moment == WAITING  # the tick's shared read
    assert phones_server.watched_moment(info.id) == FIRST
    view = phones_server.student_view(ana)
    assert view.moment == FIRST
    assert view.question == HANDS[0]
    teacher_server.finish(teacher)
    assert phones_server.watched_moment(info.id) == (0, True, True)  # finishing reveals
    assert phones_server.watched_moment(info.id + 1000) is None
    store.close()


def test_the_pieces_of_streamlit_the_telling_uses_are_there() -> None:
    """The pinned Streamlit has what ``rerun_fragment`` and ``this_fragment`` reach for: if an
    upgrade moves one, this says which, rather than phones quietly waiting for their poll."""
    from streamlit import runtime
    from streamlit.proto.ClientState_pb2 import ClientState
    from streamlit.runtime.app_session import AppSession
    from streamlit.runtime.runtime import Runtime
    from streamlit.runtime.scriptrunner_utils.script_run_context import (
        FragmentThreadState,
        ThreadState,
    )

    assert callable(runtime.exists)
    assert callable(runtime.get_instance)
    assert "_session_mgr" in inspect.getsource(Runtime.__init__)
    from streamlit.runtime.session_manager import SessionManager

    assert hasattr(SessionManager, "get_active_session_info")
    assert list(inspect.signature(AppSession.request_rerun).parameters) == ["self", "client_state"]
    assert "self._client_state" in inspect.getsource(AppSession)
    state = ClientState()
    state.fragment_id = "f"
    state.is_auto_rerun = True
    assert callable(ThreadState.get)
    assert "fragment_id" in {field.name for field in dataclasses.fields(FragmentThreadState)}
    assert push.this_fragment() is None  # outside a script run
    assert push.rerun_fragment("no-such-session", "f") is False  # no runtime here: not told
