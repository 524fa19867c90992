"""Wire protocol version 1 (docs/protocol.md): validation of client messages, error codes.

Client messages are plain JSON objects; :func:`parse_client_message` checks one against the
table of message types and returns a validated dict, or raises :class:`ProtocolError` with the
error code and reason the server sends back.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Callable
from typing import Any, Final

PROTOCOL_VERSION: Final = 1
MAX_MESSAGE: Final = 8 * 1024  # larger text messages are refused with ``too_large``
MAX_FRAME: Final = 64 * 1024  # larger frames close the connection (1009)
RATE: Final = 20.0  # messages per second per connection
BURST: Final = 40.0
MAX_REFUSED: Final = 200  # refused-for-rate messages (see REFUSAL_WINDOW) that close a connection
#: Refusals are forgotten at MAX_REFUSED per REFUSAL_WINDOW seconds: a flood is cut off within
#: a second or so, a client that bursts now and then over a long life never is.
REFUSAL_WINDOW: Final = 60.0

#: The quick messages a seated person may send the table (``say``): fixed phrases, each shown
#: in every reader's own language, so nothing typed reaches another player (no abuse to
#: moderate, nothing to translate).
PHRASES: Final = (
    "hello", "good_luck", "well_played", "thanks", "oops", "one_moment", "good_game", "bye"
)
#: At most SAY_BURST quick messages per seat in any SAY_WINDOW seconds.
SAY_BURST: Final = 3
SAY_WINDOW: Final = 10.0

ROOM_ALPHABET: Final = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
ROOM_CODE_LEN: Final = 6

ERROR_CODES: Final = frozenset(
    {
        "bad_json",
        "bad_message",
        "unknown_type",
        "too_large",
        "rate_limited",
        "too_many_connections",
        "no_room",
        "not_in_room",
        "not_seated",
        "bad_options",
        "bad_seat",
        "seat_taken",
        "not_waiting",
        "bad_level",
        "bad_name",
        "bad_token",
        "not_bot",
        "stale_version",
        "not_your_turn",
        "forbidden_action",
        "illegal_action",
        "not_over",
        "replaced",
        "internal",
    }
)


class ProtocolError(Exception):
    """A message the server refuses: ``code`` is one of :data:`ERROR_CODES`."""

    def __init__(self, code: str, message: str, **extra: Any) -> None:
        super().__init__(message)
        assert code in ERROR_CODES, code
        self.code = code
        self.message = message
        self.extra = extra


Check = Callable[[Any], bool]


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _small_int(v: Any) -> bool:
    return _is_int(v) and 0 <= v < 1_000_000_000


def _short_str(limit: int) -> Check:
    return lambda v: isinstance(v, str) and 0 < len(v) <= limit


#: Printable characters that draw nothing: the Hangul fillers and the blank Braille pattern.
#: A name of these alone (or of combining marks alone) shows as an empty seat name.
BLANK_LETTERS: Final = frozenset("\u115f\u1160\u3164\uffa0\u2800")


def _drawn(ch: str) -> bool:
    """Whether a printable character draws something of its own."""
    return ch not in BLANK_LETTERS and unicodedata.category(ch) not in ("Mn", "Me", "Zs")


def _name(v: Any) -> bool:
    return (
        isinstance(v, str)
        and 0 < len(v.strip()) <= 24
        and v.isprintable()
        and any(map(_drawn, v))
    )


#: The most combining marks (nonspacing or enclosing) a name may stack on one character,
#: counted decomposed (NFD: a precomposed "é" is an e and its accent, the same as typed in two).
#: Marks piled by the dozen ("Zalgo" text) draw over the lines above and below a seat's name.
#: Not 2: real letters carry 3 (Vietnamese "ệ": a circumflex and a dot; Tibetan "སྒྲུ": two
#: letters written under the first and a vowel; Hindi "ज़ूँ": a nukta, a vowel sign and a
#: candrabindu).
MAX_MARKS: Final = 3


def stacked_marks(name: str) -> int:
    """The most combining marks stacked on one character of a name (decomposed)."""
    most = run = 0
    for ch in unicodedata.normalize("NFD", name):
        run = run + 1 if unicodedata.category(ch) in ("Mn", "Me") else 0
        most = max(most, run)
    return most


#: How the web client labels a bot seat in its three languages ("Bot 2 (hard)", "Robot 2
#: (difficile)", "Bot 2 (difícil)", or just "Bot"/"Robot"), accents left out: a person's name
#: that reads as one of these would pass for a bot in the seat list.
BOT_WORDS: Final = ("bot", "robot")
BOT_LEVEL_WORDS: Final = (
    "easy", "medium", "hard", "facil", "medio", "dificil", "facile", "moyen", "difficile"
)

#: Letters of other scripts drawn like a Latin one ("Вот" in Cyrillic, "Βοτ" in Greek, "ʙᴏᴛ"
#: in small capitals), folded to it before a name is compared with the bot labels. Upper
#: and lower case are listed apart because they need not look alike (Greek Η is an H, η an
#: n). Compatibility forms (fullwidth "Ｂｏｔ", mathematical "𝐁𝐨𝐭") and accents are folded by
#: Unicode's decomposition, not here.
LOOK_ALIKES: Final = str.maketrans(
    # Cyrillic (в, к, м, н, т are drawn as small capitals; ь as a b)
    "АВЕКМНОРСТУХЅІЈҮҺԚԜЬ" "авекмнорстухѕіјүһԁԛԝь"
    # Greek
    "ΑΒΕΖΗΙΚΜΝΟΡΤΥΧ" "αβγηικνορτυχ"
    # Latin small capitals and the dotless i
    "ᴀʙᴄᴅᴇɢʜɪᴊᴋʟᴍɴᴏᴘʀꜱᴛᴜᴠᴡʏᴢı",
    "ABEKMHOPCTYXSIJYHQWb" "abekmhopctyxsijyhdqwb"
    "ABEZHIKMNOPTYX" "abynikvoptux"
    "abcdeghijklmnoprstuvwyzi",
)

#: Latin characters drawn alike, accepted in a label letter's place: the digit 0 for o, and
#: 1, l and I (i once case is folded) for one another ("B0t", "R0b0t", "Bot (dificiI)").
#: Only there: a seat number is still a number ("Bot 10"), and since a name is refused only
#: when it reads as a whole label, "B0b" or "Al1" stay names.
_SAME_SHAPE: Final = {"o": "o0", "i": "il1", "l": "li1"}


def _spelled(word: str) -> str:
    """A pattern for ``word`` that takes each letter's look-alikes in its place."""
    return "".join(
        f"[{_SAME_SHAPE[ch]}]" if ch in _SAME_SHAPE else re.escape(ch) for ch in word
    )


_BOT_NAME: Final = re.compile(
    rf"(?:{'|'.join(map(_spelled, BOT_WORDS))})\s*\d*\s*"
    rf"(?:\(?\s*(?:{'|'.join(map(_spelled, BOT_LEVEL_WORDS))})\s*\)?)?"
)


def looks_like_bot(name: str) -> bool:
    """Whether a seat name reads as a bot's label: in any case, with or without accents,
    in look-alike letters of other scripts or with a digit drawn like a letter."""
    plain = "".join(
        ch for ch in unicodedata.normalize("NFKD", name) if not unicodedata.combining(ch)
    ).translate(LOOK_ALIKES)
    return _BOT_NAME.fullmatch(" ".join(plain.casefold().split())) is not None


def _room_code(v: Any) -> bool:
    return (
        isinstance(v, str)
        and len(v) == ROOM_CODE_LEN
        # ASCII only: "ß" and "ſ" upper-case to "SS" and "S", so a code spelled with them
        # would pass the alphabet and then name no room, or a room it does not spell
        and v.isascii()
        and all(ch in ROOM_ALPHABET for ch in v.upper())
    )


def _options(v: Any) -> bool:
    return isinstance(v, dict) and len(v) <= 16 and all(isinstance(k, str) for k in v)


# type -> {field: (required, check, default)}
_SPEC: Final[dict[str, dict[str, tuple[bool, Check, Any]]]] = {
    "ping": {},
    "create": {
        "variant": (False, _short_str(16), "rummy"),
        "players": (True, _small_int, None),
        "options": (False, _options, None),
    },
    "join": {"room": (True, _room_code, None)},
    "sit": {"seat": (True, _small_int, None), "name": (True, _name, None)},
    "resume": {"room": (True, _room_code, None), "token": (True, _short_str(128), None)},
    "add_bot": {"seat": (True, _small_int, None), "level": (True, _short_str(16), None)},
    "remove_bot": {"seat": (True, _small_int, None)},
    "leave": {},
    "action": {"version": (True, _small_int, None), "action": (True, _short_str(2000), None)},
    "back": {},
    "rematch": {},
    "say": {"phrase": (True, lambda v: isinstance(v, str) and v in PHRASES, None)},
}

CLIENT_TYPES: Final = frozenset(_SPEC)


def _valid_id(v: Any) -> bool:
    if isinstance(v, str):
        return len(v) <= 64
    return _is_int(v) and abs(v) < 2**53


def message_id(text: str | bytes) -> Any:
    """The valid ``id`` of a message refused before it is read (over the rate limit), or
    None: the client waiting for the reply to that id learns it was refused instead of
    waiting for an answer that never comes (the web client locks a player's moves
    meanwhile). Not for a message over ``MAX_MESSAGE`` bytes: reading up to 64 KiB of
    JSON takes up to a millisecond, which a client could ask for 20 times a second."""
    if len(text) > MAX_MESSAGE:  # characters or bytes: a text this long is over the cap
        return None
    try:
        msg = json.loads(text)
    except (ValueError, UnicodeDecodeError, RecursionError):
        return None
    mid = msg.get("id") if isinstance(msg, dict) else None
    return mid if mid is not None and _valid_id(mid) else None


def parse_client_message(text: str | bytes) -> dict[str, Any]:
    """Decode and validate one client message; raise :class:`ProtocolError` if it is refused."""
    # The cap is in bytes as sent: a character outside ASCII takes 2 to 4 of them.
    if isinstance(text, bytes) or text.isascii():
        size = len(text)
    else:
        size = len(text.encode("utf-8", "surrogatepass"))
    if size > MAX_MESSAGE:
        raise ProtocolError("too_large", f"message over {MAX_MESSAGE} bytes")
    try:
        msg = json.loads(text)
    except (ValueError, UnicodeDecodeError) as exc:
        raise ProtocolError("bad_json", f"not valid JSON: {exc}") from None
    except RecursionError:
        # A few thousand nested brackets fit in a message and exhaust the decoder's stack.
        raise ProtocolError("bad_json", "not valid JSON: nested too deeply") from None
    if not isinstance(msg, dict):
        raise ProtocolError("bad_json", "a message must be a JSON object")
    mid = msg.get("id")
    if mid is not None and not _valid_id(mid):
        raise ProtocolError(
            "bad_message", "id must be a string of up to 64 characters or an integer"
        )
    kind = msg.get("type")
    if not isinstance(kind, str):
        raise ProtocolError("bad_message", "missing string field 'type'", id=mid)
    spec = _SPEC.get(kind)
    if spec is None:
        raise ProtocolError("unknown_type", f"unknown message type {kind[:40]!r}", id=mid)
    out: dict[str, Any] = {"type": kind, "id": mid}
    for field, (required, check, default) in spec.items():
        if field not in msg or msg[field] is None:
            if required:
                raise ProtocolError("bad_message", f"{kind}: missing field {field!r}", id=mid)
            out[field] = default
            continue
        value = msg[field]
        if not check(value):
            raise ProtocolError("bad_message", f"{kind}: bad value for {field!r}", id=mid)
        out[field] = value
    if kind in ("join", "resume"):
        out["room"] = out["room"].upper()
    if kind == "sit":
        out["name"] = out["name"].strip()
        marks = stacked_marks(out["name"])
        if marks > MAX_MARKS:
            # ``reason`` lets a client word the refusal in its own language
            raise ProtocolError(
                "bad_name",
                f"a name may stack at most {MAX_MARKS} marks on one character, not {marks}: "
                "choose another",
                id=mid,
                reason="marks",
            )
        if looks_like_bot(out["name"]):
            # The seat's kind tells bots apart, but people read the name.
            raise ProtocolError(
                "bad_name",
                f"{out['name']!r} reads as a bot's name: choose another",
                id=mid,
            )
    return out


def error_message(code: str, message: str, mid: Any = None, **extra: Any) -> dict[str, Any]:
    """The ``error`` message sent to a client."""
    msg: dict[str, Any] = {"type": "error", "code": code, "message": message}
    if mid is not None:
        msg["id"] = mid
    msg.update(extra)
    return msg


class TokenBucket:
    """Per-connection rate limit: ``rate`` messages per second, bursts up to ``burst``.

    ``refused`` counts the refused messages, forgotten at ``MAX_REFUSED`` per
    ``REFUSAL_WINDOW`` seconds (the connection is closed when it passes ``MAX_REFUSED``).
    """

    __slots__ = ("burst", "last", "rate", "refused", "tokens")

    def __init__(self, rate: float = RATE, burst: float = BURST, now: float = 0.0) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = burst
        self.last = now
        self.refused = 0.0

    def allow(self, now: float) -> bool:
        """Take one token if there is one; count a refusal otherwise."""
        elapsed = now - self.last
        self.tokens = min(self.burst, self.tokens + elapsed * self.rate)
        self.refused = max(0.0, self.refused - elapsed * (MAX_REFUSED / REFUSAL_WINDOW))
        self.last = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        self.refused += 1
        return False
