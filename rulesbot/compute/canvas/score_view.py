"""Canvas's readable `rulesbot score` output: the painting's swatches, who shows them, ribbons and points (rich tables).

The CLI reaches it through the game's GameSpec (`score_view`); bad input raises ValueError with a one-line message.
"""

from __future__ import annotations

from rulesbot.engine import canvas

_SWATCH_STYLES = ("red", "yellow", "green", "blue", "magenta")


def print_score(cards: list[str], scoring_option: str | None) -> None:
    """Score 3 Art Cards (bottom to top) on a scenario or named Scoring Cards, and print the tables."""
    from rich.console import Console
    from rich.table import Table

    try:
        slugs = _resolve_scoring(scoring_option)
        request = {"cards": [int(name) if name.isdigit() else name for name in cards], "scoring": list(slugs)}
        result = canvas.score_request(request)
    except canvas.ScoreInputError as error:
        raise ValueError(str(error)) from None
    painting = canvas.Painting.from_cards(request["cards"])
    console = Console()
    titles = [canvas.card(card_id).title for card_id in painting.cards]
    console.print(f"[bold]{result['title']}[/bold]  (bottom to top: {', '.join(titles)})")
    swatches = Table(show_header=True, header_style="bold")
    swatches.add_column("")
    for number, style in enumerate(_SWATCH_STYLES, start=1):
        swatches.add_column(f"[{style}]{number} {canvas.SWATCH_COLOURS[number - 1]}[/{style}]")
    swatches.add_row("icons", *[" ".join(icons) or "-" for icons in result["visible"]])
    swatches.add_row(
        "shown by", *[canvas.card(card_id).title if card_id else "-" for card_id in painting.shown_by]
    )
    console.print(swatches)
    earned = Table(show_header=True, header_style="bold")
    for column in ("Scoring Card", "Carte de score", "ribbons", "points (alone)"):
        earned.add_column(column)
    for slug, ribbons in result["ribbons"].items():
        entry = canvas.scoring_card(slug)
        earned.add_row(entry.name_en, entry.name_fr, str(ribbons), str(canvas.points_for(slug, ribbons)))
    earned.add_row(
        "Silver (bonus)", "Argent (bonus)", str(result["bonus"]), str(canvas.SILVER_POINTS * result["bonus"])
    )
    console.print(earned)
    total = canvas.score_painting(painting, slugs).points()
    console.print(f"Worth [bold]{total}[/bold] points as a player's only painting ({canvas.RULES_VERSION}).")


def _resolve_scoring(option: str | None) -> tuple[str, ...]:
    """A scenario name, or comma-separated Scoring Card names; None means all 12."""
    if option is None:
        return canvas.SCORING_SLUGS
    try:
        chosen = canvas.scenario(option)
    except canvas.UnknownScenario:
        slugs = tuple(canvas.scoring_card(name).slug for name in option.split(",") if name.strip())
        if not slugs:
            # An empty option is a slip, not a request to score against no card (which silently gives 0 ribbons).
            raise ValueError("--scoring names no Scoring Card: give a scenario or comma-separated card names") from None
        return slugs
    if chosen.random_cards:
        raise ValueError(f"scenario {chosen.slug!r} draws random Scoring Cards: name the cards instead")
    return chosen.cards
