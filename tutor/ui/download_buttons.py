"""The pages' download buttons: each click makes a one-time ticket (``tutor.downloads``) for this
browser, and the page's own script fetches the file with it (``tutor.ui.download_route``).

Why not ``st.download_button``: its file waits at a ``/media/…`` address that anyone may fetch,
with no cookie, for minutes, and that the proxy's log keeps. Here nothing is offered until the
button is clicked; the click makes a ticket of ``TICKET_SECONDS`` bound to this browser's learner
cookie, and a script put on the page by that run sends it at once in a ``POST``'s body to an
address that never changes, takes the file and hands it to the browser as a download (a
``blob:`` link clicked by the script, named as the page named the file). The ticket is then
spent: a second click makes another one.

The buttons sit in a fragment (``st.fragment``): a click runs the buttons again, not the page (a
class's results are not read again for a download); the files' bytes are the fragment's
arguments, or a function the click calls (a strategy chart's file is built only when asked). A
database fault while a click builds its file (« Mes données ») is the fault's sentence, in the
fragment (``tutor.ui.faults.database_guard``). A refused fetch (the browser holds no learner
cookie, or another) shows a sentence under the button, in the learner's language.
"""

from __future__ import annotations

import html
import json
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

import streamlit as st

from tutor.downloads import DownloadFile
from tutor.identity import token_hash
from tutor.ui.download_route import TICKETS, base_url_path, route_path
from tutor.ui.faults import database_guard
from tutor.ui.state import app_state

#: A file's bytes, its text (sent as UTF-8), or what makes either when the button is clicked.
Data = bytes | str | Callable[[], bytes | str]


@dataclass(frozen=True)
class Offer:
    """One download button: its label, the file's data, name and type, the button's key and
    icon."""

    label: str
    data: Data
    file_name: str
    mime: str
    key: str
    icon: str | None = None


def file_of(offer: Offer) -> DownloadFile:
    """The file an offer gives, made now if the offer holds a function."""
    data = offer.data() if callable(offer.data) else offer.data
    body = data.encode("utf-8") if isinstance(data, str) else data
    return DownloadFile(body=body, mime=offer.mime, file_name=offer.file_name)


def fetch_script(route: str, ticket: str, file_name: str, refused_id: str) -> str:
    """The script that spends ``ticket`` at once: a ``POST`` of it to ``route`` (the learner
    cookie goes with it), the answer handed to the browser as the download ``file_name``; a
    refusal shows the element ``refused_id``. Written without spaces around ``?`` and ``:``
    (the pages' French typography check reads scripts too)."""
    options = json.dumps({
        "method": "POST",
        "body": ticket,
        "credentials": "same-origin",
        "cache": "no-store",
        "headers": {"Content-Type": "text/plain"},
    }, separators=(",", ":"))
    return (
        "(function () {"
        f" fetch({json.dumps(route)}, {options})"
        ".then(function (answer) { if (!answer.ok) { throw new Error(answer.status); }"
        " return answer.blob(); })"
        ".then(function (blob) {"
        ' var link = document.createElement("a");'
        " link.href = URL.createObjectURL(blob);"
        f" link.download = {json.dumps(file_name)};"
        " document.body.appendChild(link); link.click(); link.remove();"
        " setTimeout(function () { URL.revokeObjectURL(link.href); }, 60000); })"
        ".catch(function () {"
        f" var note = document.getElementById({json.dumps(refused_id)});"
        " if (note) { note.hidden = false; } });"
        " })();"
    )


def download_buttons(
    offers: Sequence[Offer], *, width: Literal["stretch", "content"] = "stretch"
) -> None:
    """The offers' buttons side by side, each in its column."""
    _buttons(tuple(offers), width)


@st.fragment
@database_guard
def _buttons(offers: tuple[Offer, ...], width: Literal["stretch", "content"]) -> None:
    for column, offer in zip(st.columns(len(offers)), offers, strict=True):
        with column:
            if st.button(offer.label, key=offer.key, icon=offer.icon, width=width):
                _hand_over(offer)


def _hand_over(offer: Offer) -> None:
    """Make the file and its ticket, and put the script that fetches it on the page."""
    state = app_state()
    t = state.t
    ticket = TICKETS.issue(file_of(offer), token_hash(state.learner_token))
    refused_id = f"tutor-download-refused-{secrets.token_hex(6)}"
    sentence = t.gettext(
        "The download did not start: this browser keeps no cookie of this site, or another one."
        " Reload the page and try again."
    )
    script = fetch_script(route_path(base_url_path()), ticket, offer.file_name, refused_id)
    st.html(
        f'<p id="{refused_id}" role="alert" hidden>{html.escape(sentence)}</p>'
        f"<script>{script}</script>",
        unsafe_allow_javascript=True,
    )
