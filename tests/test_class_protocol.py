"""A class of ten phones at Streamlit's websocket protocol, as ``bench/class_protocol.py`` runs it
on one served process: every phone is seated, every answer it sent is counted once, and every
phone sees every reveal. Counts only: the bench measures the times, no test asserts one.

Marked slow (a served app and a whole class): ``make test`` runs it, ``make check`` leaves it.
"""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor

import pytest

from bench.class_protocol import STEP_TIMEOUT_S, Outcome, addresses, one_process, run_class

pytestmark = pytest.mark.slow

PHONES = 10
QUESTIONS = 3


@pytest.fixture(scope="module")
def outcome() -> Outcome:
    with one_process() as (url, room, pids):

        async def bounded() -> Outcome:
            # A bound on a hung class (the test fails rather than waits), not a timed claim.
            async with asyncio.timeout(20 * STEP_TIMEOUT_S):
                return await run_class(url, room, pids, PHONES, QUESTIONS)

        # In a thread of its own: in the whole suite, Playwright's sync API (the browser tests'
        # session fixture) keeps an event loop running on this thread, where asyncio.run refuses.
        with ThreadPoolExecutor(max_workers=1) as pool:
            return pool.submit(asyncio.run, bounded()).result()


def test_no_phone_failed(outcome: Outcome) -> None:
    assert outcome.errors == []


def test_every_phone_is_seated(outcome: Outcome) -> None:
    assert outcome.seated == PHONES


def test_every_answer_sent_is_counted_once(outcome: Outcome) -> None:
    assert outcome.answers_sent == PHONES * QUESTIONS
    assert outcome.answers_counted == PHONES * QUESTIONS


def test_every_phone_sees_every_reveal(outcome: Outcome) -> None:
    assert outcome.reveals_seen == PHONES * QUESTIONS


def test_each_phone_has_a_loopback_address_of_its_own() -> None:
    assert addresses(3) == ["127.0.0.2", "127.0.0.3", "127.0.0.4"]
    assert len(set(addresses(300))) == 300
