"""Reading TREC qrels and run files as trec_eval reads them.

Both readers are tolerant where trec_eval is (blank lines, ``#`` comment
lines, text after the sixth column of a run) and strict where it stops
(a line with too few fields, a document judged or retrieved twice for one
query), with errors of the form ``file:line: message``
(:class:`scored_pr._io.cases.InputError`).
"""

from __future__ import annotations

import io
import os
import re
import sys
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from .._io.cases import InputError, parse_score
from ._cnum import LONG_MAX, LONG_MIN

#: What a grade may be, as error messages say it (trec_eval reads a grade into a C ``long``).
GRADE_RANGE = f"trec_eval reads grades as a C long, {LONG_MIN} to {LONG_MAX}"

__all__ = ["Qrels", "Run", "read_qrels", "read_run"]

#: qrels[query][docno] = grade, queries and documents in file order.
QrelsDict = Mapping[str, Mapping[str, int]]
#: run[query] = [(docno, score), ...] in file order.
RunDict = Mapping[str, list[tuple[str, float]]]


@dataclass
class Qrels:
    """Relevance judgements: ``judgements[query][docno] = grade``.

    A grade is any integer: trec_eval calls a document relevant when its grade
    is at least the relevance level (``-l``, default 1), judged non-relevant
    when it is between 0 and the level, and "in the pool but unjudged" when it
    is negative (infAP's sampled pools). A retrieved document absent from the
    qrels of its query is "not in the pool".
    """

    judgements: QrelsDict = field(default_factory=dict)
    source: str = "<qrels>"
    #: The columns a regular file was read into (None for a mapping or an irregular file).
    _columns: Any = field(default=None, repr=False, compare=False)

    @property
    def columns(self) -> Any:
        """The columns a regular file was read into, or None (a mapping, an irregular file)."""
        return self._columns


@dataclass
class Run:
    """A ranked run: ``rankings[query] = [(docno, score), ...]`` in file order.

    ``run_id`` is the tag of the last line read, as trec_eval prints it.
    The rank column of the file is ignored (trec_eval ranks by score).
    """

    rankings: RunDict = field(default_factory=dict)
    run_id: str = ""
    source: str = "<run>"
    #: The columns a regular file was read into (None for a mapping or an irregular file).
    _columns: Any = field(default=None, repr=False, compare=False)

    @property
    def columns(self) -> Any:
        """The columns a regular file was read into, or None (a mapping, an irregular file)."""
        return self._columns


def _source(path: str | os.PathLike[str]) -> str:
    return "<stdin>" if path == "-" else os.fspath(path)


def _read(path: str | os.PathLike[str]) -> bytes:
    """The whole file (``-``: standard input) as bytes."""
    if path == "-":
        return sys.stdin.buffer.read()
    with open(path, "rb") as fh:
        return fh.read()


def _lines(data: bytes, source: str) -> Iterator[tuple[int, list[str]]]:
    """``(line number, fields)`` of each content line: blank and ``#`` lines are skipped."""
    yield from _fields(io.BytesIO(data), source)


def _fields(fh: Any, source: str) -> Iterator[tuple[int, list[str]]]:
    for lineno, raw in enumerate(fh, 1):
        try:
            raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise InputError(
                source, lineno, f"not valid UTF-8 (byte {raw[exc.start]:#04x} at column {exc.start + 1})"
            ) from None
        # Split the bytes, as trec_eval does with C's isspace in the C locale: space, \t, \n, \v, \f,
        # \r only. str.split() would also split on U+2003, U+00A0, \x1c-\x1f, \x85: parts of ids for
        # trec_eval. (Cutting valid UTF-8 at ASCII bytes leaves valid UTF-8.)
        parts = raw.split()
        if not parts or parts[0].startswith(b"#"):
            continue
        yield lineno, [p.decode("utf-8") for p in parts]


def read_qrels(path: str | os.PathLike[str]) -> Qrels:
    """Read a qrels file: lines ``query iteration docno grade``.

    Parameters
    ----------
    path : path
        The file. Blank lines and lines whose first field starts with ``#``
        are skipped; every other line must have exactly four
        whitespace-separated fields (as trec_eval requires), the grade an
        integer from -2**63 to 2**63 - 1, a C ``long`` as trec_eval reads it
        (negative grades mark pooled but unjudged documents).

    Returns
    -------
    Qrels

    Raises
    ------
    scored_pr._io.cases.InputError
        ``file:line: message`` on a malformed line, a grade that is not an
        integer or is out of a C long's range (trec_eval's ``atol`` would
        read ``1.5`` as 1, ``x`` as 0 and clamp ``2**63`` to 2**63 - 1), or a
        document judged twice for one query (trec_eval stops on the latter
        too, with "duplicate docs").
    """
    source = _source(path)
    data = _read(path)
    from ._columns import QrelsView, qrels_columns

    columns = qrels_columns(data)
    if columns is not None:  # a regular file: read with numpy, the same values
        return Qrels(QrelsView(columns), source, columns)  # type: ignore[arg-type]
    return _qrels_by_line(data, source)


_INTEGER = re.compile(r"[+-]?[0-9]+")


def _shown(text: str) -> str:
    """``repr`` of a field, cut short when it is long."""
    return repr(text) if len(text) <= 40 else f"{text[:20]!r}... ({len(text)} characters)"


def _grade(text: str, source: str, lineno: int) -> int:
    """A grade field as an int: ASCII digits with an optional sign, within a C long."""
    if not _INTEGER.fullmatch(text):
        raise InputError(source, lineno, f"grade {_shown(text)} is not an integer")
    # more than 19 significant digits cannot be a long; do not make int() read thousands of them
    value = int(text) if len(text.lstrip("+-").lstrip("0")) <= 19 else LONG_MAX + 1
    if not LONG_MIN <= value <= LONG_MAX:
        raise InputError(source, lineno, f"grade {_shown(text)} is out of range: {GRADE_RANGE}")
    return value


def _qrels_by_line(data: bytes, source: str) -> Qrels:
    """The qrels in ``data``, one line at a time: the reference for every file, regular or not."""
    judgements: dict[str, dict[str, int]] = {}
    first_line: dict[tuple[str, str], int] = {}
    for lineno, fields in _lines(data, source):
        if len(fields) != 4:
            raise InputError(
                source, lineno, f"expected 4 whitespace-separated fields (query iteration docno grade); got {len(fields)}"
            )
        query, _, docno, grade = fields
        value = _grade(grade, source, lineno)
        docs = judgements.setdefault(query, {})
        if docno in docs:
            raise InputError(
                source,
                lineno,
                f"document {docno!r} judged twice for query {query!r} (first at line {first_line[query, docno]})",
            )
        docs[docno] = value
        first_line[query, docno] = lineno
    return Qrels(judgements, source)


def read_run(path: str | os.PathLike[str]) -> Run:
    """Read a run file: lines ``query Q0 docno rank score run_id [anything]``.

    Parameters
    ----------
    path : path
        The file (``-`` for standard input). Blank lines and lines whose
        first field starts with ``#`` are skipped; text after the sixth field is ignored (trec_eval does
        the same); the rank and Q0 columns are not read.

    Returns
    -------
    Run

    Raises
    ------
    scored_pr._io.cases.InputError
        ``file:line: message`` on a line with fewer than six fields, a score
        that is not a number, or a document retrieved twice for one query
        (trec_eval stops with "duplicate docs"). Unlike trec_eval's ``atof``,
        a score that is NaN, overflows float64 (``1e400``) or is an integer
        float64 cannot hold exactly is refused rather than silently tied
        (:func:`scored_pr._io.cases.parse_score`).
    """
    source = _source(path)
    data = _read(path)
    from ._columns import RunView, run_columns

    columns = run_columns(data)
    if columns is not None:  # a regular file: read with numpy, the same values
        return Run(RunView(columns), columns.run_id, source, columns)  # type: ignore[arg-type]
    return _run_by_line(data, source)


def _run_by_line(data: bytes, source: str) -> Run:
    """The run in ``data``, one line at a time: the reference for every file, regular or not."""
    rankings: dict[str, list[tuple[str, float]]] = {}
    first_line: dict[tuple[str, str], int] = {}
    run_id = ""
    for lineno, fields in _lines(data, source):
        if len(fields) < 6:
            raise InputError(
                source,
                lineno,
                f"expected at least 6 whitespace-separated fields (query Q0 docno rank score run_id); got {len(fields)}",
            )
        query, _, docno, _, score_text, run_id = fields[:6]
        try:
            score = parse_score(score_text)
        except ValueError as exc:
            raise InputError(source, lineno, str(exc)) from None
        if (query, docno) in first_line:
            raise InputError(
                source,
                lineno,
                f"document {docno!r} retrieved twice for query {query!r} (first at line {first_line[query, docno]})",
            )
        first_line[query, docno] = lineno
        rankings.setdefault(query, []).append((docno, score))
    return Run(rankings, run_id, source)
