"""The settings' sound for one's turn (docs/web.md, *Accessibility and comfort*): off by
default, two short notes made by the browser when the turn comes, none once turned off."""

from __future__ import annotations

from typing import Any

from tests.web_support import (
    MY_TURN_OR_OVER,
    Server,
    js_errors,
    new_page,
    play_against_bots,
    play_turn,
    state,
)

# The browser's audio, counted: a test machine may have no sound device, and nothing is heard.
FAKE_AUDIO = """
window.notes = 0;
class FakeAudio {
  constructor() { this.state = "running"; this.currentTime = 0; this.destination = {}; }
  resume() {}
  createOscillator() {
    return { type: "", frequency: { value: 0 }, connect: (g) => g,
             start: () => { window.notes += 1; }, stop: () => {} };
  }
  createGain() {
    return { gain: { setValueAtTime() {}, exponentialRampToValueAtTime() {} }, connect: (d) => d };
  }
}
window.AudioContext = FakeAudio;
"""


def set_sound(page: Any, on: bool, switch: bool = True) -> None:
    """Turn the sound on or off in the settings; ``switch``: it must have been the other way."""
    page.click("#settings-btn")
    page.wait_for_selector("#settings[open]")
    if switch:
        assert page.is_checked("#opt-sound") is (not on)
    page.set_checked("#opt-sound", on)
    page.keyboard.press("Escape")
    page.wait_for_selector("#settings:not([open])", state="hidden")


def next_turn(page: Any) -> bool:
    """Play our turn and wait for the next one; False once the game is over."""
    play_turn(page)
    page.wait_for_function(MY_TURN_OR_OVER)
    return not page.evaluate("() => !!window.rummykit.S.gameOver")


def test_a_sound_when_the_turn_comes(server: Server, browser: Any) -> None:
    page = new_page(browser)
    page.context.add_init_script(FAKE_AUDIO)
    for tries in range(6):  # a bot may end a short game before our turns come back
        play_against_bots(page, server.base, "rummy", 2)
        if tries:
            # a game that ended early may have left the sound on, and notes counted
            set_sound(page, False, switch=False)
            page.evaluate("() => { window.notes = 0; }")
        # off by default: a turn comes and goes in silence
        if not next_turn(page):
            continue
        assert page.evaluate("() => window.notes") == 0
        set_sound(page, True)
        if not next_turn(page):
            continue
        assert page.evaluate("() => window.notes") == 2  # two notes, once
        assert state(page)["myTurn"]
        set_sound(page, False)
        if not next_turn(page):
            continue
        assert page.evaluate("() => window.notes") == 2
        break
    else:
        raise AssertionError("no game lasted three turns")
    assert not js_errors(page), page.js_errors
    page.context.close()
