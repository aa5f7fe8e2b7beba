"""A painting: 3 Art Cards layered bottom to top, and what it shows (rulebook p. 4; FACTS.md section 2).

The layering rule is one small pure function, `layer`: at each swatch the top-most card that has a stripe
there shows its whole stripe and hides the stripes of the cards beneath it at that swatch.
A painting can also be built straight from 5 swatches of icons (to score a drawing or a hypothetical).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .data import (
    BONUS_ELEMENT,
    CARDS_PER_PAINTING,
    ELEMENTS,
    ICON_BIT,
    ICONS,
    SWATCH_COUNT,
    ArtCard,
    card,
    icons_of,
)


class PaintingError(ValueError):
    """A painting cannot be built from that input (wrong number of cards or swatches, repeats, bad icons)."""


@dataclass(frozen=True)
class Painting:
    """What a finished painting shows: visible icon masks per swatch, the card behind each, and the title."""

    masks: tuple[int, ...]
    cards: tuple[int, ...] = ()
    shown_by: tuple[int | None, ...] = (None,) * SWATCH_COUNT
    title: str | None = None

    @classmethod
    def from_cards(cls, cards: Sequence[str | int | ArtCard]) -> Painting:
        """Layer exactly 3 distinct Art Cards (titles, ids or ArtCard), listed bottom to top."""
        if isinstance(cards, str | bytes) or len(cards) != CARDS_PER_PAINTING:
            count = "a string" if isinstance(cards, str | bytes) else len(cards)
            raise PaintingError(f"expected {CARDS_PER_PAINTING} Art Cards (bottom to top), got {count}")
        resolved = tuple(card(name) for name in cards)
        ids = [art_card.id for art_card in resolved]
        repeated = sorted({art_card.title for art_card in resolved if ids.count(art_card.id) > 1})
        if repeated:
            raise PaintingError(f"expected {CARDS_PER_PAINTING} different Art Cards, got {', '.join(repeated)} more than once")
        masks, shown_by = layer(resolved)
        return cls(masks=masks, cards=tuple(ids), shown_by=shown_by, title=painting_title(resolved))

    @classmethod
    def from_swatches(cls, swatches: Sequence[Iterable[str]]) -> Painting:
        """A painting from 5 swatches (left to right), each a list of icon names such as "hue" or "per-tone"."""
        if isinstance(swatches, str | bytes) or len(swatches) != SWATCH_COUNT:
            count = "a string" if isinstance(swatches, str | bytes) else len(swatches)
            raise PaintingError(f"expected {SWATCH_COUNT} swatches, got {count}")
        masks = []
        for number, swatch in enumerate(swatches, start=1):
            if isinstance(swatch, str | bytes) or not isinstance(swatch, Iterable):
                raise PaintingError(f"swatch {number}: expected a list of icon names, got {swatch!r}")
            mask = 0
            for icon in swatch:
                if not isinstance(icon, str) or icon not in ICON_BIT:
                    raise PaintingError(
                        f"swatch {number}: unknown icon {icon!r}; expected one of {', '.join(ICONS)}"
                    )
                if mask & ICON_BIT[icon]:
                    raise PaintingError(
                        f"swatch {number}: icon {icon!r} twice; a swatch shows each icon at most once"
                    )
                mask |= ICON_BIT[icon]
            masks.append(mask)
        return cls(masks=tuple(masks))

    @property
    def visible(self) -> tuple[tuple[str, ...], ...]:
        """The visible icons of each of the 5 swatches, left to right."""
        return tuple(icons_of(mask) for mask in self.masks)

    def element_counts(self) -> dict[str, int]:
        """How many of each Element is visible (bonus icons are not Elements)."""
        return {element: sum(1 for mask in self.masks if mask & ICON_BIT[element]) for element in ELEMENTS}

    def bonus_icons(self) -> tuple[str, ...]:
        """The visible per-X bonus icons, left to right."""
        return tuple(icon for mask in self.masks for icon in icons_of(mask) if icon in BONUS_ELEMENT)

    def to_dict(self) -> dict:
        """JSON form: visible icons, cards (bottom to top), which card shows each swatch, title."""
        return {
            "visible": [list(swatch) for swatch in self.visible],
            "cards": list(self.cards),
            "shown_by": list(self.shown_by),
            "title": self.title,
        }


def layer(cards: Sequence[ArtCard]) -> tuple[tuple[int, ...], tuple[int | None, ...]]:
    """Visible swatch masks and the id of the card showing each swatch, for cards listed bottom to top."""
    masks = [0] * SWATCH_COUNT
    shown_by: list[int | None] = [None] * SWATCH_COUNT
    for art_card in cards:
        for index, stripe_mask in enumerate(art_card.masks):
            # A stripe hides the whole stripe beneath it, not icon by icon (FACTS.md section 2).
            if stripe_mask:
                masks[index] = stripe_mask
                shown_by[index] = art_card.id
    return tuple(masks), tuple(shown_by)


def painting_title(cards: Sequence[ArtCard]) -> str | None:
    """Top-most left-slot word, then top-most right-slot word; either may be missing (ruling 8.4)."""
    left = next((art_card.title for art_card in reversed(cards) if art_card.title_slot == "left"), None)
    right = next((art_card.title for art_card in reversed(cards) if art_card.title_slot == "right"), None)
    words = [word for word in (left, right) if word]
    return " ".join(words) if words else None
