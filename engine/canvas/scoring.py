"""Scoring a painting: ribbons per Scoring Card, silver bonus ribbons, points (rulebook p. 4-5; FACTS.md 1.2, 8).

Each Scoring Card's counting rule is declared in data/scoring_cards.json (`rule.kind` plus parameters); this
module compiles those declarations once into small table-driven functions over the painting's swatch masks.
Where icons pair up (Space, Proximity) the count is a true maximum matching, each icon used at most once
(ruling 8.1). Counting works on visible masks only, so results are cached per distinct visible painting.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from types import MappingProxyType

from .data import (
    BONUS_ELEMENT,
    CARDS_PER_PAINTING,
    ELEMENT_MASK,
    ELEMENTS,
    ICON_BIT,
    SCORING_CARDS,
    SCORING_SLUGS,
    SILVER_POINTS,
    SWATCH_COUNT,
    ArtCard,
    DataError,
    ScoringCard,
    card,
    scoring_card,
)
from .painting import Painting

_FULL = (1 << SWATCH_COUNT) - 1
_ELEMENT_BITS = tuple(ICON_BIT[element] for element in ELEMENTS)
_BONUS_PAIRS = tuple((ICON_BIT[bonus], ELEMENTS.index(element)) for bonus, element in BONUS_ELEMENT.items())

# A rule function gets (swatch masks, per-Element position masks, per-Element counts) and returns ribbons.
RuleFunction = Callable[[tuple[int, ...], tuple[int, ...], tuple[int, ...]], int]


@dataclass(frozen=True)
class PaintingScore:
    """Ribbons one painting earns per Scoring Card (slug -> count, before any player cap) and silver ribbons."""

    ribbons: Mapping[str, int]
    bonus: int

    def points(self) -> int:
        """Points these ribbons are worth if they were a player's only ribbons (capped), silver 2 each."""
        return (
            sum(points_for(slug, count) for slug, count in self.ribbons.items()) + SILVER_POINTS * self.bonus
        )

    def to_dict(self) -> dict:
        """JSON form: {"ribbons": {slug: n}, "bonus": n}."""
        return {"ribbons": dict(self.ribbons), "bonus": self.bonus}


@dataclass(frozen=True)
class BestPainting:
    """The best arrangement found by `best_painting`, its score and its value in points."""

    painting: Painting
    score: PaintingScore
    points: int


def maximum_matching(
    left: Sequence[int], right: Sequence[int], compatible: Callable[[int, int], bool]
) -> int:
    """Size of a maximum matching between two small lists (augmenting paths; each item used at most once)."""
    matched_to: dict[int, int] = {}

    def augment(index: int, seen: set[int]) -> bool:
        for other in range(len(right)):
            if other in seen or not compatible(left[index], right[other]):
                continue
            seen.add(other)
            if other not in matched_to or augment(matched_to[other], seen):
                matched_to[other] = index
                return True
        return False

    return sum(1 for index in range(len(left)) if augment(index, set()))


def ribbon_counts(masks: tuple[int, ...]) -> tuple[int, ...]:
    """Ribbons for every Scoring Card (SCORING_SLUGS order) then silver ribbons, for visible swatch masks."""
    return _ribbon_counts_cached(masks)


def score_painting(painting: Painting, scoring: Iterable[str | ScoringCard] | None = None) -> PaintingScore:
    """Per-painting ribbons for the given Scoring Cards (default: all 12) and its silver bonus ribbons."""
    counts = _ribbon_counts_cached(painting.masks)
    slugs = SCORING_SLUGS if scoring is None else tuple(scoring_card(name).slug for name in scoring)
    return PaintingScore(
        ribbons=MappingProxyType({slug: counts[_SLUG_INDEX[slug]] for slug in slugs}),
        bonus=counts[-1],
    )


def points_for(scoring: str | ScoringCard, ribbons: int) -> int:
    """Points for holding `ribbons` ribbons of that Scoring Card (extra ribbons beyond its maximum are not held)."""
    scoring_entry = scoring_card(scoring)
    if isinstance(ribbons, bool) or not isinstance(ribbons, int) or ribbons < 0:
        raise ValueError(f"expected a ribbon count >= 0, got {ribbons!r}")
    held = min(ribbons, scoring_entry.max_ribbons)
    return scoring_entry.points[held - 1] if held else 0


def ribbons_taken(scoring: str | ScoringCard, met: int, held: int) -> int:
    """Ribbons a painting meeting that card's condition `met` times gives a player already holding `held` of them:
    never more than the card shows in all (ruling 8.2)."""
    return max(0, min(met, scoring_card(scoring).max_ribbons - held))


def painting_points(score: PaintingScore) -> int:
    """A single painting's value: its ribbons as if they were the player's only ribbons (capped), silver 2 each."""
    return score.points()


def best_painting(
    hand_cards: Iterable[str | int | ArtCard], scoring_cards: Iterable[str | ScoringCard]
) -> BestPainting:
    """Best ordered triple (bottom to top) of the hand for these Scoring Cards, valued by `painting_points`.

    Ties keep the first arrangement in the order of itertools.permutations over the hand as given.
    """
    hand = tuple(card(name) for name in hand_cards)
    if len(hand) < CARDS_PER_PAINTING or len({art_card.id for art_card in hand}) != len(hand):
        raise ValueError(
            f"expected at least {CARDS_PER_PAINTING} different Art Cards, got {[art_card.title for art_card in hand]}"
        )
    slugs = tuple(scoring_card(name).slug for name in scoring_cards)
    value = _value_function(slugs)
    best_value = -1
    best_cards: tuple[ArtCard, ...] = hand[:CARDS_PER_PAINTING]
    for bottom, middle, top in itertools.permutations(hand, CARDS_PER_PAINTING):
        masks = tuple(t or m or b for b, m, t in zip(bottom.masks, middle.masks, top.masks, strict=True))
        points = value(_ribbon_counts_cached(masks))
        if points > best_value:
            best_value, best_cards = points, (bottom, middle, top)
    painting = Painting.from_cards(best_cards)
    return BestPainting(painting=painting, score=score_painting(painting, slugs), points=best_value)


def clear_score_cache() -> None:
    """Forget cached per-layout counts (for benchmarks measuring a cold start)."""
    _ribbon_counts_cached.cache_clear()


def score_cache_size() -> int:
    """How many distinct visible layouts are cached."""
    return _ribbon_counts_cached.cache_info().currsize


# ---------------------------------------------------------------------------------------------- private


def _positions_and_counts(masks: tuple[int, ...]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    positions = []
    for bit in _ELEMENT_BITS:
        where = 0
        for index, mask in enumerate(masks):
            if mask & bit:
                where |= 1 << index
        positions.append(where)
    return tuple(positions), tuple(where.bit_count() for where in positions)


@cache
def _full_houses(counts: tuple[int, ...], sizes: tuple[int, ...]) -> int:
    big, small = sizes
    best = 0
    for first in range(len(counts)):
        if counts[first] < big:
            continue
        after_first = list(counts)
        after_first[first] -= big
        for second in range(len(counts)):
            if after_first[second] < small:
                continue
            after_second = list(after_first)
            after_second[second] -= small
            best = max(best, 1 + _full_houses(tuple(after_second), sizes))
    return best


def _bits(mask: int) -> list[int]:
    return [index for index in range(SWATCH_COUNT) if mask >> index & 1]


def _pair_table(minimum: int, maximum: int) -> tuple[int, ...]:
    def compatible(first: int, second: int) -> bool:
        return minimum <= abs(first - second) <= maximum

    return tuple(
        maximum_matching(_bits(first), _bits(second), compatible)
        for first in range(_FULL + 1)
        for second in range(_FULL + 1)
    )


def _run_table(length: int) -> tuple[bool, ...]:
    window = (1 << length) - 1
    return tuple(
        any((where >> start) & window == window for start in range(SWATCH_COUNT - length + 1))
        for where in range(_FULL + 1)
    )


def _compile(rule: Mapping) -> RuleFunction:
    kind = rule["kind"]
    if kind == "all_swatches_filled":
        return lambda masks, _positions, _counts: int(all(masks))
    if kind == "exact_element_total":
        total = rule["count"]
        return lambda _masks, _positions, counts: int(sum(counts) == total)
    if kind == "exact_count":
        element, wanted = ELEMENTS.index(rule["element"]), rule["count"]
        return lambda _masks, _positions, counts: int(counts[element] == wanted)
    if kind == "dominant":
        element = ELEMENTS.index(rule["element"])
        # Ruling 8.1: at least one of the dominant Element is needed; ties with others are allowed.
        return lambda _masks, _positions, counts: int(counts[element] >= 1 and counts[element] == max(counts))
    if kind == "runs":
        runs = _run_table(rule["length"])
        return lambda _masks, positions, _counts: sum(1 for where in positions if runs[where])
    if kind == "full_houses":
        sizes = tuple(rule["sizes"])
        return lambda _masks, _positions, counts: _full_houses(counts, sizes)
    if kind == "pairs_at_distance":
        table = _pair_table(rule["min_distance"], rule["max_distance"])
        first, second = ELEMENTS.index(rule["first"]), ELEMENTS.index(rule["second"])
        width = _FULL + 1
        return lambda _masks, positions, _counts: table[positions[first] * width + positions[second]]
    if kind == "sets_of":
        element, size = ELEMENTS.index(rule["element"]), rule["size"]
        return lambda _masks, _positions, counts: counts[element] // size
    if kind == "mirror_pairs":
        pairs = tuple((first - 1, second - 1) for first, second in rule["pairs"])
        return lambda masks, _positions, _counts: sum(
            (masks[first] & masks[second] & ELEMENT_MASK).bit_count() for first, second in pairs
        )
    if kind == "complete_sets":
        return lambda _masks, _positions, counts: min(counts)
    raise DataError(f"unknown scoring rule kind {kind!r}")


_RULE_FUNCTIONS: tuple[RuleFunction, ...] = tuple(_compile(entry.rule) for entry in SCORING_CARDS)
_SLUG_INDEX: Mapping[str, int] = MappingProxyType({slug: index for index, slug in enumerate(SCORING_SLUGS)})


@lru_cache(maxsize=1 << 18)
def _ribbon_counts_cached(masks: tuple[int, ...]) -> tuple[int, ...]:
    positions, counts = _positions_and_counts(masks)
    bonus = 0
    for bonus_bit, element in _BONUS_PAIRS:
        for mask in masks:
            if mask & bonus_bit:
                bonus += counts[element]
    return (*(rule(masks, positions, counts) for rule in _RULE_FUNCTIONS), bonus)


@lru_cache(maxsize=256)
def _value_function(slugs: tuple[str, ...]) -> Callable[[tuple[int, ...]], int]:
    tables = tuple((_SLUG_INDEX[slug], (0, *scoring_card(slug).points)) for slug in slugs)

    def value(counts: tuple[int, ...]) -> int:
        total = SILVER_POINTS * counts[-1]
        for index, points in tables:
            ribbons = counts[index]
            total += points[ribbons if ribbons < len(points) else -1]
        return total

    return value
