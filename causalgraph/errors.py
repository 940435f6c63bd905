"""One error hierarchy for the whole toolkit.

Every error a user can cause derives from :class:`CausalGraphError`, so a
caller (and the CLI) can catch them in one place.  Messages say where the
problem is, what was found and what was expected.
"""

from __future__ import annotations

__all__ = [
    "CausalGraphError",
    "SchemaError",
    "DataNotFound",
    "ChecksumError",
    "CycleLimitExceeded",
    "BackendError",
    "TransientBackendError",
    "BackendUnreachable",
    "BackendProtocolError",
    "BackendUnavailable",
    "ParseError",
    "ConfigError",
]


class CausalGraphError(Exception):
    """Root of every error raised on purpose by causalgraph."""


class SchemaError(CausalGraphError, ValueError):
    """A corpus file does not have the expected shape or values.

    The message names the file, the row as a person sees it in the
    spreadsheet (the header is row 1), the column, the value found and the
    values accepted.
    """


class DataNotFound(CausalGraphError, FileNotFoundError):
    """A dataset could be found neither locally nor through a download."""


class ChecksumError(CausalGraphError):
    """A downloaded file does not match its pinned sha256."""


class CycleLimitExceeded(CausalGraphError):
    """Counting paths through a cyclic graph passed the configured limit."""


class BackendError(CausalGraphError):
    """A language-model backend failed or is not installed."""


class TransientBackendError(BackendError):
    """A backend failure worth retrying: HTTP 429 or 5xx, a timeout, a dropped connection.

    ``retry_after`` holds the server's ``Retry-After`` delay in seconds when
    it sent one; ``status`` the HTTP status code when there was one.
    """

    def __init__(self, message: str, *, retry_after: "float | None" = None, status: "int | None" = None):
        super().__init__(message)
        self.retry_after = retry_after
        self.status = status


class BackendUnreachable(TransientBackendError):
    """The backend's server could not be reached at all: connection refused or reset, no route, DNS failure.

    Retried like any transient failure, and counted apart: the runner stops a
    run after a number of such failures in a row (``max_connection_failures``),
    since a server that is gone would otherwise have every remaining item
    retried to exhaustion.  ``endpoint`` is ``host:port`` (never a credential).
    """

    def __init__(self, message: str, *, endpoint: "str | None" = None, retry_after: "float | None" = None,
                 status: "int | None" = None):
        super().__init__(message, retry_after=retry_after, status=status)
        self.endpoint = endpoint


class BackendProtocolError(BackendUnreachable):
    """The server answered, but not in the backend's protocol: an HTML page with status 200 (a proxy's
    login page, a base URL that names the web site instead of the API), a reply that does not parse.

    Retried like a 5xx and counted with the connection failures: a run stops after
    ``max_connection_failures`` of either in a row, naming ``host:port``, and leaves the items pending.
    """


class BackendUnavailable(BackendError):
    """The backend will refuse every request (bad key, no quota, unknown model): a run stops at once
    instead of writing the same error for every item."""


class ParseError(CausalGraphError, ValueError):
    """Text (a model answer, an encoded graph) could not be parsed."""


class ConfigError(CausalGraphError, ValueError):
    """An option or argument has a value the toolkit cannot use."""
