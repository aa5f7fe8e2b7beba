"""Domain errors. Each carries a stable code and an HTTP status; the CLI and the API map them in one place."""


class RulesbotError(Exception):
    """Base class: a user-facing error with a stable `code` and the HTTP status it maps to."""

    code = "error"
    status = 400

    def __init__(self, message: str, *, code: str | None = None, status: int | None = None):
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code
        if status is not None:
            self.status = status

    def to_dict(self) -> dict:
        """The one JSON error shape: {"error": {"code", "message"}}."""
        return {"error": {"code": self.code, "message": self.message}}


class BadInput(RulesbotError):
    """The question or request is empty, too long, binary or malformed."""

    code = "bad_input"
    status = 422


class UnknownGame(RulesbotError):
    """No knowledge pack has that game id."""

    code = "unknown_game"
    status = 404


class UnknownCard(RulesbotError):
    """A card name or id that the game does not have."""

    code = "unknown_card"
    status = 422


class PackError(RulesbotError):
    """A knowledge pack fails validation."""

    code = "invalid_pack"
    status = 500


class BackendUnavailable(RulesbotError):
    """An embedding backend's optional dependency is not installed."""

    code = "backend_unavailable"
    status = 503


class UnknownCalibration(RulesbotError):
    """No calibration was measured for this (backend, model) pair: its scores cannot be read as decisions."""

    code = "unknown_calibration"
    status = 503


class StorageError(RulesbotError):
    """The data dir cannot be written (read-only, full, a path through a file): says which path, and what to do."""

    code = "storage_error"
    status = 503

    @classmethod
    def from_os_error(cls, error: OSError, what: str, path=None) -> "StorageError":
        """One line from an OSError: what could not be done, where, why, and the way out."""
        where = path if path is not None else (error.filename or "the data dir")
        reason = error.strerror or str(error)
        return cls(f"cannot {what} in {where}: {reason}; set RULESBOT_DATA_DIR to a writable folder")


class DataDirBusy(RulesbotError):
    """Another process held the data dir's write lock for longer than the lock timeout."""

    code = "data_dir_busy"
    status = 503


class DataDirUnwritable(StorageError):
    """The data dir (or a folder in it) cannot be written: read-only, no permission, or disk full."""

    code = "data_dir_unwritable"
    status = 500

    @classmethod
    def for_path(cls, data_dir, error: OSError) -> "DataDirUnwritable":
        """The one-line message for an OSError met while writing under `data_dir`."""
        reason = error.strerror or type(error).__name__
        return cls(
            f"cannot write to the data dir {data_dir} ({reason}): make it writable, or set RULESBOT_DATA_DIR "
            "to a writable folder"
        )
