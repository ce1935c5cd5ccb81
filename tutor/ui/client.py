"""Which network client a request comes from, for the class limits (``tutor.classroom.access``).

Why it needs care: a script that sends no cookie is a fresh browser at every request, so only
its network address binds it. The address is the peer of the page's websocket
(``st.context.ip_address``), except behind the school deployment's HAProxy (``deploy/school``),
where every peer is the proxy: there the client is the address the proxy writes in
``X-Forwarded-For``. That header is anyone's to forge, so it is read only when the peer is a
proxy the server was told to trust (``TUTOR_TRUSTED_PROXIES``, which ``deploy/school`` sets),
and only its last entry, the one that proxy wrote (it replaces what the visitor sent; the last
entry is also what a proxy that appends would have added).

Streamlit reports a loopback peer (``127.0.0.1``, ``::1``) as no address at all; it is the
loopback address here, which is the proxy's when the proxy runs on the same machine. Measured on
Streamlit 1.67, a page opened at ``http://127.0.0.1`` has the peer ``::ffff:7f00:1`` (IPv4 in
IPv6), which Streamlit does not take for loopback: it is read as ``127.0.0.1`` here.
"""

from __future__ import annotations

import ipaddress
import os
from collections.abc import Sequence
from datetime import UTC, tzinfo
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import streamlit as st

#: The proxies whose ``X-Forwarded-For`` is believed: addresses separated by commas.
TRUSTED_PROXIES_ENV = "TUTOR_TRUSTED_PROXIES"
#: What Streamlit's "no address" means: the page came over the loopback interface.
LOOPBACK = "127.0.0.1"
#: An address is at most 45 characters (IPv6 with an IPv4 tail); a forged header is cut here.
ADDRESS_MAX_CHARS = 64
FORWARDED_MAX_CHARS = 1024


def _address(text: str) -> str | None:
    """``text`` as a canonical IP address, or ``None`` when it is not one. An IPv4 address
    written as IPv6 (``::ffff:127.0.0.1``, how a dual-stack server names an IPv4 peer, and how
    Streamlit's websocket saw the proxy here) is its IPv4 address.

    >>> _address("::ffff:7f00:1"), _address("2001:DB8::1"), _address("6.6.6.6 nonsense")
    ('127.0.0.1', '2001:db8::1', None)
    """
    try:
        parsed = ipaddress.ip_address(text.strip()[:ADDRESS_MAX_CHARS])
    except ValueError:
        return None
    if isinstance(parsed, ipaddress.IPv6Address) and parsed.ipv4_mapped is not None:
        return str(parsed.ipv4_mapped)
    return str(parsed)


def trusted_proxies(setting: str | None) -> frozenset[str]:
    """The proxy addresses of a ``TUTOR_TRUSTED_PROXIES`` value (what is not an address is
    ignored).

    >>> sorted(trusted_proxies(" 127.0.0.1, ::1,nonsense"))
    ['127.0.0.1', '::1']
    """
    found = (_address(part) for part in (setting or "").split(",")[:16])
    return frozenset(address for address in found if address is not None)


def forwarded_allow_ips(setting: str | None) -> list[str]:
    """What uvicorn's own reading of ``X-Forwarded-For`` (its ``ProxyHeadersMiddleware``) may
    trust: the ``TUTOR_TRUSTED_PROXIES`` addresses and nothing else, loopback included only when
    named; an IPv4 address in its IPv6 form too (how a dual-stack socket names an IPv4 peer).

    >>> forwarded_allow_ips("127.0.0.1")
    ['127.0.0.1', '::ffff:127.0.0.1']
    >>> forwarded_allow_ips(""), forwarded_allow_ips(None)
    ([], [])
    """
    allowed: list[str] = []
    for address in sorted(trusted_proxies(setting)):
        allowed.append(address)
        if ":" not in address:
            allowed.append(f"::ffff:{address}")
    return allowed


def client_of(peer: str | None, forwarded: Sequence[str], trusted: frozenset[str]) -> str:
    """The client of a request whose connection comes from ``peer`` (``None``: loopback) with
    these ``X-Forwarded-For`` headers: the proxy's last entry when ``peer`` is a trusted proxy
    and that entry is an address, else the peer itself.

    >>> client_of("198.51.100.4", ["10.0.0.1"], frozenset())  # nobody trusted: the peer
    '198.51.100.4'
    >>> client_of(None, ["6.6.6.6, 10.0.0.7"], frozenset({"127.0.0.1"}))
    '10.0.0.7'
    >>> client_of("198.51.100.4", ["10.0.0.7"], frozenset({"127.0.0.1"}))  # not the proxy
    '198.51.100.4'
    """
    address = _address(peer or LOOPBACK) or LOOPBACK
    if address in trusted and forwarded:
        last = ",".join(forwarded)[-FORWARDED_MAX_CHARS:].split(",")[-1]
        return _address(last) or address
    return address


def client_address() -> str:
    """The network client of the running page's request (see the module's docstring)."""
    try:
        peer = st.context.ip_address
        forwarded = st.context.headers.get_all("X-Forwarded-For")
    except (AttributeError, RuntimeError):  # no request context (a bare script)
        peer, forwarded = None, []
    return client_of(peer, forwarded, trusted_proxies(os.environ.get(TRUSTED_PROXIES_ENV)))


#: A time zone's name as the browser reports it (``Europe/Paris``): longer is not one.
ZONE_MAX_CHARS = 64
#: Where a due time is read when the browser says nothing (AppTest, a script): the school's.
DEFAULT_ZONES = {"fr": "Europe/Paris"}


def browser_zone(language: str) -> tzinfo:
    """The reader's time zone, as their browser reports it (``st.context.timezone``), so that
    « à rendre à 18:00 » is 18:00 where the teacher and the students are; the French school's
    zone (UTC in English) when the browser says nothing or names no zone this machine knows."""
    name = st.context.timezone
    for candidate in (name, DEFAULT_ZONES.get(language)):
        if isinstance(candidate, str) and 0 < len(candidate) <= ZONE_MAX_CHARS:
            try:
                return ZoneInfo(candidate)
            except (ZoneInfoNotFoundError, ValueError):
                continue
    return UTC
