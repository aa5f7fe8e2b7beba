"""Answer sentences from templates.json, in English or French: plurals, lists, and names in the answer language.

No sentence of a computed answer is written in code: code picks a template and fills it with the engine's
numbers and names.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources

from rulesbot.compute.canvas import helpers
from rulesbot.engine import canvas as engine


@cache
def templates() -> dict:
    """All answer templates (templates.json)."""
    return json.loads(resources.files(__package__).joinpath("templates.json").read_text(encoding="utf-8"))


def say(key: str, lang: str, **params) -> str:
    """One template in `lang`, filled in."""
    return templates()[key][lang].format(**params)


def word(key: str, lang: str) -> str:
    """A single word of the templates' word list."""
    return templates()["words"][key][lang]


def qty(count: int, noun: str, lang: str) -> str:
    """"1 ribbon", "3 ribbons", "0 jeton" (French keeps 0 and 1 singular)."""
    singular, plural = templates()["nouns"][noun][lang]
    one = count in (0, 1) if lang == "fr" else count == 1
    return f"{count} {singular if one else plural}"


def colour(slot: str, lang: str) -> str:
    """A ribbon colour in `lang`."""
    return templates()["colours"][slot][lang]


def join(items: list[str], lang: str) -> str:
    """"a, b and c" / "a, b et c"."""
    items = [item for item in items if item]
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + f" {word('and', lang)} " + items[-1]


def card_name(slug: str, lang: str) -> str:
    """A Scoring Card name in `lang`."""
    return helpers.scoring_name(slug, lang)


def swatch_text(icons: tuple[str, ...] | list[str], lang: str) -> str:
    """One swatch in words: "Shape + Texture", or "empty"."""
    if not icons:
        return word("empty", lang)
    return " + ".join(helpers.icon_name(icon, lang, word("per", lang)) for icon in icons)


def visible_text(visible, lang: str) -> str:
    """The five swatches in words with their colour: "1 (red) Shape + Texture; 2 (yellow) Shape; ..." (a claim about
    a swatch names it by colour: "the green one is empty")."""
    return "; ".join(f"{number} ({colour(shade, lang)}) {swatch_text(icons, lang)}"
                     for number, (shade, icons) in enumerate(zip(engine.SWATCH_COLOURS, visible, strict=False), start=1))


def ribbons_text(ribbons: dict[str, int], lang: str) -> str:
    """"Variety 1, Repetition 2, ..." in the order given."""
    return ", ".join(f"{card_name(slug, lang)} {count}" for slug, count in ribbons.items())
