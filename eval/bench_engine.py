"""Benchmark of the Canvas rules engine (not a test): prints timings measured on this machine.

1. every ordered painting of 3 distinct Art Cards (60*59*58 = 205,320) scored on all 12 Scoring Cards;
2. the best arrangement of a 5-card hand for 4 Scoring Cards (`best_painting`);
3. random full games simulated per second (2 and 4 players).

Run: python eval/bench_engine.py
"""

import itertools
import random
import statistics
import time

from rulesbot.engine import canvas
from rulesbot.engine.canvas.scoring import clear_score_cache, ribbon_counts, score_cache_size


def bench_all_paintings() -> tuple[float, int, int]:
    """Score every ordered triple; returns (seconds, paintings, distinct visible layouts)."""
    clear_score_cache()  # measure from a cold cache
    card_masks = [art_card.masks for art_card in canvas.ART_CARDS]
    start = time.perf_counter()
    total_ribbons = 0
    count = 0
    for bottom, middle, top in itertools.permutations(card_masks, 3):
        masks = (
            top[0] or middle[0] or bottom[0],
            top[1] or middle[1] or bottom[1],
            top[2] or middle[2] or bottom[2],
            top[3] or middle[3] or bottom[3],
            top[4] or middle[4] or bottom[4],
        )
        total_ribbons += sum(ribbon_counts(masks))
        count += 1
    elapsed = time.perf_counter() - start
    return elapsed, count, score_cache_size()


def bench_best_painting(rounds: int = 300, cold: bool = False) -> float:
    """Median milliseconds of best_painting on random 5-card hands for 4 random Scoring Cards."""
    rng = random.Random(5)
    timings = []
    for _ in range(rounds):
        if cold:
            clear_score_cache()
        hand = rng.sample(range(1, 61), 5)
        scoring = rng.sample(canvas.SCORING_SLUGS, 4)
        start = time.perf_counter()
        canvas.best_painting(hand, scoring)
        timings.append((time.perf_counter() - start) * 1000)
    return statistics.median(timings)


def bench_games(players: int, seconds: float = 3.0) -> float:
    """Random-bot full games per second."""
    games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = canvas.new_game(players, scoring="first-time-playing", seed=games)
        canvas.play_game(state, [canvas.random_bot] * players, seed=games)
        games += 1
    return games / (time.perf_counter() - start)


def main() -> None:
    """Print every figure."""
    elapsed, count, distinct = bench_all_paintings()
    print(
        f"all ordered paintings: {count:,} scored on 12 cards in {elapsed:.2f} s "
        f"({distinct:,} distinct visible layouts; target < 10 s)"
    )
    print(
        "best arrangement of a 5-card hand, 4 Scoring Cards (target < 5 ms): "
        f"{bench_best_painting(cold=True):.2f} ms median cold cache, {bench_best_painting():.2f} ms warm"
    )
    for players in (2, 4):
        print(f"random full games, {players} players: {bench_games(players):.0f} games/s")
    print(f"rules version: {canvas.RULES_VERSION}")


if __name__ == "__main__":
    main()
