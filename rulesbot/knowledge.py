"""Knowledge packs: a game's rulebook passages and FAQ, in each language, as validated records.

A pack is a folder (shipped ones live in the repository's knowledge/<game>/, installed as
`rulesbot.packs`):

    pack.json             the manifest (PackManifest)
    rulebook.<lang>.jsonl one Entry per line, source "rulebook"
    faq.<lang>.jsonl      one Entry per line, source "faq" (with `question`, optionally a short `lead`)

Every record has a page, and every concept exists in every language the manifest declares (its twin shares
the `concept_id`). A second pack drops in as another folder: no code changes. A site with many games holds them in
a PackCatalog: every manifest read up front, a game's records on its first use (rulesbot.core.load_catalog).

An FAQ record's `text` states the rule on its own, for whatever question it ends up answering; a short
yes/no-style `lead` ("Yes.", "Non.", "5.") answers only the record's own `question`, so it lives apart and is
shown only when the asker's question matches that question closely with the same polarity.
"""

import hashlib
import importlib
import json
import threading
from collections.abc import Callable, Iterator, Mapping
from functools import cached_property
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, Field, ValidationError, field_validator, model_validator

from rulesbot.errors import PackError, UnknownGame

# The repository's knowledge/ folder is installed as the package rulesbot.packs (see setup.py).
SHIPPED_DIR = Path(importlib.import_module("rulesbot.packs").__file__).resolve().parent


class PackManifest(BaseModel):
    """pack.json: what the pack is."""

    game: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$")
    title: str
    publisher: str | None = None
    year: int | None = None
    languages: list[Literal["en", "fr"]] = Field(min_length=1)
    pages: int = Field(ge=1)
    rules_version: str
    engine: str | None = None  # the engine module under rulesbot.engine, if the game has one
    sources: list[str] = Field(default_factory=list)
    description: dict[str, str] = Field(default_factory=dict)


# A lead is a word or a short phrase ("Yes.", "Oui, une seule fois."), not a second answer.
LEAD_MAX_CHARS = 40


class Entry(BaseModel):
    """One passage of the rulebook or one FAQ answer, in one language."""

    id: str = Field(pattern=r"^[a-z0-9][a-z0-9._-]*$")
    concept_id: str = Field(pattern=r"^[a-z0-9][a-z0-9._-]*$")
    lang: Literal["en", "fr"]
    source: Literal["rulebook", "faq", "user"]
    pages: list[int] = Field(min_length=1)
    section: str = Field(min_length=1)
    text: str = Field(min_length=1)
    question: str | None = None  # FAQ entries: the question as players ask it
    paraphrases: list[str] = Field(default_factory=list)  # other ways to ask it, indexed too
    # FAQ entries: a short answer ("Yes.", "Non.", "5.") to `question` itself, never part of `text`: shown
    # for another question (or the same one asked the other way round) it could say the opposite of the rule.
    lead: str | None = Field(default=None, min_length=1, max_length=LEAD_MAX_CHARS)
    game: str = ""  # filled in by the loader

    @field_validator("pages")
    @classmethod
    def _positive_pages(cls, pages: list[int]) -> list[int]:
        if any(page < 1 for page in pages):
            raise ValueError(f"expected page numbers >= 1, got {pages}")
        return pages

    @model_validator(mode="after")
    def _faq_has_question(self) -> "Entry":
        if self.source == "faq" and not self.question:
            raise ValueError(f"FAQ entry {self.id} has no question")
        if self.lead is not None and self.source != "faq":
            raise ValueError(f"{self.id}: only FAQ entries have a lead (it answers their own question)")
        return self

    @property
    def page(self) -> int:
        """The main page (the first listed)."""
        return self.pages[0]


class Pack(BaseModel):
    """A loaded, validated knowledge pack."""

    manifest: PackManifest
    entries: list[Entry]
    path: str

    @property
    def game(self) -> str:
        """The game id."""
        return self.manifest.game

    @cached_property
    def by_id(self) -> dict[str, Entry]:
        """Entries by id."""
        return {entry.id: entry for entry in self.entries}

    def twin(self, entry: Entry, lang: str) -> Entry | None:
        """The same concept in another language (the entry itself if already in `lang`)."""
        if entry.lang == lang:
            return entry
        for other in self.entries:
            if other.concept_id == entry.concept_id and other.lang == lang and other.source == entry.source:
                return other
        return None

    def content_hash(self) -> str:
        """A hash of everything indexed, so a saved index knows when it is stale."""
        digest = hashlib.sha256(self.manifest.model_dump_json().encode())
        for entry in self.entries:
            digest.update(entry.model_dump_json().encode())
        return digest.hexdigest()[:16]


def load_manifest(folder: Path) -> PackManifest:
    """Read and validate `folder`/pack.json alone (no records); raise PackError naming the file on any problem."""
    manifest_path = Path(folder) / "pack.json"
    try:
        return PackManifest.model_validate_json(manifest_path.read_text(encoding="utf-8"))
    except FileNotFoundError as error:
        raise PackError(f"{folder}: no pack.json") from error
    except OSError as error:
        raise PackError(f"{manifest_path}: {error.strerror or error}") from error
    except ValidationError as error:
        raise PackError(f"{manifest_path}: {_first_error(error)}") from error


def load_pack(folder: Path) -> Pack:
    """Load and validate the pack in `folder`; raise PackError naming the file and line on any problem."""
    manifest = load_manifest(folder)
    entries: list[Entry] = []
    for path in sorted(folder.glob("*.jsonl")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            if not line.strip():
                continue
            try:
                entry = Entry.model_validate({**json.loads(line), "game": manifest.game})
            except (json.JSONDecodeError, ValidationError) as error:
                raise PackError(f"{path.name}:{number}: {_first_error(error)}") from error
            entries.append(entry)
    _check_pack(manifest, entries, folder)
    return Pack(manifest=manifest, entries=entries, path=str(folder))


def load_packs(folders: list[Path] | None = None) -> dict[str, Pack]:
    """Load every pack: the shipped ones, plus any extra folders (e.g. a user's ingested rulebooks)."""
    candidates = sorted(p.parent for p in SHIPPED_DIR.glob("*/pack.json"))
    candidates += [Path(folder) for folder in folders or []]
    packs: dict[str, Pack] = {}
    for folder in candidates:
        pack = load_pack(folder)
        packs[pack.game] = pack
    return packs


# How many known games an "unknown game" error names.
KNOWN_SHOWN = 10


def get_pack(packs: dict[str, Pack], game: str) -> Pack:
    """The pack for `game`, or UnknownGame listing the known ones."""
    try:
        return packs[game]
    except KeyError:
        games = sorted(packs)
        # A site with hundreds of games: the first few, and how many more (GET /v1/games lists them all).
        known = ", ".join(games[:KNOWN_SHOWN]) or "none"
        if len(games) > KNOWN_SHOWN:
            known += f" and {len(games) - KNOWN_SHOWN} more (see /v1/games)"
        raise UnknownGame(f"unknown game {game!r}; known games: {known}") from None


def _check_pack(manifest: PackManifest, entries: list[Entry], folder: Path) -> None:
    seen: set[str] = set()
    concepts: dict[tuple[str, str], set[str]] = {}
    for entry in entries:
        if entry.id in seen:
            raise PackError(f"{folder}: duplicate id {entry.id}")
        seen.add(entry.id)
        if entry.lang not in manifest.languages:
            raise PackError(f"{folder}: {entry.id} is in {entry.lang}, not a language of the pack")
        if any(page > manifest.pages for page in entry.pages):
            raise PackError(f"{folder}: {entry.id} cites page {max(entry.pages)} of a {manifest.pages}-page rulebook")
        concepts.setdefault((entry.source, entry.concept_id), set()).add(entry.lang)
    for (source, concept), langs in concepts.items():
        # A user's ingested rulebook is in one language; the shipped rulebook and FAQ have every twin.
        if source != "user" and langs != set(manifest.languages):
            missing = ", ".join(sorted(set(manifest.languages) - langs))
            raise PackError(f"{folder}: concept {concept} ({source}) has no twin in {missing}")


def _first_error(error: Exception) -> str:
    if isinstance(error, ValidationError):
        first = error.errors()[0]
        where = ".".join(str(part) for part in first["loc"]) or "record"
        return f"{where}: {first['msg']}"
    return str(error)


class PackCatalog(Mapping[str, Pack]):
    """Every game's manifest, read up front; a game's records loaded on first use, once (a per-game lock).

    A read-only mapping game -> Pack: `in`, `len`, iteration and `manifests()` read only the manifests;
    `catalog[game]` (and `get`, `values`, `items`) load the game's records through `loader(game)` the first
    time. A game whose records fail to load is dropped from the catalog with `warn(one line)` and then unknown
    (UnknownGame), so the other games still answer.
    """

    def __init__(
        self,
        manifests: dict[str, PackManifest],
        loader: Callable[[str], Pack],
        warn: Callable[[str], None] | None = None,
    ) -> None:
        self._manifests = dict(manifests)
        self._loader = loader
        self._warn = warn or (lambda _message: None)
        self._packs: dict[str, Pack] = {}
        self._locks: dict[str, threading.Lock] = {}
        self._guard = threading.Lock()  # guards the dicts themselves, held only for a lookup

    def manifests(self) -> list[PackManifest]:
        """Every listed game's manifest, by game id (loads nothing)."""
        with self._guard:
            return [self._manifests[game] for game in sorted(self._manifests)]

    def loaded(self) -> list[str]:
        """The games whose records are loaded so far."""
        with self._guard:
            return sorted(self._packs)

    def __contains__(self, game: object) -> bool:
        with self._guard:
            return game in self._manifests

    def __iter__(self) -> Iterator[str]:
        with self._guard:
            return iter(sorted(self._manifests))

    def __len__(self) -> int:
        with self._guard:
            return len(self._manifests)

    def __getitem__(self, game: str) -> Pack:
        with self._guard:
            pack = self._packs.get(game)
            if pack is not None:
                return pack
            if game not in self._manifests:
                raise KeyError(game)
            lock = self._locks.setdefault(game, threading.Lock())
        # One lock per game: two first questions for one game load it once; other games are not held up.
        with lock:
            with self._guard:
                pack = self._packs.get(game)
                if pack is not None:
                    return pack
                if game not in self._manifests:  # dropped by a failed load meanwhile
                    raise KeyError(game)
            try:
                pack = self._loader(game)
            except (PackError, OSError) as error:
                with self._guard:
                    self._manifests.pop(game, None)
                message = error.message if isinstance(error, PackError) else (error.strerror or str(error))
                self._warn(f"skipped the pack of {game}: {message}")
                raise KeyError(game) from error
            with self._guard:
                self._packs[game] = pack
            return pack
