"""Questions, answers and votes, logged for a rules-site owner's report (off by default; no IP addresses).

    store = Analytics.open("sqlite:///~/.cache/rulesbot/analytics.sqlite3", retention_days=90)
    store.record_answer(answer, game="canvas", latency_ms=12.5)   # never blocks: queued
    store.record_feedback("a1b2...", "down", "wrong page")         # never blocks: queued
    store.report(since=time.time() - 7 * 86400, lang="fr")         # most asked, unanswered, low confidence, down-voted

Writes never block an answer: they go on a bounded queue that one daemon thread drains into the database in
small transactions. A full queue drops the event (counted), a locked or corrupt database is reported once in the
log and in `status()`, and the service keeps answering. The schema is SQLAlchemy Core, so the same tables work on
SQLite (the default, a file in the data dir) and on any database SQLAlchemy reaches with a URL; its version is
kept in a `schema_info` table and checked on open.

What is stored: the question text (the report's point is which questions players ask), the game, the answer's
language, kind and confidence, the latency, and for a vote its direction and optional comment. Never the client's
address, headers or any identifier of the person asking.
"""

import logging
import queue
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from rulesbot.errors import RulesbotError

logger = logging.getLogger("rulesbot.analytics")

SCHEMA_VERSION = 1
# Bounds: memory (queued events) and the size of one write transaction.
QUEUE_SIZE = 10_000
BATCH_SIZE = 200
MAX_COMMENT_CHARS = 500
VOTES = ("up", "down")
# Answers below this confidence are listed as "low confidence" in the report.
LOW_CONFIDENCE = 0.5


class AnalyticsError(RulesbotError):
    """The analytics database can't be opened or read (wrong URL, corrupt file, newer schema)."""

    code = "analytics_unavailable"
    status = 503


@dataclass(frozen=True)
class StoreStatus:
    """What the writer thread has seen: events written and dropped, and the last error (if any)."""

    written: int
    dropped: int
    failed: int
    last_error: str | None


def sqlite_url(path: Path) -> str:
    """The SQLAlchemy URL of a SQLite file."""
    return f"sqlite:///{Path(path).expanduser()}"


class Analytics:
    """The analytics store: a SQLAlchemy engine, its tables and the writer thread."""

    def __init__(self, engine, retention_days: int) -> None:
        self._engine = engine
        self._tables = _tables()
        self.retention_days = retention_days
        self._queue: queue.Queue = queue.Queue(maxsize=QUEUE_SIZE)
        self._written = 0
        self._dropped = 0
        self._failed = 0
        self._last_error: str | None = None
        self._reported: set[str] = set()
        self._writer = threading.Thread(target=self._drain, name="rulesbot-analytics", daemon=True)
        self._writer.start()

    @classmethod
    def open(cls, url: str, *, retention_days: int = 90) -> "Analytics":
        """Open (creating its tables if needed) the store at a SQLAlchemy URL; AnalyticsError if impossible."""
        from sqlalchemy import create_engine, event
        from sqlalchemy.exc import ArgumentError, SQLAlchemyError

        try:
            engine = create_engine(url, pool_pre_ping=True)
        except (ArgumentError, SQLAlchemyError, ImportError) as error:
            raise AnalyticsError(f"analytics database {_safe_url(url)}: {error}") from None
        if engine.dialect.name == "sqlite":
            event.listen(engine, "connect", _sqlite_pragmas)
        store = cls(engine, retention_days)
        store._migrate()
        store.prune()
        return store

    # Writing (never blocks the caller).

    def record_answer(self, answer, *, game: str, latency_ms: float) -> None:
        """Queue one answered question (an Answer or its contract dict)."""
        data = answer if isinstance(answer, dict) else answer.contract()
        self._put(
            "answers",
            {
                "answer_id": data.get("id") or "",
                "at": time.time(),
                "game": game,
                "lang": data["lang"],
                "kind": data["kind"],
                "confidence": float(data["confidence"]),
                "latency_ms": round(float(latency_ms), 3),
                "question": data["question"],
                "normalised": normalise_question(data["question"]),
            },
        )

    def record_feedback(self, answer_id: str, vote: str, comment: str | None = None) -> None:
        """Queue one vote on an answer (`vote` is "up" or "down")."""
        if vote not in VOTES:
            raise ValueError(f"expected vote to be one of {', '.join(VOTES)}, got {vote!r}")
        comment = (comment or "").strip()[:MAX_COMMENT_CHARS] or None
        self._put("feedback", {"answer_id": answer_id, "at": time.time(), "vote": vote, "comment": comment})

    def flush(self, timeout: float = 5.0) -> bool:
        """Wait until every queued event is written (or failed); False if `timeout` passed first."""
        deadline = time.monotonic() + timeout
        while self._queue.unfinished_tasks:
            if time.monotonic() > deadline:
                return False
            time.sleep(0.005)
        return True

    def status(self) -> StoreStatus:
        """Counters of the writer thread."""
        return StoreStatus(self._written, self._dropped, self._failed, self._last_error)

    def prune(self) -> int:
        """Delete rows older than the retention period; the number deleted (0 if the database fails)."""
        from sqlalchemy import delete
        from sqlalchemy.exc import SQLAlchemyError

        cutoff = time.time() - self.retention_days * 86400
        try:
            with self._engine.begin() as connection:
                deleted = 0
                for table in (self._tables["answers"], self._tables["feedback"]):
                    deleted += connection.execute(delete(table).where(table.c.at < cutoff)).rowcount or 0
            return deleted
        except SQLAlchemyError as error:
            self._note_error(error)
            return 0

    # Reading.

    def report(self, *, since: float | None = None, lang: str | None = None, limit: int = 10) -> dict:
        """The site owner's report: most asked, unanswered, low-confidence and down-voted questions, per language."""
        from sqlalchemy import and_, func, select, true
        from sqlalchemy.exc import SQLAlchemyError

        answers, feedback = self._tables["answers"], self._tables["feedback"]
        conditions = []
        if since is not None:
            conditions.append(answers.c.at >= since)
        if lang is not None:
            conditions.append(answers.c.lang == lang)
        where = and_(true(), *conditions)

        def grouped(extra=None):
            # One row per distinct (normalised) question: how often, in which language, one spelling of it.
            query = (
                select(
                    answers.c.normalised,
                    answers.c.lang,
                    func.count().label("count"),
                    func.min(answers.c.question).label("question"),
                    func.avg(answers.c.confidence).label("confidence"),
                )
                .where(where if extra is None else and_(where, extra))
                .group_by(answers.c.normalised, answers.c.lang)
                .order_by(func.count().desc(), answers.c.normalised)
                .limit(limit)
            )
            return [
                {"question": row.question, "lang": row.lang, "count": row.count, "confidence": round(row.confidence, 3)}
                for row in connection.execute(query)
            ]

        try:
            with self._engine.connect() as connection:
                totals = connection.execute(
                    select(answers.c.lang, answers.c.kind, func.count()).where(where).group_by(answers.c.lang, answers.c.kind)
                ).all()
                down = select(
                    feedback.c.answer_id, func.count().label("votes"), func.max(feedback.c.comment).label("comment")
                ).where(feedback.c.vote == "down")
                if since is not None:
                    down = down.where(feedback.c.at >= since)
                down = down.group_by(feedback.c.answer_id).subquery()
                # Answer ids are stable for one answer to one question, so a question asked often has one id.
                asked = (
                    select(answers.c.answer_id, func.min(answers.c.question).label("question"), func.min(answers.c.lang).label("lang"))
                    .where(and_(where, answers.c.answer_id != ""))
                    .group_by(answers.c.answer_id)
                    .subquery()
                )
                voted = (
                    select(asked.c.question, asked.c.lang, down.c.votes, down.c.comment)
                    .join_from(down, asked, down.c.answer_id == asked.c.answer_id)
                    .order_by(down.c.votes.desc(), asked.c.question)
                    .limit(limit)
                )
                report = {
                    "totals": _totals(totals),
                    "most_asked": grouped(),
                    "unanswered": grouped(answers.c.kind == "unknown"),
                    "low_confidence": grouped(and_(answers.c.kind != "unknown", answers.c.confidence < LOW_CONFIDENCE)),
                    "down_voted": [
                        {"question": row.question, "lang": row.lang, "down_votes": row.votes, "comment": row.comment}
                        for row in connection.execute(voted)
                    ],
                }
        except SQLAlchemyError as error:
            raise AnalyticsError(f"analytics database {_safe_url(str(self._engine.url))}: {_first_line(error)}") from None
        votes = self._vote_totals(since)
        report["totals"]["votes"] = votes
        return report

    def close(self) -> None:
        """Write what is queued, stop the writer and release the database."""
        self.flush()
        self._queue.put(None)
        self._writer.join(timeout=5)
        self._engine.dispose()

    # Internals.

    def _put(self, table: str, row: dict) -> None:
        try:
            self._queue.put_nowait((table, row))
        except queue.Full:
            self._dropped += 1

    def _drain(self) -> None:
        from sqlalchemy.exc import SQLAlchemyError

        while True:
            first = self._queue.get()
            if first is None:
                self._queue.task_done()
                return
            batch = [first]
            while len(batch) < BATCH_SIZE:
                try:
                    item = self._queue.get_nowait()
                except queue.Empty:
                    break
                if item is None:
                    self._queue.put(None)  # stop after this batch
                    self._queue.task_done()
                    break
                batch.append(item)
            try:
                with self._engine.begin() as connection:
                    for table in ("answers", "feedback"):
                        rows = [row for name, row in batch if name == table]
                        if rows:
                            connection.execute(self._tables[table].insert(), rows)
                self._written += len(batch)
            except (SQLAlchemyError, OSError) as error:
                self._failed += len(batch)
                self._note_error(error)
            finally:
                for _ in batch:
                    self._queue.task_done()

    def _migrate(self) -> None:
        from sqlalchemy import select
        from sqlalchemy.exc import SQLAlchemyError

        info = self._tables["schema_info"]
        try:
            with self._engine.begin() as connection:
                self._tables["metadata"].create_all(connection)
                version = connection.execute(select(info.c.version)).scalar()
                if version is None:
                    connection.execute(info.insert(), {"version": SCHEMA_VERSION})
                elif version > SCHEMA_VERSION:
                    raise AnalyticsError(
                        f"analytics database {_safe_url(str(self._engine.url))} has schema version {version}, newer "
                        f"than this rulesbot's ({SCHEMA_VERSION}): upgrade rulesbot or point RULESBOT_DATABASE_URL "
                        "elsewhere"
                    )
        except SQLAlchemyError as error:
            self._engine.dispose()
            raise AnalyticsError(f"analytics database {_safe_url(str(self._engine.url))}: {_first_line(error)}") from None

    def _vote_totals(self, since: float | None) -> dict:
        from sqlalchemy import func, select

        feedback = self._tables["feedback"]
        query = select(feedback.c.vote, func.count()).group_by(feedback.c.vote)
        if since is not None:
            query = query.where(feedback.c.at >= since)
        with self._engine.connect() as connection:
            counts = dict(connection.execute(query).all())
        return {vote: counts.get(vote, 0) for vote in VOTES}

    def _note_error(self, error: Exception) -> None:
        message = _first_line(error)
        self._last_error = message
        # One log line per distinct problem, not one per event (a locked database would flood the log).
        if message not in self._reported:
            self._reported.add(message)
            logger.warning("analytics: %s (answers are not affected)", message)


def normalise_question(question: str) -> str:
    """The question as the report groups it: casefolded, accents kept, whitespace and end punctuation trimmed."""
    return " ".join(question.casefold().split()).rstrip(" ?!.…")


def _tables() -> dict:
    from sqlalchemy import Column, Float, Index, Integer, MetaData, String, Table, Text

    metadata = MetaData()
    answers = Table(
        "answers",
        metadata,
        Column("answer_id", String(40), nullable=False),
        Column("at", Float, nullable=False),
        Column("game", String(64), nullable=False),
        Column("lang", String(8), nullable=False),
        Column("kind", String(16), nullable=False),
        Column("confidence", Float, nullable=False),
        Column("latency_ms", Float, nullable=False),
        Column("question", Text, nullable=False),
        Column("normalised", Text, nullable=False),
        Index("answers_at", "at"),
        Index("answers_answer_id", "answer_id"),
    )
    feedback = Table(
        "feedback",
        metadata,
        Column("answer_id", String(40), nullable=False),
        Column("at", Float, nullable=False),
        Column("vote", String(8), nullable=False),
        Column("comment", Text),
        Index("feedback_answer_id", "answer_id"),
    )
    schema_info = Table("schema_info", metadata, Column("version", Integer, nullable=False))
    return {"metadata": metadata, "answers": answers, "feedback": feedback, "schema_info": schema_info}


def _totals(rows) -> dict:
    totals: dict = {"questions": 0, "by_lang": {}, "by_kind": {}}
    for lang, kind, count in rows:
        totals["questions"] += count
        totals["by_lang"][lang] = totals["by_lang"].get(lang, 0) + count
        totals["by_kind"][kind] = totals["by_kind"].get(kind, 0) + count
    return totals


def _sqlite_pragmas(connection, _record) -> None:
    # WAL lets the report read while the writer writes; a short busy timeout instead of failing at once on a lock,
    # short enough that a stuck lock costs the writer thread little (never an answer: answers don't wait on it).
    cursor = connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA busy_timeout=2000")
    cursor.close()


def _safe_url(url: str) -> str:
    # Never print a password that a database URL carries.
    try:
        from sqlalchemy.engine import make_url

        return make_url(url).render_as_string(hide_password=True)
    except Exception:  # noqa: BLE001 - an unparsable URL is shown as it was given, minus nothing secret
        return url.split("@")[-1]


def _first_line(error: Exception) -> str:
    text = str(getattr(error, "orig", None) or error)
    return text.strip().splitlines()[0] if text.strip() else type(error).__name__
