"""The app's web server: ``streamlit run serve.py`` serves ``app.py`` (the pages) through
Streamlit's own server, with three additions:

- Streamlit's front-end files are answered from memory, gzipped once (``tutor.ui.static_files``).
- The pages' downloads are answered by ``tutor.ui.download_route``: a one-time ticket, for
  the browser that asked only, in place of Streamlit's ``/media/…`` addresses.
- uvicorn believes ``X-Forwarded-For`` only from ``TUTOR_TRUSTED_PROXIES`` (below).

``streamlit run`` finds the ``app`` below and runs it; the pages, the settings
(``.streamlit/config.toml``) and the flags stay those of ``app.py``, and every test of the pages
(``AppTest``) still opens ``app.py`` itself.

Why the forwarded headers need a hand here: uvicorn rewrites a request's client address from
``X-Forwarded-For`` when the peer is one it trusts, ``FORWARDED_ALLOW_IPS`` or, unset, loopback;
so anyone on the machine (or any local program a visitor's request passes through) could choose
the address the class limits count, whatever ``TUTOR_TRUSTED_PROXIES`` says
(``tutor.ui.client``). Streamlit 1.67 passes uvicorn no such setting, and it builds uvicorn's
``Config`` (which reads the variable) before it imports this file: setting the variable here is
too late. What is not too late is the middleware: uvicorn wraps the app in
``uvicorn.config.ProxyHeadersMiddleware`` after importing it, so that name is given a subclass
that trusts exactly the ``TUTOR_TRUSTED_PROXIES`` addresses (none when it is unset or empty).
The variable is set too, for any ``Config`` made later. ``tests/test_client.py`` builds
uvicorn's ``Config`` as Streamlit does and sends it a forged header from loopback.
"""

from __future__ import annotations

import os
from typing import Any

import streamlit as st
import uvicorn.config
from starlette.middleware import Middleware
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from tutor.ui.client import TRUSTED_PROXIES_ENV, forwarded_allow_ips
from tutor.ui.download_route import DownloadTickets
from tutor.ui.static_files import StaticFromMemory

TRUSTED = forwarded_allow_ips(os.environ.get(TRUSTED_PROXIES_ENV))
os.environ["FORWARDED_ALLOW_IPS"] = ",".join(TRUSTED)


class TrustedProxyHeaders(ProxyHeadersMiddleware):
    """uvicorn's reader of ``X-Forwarded-For``, trusting ``TRUSTED`` whatever it is given."""

    def __init__(self, app: Any, trusted_hosts: list[str] | str = "") -> None:
        super().__init__(app, trusted_hosts=TRUSTED)


uvicorn.config.ProxyHeadersMiddleware = TrustedProxyHeaders  # type: ignore[attr-defined]

app = st.App(
    "app.py", middleware=[Middleware(StaticFromMemory), Middleware(DownloadTickets)]
)
