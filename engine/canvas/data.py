"""Canvas rules facts, loaded once from the JSON files in data/ and validated on load.

Every fact the engine uses (card icons, point tables, scenarios, solo levels, achievements, variant settings,
rulebook pages, the wording of illegal-action reasons) lives in those JSON files; this module only turns them
into frozen records, checks them, and offers the lookups `card`, `scoring_card`, `scenario` and `ruleset`.
"""

from __future__ import annotations

import difflib
import json
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, fields
from fractions import Fraction
from importlib import resources
from types import MappingProxyType
from typing import Any


class DataError(ValueError):
    """The shipped rules data is inconsistent (a bug in data/*.json, caught at import)."""


class UnknownCard(ValueError):
    """No Art Card has that title, alias or id."""


class UnknownScoringCard(ValueError):
    """No Scoring Card has that slug, English or French name."""


class UnknownScenario(ValueError):
    """No scenario has that name."""


class UnknownRuleset(ValueError):
    """No ruleset (base game or variant) has that name."""


@dataclass(frozen=True)
class ArtCard:
    """One transparent Art Card: title word, its slot, and the icons of each of the 5 swatches."""

    id: int
    title: str
    aliases: tuple[str, ...]
    title_slot: str
    stripes: tuple[tuple[str, ...], ...]
    masks: tuple[int, ...]

    def stripe_positions(self) -> tuple[int, ...]:
        """Swatch numbers (1-5) where this card has a stripe."""
        return tuple(index + 1 for index, stripe in enumerate(self.stripes) if stripe)


@dataclass(frozen=True)
class ScoringCard:
    """One Scoring Card: names, condition, points by ribbon count, and its counting rule (data)."""

    slug: str
    name_en: str
    name_fr: str
    condition_en: str
    condition_fr: str
    points: tuple[int, ...]
    max_ribbons: int
    page: int | None
    rule: Mapping[str, Any]


@dataclass(frozen=True)
class Scenario:
    """A suggested set of Scoring Cards with its goal (rulebook p. 6)."""

    slug: str
    name: str
    group: str
    goal: int
    cards: tuple[str, ...]
    random_cards: int


@dataclass(frozen=True)
class SoloLevel:
    """A solo difficulty level and the score to reach (rulebook p. 5)."""

    slug: str
    name_en: str
    name_fr: str
    target: int


@dataclass(frozen=True)
class Achievement:
    """One achievement from the rulebook's last page, with the kind of check and its parameters."""

    slug: str
    en: str
    fr: str
    kind: str
    params: Mapping[str, Any]


@dataclass(frozen=True)
class ComponentCount:
    """How many of one component (or per-player allowance) a ruleset uses, with its rulebook page."""

    slug: str
    name_en: str
    name_fr: str
    count: int
    page: int
    per: str


@dataclass(frozen=True)
class Ruleset:
    """The settings of the base game or of a variant (a variant is the base with overrides)."""

    name: str
    name_en: str
    name_fr: str
    page: int
    min_players: int
    max_players: int
    hand_limit: int
    paintings: int
    starting_tokens: int
    backgrounds: int
    row_size: int
    skip_payment: str
    skip_cost_per_card: int
    discard_skipped: bool
    token_supply: int
    supply_gain_free_card: int
    supply_gain_painting: int
    vincent: bool
    vincent_tokens: int
    vincent_max_face_up: int
    vincent_face_up_probability: Fraction


def _load(name: str) -> dict:
    text = resources.files(__package__).joinpath("data", name).read_text(encoding="utf-8")
    return json.loads(text)


_RULES = _load("rules.json")

ELEMENTS: tuple[str, ...] = tuple(_RULES["elements"])
BONUS_ELEMENT: Mapping[str, str] = MappingProxyType(dict(_RULES["bonuses"]))
BONUSES: tuple[str, ...] = tuple(BONUS_ELEMENT)
# Bit i of a swatch mask is ICONS[i]: elements first, then the per-X bonus icons.
ICONS: tuple[str, ...] = ELEMENTS + BONUSES
ICON_BIT: Mapping[str, int] = MappingProxyType({name: 1 << index for index, name in enumerate(ICONS)})
ELEMENT_MASK = sum(ICON_BIT[name] for name in ELEMENTS)
ELEMENT_NAMES: Mapping[str, Mapping[str, str]] = MappingProxyType(dict(_RULES["element_names"]))
MAT_SLOTS: tuple[str, ...] = tuple(_RULES["mat_slots"])
SILVER_POINTS: int = _RULES["silver_points"]
_COMPONENTS_RAW: Mapping[str, Mapping[str, Any]] = MappingProxyType(
    {entry["slug"]: MappingProxyType(entry) for entry in _RULES["components"]}
)
CARD_COUNT: int = _COMPONENTS_RAW["art_cards"]["count"]
SCORING_CARD_COUNT: int = _COMPONENTS_RAW["scoring_cards"]["count"]
SWATCH_COUNT: int = _RULES["swatch_count"]
CARDS_PER_PAINTING: int = _RULES["cards_per_painting"]
ART_CARD_STRIPES: int = _RULES["art_card_stripes"]
MAX_ICONS_PER_STRIPE: int = _RULES["max_icons_per_stripe"]
PAGES: Mapping[str, int] = MappingProxyType(dict(_RULES["pages"]))
_ART_RAW = _load("art_cards.json")
SWATCH_COLOURS: tuple[str, ...] = tuple(_ART_RAW["swatches"])
ILLEGAL_ACTIONS: Mapping[str, Mapping[str, Any]] = MappingProxyType(
    {code: MappingProxyType(entry) for code, entry in _RULES["illegal_actions"].items()}
)


def mask_of(icons: tuple[str, ...] | list[str]) -> int:
    """Bit mask of a swatch's icons (see ICONS)."""
    mask = 0
    for icon in icons:
        mask |= ICON_BIT[icon]
    return mask


def icons_of(mask: int) -> tuple[str, ...]:
    """Icon names of a swatch mask, in ICONS order."""
    return tuple(name for name in ICONS if mask & ICON_BIT[name])


def normalise_name(text: str) -> str:
    """Lowercase, accents removed, spaces/underscores as hyphens: the key all name lookups use."""
    decomposed = unicodedata.normalize("NFKD", text.strip().lower())
    plain = "".join(char for char in decomposed if not unicodedata.combining(char))
    return "-".join(plain.replace("_", " ").replace("-", " ").split())


def _build_art_cards() -> tuple[ArtCard, ...]:
    raw = _ART_RAW
    if len(raw["swatches"]) != SWATCH_COUNT:
        raise DataError(f"art_cards.json: expected {SWATCH_COUNT} swatch colours, got {len(raw['swatches'])}")
    cards = []
    for index, entry in enumerate(raw["cards"], start=1):
        where = f"art card {entry.get('id')!r}"
        if entry["id"] != index:
            raise DataError(f"{where}: expected id {index} (table order), got {entry['id']}")
        if entry["title_slot"] not in ("left", "right"):
            raise DataError(f"{where}: expected title_slot left or right, got {entry['title_slot']!r}")
        stripes: list[tuple[str, ...]] = [() for _ in range(SWATCH_COUNT)]
        for position, icons in entry["stripes"].items():
            number = int(position)
            if not 1 <= number <= SWATCH_COUNT:
                raise DataError(f"{where}: expected swatch 1-{SWATCH_COUNT}, got {position}")
            unknown = [icon for icon in icons if icon not in ICON_BIT]
            if unknown:
                raise DataError(f"{where}: expected icons from {list(ICONS)}, got {unknown}")
            if not 1 <= len(icons) <= MAX_ICONS_PER_STRIPE or len(set(icons)) != len(icons):
                raise DataError(
                    f"{where}: expected 1 to {MAX_ICONS_PER_STRIPE} different icons per stripe, got {icons}"
                )
            if len(icons) > 1 and any(icon in BONUS_ELEMENT for icon in icons):
                raise DataError(f"{where}: expected a bonus icon alone in its stripe, got {icons}")
            stripes[number - 1] = tuple(sorted(icons, key=ICONS.index))
        if sum(1 for stripe in stripes if stripe) != ART_CARD_STRIPES:
            raise DataError(f"{where}: expected exactly {ART_CARD_STRIPES} stripes, got {entry['stripes']}")
        cards.append(
            ArtCard(
                id=entry["id"],
                title=entry["title"],
                aliases=tuple(entry.get("aliases", ())),
                title_slot=entry["title_slot"],
                stripes=tuple(stripes),
                masks=tuple(mask_of(stripe) for stripe in stripes),
            )
        )
    if len(cards) != CARD_COUNT:
        raise DataError(f"art_cards.json: expected {CARD_COUNT} cards, got {len(cards)}")
    seen: dict[str, int] = {}
    for art_card in cards:
        for name in (art_card.title, *art_card.aliases):
            key = normalise_name(name)
            if key in seen:
                raise DataError(f"art card {art_card.id}: title {name!r} already used by card {seen[key]}")
            seen[key] = art_card.id
    return tuple(cards)


def _build_scoring_cards() -> tuple[ScoringCard, ...]:
    raw = _load("scoring_cards.json")
    cards = []
    for entry in raw["cards"]:
        points = tuple(entry["points"])
        where = f"scoring card {entry['slug']!r}"
        if len(points) != entry["max_ribbons"]:
            raise DataError(f"{where}: expected {entry['max_ribbons']} point values, got {len(points)}")
        if any(later <= earlier for earlier, later in zip(points, points[1:], strict=False)):
            raise DataError(f"{where}: expected points increasing with ribbons, got {points}")
        if entry["slug"] != normalise_name(entry["name_en"]):
            raise DataError(f"{where}: expected slug = lowercase English name, got {entry['name_en']!r}")
        cards.append(
            ScoringCard(
                slug=entry["slug"],
                name_en=entry["name_en"],
                name_fr=entry["name_fr"],
                condition_en=entry["condition_en"],
                condition_fr=entry["condition_fr"],
                points=points,
                max_ribbons=entry["max_ribbons"],
                page=entry["page"],
                rule=MappingProxyType(dict(entry["rule"])),
            )
        )
    if len({card.slug for card in cards}) != SCORING_CARD_COUNT or len(cards) != SCORING_CARD_COUNT:
        raise DataError(f"scoring_cards.json: expected {SCORING_CARD_COUNT} distinct cards, got {len(cards)}")
    return tuple(cards)


def _build_rulesets() -> Mapping[str, Ruleset]:
    raw = _RULES["rulesets"]
    names = {field.name for field in fields(Ruleset)}
    built: dict[str, Ruleset] = {}
    for name, entry in raw.items():
        values = dict(raw[entry["extends"]]) if "extends" in entry else {}
        values.update({key: value for key, value in entry.items() if key not in ("extends", "overrides")})
        unknown = set(entry.get("overrides", {})) - names
        if unknown:
            raise DataError(f"ruleset {name!r}: expected overrides of known settings, got {sorted(unknown)}")
        values.update(entry.get("overrides", {}))
        values["name"] = name
        for count_name in ("skip_cost_per_card", "vincent_max_face_up", "vincent_tokens", "starting_tokens"):
            if isinstance(values.get(count_name), bool) or not isinstance(values.get(count_name), int) or (
                values[count_name] < 0
            ):
                raise DataError(f"ruleset {name!r}: expected {count_name} a count >= 0, got {values.get(count_name)!r}")
        values["vincent_face_up_probability"] = Fraction(values.get("vincent_face_up_probability", "0"))
        if not 0 <= values["vincent_face_up_probability"] <= 1:
            raise DataError(f"ruleset {name!r}: expected vincent_face_up_probability in [0, 1]")
        values.pop("extends", None)
        values.pop("overrides", None)
        missing = names - set(values)
        if missing:
            raise DataError(f"ruleset {name!r}: expected every setting, missing {sorted(missing)}")
        if values["skip_payment"] not in ("on_card", "supply"):
            raise DataError(
                f"ruleset {name!r}: expected skip_payment on_card or supply, got {values['skip_payment']}"
            )
        built[name] = Ruleset(**values)
    return MappingProxyType(built)


ART_CARDS: tuple[ArtCard, ...] = _build_art_cards()
SCORING_CARDS: tuple[ScoringCard, ...] = _build_scoring_cards()
SCORING_SLUGS: tuple[str, ...] = tuple(card.slug for card in SCORING_CARDS)
RULESETS: Mapping[str, Ruleset] = _build_rulesets()
SCENARIOS: tuple[Scenario, ...] = tuple(
    Scenario(
        slug=entry["slug"],
        name=entry["name"],
        group=entry["group"],
        goal=entry["goal"],
        cards=tuple(entry["cards"]),
        random_cards=entry["random_cards"],
    )
    for entry in _RULES["scenarios"]
)
SOLO_LEVELS: tuple[SoloLevel, ...] = tuple(SoloLevel(**entry) for entry in _RULES["solo_levels"])
ACHIEVEMENTS: tuple[Achievement, ...] = tuple(
    Achievement(
        slug=entry["slug"],
        en=entry["en"],
        fr=entry["fr"],
        kind=entry["kind"],
        params=MappingProxyType(
            {key: value for key, value in entry.items() if key not in ("slug", "en", "fr", "kind")}
        ),
    )
    for entry in _RULES["achievements"]
)
FIRST_GAME_CARDS: tuple[str, ...] = tuple(_RULES["first_game"]["cards"])

for _scenario in SCENARIOS:
    if set(_scenario.cards) - set(SCORING_SLUGS) or len(_scenario.cards) + _scenario.random_cards > len(
        MAT_SLOTS
    ):
        raise DataError(
            f"scenario {_scenario.slug!r}: expected at most {len(MAT_SLOTS)} known Scoring Cards,"
            f" got {_scenario.cards}"
        )
if set(FIRST_GAME_CARDS) - set(SCORING_SLUGS):
    raise DataError(f"first_game: expected known Scoring Cards, got {FIRST_GAME_CARDS}")

_CARD_INDEX: Mapping[str, ArtCard] = MappingProxyType(
    {normalise_name(name): art_card for art_card in ART_CARDS for name in (art_card.title, *art_card.aliases)}
)
_SCORING_INDEX: Mapping[str, ScoringCard] = MappingProxyType(
    {
        normalise_name(name): scoring
        for scoring in SCORING_CARDS
        for name in (scoring.slug, scoring.name_en, scoring.name_fr)
    }
)


_COMPONENT_LISTS: Mapping[str, tuple] = MappingProxyType(
    {
        "mat_slots": MAT_SLOTS,
        "scenarios": SCENARIOS,
        "solo_levels": SOLO_LEVELS,
        "achievements": ACHIEVEMENTS,
    }
)


def component_counts(ruleset_name: str | Ruleset = "base") -> Mapping[str, ComponentCount]:
    """Each component's count and rulebook page for a ruleset (slug -> ComponentCount), read from rules.json.

    An entry is a count printed in the components list, a ruleset setting (per-player allowances, player range),
    the length of a data list (scenarios, achievements, solo levels, mat slots) or a top-level rule number.
    Entries that a ruleset does not use (Vincent's tokens outside the Vincent variant) are left out.
    """
    rules = ruleset(ruleset_name)
    counts: dict[str, ComponentCount] = {}
    for slug, entry in _COMPONENTS_RAW.items():
        if "when" in entry and not getattr(rules, entry["when"]):
            continue
        counts[slug] = ComponentCount(
            slug=slug,
            name_en=entry["en"],
            name_fr=entry["fr"],
            count=_component_count(entry, rules),
            page=entry.get("pages_by_ruleset", {}).get(rules.name, entry["page"]),
            per=entry.get("per", "game"),
        )
    return MappingProxyType(counts)


def _component_count(entry: Mapping[str, Any], rules: Ruleset) -> int:
    if "count" in entry:
        return entry["count"]
    if "setting" in entry:
        return int(getattr(rules, entry["setting"]))
    if "list" in entry:
        return len(_COMPONENT_LISTS[entry["list"]])
    return _RULES[entry["rule"]]


def _check_components() -> None:
    sources = ("count", "setting", "list", "rule")
    setting_names = {field.name for field in fields(Ruleset)}
    for slug, entry in _COMPONENTS_RAW.items():
        given = [key for key in sources if key in entry]
        if len(given) != 1:
            raise DataError(f"component {slug!r}: expected exactly one of {sources}, got {given}")
        if "setting" in entry and entry["setting"] not in setting_names:
            raise DataError(f"component {slug!r}: expected a ruleset setting, got {entry['setting']!r}")
        if "list" in entry and entry["list"] not in _COMPONENT_LISTS:
            raise DataError(f"component {slug!r}: expected a list from {sorted(_COMPONENT_LISTS)}")
        if "rule" in entry and not isinstance(_RULES.get(entry["rule"]), int):
            raise DataError(f"component {slug!r}: expected a number in rules.json, got {entry['rule']!r}")
        if "when" in entry and entry["when"] not in setting_names:
            raise DataError(f"component {slug!r}: expected a ruleset setting for 'when', got {entry['when']!r}")
        for name in entry.get("pages_by_ruleset", {}):
            if name not in RULESETS:
                raise DataError(f"component {slug!r}: expected known rulesets in pages_by_ruleset, got {name!r}")


_check_components()


def card(name_or_id: str | int | ArtCard) -> ArtCard:
    """The Art Card with that title or alias (case- and accent-insensitive) or id 1-60."""
    if isinstance(name_or_id, ArtCard):
        return name_or_id
    if isinstance(name_or_id, int) and not isinstance(name_or_id, bool):
        if 1 <= name_or_id <= CARD_COUNT:
            return ART_CARDS[name_or_id - 1]
        raise UnknownCard(f"unknown Art Card id {name_or_id}: expected an id from 1 to {CARD_COUNT}")
    if not isinstance(name_or_id, str):
        raise UnknownCard(f"expected an Art Card title or id 1-{CARD_COUNT}, got {type(name_or_id).__name__}")
    text = name_or_id.strip()
    if text.isdigit():
        return card(int(text))
    found = _CARD_INDEX.get(normalise_name(text))
    if found is None:
        raise UnknownCard(f"unknown Art Card {name_or_id!r}{_suggest(text, _CARD_INDEX, 'title')}")
    return found


def scoring_card(name: str | ScoringCard) -> ScoringCard:
    """The Scoring Card with that slug, English or French name (case- and accent-insensitive)."""
    if isinstance(name, ScoringCard):
        return name
    if not isinstance(name, str):
        raise UnknownScoringCard(f"expected a Scoring Card name, got {type(name).__name__}")
    found = _SCORING_INDEX.get(normalise_name(name))
    if found is None:
        raise UnknownScoringCard(
            f"unknown Scoring Card {name!r}{_suggest(name, _SCORING_INDEX, 'name_en')}; "
            f"expected one of {', '.join(SCORING_SLUGS)}"
        )
    return found


def scenario(name: str | Scenario) -> Scenario:
    """The scenario with that slug or name (e.g. "first-time-playing" or "First Time Playing")."""
    if isinstance(name, Scenario):
        return name
    key = normalise_name(str(name))
    for candidate in SCENARIOS:
        if key in (candidate.slug, normalise_name(candidate.name)):
            return candidate
    known = ", ".join(candidate.slug for candidate in SCENARIOS)
    raise UnknownScenario(f"unknown scenario {name!r}: expected one of {known}")


def ruleset(name: str | Ruleset) -> Ruleset:
    """The base ruleset ("base") or a variant ("vincent", "solo-puzzle")."""
    if isinstance(name, Ruleset):
        return name
    found = RULESETS.get(normalise_name(str(name)))
    if found is None:
        raise UnknownRuleset(f"unknown ruleset {name!r}: expected one of {', '.join(RULESETS)}")
    return found


def solo_level(name: str | SoloLevel) -> SoloLevel:
    """The solo difficulty level with that slug, English or French name."""
    if isinstance(name, SoloLevel):
        return name
    key = normalise_name(str(name))
    for level in SOLO_LEVELS:
        if key in (level.slug, normalise_name(level.name_en), normalise_name(level.name_fr)):
            return level
    raise ValueError(
        f"unknown solo level {name!r}: expected one of {', '.join(level.slug for level in SOLO_LEVELS)}"
    )


def _suggest(text: str, index: Mapping[str, Any], attribute: str) -> str:
    close = difflib.get_close_matches(normalise_name(text), list(index), n=3, cutoff=0.6)
    names = list(dict.fromkeys(getattr(index[key], attribute) for key in close))
    if not names:
        return ""
    return f" (did you mean {' or '.join(repr(name) for name in names)}?)"
