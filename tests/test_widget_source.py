"""The widget's source against the engine's data, without a browser: the painting's words are the engine's.

The widget draws a painting from an answer's `engine` object, naming each icon in the interface language; those
names must be the engine's own (engine/canvas/data/rules.json `element_names`), for every icon the engine can
show, bonus icons included, so a renamed or new Element can't go unnamed in the chat.
"""

import json
import re
from importlib import resources

import pytest
from rulesbot.engine.canvas import data as canvas_data


@pytest.fixture(scope="module")
def source() -> str:
    """widget.js as shipped in the package."""
    return resources.files("rulesbot.widget").joinpath("widget.js").read_text(encoding="utf-8")


def _icon_tables(source: str) -> dict[str, dict[str, str]]:
    # The interface strings declare `icons: { hue: "hue", ... }` once per language, English first, then French.
    tables = re.findall(r"^\s*icons: (\{[^}]*\}),$", source, flags=re.MULTILINE)
    parsed = [json.loads(re.sub(r"(\w+):", r'"\1":', table)) for table in tables]
    return dict(zip(("en", "fr"), parsed, strict=True))


def test_icon_names_are_the_engines_element_names_in_both_languages(source):
    tables = _icon_tables(source)
    for lang, names in tables.items():
        expected = {element: canvas_data.ELEMENT_NAMES[element][lang].lower() for element in canvas_data.ELEMENTS}
        assert names == expected, lang


def test_every_icon_the_engine_can_show_has_a_name(source):
    tables = _icon_tables(source)
    for icon in canvas_data.ICONS:
        element = canvas_data.BONUS_ELEMENT.get(icon, icon)
        for lang, names in tables.items():
            assert element in names, (icon, lang)
    # Bonus icons are spelled "per-<element>" in the engine's data, which the widget relies on.
    assert all(icon == f"per-{element}" for icon, element in canvas_data.BONUS_ELEMENT.items())
