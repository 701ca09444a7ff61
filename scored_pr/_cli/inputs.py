"""The command line's one input layer: every command opens its input here, through the registry of formats.

``report``, ``stream``, ``compare`` and their wide-file forms take what
:func:`open_cases`, :func:`open_wide` and :func:`open_keyed` return (an
:class:`~scored_pr._io.formats.Opened`), whatever the input's format:
:func:`scored_pr._io.formats.detect` chooses the format from
``--input-format``, the file's name or its first bytes, and the format's
reader reads it. Skipped lines are said here (:class:`SkipReporter`), the
same way for every command.
"""

from __future__ import annotations

from .._io.formats import CaseColumns, KeyColumns, Opened, WideColumns, detect
from .._io.values import InputError
from .options import InputOptions
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


def open_cases(opts: InputOptions, path: str, skips: SkipReporter, binary: bool) -> Opened:
    """The cases of one ranking at ``path``, read as ``opts`` say (``binary``: a text file as bytes, read in blocks)."""
    columns = CaseColumns(correct_col=opts.correct_col, positive_label=opts.positive_label, score_col=opts.score_col,
                          skip_invalid=opts.skip_invalid)
    return detect(path, opts.input_format).read_ranking(path, columns, skips, binary)


def open_wide(opts: InputOptions, wide: WideColumns, path: str, skips: SkipReporter) -> Opened:
    """The rows of the wide file at ``path``: its columns as ``wide`` says, its format and skipping as ``opts`` say."""
    return detect(path, opts.input_format).read_wide(path, wide, opts.skip_invalid, skips)


def open_keyed(path: str, input_format: str | None, columns: KeyColumns) -> Opened:
    """The keyed cases ``(line, id, correct, score)`` at ``path`` (``compare``)."""
    return detect(path, input_format).read_keyed(path, columns)


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
