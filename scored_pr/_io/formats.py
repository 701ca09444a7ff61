"""The registry of input formats: every file format ``scored-pr`` reads is one :class:`Format`, registered once.

A format says how it is recognised (its file name endings, its first bytes)
and how each kind of input is read from it: one ranking (a correctness and a
score column: ``report`` and ``stream``), a wide file (one score column per
class or label) and keyed cases (an id, a correctness and a score column:
``compare``). Each reader opens the input itself and returns an
:class:`Opened`: the reader, the name messages give the input, its size and
what to close. The command line opens every input here, through
:func:`open_ranking`, :func:`open_wide` and :func:`open_keyed` (:func:`detect`,
then the format's reader), handed plain values: a path, the format's name
(``--input-format``, which offers the names of :data:`FORMATS`) and the columns.

How an input's format is chosen (:func:`detect`): the name given
(``--input-format``); else, for a file, a format with first bytes of its own
(Parquet) recognised by its name or by those bytes; else the name's ending
(``.csv``, ``.tsv``, ``.tab``, ``.jsonl``, ``.ndjson``, ``.json``, optionally
followed by ``.gz``); else the text is sniffed from its first line (``{``
starts JSON Lines, a tab in the header means TSV, anything else CSV), as it
is on standard input.

Adding a format is one module with its readers and one :func:`register` call
at the end of this one.
"""

from __future__ import annotations

import io
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from .parquet import MAGIC as PARQUET_MAGIC
from .parquet import SUFFIXES as PARQUET_SUFFIXES
from .values import DEFAULT_SCORE_COLUMN, InputError


@dataclass(frozen=True)
class CaseColumns:
    """How one ranking is read: the correctness column (None: ``correct``, else ``label``), the positive
    class's label (None: 1/0, -1/1, true/false, yes/no), the score column, and whether malformed rows are skipped."""

    correct_col: str | None = None
    positive_label: str | None = None
    score_col: str = DEFAULT_SCORE_COLUMN
    skip_invalid: bool = False


@dataclass(frozen=True)
class WideColumns:
    """How a wide file is read: multi-class (``label_col``) or multi-label (``label_cols``), and the score
    columns (``score_cols``, or every column named ``score_prefix`` + class or label)."""

    label_col: str | None = None
    label_cols: list[str] | None = None
    score_cols: list[str] | None = None
    score_prefix: str | None = None

    @property
    def requested(self) -> bool:
        """Whether any wide-file option was given."""
        return any(v is not None for v in (self.label_col, self.label_cols, self.score_cols, self.score_prefix))


@dataclass(frozen=True)
class KeyColumns:
    """How keyed cases are read (``compare``): the id column, the correctness column and the score column."""

    id_col: str = "id"
    correct_col: str | None = None
    score_col: str = DEFAULT_SCORE_COLUMN


@dataclass
class Opened:
    """An input opened by a format's reader.

    ``reader`` yields what the reader reads; ``source`` is the name messages
    give the input (``<stdin>`` for ``-``); ``size`` its size in bytes when
    known (a progress bar's total); ``stream`` the text or byte stream the
    reader reads (None when the reader opened the file itself) and ``path``
    what was opened, for :meth:`close`.
    """

    reader: Any
    source: str
    size: int | None
    stream: Any = None
    path: str = "-"

    def close(self) -> None:
        """Close a file opened here; release (not close) standard input (nothing to do when ``stream`` is None)."""
        stream = self.stream
        if stream is None:
            return
        if self.path != "-":
            stream.close()
        elif isinstance(stream, io.TextIOWrapper) and stream is not sys.stdin:
            stream.detach()  # our UTF-8 wrapper around sys.stdin.buffer: leave standard input open
        # else: standard input's own buffer, or a GzipFile over it (which leaves it open)


OnSkip = Callable[[InputError], None]


@dataclass(frozen=True)
class Format:
    """One input format: its name, how it is recognised, and its three readers.

    Attributes
    ----------
    name : str
        What ``--input-format`` takes.
    suffixes : tuple of str
        File name endings (compared in lower case) that mean this format.
    magic : bytes
        The first bytes of every file of the format (b"" for text formats,
        which have none); a file starting with them is of this format
        whatever its name.
    gzip : bool
        Whether a ``.gz`` after the ending still means this format (the text
        formats, decompressed as they are read).
    read_ranking : callable
        ``(path, columns: CaseColumns, on_skip, binary) -> Opened`` whose reader
        yields ``(line, correct, score)`` and has ``chunks(n)`` (a
        :class:`~scored_pr._io.cases.CaseReader`).
    read_wide : callable
        ``(path, columns: WideColumns, skip_invalid, on_skip) -> Opened`` whose
        reader is a :class:`~scored_pr._io.wide.WideReader`.
    read_keyed : callable
        ``(path, columns: KeyColumns) -> Opened`` whose reader yields
        ``(line, id, correct, score)``.
    """

    name: str
    suffixes: tuple[str, ...]
    magic: bytes
    gzip: bool
    read_ranking: Callable[[str, CaseColumns, OnSkip | None, bool], Opened]
    read_wide: Callable[[str, WideColumns, bool, OnSkip | None], Opened]
    read_keyed: Callable[[str, KeyColumns], Opened]

    def named_by(self, path: str) -> bool:
        """Whether the file name ``path`` ends as this format's files do."""
        name = path.lower()
        if self.gzip and name.endswith(".gz"):
            name = name[:-3]
        return name.endswith(self.suffixes)


#: The registered formats by name, in the order ``--input-format`` lists them.
FORMATS: dict[str, Format] = {}


def register(fmt: Format) -> Format:
    """Add ``fmt`` to :data:`FORMATS` (its name must be new); return it."""
    if fmt.name in FORMATS:
        raise ValueError(f"input format {fmt.name!r} is registered twice")
    FORMATS[fmt.name] = fmt
    return fmt


def _first_bytes(path: str, n: int) -> bytes:
    try:
        with open(path, "rb") as fh:
            return fh.read(n)
    except OSError:  # reported as a missing or unreadable input by the reader
        return b""


def detect(path: str, given: str | None = None) -> Format:
    """The format of the input ``path`` (``-``: standard input), or the one named ``given``.

    Examples
    --------
    >>> detect("preds.TSV.gz").name, detect("x.pq").name, detect("-").name, detect("-", "jsonl").name
    ('tsv', 'parquet', 'text', 'jsonl')
    """
    if given is not None:
        return FORMATS[given]
    if path == "-":
        return SNIFFED
    binary = [f for f in FORMATS.values() if f.magic]
    for f in binary:
        if f.named_by(path):
            return f
    if binary:
        head = _first_bytes(path, max(len(f.magic) for f in binary))
        for f in binary:
            if head.startswith(f.magic):
                return f
    return next((f for f in FORMATS.values() if not f.magic and f.named_by(path)), SNIFFED)


def open_ranking(path: str, input_format: str | None, columns: CaseColumns, on_skip: OnSkip | None,
                 binary: bool) -> Opened:
    """The cases of one ranking at ``path`` (``report``, ``stream``, ``threshold``), in the format :func:`detect`
    chooses (``input_format``: ``--input-format``), read by ``columns``; ``binary``: a text file as bytes, in blocks."""
    return detect(path, input_format).read_ranking(path, columns, on_skip, binary)


def open_wide(path: str, input_format: str | None, columns: WideColumns, skip_invalid: bool,
              on_skip: OnSkip | None) -> Opened:
    """The rows of the wide file at ``path`` (one score column per class or label), read by ``columns``."""
    return detect(path, input_format).read_wide(path, columns, skip_invalid, on_skip)


def open_keyed(path: str, input_format: str | None, columns: KeyColumns) -> Opened:
    """The keyed cases ``(line, id, correct, score)`` at ``path`` (``compare``)."""
    return detect(path, input_format).read_keyed(path, columns)


def format_from_path(path: str) -> str | None:
    """The text format a file name implies, or None (standard input, another ending).

    Examples
    --------
    >>> format_from_path("runs/test.TSV"), format_from_path("preds.jsonl.gz"), format_from_path("-")
    ('tsv', 'jsonl', None)
    """
    if path == "-":
        return None
    return next((f.name for f in FORMATS.values() if not f.magic and f.named_by(path)), None)


# ----------------------------------------------------------------- the text formats: CSV, TSV, JSON Lines


def _text_format(name: str | None, suffixes: tuple[str, ...]) -> Format:
    """A text format (``name`` None: sniffed from the first line) read by :mod:`.cases`, :mod:`.wide` and :mod:`.keyed`."""

    def read_ranking(path: str, columns: CaseColumns, on_skip: OnSkip | None, binary: bool) -> Opened:
        from .cases import CaseReader
        from .opening import open_input

        stream, source, size = open_input(path, binary=binary)
        reader = CaseReader(stream, source=source, input_format=name, correct_col=columns.correct_col,
                            score_col=columns.score_col, skip_invalid=columns.skip_invalid, on_skip=on_skip,
                            positive_label=columns.positive_label)
        return Opened(reader, source, size, stream, path)

    def read_wide(path: str, columns: WideColumns, skip_invalid: bool, on_skip: OnSkip | None) -> Opened:
        from .opening import open_input
        from .wide import WideReader

        stream, source, size = open_input(path)
        reader = WideReader(stream, source=source, input_format=name, label_col=columns.label_col,
                            label_cols=columns.label_cols, score_cols=columns.score_cols,
                            score_prefix=columns.score_prefix, skip_invalid=skip_invalid, on_skip=on_skip)
        return Opened(reader, source, size, stream, path)

    def read_keyed(path: str, columns: KeyColumns) -> Opened:
        from .keyed import keyed_rows
        from .opening import open_input

        stream, source, size = open_input(path)
        rows: Iterator[Any] = keyed_rows(stream, source, name, columns.id_col, columns.correct_col, columns.score_col)
        return Opened(rows, source, size, stream, path)

    return Format(name or "text", suffixes, b"", True, read_ranking, read_wide, read_keyed)


# ----------------------------------------------------------------- Parquet (pyarrow)


def _parquet_ranking(path: str, columns: CaseColumns, on_skip: OnSkip | None, binary: bool) -> Opened:
    from .parquet import ParquetCases

    reader = ParquetCases(path, correct_col=columns.correct_col, score_col=columns.score_col,
                          skip_invalid=columns.skip_invalid, on_skip=on_skip, positive_label=columns.positive_label)
    return Opened(reader, reader.source, reader.size)


def _parquet_wide(path: str, columns: WideColumns, skip_invalid: bool, on_skip: OnSkip | None) -> Opened:
    from .parquet import ParquetWide

    reader = ParquetWide(path, label_col=columns.label_col, label_cols=columns.label_cols,
                         score_cols=columns.score_cols, score_prefix=columns.score_prefix,
                         skip_invalid=skip_invalid, on_skip=on_skip)
    return Opened(reader, reader.source, reader.size)


def _parquet_keyed(path: str, columns: KeyColumns) -> Opened:
    from .parquet import ParquetKeyed

    reader = ParquetKeyed(path, id_col=columns.id_col, correct_col=columns.correct_col, score_col=columns.score_col)
    return Opened(reader, reader.source, reader.size)


#: Text of no stated or named format: the reader sniffs it from its first line.
SNIFFED = _text_format(None, ())

register(_text_format("csv", (".csv",)))
register(_text_format("tsv", (".tsv", ".tab")))
register(_text_format("jsonl", (".jsonl", ".ndjson", ".json")))
register(Format("parquet", PARQUET_SUFFIXES, PARQUET_MAGIC, False, _parquet_ranking, _parquet_wide, _parquet_keyed))
