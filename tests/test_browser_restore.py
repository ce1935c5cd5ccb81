"""The recovery code's QR address (``settings#restore=<code>``) in Debian's chromium: the code
leaves the address and the tab's history, whether the address opens a new page or is given to
a page already open (the browser then loads nothing: only a ``hashchange`` listener sees it,
``tutor.ui.cookie.restore_script``). The browser's own list of visited addresses records the
address before any script runs; no page can take it out of there. Screenshot
``restore-restored-phone``."""

from __future__ import annotations

from serving import LAPTOP, PHONE, new_page, screenshot, wait_idle
from tests.marks import BROWSER

pytestmark = BROWSER


def test_a_recovery_qr_address_leaves_no_code_in_the_address_or_the_history(
    server: str, chromium_browser: object
) -> None:
    owner = new_page(chromium_browser, LAPTOP)
    owner.goto(f"{server}/settings")  # type: ignore[attr-defined]
    owner.get_by_role("heading", name="Réglages").wait_for()  # type: ignore[attr-defined]
    owner.get_by_text("English", exact=True).first.click()  # type: ignore[attr-defined]
    wait_idle(owner)
    code = owner.locator('p[aria-label="recovery code"]').inner_text().strip()  # type: ignore[attr-defined]

    phone = new_page(chromium_browser, PHONE)
    phone.goto(f"{server}/lessons")  # type: ignore[attr-defined]
    phone.get_by_role("heading", name="Leçons").wait_for()  # type: ignore[attr-defined]
    wait_idle(phone)
    before = phone.evaluate("history.length")  # type: ignore[attr-defined]
    phone.goto(f"{server}/settings#restore={code}")  # type: ignore[attr-defined]
    phone.get_by_role("heading", name="Settings").wait_for()  # type: ignore[attr-defined]
    wait_idle(phone)
    assert phone.evaluate("location.hash") == ""  # type: ignore[attr-defined]
    assert "restore" not in phone.url  # type: ignore[attr-defined]
    # One entry more, Settings's, without the code: the handover added none of its own.
    assert phone.evaluate("history.length") == before + 1  # type: ignore[attr-defined]
    phone.go_back()  # type: ignore[attr-defined]
    assert "restore" not in phone.url  # type: ignore[attr-defined]
    phone.go_forward()  # type: ignore[attr-defined]
    assert "restore" not in phone.url  # type: ignore[attr-defined]
    screenshot(phone, "restore-restored-phone")


def test_a_recovery_code_given_to_a_page_already_open_leaves_the_address_too(
    server: str, chromium_browser: object
) -> None:
    owner = new_page(chromium_browser, LAPTOP)
    owner.goto(f"{server}/settings")  # type: ignore[attr-defined]
    owner.get_by_role("heading", name="Réglages").wait_for()  # type: ignore[attr-defined]
    owner.get_by_text("English", exact=True).first.click()  # type: ignore[attr-defined]
    wait_idle(owner)
    code = owner.locator('p[aria-label="recovery code"]').inner_text().strip()  # type: ignore[attr-defined]

    phone = new_page(chromium_browser, PHONE)
    phone.goto(f"{server}/settings")  # type: ignore[attr-defined]
    phone.get_by_role("heading", name="Réglages").wait_for()  # type: ignore[attr-defined]
    wait_idle(phone)
    # The same document: the browser loads nothing, only the fragment changes.
    phone.evaluate(f"location.hash = 'restore={code}'")  # type: ignore[attr-defined]
    phone.get_by_role("heading", name="Settings").wait_for()  # type: ignore[attr-defined]
    wait_idle(phone)
    assert phone.evaluate("location.hash") == ""  # type: ignore[attr-defined]
    assert "restore" not in phone.url  # type: ignore[attr-defined]
    phone.go_back()  # type: ignore[attr-defined]
    assert "restore" not in phone.url  # type: ignore[attr-defined]
