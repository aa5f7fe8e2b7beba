"""Read a user's rulebook (Markdown/text with page markers, or PDF) and cut it into page-cited passages.

Pages come from markers in text (`<!-- page 3 -->`, `[page 3]`, `--- page 3 ---`, or form feeds `\\f`, each
starting the next page) or from the PDF itself. `chunk_pages` is the one function that turns pages into
passages (about 60-120 words along paragraphs, each with its page and the nearest heading as its section).

Every step is bounded by `Limits` (the RULESBOT_INGEST_* settings): the file's size, its page count and page
numbers, the text it yields (a small PDF can inflate to millions of characters) and the passages it is cut
into. A rulebook past a limit is refused with LimitExceeded naming the setting to raise; a word longer than
`MAX_WORD_CHARS` is split and no passage is longer than `max_passage_chars`, so every passage stays embeddable.
Storing the passages is rulesbot.userpacks' job: nothing here writes anything.
"""

import re
from contextlib import nullcontext
from dataclasses import dataclass
from pathlib import Path

from rulesbot.errors import BadInput

MIN_WORDS, MAX_WORDS = 60, 120
# Longer "words" are run-together PDF text, URLs or junk: they are cut into pieces this long.
MAX_WORD_CHARS = 60
# A PDF stream may inflate to this many bytes per allowed character of text (content streams carry layout
# operators too), and never less than the floor (object streams hold the document's structure).
PDF_BYTES_PER_CHAR, PDF_STREAM_FLOOR = 10, 10_000_000
MEGABYTE = 1024 * 1024
TEXT_SUFFIXES = {".md", ".markdown", ".txt", ".text", ".rst", ""}
_MARKER = re.compile(
    r"^\s*(?:<!--\s*page\s+(\d+)\s*-->|\[page\s+(\d+)\]|-{3,}\s*page\s+(\d+)\s*-{3,})\s*$", re.IGNORECASE
)
_HEADING = re.compile(r"^\s{0,3}#{1,6}\s+(.+?)\s*#*\s*$")


class LimitExceeded(BadInput):
    """A rulebook is past one of the ingest limits (the message names the setting to raise)."""

    code = "limit_exceeded"


@dataclass(frozen=True)
class Limits:
    """The ingest limits, from the RULESBOT_INGEST_* settings."""

    max_file_mb: float
    max_pages: int
    max_text_chars: int
    max_passages: int
    max_passage_chars: int

    @classmethod
    def from_settings(cls, settings) -> "Limits":
        """The limits a Settings object sets."""
        return cls(
            max_file_mb=settings.ingest_max_file_mb,
            max_pages=settings.ingest_max_pages,
            max_text_chars=settings.ingest_max_text_chars,
            max_passages=settings.ingest_max_passages,
            max_passage_chars=settings.ingest_max_passage_chars,
        )


@dataclass(frozen=True)
class Passage:
    """One chunk of a rulebook."""

    page: int
    section: str
    text: str


def over_limit(setting: str, message: str) -> LimitExceeded:
    """LimitExceeded with `message` (what is too big, and the limit) and the setting that raises the limit."""
    return LimitExceeded(f"{message} (raise RULESBOT_{setting.upper()} to accept it)")


def read_pages(path: Path, limits: Limits) -> list[tuple[int, str]]:
    """(page number, text) for each page of a PDF or text/Markdown file; BadInput if unreadable, empty or too big."""
    path = Path(path)
    if path.is_dir():
        raise BadInput(f"{path}: a folder, not a rulebook file")
    if not path.is_file():
        raise BadInput(f"{path}: no such file")
    try:
        size = path.stat().st_size
        if size > limits.max_file_mb * MEGABYTE:
            raise over_limit(
                "ingest_max_file_mb", f"{path.name} is {size / MEGABYTE:,.2f} MB, over the {limits.max_file_mb:g} MB limit"
            )
        with path.open("rb") as stream:
            head = stream.read(5)
        if head == b"%PDF-":
            pages = _pdf_pages(path, limits)
        elif path.suffix.lower() in TEXT_SUFFIXES or path.suffix.lower() != ".pdf":
            pages = text_pages(_read_text(path, limits))
        else:
            raise BadInput(f"{path}: not a valid PDF")
    except OSError as error:
        raise BadInput(f"{path}: cannot read it ({error.strerror or error})") from error
    pages = [(number, text) for number, text in pages if text.strip()]
    if not pages:
        raise BadInput(f"{path}: no text found")
    if len(pages) > limits.max_pages:
        raise over_limit("ingest_max_pages", f"{path.name} has {len(pages):,} pages, over the limit of {limits.max_pages:,}")
    highest = max(number for number, _text in pages)
    if highest > limits.max_pages:
        raise over_limit("ingest_max_pages", f"{path.name} marks a page {highest:,}, past the limit of {limits.max_pages:,}")
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


def chunk_pages(pages: list[tuple[int, str]], default_section: str, *, max_chars: int) -> list[Passage]:
    """Paragraph-based passages of ~60-120 words and at most `max_chars` characters, each with its page and the
    nearest heading above it (words longer than MAX_WORD_CHARS are split)."""
    passages: list[Passage] = []
    section = default_section
    piece = min(MAX_WORD_CHARS, max_chars)
    buffer: list[str] = []  # the words of the passage being built
    size = 0  # the characters of " ".join(buffer)

    def flush(page: int) -> None:
        nonlocal size
        if buffer:
            passages.append(Passage(page, section[:max_chars], " ".join(buffer)))
            buffer.clear()
            size = 0

    for number, text in pages:
        for paragraph in re.split(r"\n\s*\n", text):
            lines = [line.strip() for line in paragraph.strip().splitlines() if line.strip()]
            if not lines:
                continue
            heading = _HEADING.match(lines[0])
            if heading:
                flush(number)
                section = heading.group(1).strip()
                lines = lines[1:]
                if not lines:
                    continue
            words = [word[start : start + piece] for word in " ".join(lines).split() for start in range(0, len(word), piece)]
            if len(buffer) + len(words) > MAX_WORDS and len(buffer) >= MIN_WORDS // 2:
                flush(number)
            # A long paragraph is cut wherever the passage reaches MAX_WORDS words or max_chars characters.
            for word in words:
                if buffer and (len(buffer) >= MAX_WORDS or size + 1 + len(word) > max_chars):
                    flush(number)
                size += len(word) + (1 if buffer else 0)
                buffer.append(word)
            if len(buffer) >= MIN_WORDS:
                flush(number)
        flush(number)
    return passages


def read_passages(path: Path, *, title: str | None, default_section: str, limits: Limits) -> list[Passage]:
    """The passages of the rulebook at `path`, within `limits` (LimitExceeded / BadInput otherwise)."""
    pages = read_pages(path, limits)
    passages = chunk_pages(pages, default_section=title or default_section, max_chars=limits.max_passage_chars)
    if len(passages) > limits.max_passages:
        raise over_limit(
            "ingest_max_passages",
            f"{Path(path).name} makes {len(passages):,} passages, over the limit of {limits.max_passages:,}",
        )
    return passages


def _read_text(path: Path, limits: Limits) -> str:
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as error:
        raise BadInput(f"{path}: not a PDF or UTF-8 text file") from error
    if "\x00" in text:
        raise BadInput(f"{path}: binary file (not a PDF or text)")
    _check_text_size(path, len(text), limits)
    return text


def _check_text_size(path: Path, characters: int, limits: Limits) -> None:
    if characters > limits.max_text_chars:
        raise over_limit(
            "ingest_max_text_chars",
            f"{path.name} holds more than the {limits.max_text_chars:,} characters of text allowed",
        )


def _pdf_pages(path: Path, limits: Limits) -> list[tuple[int, str]]:
    import pypdf
    from pypdf import PdfReader
    from pypdf.errors import LimitReachedError, PyPdfError

    cap = max(PDF_STREAM_FLOOR, PDF_BYTES_PER_CHAR * limits.max_text_chars)
    # pypdf >= 7 bounds what one stream may inflate to; then a compressed bomb stops at `cap`, not after.
    configure = getattr(pypdf, "apply_configuration", None)
    bounded = (
        configure(
            zlib_maximum_output_length=cap,
            lzw_maximum_output_length=cap,
            run_length_maximum_output_length=cap,
            brotli_maximum_output_length=cap,
            array_based_stream_maximum_output_length=cap,
        )
        if configure is not None
        else nullcontext()
    )
    pages: list[tuple[int, str]] = []
    try:
        with bounded:
            reader = PdfReader(str(path))
            count = len(reader.pages)
            if count > limits.max_pages:
                raise over_limit("ingest_max_pages", f"{path.name} has {count:,} pages, over the limit of {limits.max_pages:,}")
            total = 0
            for number, page in enumerate(reader.pages, start=1):
                text = page.extract_text() or ""
                total += len(text)
                _check_text_size(path, total, limits)
                pages.append((number, text))
    except LimitReachedError as error:
        raise over_limit(
            "ingest_max_text_chars",
            f"{path.name} inflates a page past {cap:,} bytes, more than {limits.max_text_chars:,} characters of text need",
        ) from error
    except (PyPdfError, ValueError, KeyError, TypeError, RecursionError) as error:
        raise BadInput(f"{path}: unreadable PDF ({error})") from error
    return pages
