"""One exception hierarchy: callers catch ``BCGError`` or a precise subclass.

Every validation happens before anything is written, so an exception means
the memory is exactly as it was before the call.
"""


class BCGError(Exception):
    """Base class of every error bcg-rag raises on purpose."""


class InvalidInputError(BCGError, ValueError):
    """The caller passed something we cannot store."""


class InvalidStanceError(InvalidInputError):
    """Stance outside [-1, 1] or not a finite number."""


class InvalidWeightError(InvalidInputError):
    """Weight outside [0, 1] or not a finite number."""


class InvalidTimestampError(InvalidInputError):
    """A timestamp that does not parse as ISO 8601."""


class FutureTimestampError(InvalidTimestampError):
    """Evidence dated further in the future than the policy allows (``[limits]
    max_future_skew_days`` past the memory's clock): it would pin a belief for good."""


class InputTooLargeError(InvalidInputError):
    """A message, query, field or batch over a size limit of the policy's ``[limits]``;
    refused before any work proportional to its size is done."""


class EmptyTextError(InvalidInputError):
    """Evidence text is empty or whitespace only."""


class MissingUserError(InvalidInputError):
    """A write or read without a user_id (reads may opt in to global scope)."""


class UnknownRelationError(InvalidInputError):
    """An edge type outside the five the belief context graph allows."""


class UnknownSourceTypeError(InvalidInputError):
    """A source type the policy has no weight for."""


class NotFoundError(BCGError, KeyError):
    """A belief, evidence, entity or merge id that does not exist (for this user)."""


class ConfigError(BCGError):
    """A policy or configuration file that cannot be used."""


class StoreError(BCGError):
    """The storage backend refused or failed an operation."""


class ReadOnlyError(StoreError):
    """A write to a memory opened read-only (a directory this process cannot write)."""


class DeletionIncompleteError(StoreError):
    """A deletion committed, but its own check still found the deleted text in a file of
    the memory (e.g. a reader held an old snapshot, so the write-ahead log could not be
    emptied). Retryable: calling the deletion again finishes the physical part.
    ``files`` names where the text was found."""

    retryable = True

    def __init__(self, message: str, files: list[str] | None = None):
        super().__init__(message)
        self.files = list(files or [])


class ExtractionError(BCGError):
    """Claim extraction failed (e.g. an LLM kept returning malformed output)."""


class AccessDeniedError(BCGError, PermissionError):
    """A caller asked for data outside its user or agent scope."""


class MemoryLockedError(BCGError):
    """An embedded memory directory is held by another live process. Embedded mode is one
    process per directory; several processes share a memory in server mode
    (``BeliefMemory.connect``, README "Server mode")."""

    def __init__(self, message: str, *, path: str = "", pid: int | None = None, host: str | None = None):
        super().__init__(message)
        self.path, self.pid, self.host = path, pid, host


class StoreConflictError(StoreError):
    """Concurrent writers kept conflicting (deadlock or serialisation failure) after the
    retries; nothing of the failed call was written, so it can be retried as a whole."""


class IndexUnavailableError(BCGError):
    """The vector index (a Chroma server) cannot be reached or refused an operation. The
    graph is the source of truth: vectors missing after this are repaired later."""
