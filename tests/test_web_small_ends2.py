"""A bot's initial in the reader's language: its avatar in the waiting room and on the table,
and the mark under each of its melds on a phone, said "B" in every language, though French
calls it "Robot"."""

from __future__ import annotations

from typing import Any

import pytest

from tests.test_web_polish import MELD_MARKS_JS
from tests.web_support import add_bots, create_room, js_errors

# each language's word for a bot, as its catalog names one (the screen-reader words)
WORDS = {"es-ES": "Bot", "en-US": "Bot", "fr-FR": "Robot"}


@pytest.mark.parametrize("locale", list(WORDS))
def test_a_bots_initial_is_its_languages(server: Any, browser: Any, locale: str) -> None:
    from tests.test_web_touch import touch_page

    word = WORDS[locale]
    page = touch_page(browser, 390, 844, locale=locale)
    create_room(page, server.base, "rami51", 4)
    page.locator("[data-action=add-bot]").first.click()
    page.wait_for_selector(".seat-row.bot .avatar.bot")
    row = page.locator(".seat-row.bot").first
    assert row.locator(".avatar").text_content() == word[0]
    # the words read are the same as before: the bot's name, the avatar hidden
    assert row.locator(".avatar").get_attribute("aria-hidden") == "true"
    assert (row.locator(".seat-name").text_content() or "").startswith(word)
    add_bots(page)
    page.wait_for_selector(".seat-chip .avatar.bot")
    avatars = page.locator(".seat-chip .avatar.bot").all_text_contents()
    assert avatars == [word[0]] * 3, avatars
    melds = page.evaluate(MELD_MARKS_JS)
    assert [m["text"] for m in melds] == ["A", f"{word[0]}2", f"{word[0]}4"], melds
    # a meld's name still says who in words
    assert word in melds[1]["name"] and word in melds[2]["name"], melds
    assert not js_errors(page), page.js_errors
    page.context.close()
