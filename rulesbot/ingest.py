"""Read a user's rulebook (Markdown/text with page markers, or PDF) and cut it into page-cited passages.

Pages come from markers in text (`<!-- page 3 -->`, `[page 3]`, `--- page 3 ---`, or form feeds `\\f`, each
starting the next page) or from the PDF itself. `chunk_pages` is the one function that turns pages into
passages: cut at every heading and paragraph (a paragraph under 15 words joins the next one of its section),
at most 120 words, each with its page and the nearest heading as its section; a paragraph led by a bold case title
("**The deck runs out.** ...") is a passage of its own, its section "Heading: The deck runs out". A PDF has no Markdown headings:
`pdf_headings` marks its heading lines, by font (a larger or bold font than the body) where pypdf reports
fonts, else by layout (a short title-case or numbered line after a sentence's end, followed by body text).

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

# A paragraph is a passage of its own (one rule, one answer) unless it is shorter than MIN_WORDS: then it
# joins the next paragraph of its section. No passage is longer than MAX_WORDS or crosses a heading or a page.
MIN_WORDS, MAX_WORDS = 15, 120
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
# A line that is nothing but bold text ("**Setup**"), as many Markdown rulebooks mark a heading.
_BOLD_HEADING = re.compile(r"^\s{0,3}(?:\*\*|__)([^*_]{1,80}?)(?:\*\*|__)\s*:?\s*$")
# A paragraph led by a bold case title that ends a sentence ("**The deck runs out.** Shuffle...", "**Rain:**
# ..."): a run-in heading, one case of its section. It is a passage of its own, titled "Section: case".
_RUN_IN_HEADING = re.compile(r"^\s{0,3}(?:\*\*|__)([^*_]{1,80}?)([.:!?])?(?:\*\*|__)([.:])?\s+\S")


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
    """Passages cut at every heading and paragraph (short paragraphs joined), at most MAX_WORDS words and
    `max_chars` characters, each with its page and the nearest heading above it (long words are split)."""
    passages: list[Passage] = []
    section = heading_section = default_section
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
            heading = _HEADING.match(lines[0]) or _BOLD_HEADING.match(lines[0])
            if heading:
                flush(number)
                section = heading_section = heading.group(1).strip()
                lines = lines[1:]
                if not lines:
                    continue
            run_in = run_in_title(lines[0]) if lines else None
            if run_in is not None or section != heading_section:
                # A case title's paragraph is its own passage; the paragraph after it is its section's again.
                flush(number)
                section = heading_section if run_in is None else f"{heading_section}: {run_in}"
            # A list is cut between its items, never inside one, when it does not fit the passage; so is a table,
            # between its rows, the next passage starting with the table's header again (its rows read by it).
            table_head: list[str] = []
            previous: list[str] = []  # the words of the unit before (a table's header row, before its rule)
            for unit in list_units(lines):
                words = [word[start : start + piece] for word in unit.split() for start in range(0, len(word), piece)]
                row = _TABLE_LINE.match(unit) is not None
                if not row:
                    table_head = []
                elif _TABLE_RULE.match(unit) and not table_head and previous:
                    table_head = [*previous, *words]
                previous = words if row else []
                if len(buffer) + len(words) > MAX_WORDS and not _introduces_list(buffer):
                    flush(number)
                    if row and table_head and not _TABLE_RULE.match(unit) and len(table_head) + len(words) <= MAX_WORDS:
                        buffer.extend(table_head)
                        size = len(" ".join(buffer))
                # A long item or paragraph is cut wherever the passage reaches MAX_WORDS words or max_chars characters.
                for word in words:
                    if buffer and (len(buffer) >= MAX_WORDS or size + 1 + len(word) > max_chars):
                        flush(number)
                    size += len(word) + (1 if buffer else 0)
                    buffer.append(word)
            # A paragraph ending with ":" introduces what follows (a list of cases): it stays with it.
            if (len(buffer) >= MIN_WORDS or run_in is not None) and not _introduces_list(buffer):
                flush(number)
        flush(number)
    return passages


def run_in_title(line: str) -> str | None:
    """The case title that leads `line` in bold and ends a sentence ("**The deck runs out.** Shuffle..." ->
    "The deck runs out"), at most MAX_HEADING_WORDS words; None for any other line (a bold word inside a
    sentence: "**Never** draw more than 3")."""
    match = _RUN_IN_HEADING.match(line)
    if match is None or not (match.group(2) or match.group(3)):
        return None
    title = match.group(1).strip()
    if not title or len(title.split()) > MAX_HEADING_WORDS or title.lower() in _LABELS:
        return None
    return title


# Bold leads that name a paragraph's kind, not its subject: such a paragraph stays its section's.
_LABELS = {"example", "examples", "note", "notes", "important", "exception", "reminder", "tip", "clarification", "remember"}

_LIST_ITEM = re.compile(r"^(?:[-*•+]|\d{1,2}[.)])\s+\S")
# A Markdown table's line ("| a | b |") and its separator row ("|---|:--:|").
_TABLE_LINE = re.compile(r"^\|.*\|$")
_TABLE_RULE = re.compile(r"^\|(?:\s*:?-{3,}:?\s*\|)+$")


def list_units(lines: list[str]) -> list[str]:
    """A paragraph's lines as units that are never cut apart: each list item (with its continuation lines), or
    the whole paragraph when it is not a list."""
    units: list[list[str]] = []
    for line in lines:
        if not units or _LIST_ITEM.match(line) or _TABLE_LINE.match(line):
            units.append([line])
        else:
            units[-1].append(line)
    return [" ".join(unit) for unit in units]


def _introduces_list(words: list[str]) -> bool:
    """Whether the passage being built ends with ":" (or "**:" / ":**"): what follows belongs to it."""
    return bool(words) and words[-1].rstrip("*_").endswith(":") and len(words) < MAX_WORDS


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
                text = _pdf_page_text(page)
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


@dataclass(frozen=True)
class TextRun:
    """One piece of a PDF page's text as pypdf shows it: its words, font size, boldness and baseline height."""

    text: str
    size: float
    bold: bool
    y: float


def _pdf_page_text(page) -> str:
    """A PDF page's text with its headings marked ("# ...") and blank lines between paragraphs."""
    runs: list[TextRun] = []

    def visit(text, matrix, text_matrix, font, size) -> None:
        words = " ".join(str(text).split())
        if not words:
            return
        # The font size is scaled by the text and current matrices (some PDFs set size 1 and scale by 11).
        scale = abs(float(text_matrix[3]) * float(matrix[3])) or 1.0
        name = str((font or {}).get("/BaseFont", "")).lower()
        bold = any(mark in name for mark in ("bold", "black", "heavy", "semibold"))
        runs.append(TextRun(words, float(size or 0) * scale, bold, float(text_matrix[5]) * float(matrix[3]) + float(matrix[5])))

    try:
        text = page.extract_text(visitor_text=visit) or ""
    except TypeError:  # a pypdf without visitor support: the layout heuristic alone
        text, runs = page.extract_text() or "", []
    return pdf_headings(text, runs)


def pdf_headings(text: str, runs: list[TextRun]) -> str:
    """`text` (one PDF page) with heading lines marked "# ..." and blank lines at paragraph gaps.

    A heading is a short line set in a larger (x1.15) or bold font when the body is not; on a page whose
    fonts show no heading, it is a short line that starts with a capital or a number, does not end a
    sentence, follows a sentence's end (or starts the page) and is followed by body text.
    """
    lines = [" ".join(line.split()) for line in text.splitlines()]
    lines = [line for line in lines if line]
    by_text = {run.text: run for run in runs}
    weights: dict[float, int] = {}
    bold_chars = 0
    for run in runs:
        weights[round(run.size, 1)] = weights.get(round(run.size, 1), 0) + len(run.text)
        bold_chars += len(run.text) if run.bold else 0
    body_size = max(weights, key=lambda size: weights[size]) if weights else 0.0
    body_bold = bold_chars * 2 > sum(weights.values())

    def by_font(line: str) -> bool:
        run = by_text.get(line)
        if run is None or len(line.split()) > MAX_HEADING_WORDS or not body_size:
            return False
        return run.size >= body_size * 1.15 or (run.bold and not body_bold)

    font_marks = [by_font(line) for line in lines]
    if any(font_marks):
        marks = font_marks
    else:
        marks = [
            _looks_like_heading(line, lines[number - 1] if number else None, lines[number + 1] if number + 1 < len(lines) else None)
            for number, line in enumerate(lines)
        ]
    # Paragraph gaps: a baseline step clearly wider than the usual line step (for lines pypdf reports as runs).
    heights = [by_text[line].y if line in by_text else None for line in lines]
    steps = [
        round(abs(a - b), 1) for a, b in zip(heights, heights[1:], strict=False) if a is not None and b is not None and a != b
    ]
    # The most common step is the line step inside a paragraph (headings and gaps are rarer).
    usual = max(sorted(set(steps)), key=steps.count) if steps else 0.0
    out: list[str] = []
    for number, line in enumerate(lines):
        if marks[number]:
            out += ["", f"# {line.rstrip(':')}", ""]
            continue
        previous = heights[number - 1] if number else None
        if usual and previous is not None and heights[number] is not None and abs(previous - heights[number]) > usual * 1.25:
            out.append("")
        out.append(line)
    return "\n".join(out)


MAX_HEADING_WORDS = 10
# "3. Scoring", "3.1 Scoring", "IV. Variants", "B. Setup"; never "60 boat cards" (a list's line).
_NUMBERED = re.compile(r"^(?:\d+\.(?:\d+\.?)*|[IVX]+\.|[A-Z]\.)\s+\S")


def _looks_like_heading(line: str, previous: str | None, following: str | None) -> bool:
    words = line.split()
    if not words or len(words) > 8 or len(line) > 60 or following is None:
        return False
    if line[-1] in ".,;!?" or not (line[0].isupper() or _NUMBERED.match(line)):
        return False
    if previous is not None and previous[-1] not in ".!?:":
        return False  # a line inside a sentence
    return len(following.split()) >= 6 or following[-1] in ".!?"
