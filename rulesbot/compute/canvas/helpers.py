"""Small helpers on top of the Canvas engine's public functions that the Q&A layer needs and the engine lacks.

- `first_game_colours()`: which Scoring Card sits on each ribbon colour in the first-game setup (the engine's
  mat slots zipped with its first-game cards, which it lists in mat order).
- `legality(...)`: build the smallest game state that poses a "can I ...?" question and ask `check_action`.
- `painting_achievements(...)`: the one-painting achievements a painting earns, judged by the engine.
- `element_name` / `scoring_name`: an engine name in the answer's language.
"""

from __future__ import annotations

from dataclasses import replace

from rulesbot.engine import canvas as engine
from rulesbot.engine.canvas.data import CARDS_PER_PAINTING


def _game_module():
    # The game functions are re-exported by the engine package once they land; the module works either way.
    from rulesbot.engine.canvas import game

    return game


def first_game_colours() -> dict[str, str]:
    """Ribbon colour (mat slot) -> Scoring Card slug in the first-game setup."""
    return dict(zip(_mat_slots(), engine.FIRST_GAME_CARDS, strict=True))


def mat_slots() -> tuple[str, ...]:
    """The ribbon colours of the mat's Scoring Card spaces, in the order Scoring Cards are listed."""
    return _mat_slots()


def _mat_slots() -> tuple[str, ...]:
    from rulesbot.engine.canvas import data

    return data.MAT_SLOTS


def element_name(element: str, lang: str) -> str:
    """"Hue" / "Teinte" for an Element slug."""
    from rulesbot.engine.canvas import data

    return data.ELEMENT_NAMES[element][lang]


def icon_name(icon: str, lang: str, per_word: str) -> str:
    """An icon in words: an Element name, or a bonus icon as "<per> <Element>"."""
    from rulesbot.engine.canvas import data

    if icon in data.BONUS_ELEMENT:
        return f"{per_word} {element_name(data.BONUS_ELEMENT[icon], lang)}"
    return element_name(icon, lang)


def scoring_name(slug: str, lang: str) -> str:
    """A Scoring Card's name in the answer's language."""
    scoring = engine.scoring_card(slug)
    return scoring.name_fr if lang == "fr" else scoring.name_en


def base_rules():
    """The base game's settings (hand limit, row size, paintings, starting tokens)."""
    return engine.ruleset("base")


def legality(kind: str, *, hand: int = 0, paint_cards: int = CARDS_PER_PAINTING, position: int = 1, tokens: int | None = None,
             paintings_done: int = 0, everyone_done: bool = False, out_of_turn: bool = False,
             duplicate: bool = False) -> tuple[str | None, dict]:
    """Ask the engine whether one action is legal in a minimal 2-player state; (reason code or None, state summary).

    kind is "take" (take the card at `position`) or "paint" (paint `paint_cards` cards from a hand of `hand`).
    """
    game = _game_module()
    rules = base_rules()
    cards = [art_card.id for art_card in engine.ART_CARDS]
    row, rest = cards[: rules.row_size], cards[rules.row_size:]
    hand_ids, rest = rest[:hand], rest[hand:]
    other_hand, rest = rest[:1], rest[1:]
    state = game.custom_game(
        row=row,
        hands=(hand_ids, other_hand),
        tokens=(rules.starting_tokens if tokens is None else tokens, rules.starting_tokens),
        current=1 if out_of_turn else 0,
    )
    finished = rules.paintings if (paintings_done >= rules.paintings or everyone_done) else paintings_done
    if finished:
        state, rest = _with_paintings(state, 0, finished, rest)
    if everyone_done:
        state, rest = _with_paintings(state, 1, rules.paintings, rest)
    if kind == "take":
        action = game.TakeCard(player=0, position=position)
    else:
        chosen = list(hand_ids[:paint_cards])
        if duplicate and chosen:
            chosen = [chosen[0], *chosen[: max(paint_cards - 1, 0)]]
        action = game.CompletePainting(player=0, cards=tuple(chosen))
    code = game.check_action(state, action)
    summary = {
        "hand": len(hand_ids),
        "tokens": state.players[0].tokens,
        "paintings": len(state.players[0].paintings),
        "action": action.to_dict(),
        "reason": code,
    }
    return code, summary


def painting_achievements(cards, scoring: list[str]) -> tuple[tuple[str, ...], object]:
    """(slugs of the one-painting achievements this painting earns, its engine PaintingRecord), from the engine.

    The engine judges achievements on a finished game: the painting is completed from a hand (so the engine takes
    its ribbons), then stands for every painting of every player; only the per-painting achievements are kept.
    """
    game = _game_module()
    state = game.custom_game(row=[], hands=([art_card.id for art_card in cards], ()), scoring=list(scoring))
    after = game.apply_action(state, game.CompletePainting(player=0, cards=tuple(state.players[0].hand)))
    record = after.players[0].paintings[0]
    players = tuple(replace(held, paintings=(record,) * after.rules.paintings) for held in after.players)
    finished = replace(after, players=players)
    one_painting = {entry.slug for entry in engine.ACHIEVEMENTS if entry.kind.startswith("painting_")}
    return tuple(slug for slug in engine.achievements(finished, 0) if slug in one_painting), record


def _with_paintings(state, player: int, count: int, pool: list[int]):
    game = _game_module()
    records = []
    for _ in range(count):
        trio, pool = tuple(pool[:CARDS_PER_PAINTING]), pool[CARDS_PER_PAINTING:]
        records.append(game.PaintingRecord(cards=trio, ribbons=(0,) * len(state.scoring),
                                           taken=(0,) * len(state.scoring), silver=0))
    players = list(state.players)
    players[player] = replace(players[player], paintings=tuple(records))
    used = {card_id for record in records for card_id in record.cards}
    return replace(state, players=tuple(players), deck=tuple(c for c in state.deck if c not in used)), pool


def reason_text(code: str, lang: str) -> str:
    """The engine's own wording of an illegal-action reason, in the answer's language."""
    return engine.ILLEGAL_ACTIONS[code][lang]
