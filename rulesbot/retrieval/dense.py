"""The dense index lifecycle: what is embedded, building, loading or rebuilding the saved index, shipped vectors.

Every record contributes its text (with its section title), plus its FAQ `question` and each `paraphrase`, as
separate vectors that point back at the record (Unit). The saved index carries a manifest (backend, model,
dimension, knowledge hash, recipe, checksums); a stale, missing or damaged one is rebuilt with a message. A pack
ships its vectors (`knowledge/<game>/vectors/`), so a fresh install embeds nothing. Rulesbot opens one index per
game (`open_dense_index(..., game=...)`), on that game's first question.
"""

import re
import sys
import time
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path

import numpy as np

from rulesbot import __version__
from rulesbot.errors import StorageError
from rulesbot.index import (
    CorruptIndex,
    Index,
    IndexManifest,
    create_index,
    index_folder,
    load_index,
    read_manifest,
    save_index,
)
from rulesbot.knowledge import Pack
from rulesbot.retrieval.calibration import calibration_for
from rulesbot.retrieval.lexical import _TOKEN
from rulesbot.storage import probe_writable

# Bump when the way records become vectors changes: saved indexes built the old way then rebuild themselves.
RECIPE = "text+section,question,paraphrases/v2-no-title"


@dataclass(frozen=True)
class Unit:
    """One indexed text: a record's passage, its FAQ question or one paraphrase."""

    game: str
    record_id: str
    kind: str  # "text" | "question" | "paraphrase"
    text: str

    @property
    def encoding(self) -> str:
        """How it is embedded: passages as passages; questions and paraphrases as queries (question to question)."""
        return "passage" if self.kind == "text" else "query"




def index_units(packs: dict[str, Pack]) -> list[Unit]:
    """Every text to embed, in a stable order (game, then the pack's record order)."""
    units: list[Unit] = []
    for game in sorted(packs):
        title = packs[game].manifest.title
        for entry in packs[game].entries:
            units.append(Unit(game, entry.id, "text", f"{entry.section}: {entry.text}"))
            # Stored questions are matched against questions, which lose the game's name (Retriever.search):
            # they lose it too, so "Can Canvas be played solo?" and "can it be played solo?" meet.
            if entry.question:
                units.append(Unit(game, entry.id, "question", without_title(entry.question, title)))
            units.extend(Unit(game, entry.id, "paraphrase", without_title(text, title)) for text in entry.paraphrases)
    return units


def without_title(text: str, title: str) -> str:
    """`text` without the game's title (a text that is nothing but the title keeps it)."""
    stripped = " ".join(re.sub(rf"\b{re.escape(title)}\b", " ", text, flags=re.IGNORECASE).split())
    return stripped if _TOKEN.search(stripped) else text


def knowledge_hash(packs: dict[str, Pack]) -> str:
    """One hash over every pack's content (shipped and user), so any edit makes the saved index stale."""
    import hashlib

    digest = hashlib.sha256()
    for game in sorted(packs):
        digest.update(f"{game}:{packs[game].content_hash()};".encode())
    return digest.hexdigest()[:16]


def expected_manifest(packs: dict[str, Pack], embedder, index_kind: str, count: int = 0) -> IndexManifest:
    """The manifest an index built now, from these packs with this embedder, would carry."""
    return IndexManifest(
        backend=embedder.name,
        model_id=embedder.model_id,
        dimension=embedder.dim,
        normalised=True,
        index=index_kind,
        knowledge_hash=knowledge_hash(packs),
        recipe=RECIPE,
        rules_versions={game: pack.manifest.rules_version for game, pack in sorted(packs.items())},
        languages=sorted({lang for pack in packs.values() for lang in pack.manifest.languages}),
        games=sorted(packs),
        count=count,
        built_at=datetime.now(UTC).isoformat(timespec="seconds"),
        rulesbot_version=__version__,
        # Raises UnknownCalibration for an uncalibrated (backend, model) pair, before anything is built.
        calibration=asdict(calibration_for(embedder.name, embedder.model_id)),
    )


def build_dense_index(
    packs: dict[str, Pack],
    embedder,
    index_kind: str,
    progress: Callable[[int, int], None] | None = None,
    batch_size: int = 32,
    cache=None,
) -> tuple[Index, list, IndexManifest]:
    """Embed every unit and return (index, rows, manifest); `progress(done, total)` is called per batch.

    With an EmbeddingCache, texts embedded by an earlier build are reused rather than embedded again.
    """
    units = index_units(packs)
    index = create_index(index_kind, embedder.dim)
    total = len(units)
    for start in range(0, total, batch_size):
        batch = units[start : start + batch_size]
        # Unit.encoding: E5's "query:" prefix on both sides for question-to-question matches.
        passages = [unit.text for unit in batch if unit.encoding == "passage"]
        questions = [unit.text for unit in batch if unit.encoding == "query"]
        if cache is None:
            passage_vectors = iter(embedder.embed_passages(passages))
            question_vectors = iter(embedder.embed_questions(questions))
        else:
            passage_vectors = iter(cache.embed("passage", passages, embedder.embed_passages))
            question_vectors = iter(cache.embed("query", questions, embedder.embed_questions))
        vectors = [next(passage_vectors) if unit.encoding == "passage" else next(question_vectors) for unit in batch]
        index.add(np.vstack(vectors))
        if progress:
            progress(min(start + batch_size, total), total)
    if progress and not total:
        progress(0, 0)
    if cache is not None:
        cache.save()
    rows = [[unit.game, unit.record_id, unit.kind] for unit in units]
    return index, rows, expected_manifest(packs, embedder, index_kind, count=len(rows))


def open_dense_index(
    packs: dict[str, Pack],
    embedder,
    data_dir,
    index_kind: str,
    *,
    force: bool = False,
    notify: Callable[[str], None] | None = None,
    progress: Callable[[int, int], None] | None = None,
    lock: Callable[[], AbstractContextManager] | None = None,
    require_saved: bool = False,
    game: str | None = None,
) -> tuple[Index, list, IndexManifest, bool]:
    """Load the saved index for this embedder, or (re)build and save it; returns (index, rows, manifest, built).

    With `game` (what Rulesbot does: `packs` is then that one game's pack), the index is that game's own, in
    <index folder>/<game>/, with its own embedding cache: each game loads and rebuilds on its own.

    With `lock` (the data dir lock), a build holds it and first looks again: another process may have built it.
    When the data dir cannot be written, the index is built in memory for this process with a warning (a question
    still gets its answer; no lock is taken, as nothing will be written), or, with `require_saved`
    (`rulesbot index build`), StorageError is raised before anything is embedded.
    """
    loud = notify or _stderr
    # With a lock these checks stay quiet: they are made again, and reported, once the lock is held.
    notify = (lambda _message: None) if lock is not None else loud
    folder = index_folder(data_dir, embedder.name, embedder.model_id, game)
    expected = expected_manifest(packs, embedder, index_kind)
    reason = None
    if not force:
        try:
            saved = read_manifest(folder)
            why = saved.mismatch(expected)
            if why is None:
                index, rows = load_index(folder, saved)
                return index, rows, saved, False
            reason = f"index is stale ({why}), rebuilding…"
        except CorruptIndex as error:
            exists = folder.exists() or folder.is_symlink()
            reason = f"index is corrupt ({error}), rebuilding…" if exists else None
    # The index root (<data_dir>/index) is what a user can fix; a game's index lives two levels under it.
    root = folder.parent if game is None else folder.parent.parent
    try:
        probe_writable(root)
        probe_writable(folder.parent)
        unwritable = None
    except OSError as error:
        unwritable = StorageError.from_os_error(error, "save the search index", root)
        if require_saved:
            raise unwritable from error
    if lock is not None and unwritable is None:
        with lock():
            return open_dense_index(
                packs, embedder, data_dir, index_kind, force=force, notify=loud, progress=progress,
                require_saved=require_saved, game=game,
            )
    notify = loud
    if reason is not None:
        notify(reason)
    if unwritable is not None:
        notify(f"warning: {unwritable.message} (building it in memory for this run)")
    elif reason is None and not force:
        notify(f"no index for {embedder.name} yet, building it in {folder}…")
    started = time.perf_counter()
    cache = _embedding_cache(packs, embedder, data_dir, game)
    index, rows, manifest = build_dense_index(packs, embedder, index_kind, progress=progress, cache=cache)
    if unwritable is None:
        try:
            save_index(folder, index, rows, manifest)
        except OSError as error:  # e.g. the disk filled up after the probe
            failure = StorageError.from_os_error(error, "save the search index", root)
            if require_saved:
                raise failure from error
            notify(f"warning: {failure.message} (using it from memory for this run)")
            return index, rows, manifest, True
        reused = manifest.count - cache.computed
        notify(
            f"index built: {manifest.count} vectors in {time.perf_counter() - started:.1f}s"
            + (f" ({cache.computed} embedded, {reused} reused)" if reused else "")
        )
    return index, rows, manifest, True


def seed_path(pack: Pack, embedder) -> Path:
    """Where a pack ships its vectors for one embedder: <pack>/vectors/<backend>-<model-slug>.npz."""
    return Path(pack.path) / "vectors" / f"{index_folder(Path(), embedder.name, embedder.model_id).name}.npz"


def write_pack_vectors(pack: Pack, embedder, data_dir: Path) -> tuple[Path, int, int]:
    """Write the vectors of every text `pack` indexes into the pack (its seed); returns (path, count, computed).

    For maintainers, after editing a shipped pack: a fresh install then loads these instead of embedding.
    """
    from rulesbot.embeddings.cache import write_vectors

    cache = _embedding_cache({pack.game: pack}, embedder, data_dir)
    vectors: dict[str, np.ndarray] = {}
    units = index_units({pack.game: pack})
    for encoding, compute in (("passage", embedder.embed_passages), ("query", embedder.embed_questions)):
        texts = list(dict.fromkeys(unit.text for unit in units if unit.encoding == encoding))
        for text, vector in zip(texts, cache.embed(encoding, texts, compute), strict=True):
            vectors[cache.key(encoding, text)] = vector
    path = seed_path(pack, embedder)
    write_vectors(path, vectors, embedder.dim)
    return path, len(vectors), cache.computed


def _embedding_cache(packs: dict[str, Pack], embedder, data_dir: Path, game: str | None = None):
    from rulesbot.embeddings.cache import EmbeddingCache

    name = index_folder(data_dir, embedder.name, embedder.model_id).name
    # One file per game: a site with hundreds of games never rewrites one growing cache per game built.
    name = name if game is None else f"{name}.{game}"
    seeds = [seed_path(pack, embedder) for _game, pack in sorted(packs.items())]
    return EmbeddingCache(
        Path(data_dir) / "embeddings" / f"{name}.npz",
        embedder.model_id,
        embedder.dim,
        seeds=[path for path in seeds if path.is_file()],
    )




def _stderr(message: str) -> None:
    sys.stderr.write(message + "\n")
    sys.stderr.flush()
