"""What the commands share about their inputs beside the registry of formats: skipped lines and state files.

Every command opens its input through the registry of formats
(:func:`scored_pr._io.formats.open_ranking`, ``open_wide``, ``open_keyed``:
:func:`~scored_pr._io.formats.detect` chooses the format from
``--input-format``, the file's name or its first bytes, and the format's
reader reads it), handing it plain values. Skipped lines are said here
(:class:`SkipReporter`), the same way for every command; a state file is
told apart from a file of cases here (:func:`is_state_file`); ``report --by``
opens its text or Parquet file here (:func:`open_text`, :func:`read_parquet`).
"""

from __future__ import annotations

from .._io.values import InputError
from .output import error

#: Skipped lines whose message is printed (then only the count).
MAX_SKIP_MESSAGES = 5

#: The first bytes of a zip archive, which every state file is (an ``.npz``); no input format starts with them.
ZIP_MAGIC = b"PK\x03\x04"


class SkipReporter:
    """Print the first few skipped lines to stderr, count the rest."""

    def __init__(self) -> None:
        self.count = 0

    def __call__(self, err: InputError) -> None:
        self.count += 1
        if self.count <= MAX_SKIP_MESSAGES:
            error(f"skipped {err}")

    def finish(self, source: str) -> None:
        """Say how many lines of ``source`` were skipped, if any."""
        if self.count:
            s = "" if self.count == 1 else "s"
            error(f"skipped {self.count} invalid line{s} in {source}")


def open_text(path: str) -> tuple[object, str]:
    """The lines of the text file at ``path`` (``-``: standard input; gzip by its first bytes) and its source name."""
    from .._io.opening import open_input

    stream, source, _ = open_input(path)
    return stream, source


def read_parquet(path: str) -> object:
    """The Parquet file at ``path`` as one pyarrow table (``report --by``, which reads its feature columns too)."""
    import pyarrow.parquet as pq

    return pq.read_table(path)


def is_state_file(path: str) -> bool:
    """Whether ``path`` is a zip archive (a state file saved by ``save()`` or ``--checkpoint``)."""
    if path == "-":
        return False
    try:
        with open(path, "rb") as fh:
            return fh.read(4) == ZIP_MAGIC
    except OSError:  # reported as a missing or unreadable input by the reader
        return False
