"""Files in the data dir: atomic writes, self-checking files, and the cleaning of abandoned temporaries.

Everything rulesbot stores (the saved index, the embedding cache, the lexical cache) is derived data: a damaged
file is detected and rebuilt, never loaded. Three rules make that hold:

- A file is written to a temporary sibling, flushed and fsynced, then renamed over its target, and the folder is
  fsynced: a kill or a power cut leaves either the old file or the new one, never half of one.
- Temporaries are named `.<target>.tmp.<host>.<pid>.<token>` (and `.<target>.old.…` for a folder set aside during a
  swap), so a later write can tell its own abandoned ones (a process that is gone, on this host) from another
  process's work in progress, and deletes only those.
- A file without a manifest to carry its checksum (the lexical cache) carries its own: a first line with the
  sha256 of the rest (`write_checked` / `read_checked`).
"""

import hashlib
import os
import re
import secrets
import shutil
import socket
import time
from collections.abc import Iterable
from pathlib import Path

from pydantic import BaseModel

# A save takes well under a second; a temporary older than this is abandoned whoever made it (a reused pid, or a
# host we cannot ask), and one in the old naming (no pid) is abandoned after LEGACY_AGE_SECONDS.
ABANDONED_AGE_SECONDS = 3600
LEGACY_AGE_SECONDS = 60

_TEMPORARY = re.compile(r"^\.(?P<target>.+)\.(?P<kind>tmp|old)\.(?P<host>[A-Za-z0-9-]{1,32})\.(?P<pid>\d+)\.[0-9a-f]{8}$")


def sha256_hex(data: bytes) -> str:
    """The sha256 of `data`, in hex (what manifests and self-checking files record)."""
    return hashlib.sha256(data).hexdigest()


def temporary_name(target: str, kind: str = "tmp") -> str:
    """A fresh hidden sibling name for `target`, carrying this host and process (see clean_abandoned)."""
    return f".{target}.{kind}.{_host()}.{os.getpid()}.{secrets.token_hex(4)}"


def atomic_write(path: Path, data: bytes, legacy: Iterable[re.Pattern] = ()) -> None:
    """Write `data` to `path` atomically: a fsynced temporary sibling renamed over it, then the folder fsynced.

    Abandoned temporaries in the folder are deleted first (see clean_abandoned; `legacy` names older ones). A
    folder squatting the path is removed: the path is ours, and a folder there would make every save fail.
    Raises OSError when the folder cannot be written.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    clean_abandoned(path.parent, legacy)
    temporary = path.parent / temporary_name(path.name)
    try:
        write_synced(temporary, data)
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path)
        os.replace(temporary, path)
    except BaseException:
        remove(temporary)
        raise
    fsync_folder(path.parent)


def write_synced(path: Path, data: bytes) -> None:
    """Create `path` (it must not exist) with `data`, flushed to the disk before returning."""
    with open(path, "xb") as handle:
        handle.write(data)
        handle.flush()
        os.fsync(handle.fileno())


def fsync_folder(folder: Path) -> None:
    """Make a rename or a new entry in `folder` durable (a no-op where folders cannot be opened, e.g. Windows)."""
    try:
        descriptor = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(descriptor)
    except OSError:
        pass  # some file systems refuse to fsync a folder; the rename itself is still atomic
    finally:
        os.close(descriptor)


def probe_writable(folder: Path) -> None:
    """Create `folder` if needed and check a file can be written in it (raises OSError when it cannot)."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    probe = folder / temporary_name("probe")
    try:
        with open(probe, "xb") as handle:
            handle.write(b"\0")
    finally:
        remove(probe)


def remove(path: Path) -> None:
    """Delete a file, a symlink or a folder tree at `path` if there is one (errors ignored: best effort)."""
    path = Path(path)
    try:
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path, ignore_errors=True)
        else:
            path.unlink(missing_ok=True)
    except OSError:
        pass


def clean_abandoned(folder: Path, legacy: Iterable[re.Pattern] = (), now: float | None = None) -> list[Path]:
    """Delete the abandoned temporaries in `folder`; returns what was deleted.

    Only hidden entries named by `temporary_name` count (or matching one of the `legacy` patterns, for the names
    older rulesbots used), and only when abandoned: made on this host by a process that no longer runs, or older
    than ABANDONED_AGE_SECONDS (LEGACY_AGE_SECONDS for legacy names). Anything else is left alone.
    """
    folder = Path(folder)
    now = time.time() if now is None else now
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return []
    removed = []
    for entry in entries:
        if not entry.name.startswith("."):
            continue
        try:
            age = now - entry.stat(follow_symlinks=False).st_mtime
        except OSError:
            continue
        match = _TEMPORARY.match(entry.name)
        if match:
            ours = match["host"] == _host()
            abandoned = age > ABANDONED_AGE_SECONDS or (ours and not _running(int(match["pid"])))
        else:
            abandoned = any(pattern.match(entry.name) for pattern in legacy) and age > LEGACY_AGE_SECONDS
        if abandoned:
            remove(Path(entry.path))
            removed.append(Path(entry.path))
    return removed


class _Header(BaseModel):
    """The first line of a `write_checked` file."""

    kind: str
    sha256: str
    bytes: int


def write_checked(path: Path, payload: bytes, kind: str) -> None:
    """Write `payload` atomically after a one-line header naming `kind` and the payload's sha256."""
    header = _Header(kind=kind, sha256=sha256_hex(payload), bytes=len(payload)).model_dump_json().encode()
    atomic_write(path, header + b"\n" + payload)


def read_checked(path: Path, kind: str) -> bytes | None:
    """The payload `write_checked` wrote, or None when the file is missing, unreadable, of another kind or damaged."""
    try:
        header_line, payload = Path(path).read_bytes().split(b"\n", 1)
        header = _Header.model_validate_json(header_line)
    except (OSError, ValueError):  # missing, a folder, no header line, a header of the wrong shape
        return None
    if header.kind != kind or header.bytes != len(payload) or header.sha256 != sha256_hex(payload):
        return None
    return payload


def _host() -> str:
    # Sanitised to the characters the temporary-name pattern accepts.
    return re.sub(r"[^A-Za-z0-9-]", "-", socket.gethostname())[:32] or "host"


def _running(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # it exists but is not ours to signal (PermissionError): running
    return True
