"""Final scores, scenario goals, solo levels and achievements on crafted finished games (p. 5-6)."""

from rulesbot.engine import canvas


def finished_game(ribbons, silver, painting_ribbons, scenario="first-time-playing", level=None, tokens=0):
    """A 1-player finished game with the given ribbons (first-time-playing order unless scoring is given)."""
    state = canvas.new_game(1, "base", scoring=scenario, seed=3, level=level)
    data = state.to_dict()
    used, deck = data["deck"][:9], data["deck"][9:]
    data["deck"] = deck
    data["players"][0].update(
        tokens=tokens,
        ribbons=list(ribbons),
        silver=sum(silver),
        paintings=[
            {
                "cards": used[3 * index : 3 * index + 3],
                "ribbons": list(met),
                "taken": list(met),
                "silver": extra,
            }
            for index, (met, extra) in enumerate(zip(painting_ribbons, silver, strict=True))
        ],
    )
    return canvas.GameState.from_dict(data)


def test_designers_top_score_beaten():  # p. 6: "Beat the designers' top score (47)"
    # first-time-playing order: composition, emphasis, repetition, variety -> 9 + 11 + 16 + 13 = 49
    state = finished_game([3, 3, 4, 3], [0, 0, 0], [[1, 1, 2, 1], [1, 1, 1, 1], [1, 1, 1, 1]])
    result = canvas.results(state)
    assert result.players[0].total == 49
    assert result.scenario_passed is True
    earned = canvas.achievements(state, 0)
    assert {
        "beat-the-designers",
        "forty-points",
        "max-ribbons-all-cards",
        "all-conditions-one-painting",
    } <= set(earned)
    assert "fourteen-ribbons" not in earned  # 13 ribbons


def test_forty_seven_does_not_beat_the_designers():
    # composition 3 (9) + emphasis 3 (11) + repetition 3 (11) + variety 3 (13) = 44, plus 1 silver (2) = 46
    state = finished_game([3, 3, 3, 3], [1, 0, 0], [[1, 1, 1, 1], [1, 1, 1, 1], [1, 1, 1, 1]])
    assert canvas.results(state).players[0].total == 46
    assert "beat-the-designers" not in canvas.achievements(state, 0)
    assert "forty-points" in canvas.achievements(state, 0)


def test_silver_achievements_and_failed_scenario():
    state = finished_game([0, 0, 0, 0], [4, 3, 0], [[0, 0, 0, 0]] * 3, scenario="bonus")
    earned = canvas.achievements(state, 0)
    assert {"four-silver-one-painting", "seven-silver"} <= set(earned)
    assert canvas.results(state).scenario_passed is False  # 14 points < 40


def test_every_scenario_needs_the_others():
    state = finished_game([3, 3, 4, 3], [0, 0, 0], [[1, 1, 2, 1], [1, 1, 1, 1], [1, 1, 1, 1]])
    others = [entry.slug for entry in canvas.SCENARIOS if entry.slug != "first-time-playing"]
    assert "every-scenario" not in canvas.achievements(state, 0, passed_scenarios=others[:-1])
    assert "every-scenario" in canvas.achievements(state, 0, passed_scenarios=others)


def test_solo_level():  # p. 5: meet or exceed the level's score
    state = finished_game(
        [1, 1, 2, 3], [0, 0, 0], [[1, 1, 1, 1]] * 3, scenario="first-time-playing", level="normal"
    )
    total = canvas.results(state).players[0].total  # 1 + 1 + 7 + 13 = 22
    assert total == 22 and canvas.results(state).solo_passed is False


def test_final_score_example():  # p. 5: 29
    assert canvas.final_score(canvas.FIRST_GAME_CARDS, [2, 3, 1, 2], 3) == 29
