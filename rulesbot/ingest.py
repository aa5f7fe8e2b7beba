"""Ingest a user's rulebook (Markdown/text with page markers, or PDF) as a one-language user pack.

Pages come from markers in text (`<!-- page 3 -->`, `[page 3]`, `--- page 3 ---`, or form feeds `\\f`, each
starting the next page) or from the PDF itself. Text is chunked into passages of about 60-120 words along
paragraphs; each passage keeps its page and the nearest heading as its section. The pack is written under
`<data_dir>/packs/<game>/` (pack.json + user.<lang>.jsonl, source "user"); re-ingesting a language replaces
its file atomically, and nothing is written unless the whole file parsed.
"""

import json
import os
import re
import tempfile
from dataclasses import dataclass
from pathlib import Path

from rulesbot.errors import BadInput

MIN_WORDS, MAX_WORDS = 60, 120
TEXT_SUFFIXES = {".md", ".markdown", ".txt", ".text", ".rst", ""}
_MARKER = re.compile(
    r"^\s*(?:<!--\s*page\s+(\d+)\s*-->|\[page\s+(\d+)\]|-{3,}\s*page\s+(\d+)\s*-{3,})\s*$", re.IGNORECASE
)
_HEADING = re.compile(r"^\s{0,3}#{1,6}\s+(.+?)\s*#*\s*$")


@dataclass(frozen=True)
class Passage:
    """One chunk of a rulebook."""

    page: int
    section: str
    text: str


def read_pages(path: Path) -> list[tuple[int, str]]:
    """(page number, text) for each page of a PDF or text/Markdown file; BadInput if unreadable or empty."""
    path = Path(path)
    if path.is_dir():
        raise BadInput(f"{path}: a folder, not a rulebook file")
    if not path.is_file():
        raise BadInput(f"{path}: no such file")
    head = path.read_bytes()[:5]
    if head == b"%PDF-":
        pages = _pdf_pages(path)
    elif path.suffix.lower() in TEXT_SUFFIXES or path.suffix.lower() not in {".pdf"}:
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError as error:
            raise BadInput(f"{path}: not a PDF or UTF-8 text file") from error
        if "\x00" in text:
            raise BadInput(f"{path}: binary file (not a PDF or text)")
        pages = text_pages(text)
    else:
        raise BadInput(f"{path}: not a valid PDF")
    pages = [(number, text) for number, text in pages if text.strip()]
    if not pages:
        raise BadInput(f"{path}: no text found")
    return pages


def text_pages(text: str) -> list[tuple[int, str]]:
    """Split text on page markers or form feeds; text before any marker is page 1."""
    if "\f" in text and not any(_MARKER.match(line) for line in text.splitlines()):
        return [(number, chunk) for number, chunk in enumerate(text.split("\f"), start=1)]
    pages: list[tuple[int, list[str]]] = [(1, [])]
    for line in text.splitlines():
        match = _MARKER.match(line)
        if match:
            number = int(next(group for group in match.groups() if group))
            if not any(part.strip() for part in pages[-1][1]):
                pages.pop()
            pages.append((number, []))
        else:
            pages[-1][1].append(line)
    return [(number, "\n".join(lines)) for number, lines in pages]


def chunk_pages(pages: list[tuple[int, str]], default_section: str) -> list[Passage]:
    """Paragraph-based passages of ~60-120 words, each with its page and the nearest heading above it."""
    passages: list[Passage] = []
    section = default_section
    for number, text in pages:
        buffer: list[str] = []
        for paragraph in re.split(r"\n\s*\n", text):
            lines = [line.strip() for line in paragraph.strip().splitlines() if line.strip()]
            if not lines:
                continue
            heading = _HEADING.match(lines[0])
            if heading:
                _flush(passages, buffer, number, section)
                section = heading.group(1).strip()
                lines = lines[1:]
                if not lines:
                    continue
            words = " ".join(lines).split()
            if len(buffer) + len(words) > MAX_WORDS and len(buffer) >= MIN_WORDS // 2:
                _flush(passages, buffer, number, section)
            # A very long paragraph is cut into MAX_WORDS pieces so every passage stays embeddable.
            while len(words) > MAX_WORDS:
                buffer.extend(words[:MAX_WORDS])
                words = words[MAX_WORDS:]
                _flush(passages, buffer, number, section)
            buffer.extend(words)
            if len(buffer) >= MIN_WORDS:
                _flush(passages, buffer, number, section)
        _flush(passages, buffer, number, section)
    return passages


def ingest_file(path: Path, *, game: str, lang: str, title: str | None, packs_dir: Path) -> tuple[Path, int]:
    """Write the user pack for `game` in `lang`; returns (pack folder, passages written)."""
    from rulesbot.knowledge import Entry, PackManifest

    if lang not in ("en", "fr"):
        raise BadInput(f"expected --lang en or fr, got {lang!r}")
    if not re.fullmatch(r"[a-z0-9][a-z0-9-]*", game):
        raise BadInput(f"expected a game id of lower-case letters, digits and dashes, got {game!r}")
    pages = read_pages(path)
    passages = chunk_pages(pages, default_section=title or game)
    entries = [
        Entry(
            id=f"user.{lang}.p{passage.page}.{number}",
            concept_id=f"user.{lang}.p{passage.page}.{number}",
            lang=lang,
            source="user",
            pages=[passage.page],
            section=passage.section,
            text=passage.text,
            game=game,
        )
        for number, passage in enumerate(passages, start=1)
    ]
    folder = Path(packs_dir) / game
    folder.mkdir(parents=True, exist_ok=True)
    existing = _existing_manifest(folder)
    languages = sorted({*(existing.languages if existing else []), lang})
    # The manifest must cover the pages of every language's file, not only this one.
    other_pages = [
        max(json.loads(line)["pages"])
        for other in folder.glob("user.*.jsonl")
        if other.name != f"user.{lang}.jsonl"
        for line in other.read_text(encoding="utf-8").splitlines()
        if line.strip()
    ]
    manifest = PackManifest(
        game=game,
        title=title or (existing.title if existing else game),
        languages=languages,
        pages=max([passage.page for passage in passages] + other_pages),
        rules_version=f"user-{_digest(entries)}",
        sources=[f"ingested: {Path(path).name}"],
    )
    lines = "".join(entry.model_dump_json(exclude={"game"}) + "\n" for entry in entries)
    _atomic_write(folder / f"user.{lang}.jsonl", lines)
    _atomic_write(folder / "pack.json", manifest.model_dump_json(indent=2, exclude_none=True))
    return folder, len(entries)


def _flush(passages: list[Passage], buffer: list[str], page: int, section: str) -> None:
    # `buffer` holds words; a passage is emitted and the buffer emptied in place.
    if buffer:
        passages.append(Passage(page, section, " ".join(buffer)))
        buffer.clear()


def _pdf_pages(path: Path) -> list[tuple[int, str]]:
    try:
        from pypdf import PdfReader
        from pypdf.errors import PdfReadError

        reader = PdfReader(str(path))
        return [(number, page.extract_text() or "") for number, page in enumerate(reader.pages, start=1)]
    except (PdfReadError, ValueError, OSError, KeyError, TypeError) as error:
        raise BadInput(f"{path}: unreadable PDF ({error})") from error


def _existing_manifest(folder: Path):
    from rulesbot.knowledge import PackManifest

    try:
        return PackManifest.model_validate_json((folder / "pack.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def _digest(entries) -> str:
    import hashlib

    digest = hashlib.sha256("".join(entry.text for entry in entries).encode())
    return digest.hexdigest()[:8]


def _atomic_write(path: Path, text: str) -> None:
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            stream.write(text)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
