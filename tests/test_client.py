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


#: Builds uvicorn's ``Config`` for ``serve:app`` as Streamlit's ``streamlit run`` does (before
#: importing the file, with Streamlit's own keyword arguments), loads it, and sends the loaded
#: app a request from loopback whose ``X-Forwarded-For`` names 6.6.6.6; prints the client
#: address Streamlit's app would see.
SEEN_CLIENT = """
import asyncio
import uvicorn
from streamlit.web.server.starlette.starlette_server import _get_uvicorn_config_kwargs

config = uvicorn.Config("serve:app", host="127.0.0.1", port=0, **_get_uvicorn_config_kwargs())
config.load()
seen = []

async def inner(scope, receive, send):
    seen.append(scope["client"][0])

config.loaded_app.app = inner
scope = {"type": "http", "method": "GET", "path": "/", "scheme": "http", "query_string": b"",
         "headers": [(b"x-forwarded-for", b"6.6.6.6")], "client": ("127.0.0.1", 50000)}
asyncio.run(config.loaded_app(scope, None, None))
print(seen[0])
"""


def _client_seen_by_the_app(trusted: str | None) -> str:
    import os
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if k not in {"FORWARDED_ALLOW_IPS"}}
    env.pop("TUTOR_TRUSTED_PROXIES", None)
    if trusted is not None:
        env["TUTOR_TRUSTED_PROXIES"] = trusted
    done = subprocess.run(
        [sys.executable, "-c", SEEN_CLIENT], cwd=ROOT, env=env, capture_output=True, text=True,
        timeout=120, check=True,
    )
    return done.stdout.strip().splitlines()[-1]


def test_a_forged_forwarded_for_from_loopback_is_not_believed_unless_loopback_is_trusted() -> None:
    """uvicorn's own reading of ``X-Forwarded-For`` trusts loopback by default, and Streamlit
    passes it no setting: ``serve.py`` makes it trust ``TUTOR_TRUSTED_PROXIES`` alone."""
    assert _client_seen_by_the_app(None) == "127.0.0.1"
    assert _client_seen_by_the_app("") == "127.0.0.1"
    assert _client_seen_by_the_app("10.0.0.1") == "127.0.0.1"  # another proxy, not this peer
    assert _client_seen_by_the_app("127.0.0.1") == "6.6.6.6"  # deploy/school's setting
