"""The lobby's login form, filled as a person would: registering a new account or logging in to
one, then waiting until the page names the account with its rating."""

from __future__ import annotations

from playwright.async_api import Page, expect


async def register(page: Page, name: str, password: str) -> None:
    await _send_login_form(page, name, password, "register")


async def log_in(page: Page, name: str, password: str) -> None:
    await _send_login_form(page, name, password, "login")


async def _send_login_form(page: Page, name: str, password: str, button: str) -> None:
    form = page.locator("form.login")
    await form.locator("input[name=name]").fill(name)
    await form.locator("input[name=password]").fill(password)
    await form.locator(f"button[value={button}]").click()
    await expect(page.get_by_text(f"{name} (1500)").first).to_be_visible(timeout=10_000)
