"""The cold-start shortcuts in question reading match exactly what the plain patterns match.

`alternation_tree` (the claim prefixes written as a prefix tree) must find the same spans as the flat alternation
of the same phrases; `cues_in` (a cue list compiled only when one of its phrases' leading words is in the text)
must name the same cue lists as searching every list's pattern. The oracle in both is the plain regex, built here.
"""

import re
import sys

from hypothesis import given, settings
from hypothesis import strategies as st

import rulesbot.compute.parse  # noqa: F401 - the module (the package re-exports a function of the same name)
from rulesbot.compute.text import B, E, alternation_tree, fold

parse_module = sys.modules["rulesbot.compute.parse"]

# Few letters, so phrases share prefixes and texts contain them often; spaces and hyphens are the special atoms.
_WORD = st.text(alphabet="abc", min_size=1, max_size=3)
_PHRASE = st.lists(_WORD, min_size=1, max_size=3).flatmap(
    lambda words: st.lists(st.sampled_from([" ", "-"]), min_size=len(words) - 1, max_size=len(words) - 1).map(
        lambda joins: words[0] + "".join(join + word for join, word in zip(joins, words[1:], strict=True))))
_TEXT = st.text(alphabet="abc -'", max_size=30)


def _flat(phrases) -> str:
    parts = [re.escape(phrase).replace(r"\ ", r"\s+").replace(r"\-", "[- ]?")
             for phrase in sorted(phrases, key=lambda text: (-len(text), text))]
    return "(?:" + "|".join(parts) + ")"


@settings(max_examples=300, deadline=None)
@given(st.frozensets(_PHRASE, min_size=1, max_size=8), st.lists(_TEXT, min_size=1, max_size=5))
def test_the_prefix_tree_matches_what_the_flat_alternation_matches(phrases, texts):
    flat = re.compile(B + _flat(phrases) + E)
    tree = re.compile(B + alternation_tree(phrases) + E)
    for text in texts:
        assert [m.span() for m in tree.finditer(text)] == [m.span() for m in flat.finditer(text)]
        # Embedded the way the claim prefixes are (anchored at a position, something after them).
        for start in range(len(text)):
            a = re.compile(r"\s*" + _flat(phrases) + r"\s*[:,]?").match(text, start)
            b = re.compile(r"\s*" + alternation_tree(phrases) + r"\s*[:,]?").match(text, start)
            assert (a and a.span()) == (b and b.span())


_QUESTIONS = [
    "my sister reckons 3 variety ribbons are worth 13, innit?",
    "combien de points pour deux rubans de symetrie ?",
    "can vincent take the free card or not",
    "on est a egalite a 31, qui gagne ?",
    "et avec quatre rubans ?",
    "what's the best card to chase?",
    "tbh idk how many tokens u start w",
]


def test_cues_in_names_the_lists_every_pattern_would():
    lists = parse_module.cue_lists("canvas")
    assert len(lists) > 20
    for question in _QUESTIONS:
        text = fold(question)
        every = frozenset(name for name, phrases, _ in lists if re.compile(B + _flat(phrases) + E).search(text))
        assert parse_module.cues_in(text, "canvas") == every


def test_scope_groups_compiled_on_need_match_as_their_patterns():
    from rulesbot import scope

    questions = [*_QUESTIONS, "is it worth buying the reflections expansion?", "ça vaut vraiment le coup ?",
                 "like the automa in scythe, does vincent score?", "ou acheter canvas pas cher", "* weird worth spending"]
    groups = [group for rule, unless, rule_groups in scope._compiled_rules("Canvas")
              for group in (unless, *rule_groups) if group is not None]
    assert len(groups) > 20
    for question in questions:
        text = scope.fold(question)
        for group in groups:
            plain = group.compiled()
            assert (m.span() if (m := group.search(text)) else None) == (m.span() if (m := plain.search(text)) else None)
            assert [m.span() for m in group.finditer(text, 2)] == [m.span() for m in plain.finditer(text, 2)]
