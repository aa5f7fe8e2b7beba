"""The Canvas knowledge pack: it loads, every passage cites a real page and has its twin, key concepts cite the
pages of the rulebook (FACTS.md section 7), and the numbers quoted in the passages agree with the engine's data."""

import json
import re
from pathlib import Path

import pytest
from rulesbot.engine import canvas as engine

from rulesbot.errors import PackError
from rulesbot.knowledge import load_pack, load_packs

PACK_DIR = Path(__file__).resolve().parents[1] / "knowledge" / "canvas"
LANGS = ("en", "fr")

# The main page of key concepts, from the rulebook page map (FACTS.md section 7).
KEY_PAGES = {
    "overview": 1,
    "elements": 1,
    "bonus-icons": 1,
    "color-swatches": 1,
    "art-card-anatomy": 1,
    "components": 2,
    "setup-mat": 2,
    "setup-scoring-cards": 2,
    "setup-ribbons": 2,
    "setup-art-cards": 2,
    "setup-backgrounds": 2,
    "setup-tokens": 2,
    "player-setup": 2,
    "first-game-cards": 2,
    "turn-order": 3,
    "turn-actions": 3,
    "hand-limit": 3,
    "take-card-free": 3,
    "skip-cards": 3,
    "gain-tokens": 3,
    "slide-refill": 3,
    "example-abby-take": 3,
    "example-charlotte-take": 3,
    "painting-three-cards": 4,
    "covered-icons": 4,
    "leftover-cards": 4,
    "element-once": 4,
    "ribbon-max": 4,
    "ribbons-run-out": 4,
    "scoring-card-anatomy": 4,
    "abby-scoring-example": 4,
    "game-end": 5,
    "skipped-turns": 5,
    "final-score": 5,
    "silver-points": 5,
    "tie-break": 5,
    "example-final-score": 5,
    "vincent-turn": 5,
    "solo-puzzle-setup": 5,
    "solo-scoring": 5,
    "scenarios": 6,
    "achievements": 6,
}

# Rulebook p. 4: the first-game cards, the mat colour each sits on, and their printed points.
FIRST_GAME_PRINTED = {
    "variety": ("red", "rouges", (4, 8, 13)),
    "repetition": ("green", "verts", (3, 7, 11, 16)),
    "emphasis": ("blue", "bleus", (1, 4, 11)),
    "composition": ("violet", "violets", (1, 3, 9)),
}

POINTS_PATTERN = {
    "en": (re.compile(r"Points: (.*?) \((\d+) ribbons at most\)"), re.compile(r"(\d+) for (\d+)")),
    "fr": (re.compile(r"Points : (.*?) \((\d+) rubans au maximum\)"), re.compile(r"(\d+) pour (\d+)")),
}


@pytest.fixture(scope="module")
def pack():
    return load_pack(PACK_DIR)


@pytest.fixture(scope="module")
def rulebook(pack):
    """Rulebook entries by (concept_id, lang)."""
    return {(e.concept_id, e.lang): e for e in pack.entries if e.source == "rulebook"}


def _text(rulebook, concept, lang):
    assert (concept, lang) in rulebook, f"no {lang} rulebook passage for {concept}"
    return rulebook[(concept, lang)].text


def _names(lang):
    return {card.slug: (card.name_en if lang == "en" else card.name_fr) for card in engine.SCORING_CARDS}


# ---- loading and structure


def test_pack_loads_with_its_manifest(pack):
    assert pack.manifest.game == "canvas"
    assert pack.manifest.pages == 6
    assert set(pack.manifest.languages) == set(LANGS)
    assert pack.manifest.engine == "canvas"
    assert pack.manifest.rules_version == engine.RULES_VERSION
    assert set(pack.manifest.description) == set(LANGS)


def test_shipped_packs_include_canvas():
    packs = load_packs()
    assert "canvas" in packs
    assert len(packs["canvas"].entries) == len(load_pack(PACK_DIR).entries)


def test_rulebook_is_large_enough(rulebook):
    concepts = {concept for concept, _ in rulebook}
    assert 80 <= len(concepts) <= 130


def test_every_entry_cites_a_page_of_the_rulebook(pack):
    for entry in pack.entries:
        assert entry.pages, entry.id
        assert all(1 <= page <= 6 for page in entry.pages), (entry.id, entry.pages)


def test_every_concept_has_an_english_and_a_french_twin(pack):
    langs: dict[tuple[str, str], set[str]] = {}
    for entry in pack.entries:
        langs.setdefault((entry.source, entry.concept_id), set()).add(entry.lang)
    missing = {key: sorted(set(LANGS) - found) for key, found in langs.items() if found != set(LANGS)}
    assert not missing


def test_twins_share_pages(rulebook):
    for (concept, lang), entry in rulebook.items():
        if lang == "en":
            assert entry.pages == rulebook[(concept, "fr")].pages, concept


def test_ids_are_unique_and_follow_the_convention(pack):
    ids = [entry.id for entry in pack.entries]
    assert len(ids) == len(set(ids))
    for entry in pack.entries:
        if entry.source == "rulebook":
            assert entry.id == f"canvas.{entry.lang}.{entry.concept_id}"


def test_rulebook_files_hold_only_their_language():
    for lang in LANGS:
        lines = (PACK_DIR / f"rulebook.{lang}.jsonl").read_text(encoding="utf-8").splitlines()
        for line in lines:
            record = json.loads(line)
            assert record["lang"] == lang
            assert record["source"] == "rulebook"


def test_passages_are_short_and_paraphrases_few(rulebook):
    for (concept, lang), entry in rulebook.items():
        assert len(entry.text.split()) <= 75, (concept, lang)
        # A few ways of asking per passage (each is one more vector to embed); FAQ records carry the many.
        assert len(entry.paraphrases) <= 5, (concept, lang)
        assert all(p.strip() for p in entry.paraphrases), (concept, lang)


def test_french_passages_are_written_impersonally(rulebook):
    # House style: "on"/"chaque joueur", neither "tu" nor "vous".
    pronouns = re.compile(r"\b(tu|vous|votre|vos|ta|tes)\b", re.IGNORECASE)
    for (concept, lang), entry in rulebook.items():
        if lang == "fr":
            assert not pronouns.search(entry.text), concept


@pytest.mark.parametrize(("concept", "page"), sorted(KEY_PAGES.items()))
def test_key_concepts_cite_the_right_page(rulebook, concept, page):
    for lang in LANGS:
        assert rulebook[(concept, lang)].page == page


def test_all_setup_steps_are_on_page_2(rulebook):
    setup = [concept for concept, lang in rulebook if lang == "en" and concept.startswith("setup-")]
    assert len(setup) == 6  # steps A-F
    assert all(rulebook[(concept, "en")].page == 2 for concept in setup)


def test_scenarios_and_achievements_are_on_page_6(rulebook):
    for concept, lang in rulebook:
        if concept.startswith(("scenario-", "achievements")):
            assert rulebook[(concept, lang)].page == 6, concept


# ---- the loader rejects broken packs


def _write_pack(folder: Path, lines: list[dict]) -> Path:
    folder.mkdir()
    (folder / "pack.json").write_text((PACK_DIR / "pack.json").read_text(encoding="utf-8"), encoding="utf-8")
    body = "\n".join(json.dumps(line, ensure_ascii=False) for line in lines)
    (folder / "rulebook.en.jsonl").write_text(body + "\n", encoding="utf-8")
    return folder


def _entry(lang, pages=(3,)):
    return {
        "id": f"canvas.{lang}.hand-limit",
        "concept_id": "hand-limit",
        "lang": lang,
        "source": "rulebook",
        "pages": list(pages),
        "section": "x",
        "text": "x",
    }


def test_loader_rejects_a_passage_without_its_twin(tmp_path):
    with pytest.raises(PackError, match="no twin in fr"):
        load_pack(_write_pack(tmp_path / "canvas", [_entry("en")]))


def test_loader_rejects_a_passage_without_a_page(tmp_path):
    with pytest.raises(PackError, match="pages"):
        load_pack(_write_pack(tmp_path / "canvas", [_entry("en", pages=()), _entry("fr")]))


def test_loader_rejects_a_page_beyond_the_rulebook(tmp_path):
    with pytest.raises(PackError, match="page 7"):
        load_pack(_write_pack(tmp_path / "canvas", [_entry("en", pages=(7,)), _entry("fr", pages=(7,))]))


def _faq_entry(lang, **extra):
    return {
        "id": f"canvas.{lang}.faq.hand-limit",
        "concept_id": "faq.hand-limit",
        "lang": lang,
        "source": "faq",
        "pages": [3],
        "section": "x",
        "question": "How many cards can I hold?",
        "text": "A player holds at most 5 Art Cards.",
        **extra,
    }


def test_loader_accepts_a_short_lead_on_an_faq_record(tmp_path):
    loaded = load_pack(_write_pack(tmp_path / "canvas", [_faq_entry("en", lead="5."), _faq_entry("fr")]))
    assert loaded.by_id["canvas.en.faq.hand-limit"].lead == "5."
    assert loaded.by_id["canvas.fr.faq.hand-limit"].lead is None


def test_loader_rejects_a_lead_on_a_rulebook_passage(tmp_path):
    with pytest.raises(PackError, match="only FAQ entries have a lead"):
        load_pack(_write_pack(tmp_path / "canvas", [{**_entry("en"), "lead": "Yes."}, _entry("fr")]))


@pytest.mark.parametrize("lead", ["", "Yes, " + "and so on " * 5])
def test_loader_rejects_an_empty_or_long_lead(tmp_path, lead):
    with pytest.raises(PackError, match="lead"):
        load_pack(_write_pack(tmp_path / "canvas", [_faq_entry("en", lead=lead), _faq_entry("fr")]))


# ---- numbers quoted in passages agree with the engine's data


def test_every_scoring_card_has_a_passage(rulebook):
    card_concepts = {concept for concept, _ in rulebook if concept.startswith("card-")}
    assert card_concepts == {f"card-{slug}" for slug in engine.SCORING_SLUGS}
    assert len(card_concepts) == 12


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("slug", sorted(card.slug for card in engine.SCORING_CARDS))
def test_scoring_card_points_match_the_engine(rulebook, slug, lang):
    card = engine.scoring_card(slug)
    entry = rulebook[(f"card-{slug}", lang)]
    table, pair = POINTS_PATTERN[lang]
    match = table.search(entry.text)
    assert match, f"{entry.id}: no points table"
    quoted = {int(ribbons): int(points) for points, ribbons in pair.findall(match.group(1))}
    assert quoted == {ribbons: points for ribbons, points in enumerate(card.points, start=1)}
    assert int(match.group(2)) == card.max_ribbons == len(card.points)
    name = card.name_en if lang == "en" else card.name_fr
    assert entry.text.startswith(name)
    assert entry.page == 4
    # The rulebook sends players to the card's back for clarifications.
    assert ("card's back" if lang == "en" else "dos de la carte") in entry.text


@pytest.mark.parametrize("slug", sorted(FIRST_GAME_PRINTED))
def test_first_game_cards_match_the_printed_rulebook(rulebook, slug):
    colour_en, colour_fr, printed = FIRST_GAME_PRINTED[slug]
    assert engine.scoring_card(slug).points == printed
    assert f"{colour_en} Ribbons" in _text(rulebook, f"card-{slug}", "en")
    assert f"rubans {colour_fr}" in _text(rulebook, f"card-{slug}", "fr")


def test_first_game_cards_match_the_engine(rulebook):
    names = {lang: _names(lang) for lang in LANGS}
    assert set(engine.FIRST_GAME_CARDS) == set(FIRST_GAME_PRINTED)
    for lang in LANGS:
        text = _text(rulebook, "first-game-cards", lang)
        for slug in engine.FIRST_GAME_CARDS:
            assert names[lang][slug] in text


def test_example_final_score_adds_up(rulebook):
    text = _text(rulebook, "example-final-score", "en")
    quoted = {
        colour: (int(count), int(points))
        for count, colour, points in re.findall(r"(\d+) (red|green|blue|violet|Silver)[^(]*\((\d+)", text)
    }
    by_colour = {colour: slug for slug, (colour, _, _) in FIRST_GAME_PRINTED.items()}
    assert set(quoted) == {"red", "green", "blue", "violet", "Silver"}
    for colour, (count, points) in quoted.items():
        if colour == "Silver":
            assert points == count * engine.SILVER_POINTS
        else:
            assert points == engine.points_for(engine.scoring_card(by_colour[colour]), count), colour
    total = int(re.search(r"total of (\d+) points", text).group(1))
    assert total == sum(points for _, points in quoted.values()) == 29
    assert "29 points" in _text(rulebook, "example-final-score", "fr")


def test_silver_ribbon_value_matches_the_engine(rulebook):
    assert f"worth {engine.SILVER_POINTS} points" in _text(rulebook, "silver-points", "en")
    assert f"vaut {engine.SILVER_POINTS} points" in _text(rulebook, "silver-points", "fr")
    assert f"{engine.SILVER_POINTS} points per Silver Ribbon" in _text(rulebook, "final-score", "en")


@pytest.mark.parametrize("lang", LANGS)
def test_solo_levels_match_the_engine(rulebook, lang):
    text = _text(rulebook, "solo-scoring", lang)
    quoted = dict(re.findall(r"(\w+) (\d+)\+", text))
    expected = {
        (level.name_en if lang == "en" else level.name_fr): str(level.target) for level in engine.SOLO_LEVELS
    }
    assert quoted == expected


def test_every_scenario_has_a_passage_matching_the_engine(rulebook):
    scenario_concepts = {concept for concept, _ in rulebook if concept.startswith("scenario-")}
    assert scenario_concepts == {f"scenario-{scenario.slug}" for scenario in engine.SCENARIOS}
    assert len(scenario_concepts) == 9
    for scenario in engine.SCENARIOS:
        for lang, goal_word in (("en", "goal"), ("fr", "objectif")):
            text = _text(rulebook, f"scenario-{scenario.slug}", lang)
            assert text.startswith(scenario.name)
            assert re.search(rf"\b{goal_word} (\d+)\b", text).group(1) == str(scenario.goal)
            named = {slug for slug, name in _names(lang).items() if re.search(rf"\b{name}\b", text)}
            assert named == set(scenario.cards), (scenario.slug, lang)
            if scenario.random_cards:
                assert f"{scenario.random_cards} " in text
                assert ("random" if lang == "en" else "hasard") in text
            # The passage states how many Scoring Cards the scenario uses (a how-many question finds the number).
            count = scenario.random_cards or len(scenario.cards)
            noun = "Scoring Cards" if lang == "en" else "cartes de score"
            assert re.search(rf"\b{count} {noun}\b", text), (scenario.slug, lang)


@pytest.mark.parametrize("lang", LANGS)
def test_achievements_list_every_achievement(rulebook, lang):
    items = 0
    for concept in ("achievements-painting", "achievements-game"):
        text = _text(rulebook, concept, lang)
        items += len(text.split(":", 1)[1].split(";"))
    assert items == len(engine.ACHIEVEMENTS) == 10
    assert f"{len(engine.ACHIEVEMENTS)} " in _text(rulebook, "achievements", lang)


def test_setup_numbers_match_the_engine(rulebook):
    base = engine.ruleset("base")
    assert f"at most {base.hand_limit} Art Cards" in _text(rulebook, "hand-limit", "en")
    assert f"maximum {base.hand_limit} cartes Art" in _text(rulebook, "hand-limit", "fr")
    assert f"takes {base.starting_tokens} Inspiration Tokens" in _text(rulebook, "setup-tokens", "en")
    assert f"prend {base.starting_tokens} jetons Inspiration" in _text(rulebook, "setup-tokens", "fr")
    assert f"takes {base.backgrounds} sleeved Background Cards" in _text(rulebook, "setup-backgrounds", "en")
    assert f"row of {base.row_size} face-up" in _text(rulebook, "art-card-row", "en")
    assert f"exactly {base.paintings} paintings" in _text(rulebook, "three-paintings", "en")
    assert f"starts with {engine.ruleset('vincent').vincent_tokens} Inspiration" in _text(
        rulebook, "vincent-setup", "en"
    )
    assert f"up to {base.vincent_max_face_up} tokens" in _text(rulebook, "vincent-turn", "en")
    puzzle = engine.ruleset("solo-puzzle")
    assert f"supply of {puzzle.token_supply} Inspiration" in _text(rulebook, "solo-puzzle-setup", "en")


def test_components_match_the_engine(rulebook):
    for lang, art, scoring in (("en", "Art Cards", "Scoring Cards"), ("fr", "cartes Art", "cartes de score")):
        text = _text(rulebook, "components", lang)
        assert f"{len(engine.ART_CARDS)} {art}" in text
        assert f"{len(engine.SCORING_CARDS)} {scoring}" in text


@pytest.mark.parametrize("lang", LANGS)
def test_card_cost_matches_the_engine(rulebook, lang):
    text = _text(rulebook, "take-card-cost", lang)
    quoted = {
        int(position): int(cost)
        for position, cost in re.findall(r"\b(\d)(?:st|nd|rd|th|re|e)\b\D*?(\d+)", text)
    }
    assert quoted == {position: engine.take_cost(position)[0] for position in range(1, 6)}


# ---- FAQ records: texts that stand alone, leads that answer only their own question


@pytest.fixture(scope="module")
def faq(pack):
    """FAQ entries by (concept_id, lang)."""
    return {(entry.concept_id, entry.lang): entry for entry in pack.entries if entry.source == "faq"}


def _faq_text(faq, concept, lang):
    assert (concept, lang) in faq, f"no {lang} FAQ record for {concept}"
    return faq[(concept, lang)].text


# A text may be shown for a question other than its own (or the same one asked the other way round), so it may
# not open with a bare answer word: "No." under "so I can take a 6th card, right?" reads as the opposite rule.
BARE_OPENING = re.compile(r"^(yes|yeah|yep|no|nope|neither|oui|non|ni l'un)\b|^si\s*[,.!]", re.IGNORECASE)
# Nor with a bare number fragment such as "5 at most." or "4.": the subject must be named.
BARE_NUMBER = re.compile(
    r"^(about |environ |de |dès )?\d+( to \d+| à \d+)?( at most| au maximum| points?( each| pièce)?)?\s*[.,:;]"
)


def _first_sentence(text: str) -> str:
    return re.split(r"[.:;!?](?:\s|$)", text, maxsplit=1)[0]


@pytest.mark.parametrize(
    "text",
    [
        "No. A player holds at most 5 cards.",
        "Non, 5.",
        "Oui, les jetons sont à toi.",
        "5 at most. Then paint.",
        "4. Each player takes 4 tokens.",
        "Neither: read the total.",
        "2 points each. Silver Ribbons score 2.",
        "Si, on peut.",
        "NO, never.",
    ],
)
def test_the_standalone_check_catches_a_bare_lead(text):
    assert BARE_OPENING.search(text) or BARE_NUMBER.search(text) or len(_first_sentence(text).split()) < 4


def test_faq_texts_state_the_rule_without_a_bare_lead(faq):
    offenders = []
    for entry in faq.values():
        text = entry.text
        if BARE_OPENING.search(text) or BARE_NUMBER.search(text) or len(_first_sentence(text).split()) < 4:
            offenders.append(f"{entry.id}: {text[:40]!r}")
    assert not offenders, "\n".join(offenders)


def test_only_faq_records_carry_a_lead(pack):
    assert all(entry.lead is None for entry in pack.entries if entry.source != "faq")
    assert sum(entry.lead is not None for entry in pack.entries) >= 60


def test_a_numeric_lead_agrees_with_its_text(faq):
    # The lead only repeats, for the record's own question, what the text already says.
    for entry in faq.values():
        if entry.lead:
            for number in re.findall(r"\d+", entry.lead):
                assert re.search(rf"\b{number}\b", entry.text), (entry.id, entry.lead)


def test_the_faq_covers_at_least_120_concepts_in_both_languages(faq):
    concepts = {concept for concept, _ in faq}
    assert len(concepts) >= 120
    for concept in concepts:
        en, fr = faq[(concept, "en")], faq[(concept, "fr")]
        assert en.pages == fr.pages, concept
        assert bool(en.lead) == bool(fr.lead), concept
        for entry in (en, fr):
            assert entry.id == f"canvas.{entry.lang}.{concept}"
            assert concept.startswith("faq.")
            assert len(entry.paraphrases) >= 5, entry.id
            folded = [p.casefold() for p in entry.paraphrases]
            assert len(set(folded)) == len(folded), entry.id
            assert entry.question.casefold() not in folded, entry.id


# ---- numbers quoted in FAQ texts agree with the engine's data


def _visible_layouts():
    """Every distinct set of visible swatches a painting of 3 real Art Cards can show (any order)."""
    from itertools import permutations

    from rulesbot.engine.canvas.painting import layer

    return {layer(trio)[0] for trio in permutations(engine.ART_CARDS, 3)}


@pytest.fixture(scope="module")
def painting_maxima():
    """The most ribbons of each Scoring Card (and silver) one painting can earn, and the most icons it shows."""
    from rulesbot.engine.canvas.data import icons_of
    from rulesbot.engine.canvas.scoring import ribbon_counts

    best = [0] * (len(engine.SCORING_SLUGS) + 1)
    icons = elements = 0
    per_element = dict.fromkeys(engine.ELEMENTS, 0)
    for masks in _visible_layouts():
        best = [max(a, b) for a, b in zip(best, ribbon_counts(masks), strict=True)]
        shown = [icon for mask in masks for icon in icons_of(mask)]
        icons = max(icons, len(shown))
        elements = max(elements, sum(icon in engine.ELEMENTS for icon in shown))
        per_element = {element: max(count, shown.count(element)) for element, count in per_element.items()}
    return {
        "ribbons": dict(zip(engine.SCORING_SLUGS, best, strict=False)),
        "silver": best[-1],
        "icons": icons,
        "elements": elements,
        "same_element": max(per_element.values()),
        "textures": per_element["texture"],
    }


@pytest.mark.parametrize("lang", LANGS)
def test_per_painting_ribbon_maxima_match_the_engine(faq, painting_maxima, lang):
    # Each card's per-painting maximum is the first number after its name in the text.
    text = _faq_text(faq, "faq.ribbons-per-painting", lang)
    quoted = {}
    for slug, name in _names(lang).items():
        match = re.search(rf"\b{name}\b\D*?(\d+)", text)
        assert match, (lang, name)
        quoted[slug] = int(match.group(1))
    assert quoted == painting_maxima["ribbons"]


@pytest.mark.parametrize("lang", LANGS)
def test_painting_limits_quoted_in_the_faq_match_the_engine(faq, painting_maxima, lang):
    at_most = "at most" if lang == "en" else "au plus"
    maxima = painting_maxima["ribbons"]

    def first_at_most(concept):
        return int(re.search(rf"{at_most} (\d+)", _faq_text(faq, concept, lang)).group(1))

    assert first_at_most("faq.silver-no-cap") == painting_maxima["silver"]
    assert first_at_most("faq.max-icons-painting") == painting_maxima["icons"]
    assert faq[("faq.max-icons-painting", lang)].lead.rstrip(".") == str(painting_maxima["icons"])
    assert first_at_most("faq.proportion-once") == painting_maxima["elements"]
    assert first_at_most("faq.proximity-count") == maxima["proximity"]
    reach = r"can reach (\d+)" if lang == "en" else r"peut en obtenir (\d+)"
    assert int(re.search(reach, _faq_text(faq, "faq.symmetry", lang)).group(1)) == maxima["symmetry"]
    assert first_at_most("faq.two-icons-one-swatch") == painting_maxima["same_element"]
    textures = r"at most (\d+) Textures" if lang == "en" else r"en a au plus (\d+)"
    assert re.search(textures, _faq_text(faq, "faq.style-sets", lang)).group(1) == str(
        painting_maxima["textures"]
    )
    for concept, slug in (
        ("faq.proportion-once", "proportion"),
        ("faq.style-condition", "style"),
        ("faq.composition-condition", "composition"),
        ("faq.style-sets", "style"),
    ):
        quoted = [int(n) for n in re.findall(rf"{at_most} (\d+)", _faq_text(faq, concept, lang))]
        assert maxima[slug] in quoted, (concept, quoted)
        assert maxima[slug] == 1


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize(
    ("concept", "slug"),
    [
        ("faq.composition-condition", "composition"),
        ("faq.style-condition", "style"),
        ("faq.proximity-count", "proximity"),
        ("faq.points-table-reading", "repetition"),
    ],
)
def test_points_quoted_in_the_faq_match_the_engine(faq, concept, slug, lang):
    text = _faq_text(faq, concept, lang)
    points = engine.scoring_card(slug).points
    written = re.escape(", ".join(str(p) for p in points[:-1]))
    assert re.search(rf"{written},? (or|ou|and|et)? ?{points[-1]}\b", text), (concept, points)


@pytest.mark.parametrize("lang", LANGS)
def test_faq_take_costs_match_the_engine(faq, lang):
    text = _faq_text(faq, "faq.take-cost-by-position", lang)
    quoted = {
        int(position): int(cost)
        for position, cost in re.findall(r"\b(\d)(?:st|nd|rd|th|re|e)\b\D*?(\d+)", text)
    }
    assert quoted == {position: engine.take_cost(position)[0] for position in range(1, 6)}
    assert faq[("faq.take-cost-by-position", lang)].lead == f"{engine.take_cost(5)[0]}."


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("concept", ["faq.solo-win", "faq.solo-declare-level"])
def test_faq_solo_levels_match_the_engine(faq, concept, lang):
    quoted = dict(re.findall(r"(\w+) (\d+)\+?", _faq_text(faq, concept, lang)))
    for level in engine.SOLO_LEVELS:
        assert quoted.get(level.name_en if lang == "en" else level.name_fr) == str(level.target), (
            concept,
            level,
        )


@pytest.mark.parametrize("lang", LANGS)
def test_faq_scenario_list_matches_the_engine(faq, lang):
    text = _faq_text(faq, "faq.scenario-list", lang)
    quoted = {name.strip(): int(goal) for name, goal in re.findall(r"([A-Z][A-Za-z ]+?) \((\d+)\)", text)}
    assert quoted == {scenario.name: scenario.goal for scenario in engine.SCENARIOS}
    assert f"{len(engine.SCENARIOS)} " in text
    for concept, slug in (("faq.scenario-family", "family-game"), ("faq.scenario-chill", "chill-mode")):
        scenario = engine.scenario(slug)
        text = _faq_text(faq, concept, lang)
        assert re.search(rf"\b{scenario.goal}\b", text)
        assert {s for s, name in _names(lang).items() if re.search(rf"\b{name}\b", text)} == set(
            scenario.cards
        )
        count = len(scenario.cards) or scenario.random_cards
        assert f"{count} " in text


@pytest.mark.parametrize("lang", LANGS)
def test_faq_counts_match_the_engine(faq, lang):
    base, puzzle, vincent = engine.ruleset("base"), engine.ruleset("solo-puzzle"), engine.ruleset("vincent")
    names = _names(lang)
    text = _faq_text(faq, "faq.scoring-cards-names", lang)
    assert all(re.search(rf"\b{name}\b", text) for name in names.values())
    assert f"{len(engine.SCORING_CARDS)} " in text
    assert f"{len(engine.ART_CARDS)} " in _faq_text(faq, "faq.art-cards-count", lang)
    assert f"at most {base.hand_limit} Art Cards" in _faq_text(faq, "faq.hand-limit", "en")
    assert f"{base.hand_limit} cartes Art au maximum" in _faq_text(faq, "faq.hand-limit", "fr")
    assert f" {base.row_size} " in _faq_text(faq, "faq.row-size", lang)
    assert f" {base.backgrounds} " in _faq_text(faq, "faq.backgrounds-per-player", lang)
    assert f" {base.starting_tokens} " in _faq_text(faq, "faq.starting-tokens", lang)
    assert f" {engine.SILVER_POINTS} points" in _faq_text(faq, "faq.silver-ribbons", lang)
    assert f" {vincent.vincent_max_face_up} " in _faq_text(faq, "faq.vincent-max-four", lang)
    supply = _faq_text(faq, "faq.solo-puzzle-supply-start", lang)
    assert re.findall(r"\b(\d+) (?:Inspiration Tokens|jetons Inspiration|tokens|jetons)", supply)[:2] == [
        str(puzzle.starting_tokens),
        str(puzzle.token_supply),
    ]
    designers = next(a for a in engine.ACHIEVEMENTS if a.slug == "beat-the-designers")
    text = _faq_text(faq, "faq.achievements-designers", lang)
    assert f"{designers.params['min'] - 1}" in text and f"{designers.params['min']} points" in text


# ---- statements say the rule in the rulebook's own words (a player asks with them)

# (record, language, word or phrase): the word of the rulebook (/work/shared/seeds: the English rulebook and the
# French rules-help page) or of the Scoring Cards' backs (FACTS.md 1.2) that states each rule. A statement in other
# words ("neighbouring" for "adjacent", "are yours" for "keep", "ne compte pas" for "ignorées") leaves out the word
# a player asks with, and the answer then fails to say it.
RULEBOOK_WORDS = [
    ("faq.space", "en", "adjacent"),
    ("faq.space", "fr", "adjacentes"),
    ("card-space", "fr", "adjacentes"),
    ("card-proximity", "fr", "adjacentes"),
    ("faq.proximity-adjacent", "fr", "adjacents"),
    ("faq.tokens-on-taken-card", "en", "keep"),
    ("faq.tokens-on-taken-card", "fr", "gardes"),
    ("faq.skip-card-with-tokens", "en", "keeps"),
    ("gain-tokens", "en", "keep"),
    ("faq.tokens-on-skipped-cards", "en", "each skipped card"),
    ("faq.tokens-on-skipped-cards", "fr", "chaque carte sautée"),
    ("faq.covered-icons", "en", "ignored"),
    ("faq.covered-icons", "fr", "ignorées"),
    ("faq.icons-through-clear", "fr", "ignorées"),
    ("faq.ribbons-run-out", "en", "substitute"),
    ("faq.ribbons-run-out", "fr", "substitut"),
    ("ribbons-run-out", "fr", "substitut"),
    ("faq.consistency", "en", "not Elements"),
    ("faq.consistency", "fr", "pas des éléments"),
    ("faq.bonus-not-element", "en", "not an Element"),
    ("faq.bonus-not-element", "fr", "pas un élément"),
    ("faq.symmetry", "en", "same Element"),
    ("faq.symmetry", "fr", "même élément"),
    ("turn-order", "fr", "horaire"),
    ("faq.first-player", "fr", "horaire"),
    ("color-swatches", "en", "position"),
    ("faq.swatches", "fr", "position"),
]


@pytest.mark.parametrize(("concept", "lang", "word"), RULEBOOK_WORDS)
def test_statements_use_the_rulebook_word(pack, concept, lang, word):
    from rulesbot.evaluation import key_facts_present

    entry = next(e for e in pack.entries if e.concept_id == concept and e.lang == lang)
    assert key_facts_present([word], entry.text), (entry.id, word, entry.text)


def test_the_new_misreading_records_settle_both_ways(faq):
    # A bonus icon with none of its Element showing gives nothing (1 silver Ribbon per matching visible Element,
    # rulebook p. 4); a card's cap stops a 4th Ribbon (Variety stops at 3 Ribbons, 13 points); Space's swatches
    # must not be adjacent (FACTS 1.2), which by swatch number means at least 2 apart.
    variety = engine.scoring_card("variety")
    for lang in LANGS:
        assert re.search(r"\b0\b", _faq_text(faq, "faq.bonus-none-visible", lang))
        beyond = _faq_text(faq, "faq.ribbon-beyond-max", lang)
        assert f"{variety.max_ribbons} " in beyond and f"{variety.points[-1]} points" in beyond
        assert "4e" in beyond or "4th" in beyond
        distance = _faq_text(faq, "faq.space-distance", lang)
        sep = " and " if lang == "en" else " et "
        apart = {(a, b) for a in range(1, 6) for b in range(a + 1, 6) if b - a >= 2}
        quoted = {(int(a), int(b)) for a, b in re.findall(rf"\b(\d){sep}(\d)\b", distance)}
        assert apart <= quoted and len(quoted - apart) == 4  # the 6 far pairs, then the 4 adjacent ones


# ---- statements carry the word the asker's question turns on (round 6)

# (record, language, word): an obligation is said with "must"/"dois", a skipped turn with "skipped"/"sautés" (the
# French help page says "passe ses tours", players say "sautés"), Vincent "discards"/"défausse" the card he selects
# and "keeps"/"garde" the tokens that land face-down, he scores no point ("aucun"), a card's rank in the row is
# also spelled out ("deuxième", "second"), Solo Puzzle's skipped cards are all "défaussées", a title does "not
# change" the score, red is always the "leftmost" swatch, a card's Ribbons are "never" more than it shows, a
# scenario nobody reaches is "not passed", and the first-game Scoring Cards are "not compulsory". A statement that
# says the same rule with other words fails a player who asks with these (rulebook pages 1-6, FACTS.md 2 and 8).
STATEMENT_WORDS = [
    ("faq.paint-optional", "en", "must"),
    ("faq.paint-optional", "fr", "dois"),
    ("faq.hand-limit", "en", "must"),
    ("faq.take-card-at-five", "en", "must"),
    ("faq.take-card-at-five", "fr", "dois"),
    ("faq.game-end", "en", "skipped"),
    ("faq.game-end", "fr", "sautés"),
    ("faq.fourth-painting", "fr", "sautés"),
    ("faq.vincent-discard", "en", "discards"),
    ("faq.vincent-discard", "fr", "défausse"),
    ("faq.vincent-face-down-tokens", "en", "keeps"),
    ("faq.vincent-face-down-tokens", "fr", "garde"),
    ("faq.vincent", "fr", "deuxième"),
    ("faq.vincent", "fr", "troisième"),
    ("faq.vincent", "en", "second"),
    ("faq.vincent-not-scoring", "fr", "aucun point"),
    ("faq.vincent-not-scoring", "en", "never"),
    ("faq.vincent-no-face-up", "en", "first card"),
    ("faq.vincent-no-face-up", "fr", "première carte"),
    ("faq.solo-puzzle-skipped-discarded", "fr", "défaussées"),
    ("faq.titles-no-score", "en", "not change"),
    ("faq.titles-no-score", "fr", "change pas"),
    ("faq.swatches", "en", "leftmost"),
    ("faq.swatches", "fr", "plus à gauche"),
    ("faq.ribbon-max", "en", "never"),
    ("faq.ribbon-max", "fr", "jamais"),
    ("faq.scenario-pass", "en", "not passed"),
    ("faq.scenario-pass", "fr", "pas réussi"),
    ("faq.choose-scoring-cards", "en", "not compulsory"),
    ("faq.choose-scoring-cards", "fr", "pas obligatoires"),
    ("faq.take-to-deny", "en", "allowed"),
    ("faq.take-to-deny", "fr", "autorisé"),
]


@pytest.mark.parametrize(("concept", "lang", "word"), STATEMENT_WORDS)
def test_statements_carry_the_word_the_question_turns_on(pack, concept, lang, word):
    from rulesbot.evaluation import key_facts_present

    entry = next(e for e in pack.entries if e.concept_id == concept and e.lang == lang)
    assert key_facts_present([word], entry.text), (entry.id, word, entry.text)


def test_the_round6_records_quote_the_engine_limits(faq):
    # Taking a card to deny it is allowed within the hand limit; Vincent spends at most his face-up tokens (4).
    base, vincent = engine.ruleset("base"), engine.ruleset("vincent")
    for lang in LANGS:
        assert re.search(rf"\b{base.hand_limit}\b", _faq_text(faq, "faq.take-to-deny", lang))
        assert re.search(rf"\b{vincent.vincent_max_face_up}\b", _faq_text(faq, "faq.vincent-face-down-tokens", lang))


@pytest.mark.parametrize("slug", ["synergy", "spatial", "bonus", "balanced"])
def test_french_scenario_passages_also_name_the_english_cards(rulebook, slug):
    # Players of the English edition ask in French with the printed names (Proximity, Symmetry); the French passage
    # names each card in both languages, and the English names are the English passage's.
    scenario = engine.scenario(slug)
    french, english = _text(rulebook, f"scenario-{slug}", "fr"), _text(rulebook, f"scenario-{slug}", "en")
    for card in scenario.cards:
        name = _names("en")[card]
        assert re.search(rf"\b{name}\b", english) and re.search(rf"\b{name}\b", french), (slug, name)
