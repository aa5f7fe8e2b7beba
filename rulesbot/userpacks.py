"""The user's ingested rulebooks on disk: one pack per game, one file per ingested rulebook (its "source").

    <data_dir>/packs/<game>              a symlink to the game's current generation, e.g. .harbour.k3j9x2_a
    <data_dir>/packs/.<game>.<token>/    a generation:
        pack.json                          the manifest (the languages and pages of every source)
        sources.json                       {source: {"file", "lang", "passages", "ingested_at"}}
        <source>.jsonl                     one Entry per line, source "user", ids user.<source>.<lang>.p<page>.<n>

A source is named after the file it came from (`rules.pdf` -> `rules`), so a second rulebook for a game adds
to it and re-ingesting the same file replaces only that source.

Every change is all-or-nothing. The current generation is copied into a new hidden folder (staging), the
change is made there, the result is loaded and validated exactly as a question would load it, and it is
committed by one atomic rename of a symlink over `<game>`. A kill at any point leaves the old generation or
the new one, never a mix; the hidden folders an interrupted change leaves behind are removed by the next one.
Writers hold the data dir lock (rulesbot.locking), so concurrent ingests serialise and none is lost; readers
take no lock: they resolve the link once and read one generation.

A game folder of an older rulesbot (a plain folder with user.<lang>.jsonl) is read as it is, its files listed as
sources named "user.<lang>", and turned into a generation by its first change.
"""

import hashlib
import json
import os
import re
import shutil
import tempfile
import unicodedata
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from rulesbot.errors import BadInput, DataDirUnwritable, PackError, RulesbotError
from rulesbot.ingest import Limits, over_limit, read_passages
from rulesbot.knowledge import Entry, Pack, PackManifest, load_pack

MANIFEST, SOURCES = "pack.json", "sources.json"
SOURCE_PATTERN = re.compile(r"[a-z0-9][a-z0-9-]{0,63}")
GAME_PATTERN = re.compile(r"[a-z0-9][a-z0-9-]*")
# A stored line is an Entry's JSON: its text (at most max_passage_chars, up to 4 bytes each once escaped) and
# some metadata. A bigger file cannot be within the limits, so it is refused before being read.
ENTRY_OVERHEAD_BYTES = 1024


@dataclass(frozen=True)
class IngestResult:
    """What an ingest stored: the game's folder, the source, its passages, and how many it replaced (or None)."""

    folder: Path
    game: str
    source: str
    passages: int
    replaced: int | None


@dataclass(frozen=True)
class SourceInfo:
    """One ingested rulebook as `rulesbot ingest --list` shows it."""

    game: str
    source: str
    lang: str
    passages: int
    first_page: int
    last_page: int
    file: str
    problem: str | None = None  # why the source cannot be read, when it can't


def packs_dir(data_dir: Path) -> Path:
    """Where ingested rulebooks are stored: <data_dir>/packs/."""
    return Path(data_dir) / "packs"


def source_name(path: Path) -> str:
    """The source a file becomes: its name without extension, in lower-case letters, digits and dashes."""
    ascii_name = unicodedata.normalize("NFKD", Path(path).stem).encode("ascii", "ignore").decode()
    slug = re.sub(r"[^a-z0-9]+", "-", ascii_name.lower()).strip("-")[:64].strip("-")
    return slug or "rulebook"


def ingest_file(
    path: Path,
    *,
    game: str,
    lang: str,
    data_dir: Path,
    limits: Limits,
    lock_timeout: float,
    title: str | None = None,
    source: str | None = None,
    shipped: dict[str, Pack] | None = None,
) -> IngestResult:
    """Read, validate and store the rulebook at `path` as source `source` (default: from its name) of `game`.

    Raises BadInput / LimitExceeded before writing anything, PackError if the result would not load, and
    DataDirUnwritable / DataDirBusy for the data dir; on any error the stored rulebooks are as they were.
    """
    from rulesbot.locking import data_dir_lock

    if lang not in ("en", "fr"):
        raise BadInput(f"expected --lang en or fr, got {lang!r}")
    _check_game(game)
    source = source if source is not None else source_name(path)
    if not SOURCE_PATTERN.fullmatch(source):
        raise BadInput(f"expected a source name of lower-case letters, digits and dashes, got {source!r}")
    # All reading, cutting and limit checks happen before the data dir is touched.
    passages = read_passages(path, title=title, default_section=game, limits=limits)
    entries = [
        Entry(
            id=f"user.{source}.{lang}.p{passage.page}.{number}",
            concept_id=f"user.{source}.{lang}.p{passage.page}.{number}",
            lang=lang,
            source="user",
            pages=[passage.page],
            section=passage.section,
            text=passage.text,
            game=game,
        )
        for number, passage in enumerate(passages, start=1)
    ]
    lines = "".join(entry.model_dump_json(exclude={"game"}) + "\n" for entry in entries)
    root = packs_dir(data_dir)
    with data_dir_lock(data_dir, lock_timeout), _writing(data_dir):
        root.mkdir(parents=True, exist_ok=True)
        clean_stale(root)
        staging = _stage(root, game)
        try:
            sources = _read_sources(staging)
            replaced = _count_lines(staging / f"{source}.jsonl")
            _write(staging / f"{source}.jsonl", lines)
            sources[source] = {
                "file": Path(path).name,
                "lang": lang,
                "passages": len(entries),
                "ingested_at": datetime.now(UTC).isoformat(timespec="seconds"),
            }
            _write(staging / SOURCES, json.dumps(sources, indent=2, ensure_ascii=False, sort_keys=True))
            _write_manifest(staging, game, title)
            # Validated as a question would load it: a result that would be skipped is never committed.
            try:
                check_user_pack(staging, limits, shipped or {})
            except RulesbotError as error:
                raise PackError(
                    f"the ingested rulebooks of {game} would not load with {source!r} added ({error.message}); "
                    f"nothing was changed: see `rulesbot ingest --list`, and `rulesbot ingest --remove SOURCE "
                    f"--game {game}` takes a broken source away"
                ) from error
            _commit(root, game, staging)
        except BaseException:
            shutil.rmtree(staging, ignore_errors=True)
            raise
    return IngestResult(root / game, game, source, len(entries), replaced)


def remove_source(game: str, source: str, *, data_dir: Path, lock_timeout: float) -> int:
    """Remove one ingested rulebook (all-or-nothing, under the lock); returns the passages removed."""
    from rulesbot.locking import data_dir_lock

    _check_game(game)
    root = packs_dir(data_dir)
    with data_dir_lock(data_dir, lock_timeout), _writing(data_dir):
        current = root / game
        # Only a name listed in the game's folder is accepted (never a path: "../x" names no source).
        known = sorted(path.name[: -len(".jsonl")] for path in current.glob("*.jsonl")) if _is_game_folder(current) else []
        if source not in known:
            raise BadInput(f"game {game!r} has no ingested source {source!r}; its sources: {', '.join(known) or 'none'}")
        clean_stale(root)
        staging = _stage(root, game)
        try:
            removed = _count_lines(staging / f"{source}.jsonl") or 0
            (staging / f"{source}.jsonl").unlink()
            sources = _read_sources(staging)
            sources.pop(source, None)
            if not any(staging.glob("*.jsonl")):
                shutil.rmtree(staging)
                _drop(root, game)
                return removed
            _write(staging / SOURCES, json.dumps(sources, indent=2, ensure_ascii=False, sort_keys=True))
            _write_manifest(staging, game, None)
            _commit(root, game, staging)
        except BaseException:
            shutil.rmtree(staging, ignore_errors=True)
            raise
    return removed


def list_sources(data_dir: Path) -> list[SourceInfo]:
    """Every ingested rulebook, by game then source (a source that cannot be read says why)."""
    root = packs_dir(data_dir)
    found: list[SourceInfo] = []
    for entry in sorted(root.iterdir()) if root.is_dir() else []:
        if entry.name.startswith(".") or not _is_game_folder(entry):
            continue
        folder = entry.resolve()
        sources = _read_sources(folder)
        for path in sorted(folder.glob("*.jsonl")):
            name = path.name[: -len(".jsonl")]
            langs, pages, count, problem = set(), [], 0, None
            try:
                for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
                    if not line.strip():
                        continue
                    try:
                        record = json.loads(line)
                        langs.add(str(record["lang"]))
                        pages.extend(int(page) for page in record["pages"])
                        count += 1
                    except (ValueError, KeyError, TypeError):
                        problem = problem or f"unreadable line {number}"
            except (OSError, UnicodeDecodeError) as error:
                problem = f"unreadable file ({error})"
            info = sources.get(name)
            file = info.get("file", path.name) if isinstance(info, dict) else path.name
            found.append(
                SourceInfo(
                    game=entry.name,
                    source=name,
                    lang=",".join(sorted(langs)) or "?",
                    passages=count,
                    first_page=min(pages, default=0),
                    last_page=max(pages, default=0),
                    file=str(file),
                    problem=problem,
                )
            )
    return found


def load_user_packs(data_dir: Path, limits: Limits, warn: Callable[[str], None]) -> list[Pack]:
    """Every game's ingested pack that loads and is within `limits`; any other is skipped, said in `warn(line)`."""
    root = packs_dir(data_dir)
    packs: list[Pack] = []
    try:
        entries = sorted(root.iterdir()) if root.is_dir() else []
    except OSError as error:
        warn(f"skipped the ingested rulebooks in {root}: {error.strerror or error}")
        return packs
    for entry in entries:
        if entry.name.startswith(".") or not (entry.is_dir() or entry.is_symlink()):
            continue
        try:
            # Resolved once: every file is read from one generation, even if an ingest commits meanwhile.
            packs.append(_load_checked(entry.resolve(strict=True), limits))
        except (RulesbotError, OSError, ValueError) as error:
            message = error.message if isinstance(error, RulesbotError) else (getattr(error, "strerror", None) or str(error))
            warn(f"skipped the ingested rulebooks of {entry.name} ({entry}): {message}")
    return packs


def merge_user_pack(packs: dict[str, Pack], user: Pack) -> None:
    """Add `user` to `packs`: a user pack for a shipped game adds its records to it (PackError on an id clash)."""
    shipped = packs.get(user.game)
    if shipped is None:
        packs[user.game] = user
        return
    clash = set(shipped.by_id) & set(user.by_id)
    if clash:
        raise PackError(f"{user.path}: ids already used by the shipped pack: {sorted(clash)[:3]}")
    packs[user.game] = Pack(manifest=shipped.manifest, entries=shipped.entries + user.entries, path=shipped.path)


def check_user_pack(folder: Path, limits: Limits, shipped: dict[str, Pack]) -> Pack:
    """Load `folder` as the loader would (limits, validation, merge with the shipped packs) or raise."""
    pack = _load_checked(folder, limits)
    merge_user_pack(dict(shipped), pack)
    return pack


def clean_stale(root: Path) -> None:
    """Remove the hidden folders and links that interrupted changes left in `root` (the caller holds the lock).

    A plain game folder of an older rulesbot that an interrupted first change moved aside is put back first.
    """
    hidden = [entry for entry in root.iterdir() if entry.name.startswith(".")]
    for entry in hidden:
        if entry.name.endswith(".legacy") and not entry.is_symlink():
            game = entry.name[1:].split(".")[0]
            original = root / game
            if not original.exists() and not original.is_symlink():
                entry.rename(original)
    live = {entry.resolve() for entry in root.iterdir() if not entry.name.startswith(".") and entry.is_symlink()}
    for entry in root.iterdir():
        if not entry.name.startswith("."):
            continue
        if entry.is_symlink() or entry.is_file():
            entry.unlink(missing_ok=True)
        elif entry.resolve() not in live:
            shutil.rmtree(entry, ignore_errors=True)


def _load_checked(folder: Path, limits: Limits) -> Pack:
    # Sizes first: a file too big to be within the limits is refused without being read (an older rulesbot
    # had no limits, and loading its giant packs made every question hang).
    largest = limits.max_passages * (4 * limits.max_passage_chars + ENTRY_OVERHEAD_BYTES)
    for path in sorted(folder.glob("*.jsonl")):
        if path.stat().st_size > largest:
            raise over_limit(
                "ingest_max_passages", f"{path.name} is too large for {limits.max_passages:,} passages"
            )
    pack = load_pack(folder)
    per_source: dict[str, int] = {}
    for entry in pack.entries:
        if len(entry.text) > limits.max_passage_chars:
            raise over_limit(
                "ingest_max_passage_chars",
                f"{entry.id} has {len(entry.text):,} characters, over the limit of {limits.max_passage_chars:,}",
            )
        source = entry.id.rsplit(".p", 1)[0]
        per_source[source] = per_source.get(source, 0) + 1
    for source, count in per_source.items():
        if count > limits.max_passages:
            raise over_limit(
                "ingest_max_passages", f"{source} has {count:,} passages, over the limit of {limits.max_passages:,}"
            )
    if pack.manifest.pages > limits.max_pages:
        raise over_limit(
            "ingest_max_pages", f"{folder.name} cites page {pack.manifest.pages:,}, past the limit of {limits.max_pages:,}"
        )
    return pack


def _check_game(game: str) -> None:
    if not GAME_PATTERN.fullmatch(game):
        raise BadInput(f"expected a game id of lower-case letters, digits and dashes, got {game!r}")


def _is_game_folder(path: Path) -> bool:
    return path.is_dir() and (path / MANIFEST).is_file()


def _stage(root: Path, game: str) -> Path:
    """A new hidden generation holding a copy of the game's current files (empty for a new game)."""
    staging = Path(tempfile.mkdtemp(prefix=f".{game}.", dir=root))
    current = root / game
    if current.is_dir():
        for path in current.iterdir():
            if path.is_file():
                shutil.copy2(path, staging / path.name)
    return staging


def _commit(root: Path, game: str, staging: Path) -> None:
    """Make `staging` the game's generation with one atomic rename, then remove the one it replaces."""
    current = root / game
    link = root / f"{staging.name}.link"
    os.symlink(staging.name, link)  # relative, so the data dir can be moved
    previous = current.resolve() if current.is_symlink() else None
    if current.is_dir() and not current.is_symlink():
        # An older rulesbot's plain folder can't be renamed over: it is moved aside first (clean_stale puts it
        # back if a kill lands between the two renames).
        aside = root / f"{staging.name}.legacy"
        current.rename(aside)
        os.replace(link, current)
        _fsync_dir(root)
        shutil.rmtree(aside, ignore_errors=True)
    else:
        os.replace(link, current)
        _fsync_dir(root)
    if previous is not None and previous != staging.resolve():
        shutil.rmtree(previous, ignore_errors=True)


def _drop(root: Path, game: str) -> None:
    """Remove a game's pack (its last source was removed) with one atomic step."""
    current = root / game
    if current.is_symlink():
        previous = current.resolve()
        current.unlink()
        _fsync_dir(root)
        shutil.rmtree(previous, ignore_errors=True)
    else:
        # A ".gone" folder is never put back by clean_stale: the removal is done once it is renamed.
        gone = root / f".{game}.{os.getpid()}.gone"
        current.rename(gone)
        _fsync_dir(root)
        shutil.rmtree(gone, ignore_errors=True)


def _write_manifest(folder: Path, game: str, title: str | None) -> None:
    """pack.json for every source in `folder`: their languages, their highest page, a version from their text."""
    existing = None
    try:
        existing = PackManifest.model_validate_json((folder / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        pass  # a missing or broken manifest is rewritten from the sources
    langs, pages = set(), [1]
    digest = hashlib.sha256()
    for path in sorted(folder.glob("*.jsonl")):
        data = path.read_bytes()
        digest.update(path.name.encode() + b"\0" + data)
        for line in data.decode("utf-8", errors="replace").splitlines():
            try:
                record = json.loads(line)
                langs.add(record["lang"])
                pages.extend(int(page) for page in record["pages"])
            except (ValueError, KeyError, TypeError):
                continue  # validation names the bad line
    sources = _read_sources(folder)
    manifest = PackManifest(
        game=game,
        title=title or (existing.title if existing else game),
        languages=sorted(lang for lang in langs if lang in ("en", "fr")) or ["en"],
        pages=max(pages),
        rules_version=f"user-{digest.hexdigest()[:8]}",
        sources=[
            f"ingested: {info.get('file', name)}" if isinstance(info, dict) else f"ingested: {name}"
            for name, info in sorted(sources.items())
        ],
    )
    _write(folder / MANIFEST, manifest.model_dump_json(indent=2, exclude_none=True))


def _read_sources(folder: Path) -> dict:
    try:
        sources = json.loads((folder / SOURCES).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return sources if isinstance(sources, dict) else {}


def _count_lines(path: Path) -> int | None:
    if not path.is_file():
        return None
    return sum(1 for line in path.read_text(encoding="utf-8", errors="replace").splitlines() if line.strip())


def _write(path: Path, text: str) -> None:
    # Flushed to disk before the commit renames anything, so a power cut can't leave a renamed empty file.
    with open(path, "w", encoding="utf-8") as stream:
        stream.write(text)
        stream.flush()
        os.fsync(stream.fileno())


def _fsync_dir(folder: Path) -> None:
    descriptor = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)


@contextmanager
def _writing(data_dir: Path) -> Iterator[None]:
    """Turn an OSError met while changing the store into DataDirUnwritable naming the data dir (one line)."""
    try:
        yield
    except OSError as error:
        raise DataDirUnwritable.for_path(Path(data_dir).expanduser().absolute(), error) from error
