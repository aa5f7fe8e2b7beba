"""A site rulebook's bold case titles ("**The well runs dry.** ...") are sections of their own, read with their
section's heading: "Odd situations: The well runs dry". Made-up rulebook text (a game of wells and goats)."""

from rulesbot.ingest import chunk_pages, run_in_title, text_pages

CASES = """\
<!-- page 1 -->
# Goatherd

## Odd situations

**The well runs dry.** Every herder loses one water token. Nobody may drink until the next rain card.

**A goat escapes.** Put it back on the hill. Its owner skips the next milking.

Whatever happens, the shepherd's dog never leaves the farm, and nobody may move it during the game.

**Note:** the dog figure is only a reminder of who milks first and has no other use in the game.

## Milking

You **never** milk more than two goats a turn, and a goat that was milked this turn rests until the next one.
"""


def test_a_bold_case_title_is_a_section_of_its_own_under_its_heading():
    passages = chunk_pages(text_pages(CASES), "Goatherd", max_chars=2000)
    sections = [(passage.section, passage.text.split()[0]) for passage in passages]
    assert sections == [
        ("Odd situations: The well runs dry", "**The"),
        ("Odd situations: A goat escapes", "**A"),
        # The paragraph after the cases belongs to the section again, and a label ("Note:") is no case title.
        ("Odd situations", "Whatever"),
        ("Odd situations", "**Note:**"),
        ("Milking", "You"),
    ]


def test_only_a_bold_lead_that_ends_a_sentence_is_a_case_title():
    assert run_in_title("**The well runs dry.** Every herder loses one water token.") == "The well runs dry"
    assert run_in_title("**Drought**: no herder may drink.") == "Drought"
    assert run_in_title("**Never** milk more than two goats.") is None  # bold word inside a sentence
    assert run_in_title("**Example:** two goats escape at once.") is None  # a label, not a subject
    assert run_in_title("- **Milk:** take one milk token.") is None  # a list item's bold lead stays in its list
