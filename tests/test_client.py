"""The network client the class limits count (``tutor.ui.client``): the peer of the connection,
or what the school deployment's proxy forwards, and never what a visitor writes in a header."""

from __future__ import annotations

import doctest
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as some

from tutor.ui import client
from tutor.ui.client import LOOPBACK, client_of, trusted_proxies

ROOT = Path(__file__).resolve().parent.parent
PROXY = trusted_proxies("127.0.0.1")


def test_the_examples_hold() -> None:
    result = doctest.testmod(client)
    assert result.attempted > 0
    assert result.failed == 0


def test_a_visitor_reaching_the_app_directly_cannot_choose_their_address() -> None:
    forged = ["10.9.9.9", "10.9.9.8, 10.9.9.7"]
    assert client_of("198.51.100.4", forged, PROXY) == "198.51.100.4"
    assert client_of("198.51.100.4", forged, frozenset()) == "198.51.100.4"
    # On a laptop without a proxy, nobody is trusted: localhost is the teacher's own browser.
    assert client_of(None, forged, frozenset()) == LOOPBACK


def test_behind_the_trusted_proxy_the_client_is_the_address_it_wrote_last() -> None:
    assert client_of(None, ["203.0.113.7"], PROXY) == "203.0.113.7"
    assert client_of(None, ["1.2.3.4, 203.0.113.7"], PROXY) == "203.0.113.7"  # appended
    assert client_of(None, ["1.2.3.4", "2001:DB8::1"], PROXY) == "2001:db8::1"
    assert client_of(None, ["not an address"], PROXY) == LOOPBACK  # the proxy's, not a word
    assert client_of(None, [], PROXY) == LOOPBACK
    # How Streamlit's websocket names the proxy on this machine: IPv4 written as IPv6.
    assert client_of("::ffff:7f00:1", ["203.0.113.7"], PROXY) == "203.0.113.7"
    assert client_of("::ffff:7f00:1", ["203.0.113.7"], frozenset()) == LOOPBACK


@given(some.lists(some.text(max_size=3000), max_size=5), some.sampled_from([None, "198.51.100.4"]))
def test_whatever_the_headers_say_the_client_is_an_address(
    headers: list[str], peer: str | None
) -> None:
    found = client_of(peer, headers, PROXY)
    assert trusted_proxies(found) == {found}  # a canonical IP address, never the header's text
    if peer is not None:
        assert found == peer  # a peer that is not the proxy is believed only about itself


def test_the_school_proxy_writes_the_header_and_its_processes_trust_it_alone() -> None:
    proxy = (ROOT / "deploy" / "haproxy.cfg.in").read_text(encoding="utf-8")
    frontend = proxy[proxy.index("frontend tutor") : proxy.index("backend apps")]
    # set-header replaces whatever the visitor sent (add-header would keep a forged entry first).
    assert "http-request set-header X-Forwarded-For %[src]" in frontend
    school = (ROOT / "deploy" / "school").read_text(encoding="utf-8")
    assert "TUTOR_TRUSTED_PROXIES=127.0.0.1 " in school
    assert "--server.address 127.0.0.1" in school  # so that the proxy is the only peer
