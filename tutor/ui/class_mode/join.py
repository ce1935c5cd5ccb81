"""The address students reach and the QR code that holds it, and the join panel a projector shows.

Why it needs care: a teacher opens the app as ``localhost`` on a laptop, an address no phone can
reach; the panel guesses the laptop's address on the school network, says so when it cannot, and
lets the teacher correct it (or the server set ``TUTOR_PUBLIC_URL``).
"""

from __future__ import annotations

import base64
import html
import io
import ipaddress
import os
import socket
from urllib.parse import urlsplit

import segno
import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from tutor.classroom import (
    SessionInfo,
)
from tutor.render.translator import Translator
from tutor.visit import ClassPages

#: The student page's path (``url_path`` of its ``st.Page`` in ``app.py``).
JOIN_PATH = "join"

#: The address students reach, when the teacher sets it for the server (``https://…``).
PUBLIC_URL_ENV = "TUTOR_PUBLIC_URL"
#: The longest address a teacher may type for students: a school's address is a few dozen
#: characters, and the QR code of a much longer one cannot be drawn (a QR code holds about two
#: thousand characters at its largest).
BASE_URL_MAX_CHARS = 200


def origin(url: str | None) -> str:
    """``http://host:port`` of a page's address (the app's root), or "" when there is none."""
    if not url:
        return ""
    parts = urlsplit(url)
    if not parts.scheme or not parts.netloc:
        return ""
    return f"{parts.scheme}://{parts.netloc}"


def join_url(base: str, code: str) -> str:
    """The student page with the code filled in: what the QR code holds.

    >>> join_url("http://192.168.1.20:8501/", "ABC234")
    'http://192.168.1.20:8501/join?code=ABC234'
    """
    return f"{base.rstrip('/')}/{JOIN_PATH}?code={code}"


def is_local(url: str) -> bool:
    """Whether an address only reaches this computer (students' phones cannot use it).

    >>> is_local("http://localhost:8501"), is_local("http://192.168.1.20:8501")
    (True, False)
    """
    host = urlsplit(url).hostname or ""
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def lan_address() -> str | None:
    """This computer's address on its local network, as a guess for the join address.

    A UDP socket "connected" to a private address sends nothing: it only asks the system which
    interface would be used, which is the one students' devices reach on the school network.
    """
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("10.255.255.255", 1))
            address = str(probe.getsockname()[0])
    except OSError:
        return None
    return None if ipaddress.ip_address(address).is_loopback else address


def suggested_base(page_url: str | None, port: int | None = None) -> str:
    """The address to give students: the page's own, or the LAN address when the page was opened
    as ``localhost`` on the teacher's laptop."""
    base = origin(page_url)
    if base and not is_local(base):
        return base
    address = lan_address()
    if address is None:
        return base
    parts = urlsplit(base) if base else None
    scheme = parts.scheme if parts else "http"
    chosen_port = (parts.port if parts else None) or port
    return f"{scheme}://{address}" + (f":{chosen_port}" if chosen_port else "")


def qr_data_uri(url: str) -> str:
    """The QR code of ``url`` as an SVG image (dark on white, a wide quiet zone for a projector)."""
    code = segno.make(url, error="m")
    out = io.BytesIO()
    code.save(out, kind="svg", scale=10, border=3, dark="#000", light="#fff", xmldecl=False)
    return "data:image/svg+xml;base64," + base64.b64encode(out.getvalue()).decode("ascii")


def base_url(pages: ClassPages) -> str:
    """The app's address for students: the teacher's correction, ``TUTOR_PUBLIC_URL``, or a guess
    from the address this page was opened with (the laptop's LAN address instead of localhost)."""
    if pages.base_url:
        return pages.base_url
    configured = os.environ.get(PUBLIC_URL_ENV, "").strip()
    if configured:
        return configured
    port = st.get_option("server.port")
    return suggested_base(st.context.url, port if isinstance(port, int) else None)


def correct_base_url(pages: ClassPages, typed: object, shown: str) -> str:
    """The teacher's correction of the address, when the box holds another text than the one it
    was drawn with (``shown``): kept in ``pages`` (its origin, cut to ``BASE_URL_MAX_CHARS``);
    then the address to give students, corrected or not."""
    text = str(typed) if isinstance(typed, str) else shown
    if text != shown:
        text = text[:BASE_URL_MAX_CHARS].strip()
        pages.base_url = origin(text) or text
    return base_url(pages)


def big_code(code: str, *, size: str = "5.5rem") -> None:
    st.markdown(
        f'<div aria-label="code" style="font-family:DejaVu Sans Mono,monospace;font-size:{size};'
        f'font-weight:800;letter-spacing:.18em;line-height:1.1">{html.escape(code)}</div>',
        unsafe_allow_html=True,
    )


def join_panel(info: SessionInfo, pages: ClassPages, t: Translator) -> DeltaGenerator:
    """The code in letters a class reads from the back, the QR code of the join address, and the
    address itself (editable: the guess can be wrong on a school network). Returns the left
    column, for the page to add what the lobby needs under the code."""
    shown = base_url(pages)[:BASE_URL_MAX_CHARS]
    panel = st.container()  # the address and its QR code, drawn once the box below is read
    with st.expander(t.gettext("Address for students")):
        typed = st.text_input(
            t.gettext("The app's address on the school network"),
            value=shown,
            key="class-base-url",
            max_chars=BASE_URL_MAX_CHARS,
            help=t.gettext("Such as http://192.168.1.20:8501 (the laptop's address and port)."),
        )
    base = correct_base_url(pages, typed, shown)
    url = join_url(base, info.code)
    with panel:
        left, right = st.columns([3, 2], vertical_alignment="top")
        with left:
            st.markdown("### " + t.gettext("Join the class"))
            st.markdown(
                t.gettext("Scan the QR code, or open this address and type the class code:")
            )
            st.markdown(
                f'<p style="font-size:1.5rem;font-weight:600;word-break:break-all;margin:0">'
                f"{html.escape(url)}</p>",
                unsafe_allow_html=True,
            )
            big_code(info.code)
        with right:
            st.markdown(
                f'<img src="{qr_data_uri(url)}" alt="{html.escape(url)}" '
                'style="width:100%;max-width:340px;image-rendering:pixelated"/>',
                unsafe_allow_html=True,
            )
        if is_local(base):
            st.warning(
                t.gettext(
                    "This address only reaches this computer: students' devices cannot open it."
                    " Give the laptop's address on the school network below (Streamlit prints it"
                    " as Network URL when it starts)."
                ),
                icon=":material/wifi_off:",
            )
    return left
