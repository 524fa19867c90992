"""A reviewer's rules for the web catalogs (rummykit/web/i18n) and the page's translation of the
engine's refusals (js/reasons.js), checked without a browser: counts take each language's plural
form, each language names the game's things one way, French typography, no English left over."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
WEB = ROOT / "rummykit" / "web"


def _flatten(node: dict[str, Any], prefix: str = "") -> dict[str, str]:
    out: dict[str, str] = {}
    for key, value in node.items():
        if isinstance(value, dict):
            out.update(_flatten(value, f"{prefix}{key}."))
        else:
            out[f"{prefix}{key}"] = str(value)
    return out


def catalog(lang: str) -> dict[str, str]:
    """Every string of a catalog by dotted key (a count's forms as KEY.one and KEY.other)."""
    return _flatten(json.loads((WEB / "i18n" / f"{lang}.json").read_text(encoding="utf-8")))


def _bad(lang: str, rule: str, keys: list[str]) -> list[tuple[str, str, str]]:
    return [(lang, rule, k) for k in keys]


# -- counts ------------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["en", "es", "fr"])
def test_a_singular_form_shows_its_count(lang: str) -> None:
    # French counts 0 as singular ("0 carte en main", "0 spectateur"): a "one" form that wrote
    # "1" would show 1 for nothing. So every "one" form shows {n}.
    cat = catalog(lang)
    ones = {k: v for k, v in cat.items() if k.endswith(".one")}
    assert ones
    assert [k for k, v in ones.items() if "{n}" not in v] == []


def test_the_page_picks_a_count_form_by_the_languages_rule() -> None:
    source = (WEB / "js" / "i18n.js").read_text(encoding="utf-8")
    assert "Intl.PluralRules" in source
    assert "n === 1 ?" not in source


# -- the engine's refusals -----------------------------------------------------------------------

ENGINE_SOURCES = (
    ROOT / "rummykit" / "melds.py",
    ROOT / "rummykit" / "engine" / "game.py",
    ROOT / "rummykit" / "engine" / "duties.py",
    ROOT / "rummykit" / "engine" / "checks.py",
)

#: Sentences of the engine that never reach a player: the server's own calls (the next deal, the
#: automatic play of a late turn), a message type the server never sends, and Meld.swap, which
#: the engine does not call (it finds a joker's place with swap_index).
NOT_A_PLAYERS = (
    "is not over",
    "is not an action of this game",
    "no turn is on",
    "the player has not drawn yet",
    "holds no joker to swap",
    "cannot take the joker at place",
)

#: What each kind of interpolated expression stands for in a sample sentence.
_SAMPLES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("text or 'no cards'", ("5H 6H 7H", "no cards")),
    ("SUIT_CHARS", ("H",)),
    (".text", ("9H",)),
    ("prev", ("8H",)),
    ("text", ("5H 6H 7H",)),
    ("self", ("5H 6H 7H",)),
    ("what", ("discard", "lay down", "meld", "lay off", "swap a joker", "declare")),
    ("end", ("low", "high")),
    ("extra", ("", " without jokers")),
    ("exc", ("9H does not fit 5H 6H 7H",)),
    ("why", ("no sequence of moves left could lay it this turn",)),
    ("_KEEP_ONE", ("a card must stay in your hand to discard",)),
    ("_NO_WAY", ("no sequence of moves left could lay it this turn",)),
)


def _expand(node: ast.expr, consts: dict[str, str]) -> list[str]:
    """Every sentence a message expression can make, its values replaced by samples."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.JoinedStr):
        out = [""]
        for part in node.values:
            out = [a + b for a in out for b in _expand(part, consts)]
        return out
    if isinstance(node, ast.FormattedValue):
        src = ast.unparse(node.value)
        for needle, samples in _SAMPLES:
            if needle in src:
                return list(samples)
        return ["2"]  # a count, a number of a deal or a meld, points
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return [a + b for a in _expand(node.left, consts) for b in _expand(node.right, consts)]
    if isinstance(node, ast.IfExp):
        return _expand(node.body, consts) + _expand(node.orelse, consts)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        return _expand(ast.parse(consts[node.func.attr], mode="eval").body, consts)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in consts:
        return _expand(ast.parse(consts[node.func.id], mode="eval").body, consts)
    return []  # str(exc), a variable: a sentence made elsewhere and listed there


def engine_refusals() -> list[str]:
    """Sample sentences of every IllegalAction and InvalidMeld the engine raises."""
    sentences: list[str] = []
    for path in ENGINE_SOURCES:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        # a function that makes the sentence (``open_first(game)``): its returned expression
        consts = {
            f.name: ast.unparse(r.value)
            for f in ast.walk(tree) if isinstance(f, ast.FunctionDef)
            for r in ast.walk(f) if isinstance(r, ast.Return) and r.value is not None
        }
        for node in ast.walk(tree):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                    and node.func.id in ("IllegalAction", "InvalidMeld") and node.args):
                sentences += _expand(node.args[0], consts)
    return [s for s in sentences if not any(x in s for x in NOT_A_PLAYERS)]


def _js_unescape(s: str) -> str:
    """A JS string literal's text as the page sees it (its "\\\\" is one backslash)."""
    return s.replace("\\\\", "\\")


def reason_patterns() -> list[re.Pattern[str]]:
    """The patterns of js/reasons.js's RULES, as the page compiles them."""
    source = (WEB / "js" / "reasons.js").read_text(encoding="utf-8")
    consts = {
        name: _js_unescape(value)
        for name, value in re.findall(r'^const (\w+) = [`"](.*?)[`"];$', source, re.M)
    }
    body = source.split("const RULES = [")[1].split("].map(")[0]
    patterns = []
    for raw in re.findall(r'^\s*\[\s*[`"](.*?)[`"],\s*"', body, re.M):
        text = _js_unescape(raw)
        for _ in range(3):  # ${CARDS} holds ${C}
            text = re.sub(r"\$\{(\w+)\}", lambda m: consts[m.group(1)], text)
        patterns.append(re.compile(f"^{text}$"))
    return patterns


def test_every_refusal_of_the_engine_has_a_translation() -> None:
    sentences = engine_refusals()
    assert len(sentences) > 60
    patterns = reason_patterns()
    assert len(patterns) > 60
    unknown = [s for s in sentences if not any(p.match(s) for p in patterns)]
    assert unknown == []


# -- agreement -----------------------------------------------------------------------------------

#: An article before a card takes the card's gender, which its rank decides: "el 7♦" but "la J♦"
#: (la jota), "le 7♦" but "la Q♦" (la dame) and "l’A♦". A catalog cannot know it: a card stands
#: alone or after "la carta" / "la carte", and what refers to it agrees with carta / carte.
_ARTICLE_BEFORE_A_CARD = {
    "es": re.compile(r"\b(el|la|los|las|del|al|un|una)\s+\{(card|prev)\}", re.I),
    "fr": re.compile(r"(\b(le|la|les|du|au|un|une)\s+|\bl[’'])\{(card|prev)\}", re.I),
}


@pytest.mark.parametrize("lang", ["es", "fr"])
def test_no_article_guesses_a_cards_gender(lang: str) -> None:
    cat = catalog(lang)
    assert [k for k, v in cat.items() if _ARTICLE_BEFORE_A_CARD[lang].search(v)] == []


def test_a_french_participle_does_not_agree_with_a_bare_card() -> None:
    # "{card} vient d’être pris" is wrong for the queen ("la dame vient d’être prise")
    cat = catalog("fr")
    bad = re.compile(r"^\{card\} \S+ d’être \w+")
    assert [k for k, v in cat.items() if bad.search(v)] == []


# -- one word for one thing ----------------------------------------------------------------------

#: Words a catalog does not use, each with the word it uses instead. Spanish (Spain, tú): the
#: stock is the mazo, a card is tomada from the discard (not cogida), a joker a comodín, a set a
#: trío and a run an escalera; what the player just did this turn is said in the perfect ("ya has
#: abierto", "la carta que has tomado"), as "has robado" always was. French (vous): one défausse
#: (never jette), pioche (never talon), brelan and suite (never série), a joker a joker, a seat
#: a place, and a declaration that does not hold is invalide (a "fausse" one is a lie).
_NOT_SAID = {
    "es": {
        r"\bpozo\b|\bmontón\b": "mazo",
        r"\bcog(er|e|iste|ió|ida|ido)\b": "tomar",
        r"\bjokers?\b": "comodín",
        r"\b(tercia|corrida|serie)s?\b": "trío / escalera",
        r"\b(tomaste|abriste|robaste|bajaste|descartaste|cambiaste|añadiste|devolviste)\b":
            "the perfect: has tomado, has abierto…",
        r"\busted(es)?\b": "tú",
        r"\bcartas? de verdad\b": "cartas reales",
    },
    "fr": {
        r"\bjet(er|ez|te|é|ée)\b": "défausser",
        r"\btalon\b": "pioche",
        r"\bsièges?\b": "place",
        r"\bdéclaration fausse\b|\bfausse déclaration\b": "déclaration invalide",
        r"\bséries?\b": "brelan / suite",
        r"\bcomodín\b": "joker",
        r"\b(tu|te|toi|ton|ta|tes)\b": "vous",
    },
}


@pytest.mark.parametrize("lang", ["es", "fr"])
def test_each_thing_has_one_name(lang: str) -> None:
    bad = [
        (k, v, instead)
        for k, v in catalog(lang).items()
        for pattern, instead in _NOT_SAID[lang].items()
        if re.search(pattern, v, re.I)
    ]
    assert bad == []


@pytest.mark.parametrize("lang", ["en", "es", "fr"])
def test_a_written_run_uses_the_letters_the_cards_show(lang: str) -> None:
    # the cards show A 2–10 J Q K in every language: "pas de R-A-2" named a king the table
    # never shows
    runs = [
        (k, m.group(0))
        for k, v in catalog(lang).items()
        for m in re.finditer(r"\b([A-Z0-9]{1,2})[- ]([A-Z0-9]{1,2})[- ]([A-Z0-9]{1,2})\b", v)
    ]
    assert runs
    assert [(k, r) for k, r in runs if not set(re.split(r"[- ]", r)) <= set("A23456789JQK")] == []


# -- typography ----------------------------------------------------------------------------------


def test_french_punctuation_is_spaced_as_french_printers_do() -> None:
    # The catalog writes a plain space before : ; ! ? » and after « (js/i18n.js makes it a
    # no-break one as it shows the text): one missing would glue "Déclarer?" and one typed as
    # U+00A0 or U+202F would escape that rule. The page sets a word space before the colon and
    # inside guillemets, a thin one before ; ! ?.
    cat = catalog("fr")
    glued = [k for k, v in cat.items() if re.search(r"[^\s{][;!?»]|«\S|[^\s{}\d][:](?!\d)", v)]
    typed = [k for k, v in cat.items() if re.search("[\u00a0\u202f][:;!?»]|«[\u00a0\u202f]", v)]
    straight = [k for k, v in cat.items() if "'" in v or '"' in v or "..." in v]
    assert (glued, typed, straight) == ([], [], [])
    source = (WEB / "js" / "i18n.js").read_text(encoding="utf-8")
    rule = re.search(r"fr: \(s\) => (.*),\n", source)
    assert rule is not None
    assert '/ ([;!?])/g, "\\u202f$1"' in rule.group(1)
    assert '/ ([:»])/g, "\\u00a0$1"' in rule.group(1)


def test_spanish_questions_and_exclamations_open_and_close() -> None:
    cat = catalog("es")
    assert [k for k, v in cat.items() if v.count("¿") != v.count("?")] == []
    assert [k for k, v in cat.items() if v.count("¡") != v.count("!")] == []
    assert [k for k, v in cat.items() if "'" in v or '"' in v or "..." in v] == []
