"""One writer at a time per data dir: a file lock (`filelock`) that ingests and index builds take.

    with data_dir_lock(settings.data_dir, settings.lock_timeout):
        ...  # stage, validate and commit an ingest; build and save an index

The lock is `<data_dir>/.lock`. The kernel drops it when its process dies (even on kill -9), so a crashed
writer never blocks the next one. It is re-entrant within a thread: an ingest holds it while it rebuilds the
index, and the build takes it again without waiting on itself. Readers (`ask`) never take it.
"""

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from filelock import FileLock, Timeout

from rulesbot.errors import DataDirBusy, DataDirUnwritable

LOCK_NAME = ".lock"

# One FileLock per lock file and process: FileLock counts re-entries per object, while two objects on one
# file would wait on each other.
_locks: dict[Path, FileLock] = {}
_locks_guard = threading.Lock()


@contextmanager
def data_dir_lock(
    data_dir: Path, timeout: float, notify: Callable[[str], None] | None = None
) -> Iterator[None]:
    """Hold the data dir's write lock; DataDirBusy after `timeout` s, DataDirUnwritable if it can't be made.

    `notify` hears one line when the lock is held elsewhere and this call starts to wait.
    """
    data_dir = Path(data_dir).expanduser().absolute()
    path = data_dir / LOCK_NAME
    try:
        data_dir.mkdir(parents=True, exist_ok=True)
        with _locks_guard:
            # Keyed by the real path: two spellings of one data dir must share one re-entrant lock.
            key = path.resolve()
            lock = _locks.setdefault(key, FileLock(key))
        try:
            lock.acquire(timeout=0)
        except Timeout:
            if notify is not None:
                notify(f"waiting for another rulesbot ingest or index build to finish with {data_dir}…")
            lock.acquire(timeout=timeout)
    except Timeout:
        raise DataDirBusy(
            f"another rulesbot ingest or index build has held {path} for over {timeout:g} s; try again when it "
            "has finished (or raise RULESBOT_LOCK_TIMEOUT)"
        ) from None
    except OSError as error:
        raise DataDirUnwritable.for_path(data_dir, error) from None
    try:
        yield
    finally:
        lock.release()
