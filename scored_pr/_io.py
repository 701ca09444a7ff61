"""Reading scored cases from CSV, TSV and JSON Lines, for the ``scored-pr`` command.

Pure parsing, no printing: :func:`parse_label` and :func:`parse_score` turn one
field into a value; :class:`CaseReader` turns a text stream into
``(line_number, correct, score)`` triples (or numpy chunks of them) and raises
:class:`InputError` naming the source, the line and the offending value.

Formats
-------
``csv`` / ``tsv``
    A header line naming the columns, then one case per line; other columns
    are ignored, blank lines are skipped, quoting follows the ``csv`` module (a
    quoted field may span up to 100 lines; a quote that never closes makes
    its one line invalid).
``jsonl``
    One JSON object per line; other keys are ignored. Labels may be JSON
    booleans, the numbers 0/1 or any label string; scores numbers or numeric
    strings.

Without an explicit format the path's extension decides (``.csv``, ``.tsv``,
``.tab``, ``.jsonl``, ``.ndjson``, ``.json``, optionally followed by ``.gz``);
for standard input or another extension the first line does (``{`` starts
JSON Lines, a tab in the header means TSV, anything else CSV).
"""

from __future__ import annotations

import collections
import csv
import functools
import gzip
import io
import itertools
import json
import math
import os
import sys
from collections.abc import Iterable, Iterator
from typing import IO, TYPE_CHECKING, Any, Callable

if TYPE_CHECKING:  # numpy is imported where arrays are made: `scored-pr --help` does not need it
    from pathlib import Path

    import numpy as np
    import numpy.typing as npt

FORMATS = ("csv", "tsv", "jsonl")

#: Default names of the correctness column, tried in this order.
DEFAULT_CORRECT_COLUMNS = ("correct", "label")
DEFAULT_SCORE_COLUMN = "score"

_EXTENSIONS = {".csv": "csv", ".tsv": "tsv", ".tab": "tsv", ".jsonl": "jsonl", ".ndjson": "jsonl", ".json": "jsonl"}

_LABELS = {"1": True, "0": False, "true": True, "false": False, "yes": True, "no": False}
_LABEL_EXPECTED = "expected 1/0, true/false, yes/no"

#: Cases per numpy chunk handed to ``add_cases``: large enough to amortise the
#: call, small enough to keep memory flat and the progress bar moving.
CHUNK_SIZE = 65_536

#: Longest line read, in characters: input without newlines (a binary file, a
#: stream that never ends a line) stops with an error instead of filling memory.
MAX_LINE_CHARS = 1 << 20

#: Physical lines a quoted CSV field may span.
MAX_QUOTED_LINES = 100

#: Integers beyond this magnitude must be exactly representable as float64.
_EXACT_INT = 2**53
_INF_WORDS = frozenset({"inf", "infinity", "+inf", "+infinity", "-inf", "-infinity"})


class InputError(ValueError):
    """Malformed input: ``str()`` is ``"<source>:<line>: <message>"``.

    Attributes
    ----------
    source : str
        The file name as the user gave it, or ``<stdin>``.
    line : int or None
        1-based physical line number, or None when the whole input is at fault.
    message : str
        What is wrong, naming the offending value.

    Examples
    --------
    >>> str(InputError("data.csv", 17, "invalid label 'maybe' in column 'correct'"))
    "data.csv:17: invalid label 'maybe' in column 'correct'"
    >>> str(InputError("<stdin>", None, "empty input"))
    '<stdin>: empty input'
    """

    def __init__(self, source: str, line: int | None, message: str) -> None:
        super().__init__(source, line, message)
        self.source = source
        self.line = line
        self.message = message

    def __str__(self) -> str:
        where = self.source if self.line is None else f"{self.source}:{self.line}"
        return f"{where}: {self.message}"


def _show(value: Any, limit: int = 60) -> str:
    """``repr`` of an offending value, shortened to one readable line."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 4] + "...'"


def parse_label(value: Any, column: str = "correct") -> bool:
    """Parse one correctness value: 1/0, true/false or yes/no, any case.

    Parameters
    ----------
    value : str, bool or int
        The field as read. Surrounding whitespace is ignored; JSON booleans
        and the integers 0/1 are accepted as such.
    column : str
        The column name, for the error message.

    Returns
    -------
    bool

    Raises
    ------
    ValueError
        Naming the value and the column, e.g. ``invalid label 'maybe' in
        column 'correct' (expected 1/0, true/false, yes/no)``.

    Examples
    --------
    >>> parse_label("Yes"), parse_label(" 0 "), parse_label(True)
    (True, False, True)
    >>> parse_label("maybe")
    Traceback (most recent call last):
    ...
    ValueError: invalid label 'maybe' in column 'correct' (expected 1/0, true/false, yes/no)
    """
    if isinstance(value, str):
        try:
            return _LABELS[value]
        except KeyError:
            result = _LABELS.get(value.strip().lower())
            if result is not None:
                return result
    elif isinstance(value, bool):
        return value
    elif type(value) is int and value in (0, 1):
        return bool(value)
    if value is None or (isinstance(value, str) and not value.strip()):
        raise ValueError(f"missing label in column {column!r}")
    raise ValueError(f"invalid label {_show(value)} in column {column!r} ({_LABEL_EXPECTED})")


def parse_score(value: Any, column: str = "score") -> float:
    """Parse one score: a decimal number, ``inf`` and ``-inf`` allowed, NaN not.

    Parameters
    ----------
    value : str, int or float
        The field as read; surrounding whitespace is ignored. JSON numbers are
        accepted as such (JSON booleans are not numbers).
    column : str
        The column name, for the error message.

    Returns
    -------
    float

    Raises
    ------
    ValueError
        Naming the value and the column.

    Examples
    --------
    >>> parse_score("0.25"), parse_score(" 1e3"), parse_score("-inf")
    (0.25, 1000.0, -inf)
    >>> parse_score("NaN")
    Traceback (most recent call last):
    ...
    ValueError: invalid score 'NaN' in column 'score' (NaN is not a score)
    """
    if isinstance(value, str):
        try:
            result = float(value)
        except ValueError:
            if not value.strip():
                raise ValueError(f"missing score in column {column!r}") from None
            raise ValueError(f"invalid score {_show(value)} in column {column!r} (expected a number)") from None
    elif isinstance(value, (int, float)) and not isinstance(value, bool):
        try:
            result = float(value)
        except OverflowError:
            raise ValueError(f"invalid score {_show(value)} in column {column!r} (too large for a float)") from None
    elif value is None:
        raise ValueError(f"missing score in column {column!r}")
    else:
        raise ValueError(f"invalid score {_show(value)} in column {column!r} (expected a number)")
    if result != result:
        raise ValueError(f"invalid score {_show(value)} in column {column!r} (NaN is not a score)")
    if not -_EXACT_INT < result < _EXACT_INT:
        _check_range(value, result, column)
    return result


def _json_float(text: str) -> float | str:
    """A JSON number as a float; one beyond float64's range stays text, for parse_score to reject."""
    value = float(text)
    return text if math.isinf(value) else value


def _check_range(value: Any, result: float, column: str) -> None:
    """Reject a score that overflowed to infinity or an integer float64 cannot hold exactly.

    The same rule as the Python API: ``1e400`` is not infinity, and
    ``9007199254740993`` is not silently rounded into a tie with its neighbour.
    """
    text = value.strip().lower() if isinstance(value, str) else None
    if math.isinf(result) and text is not None and text not in _INF_WORDS:
        raise ValueError(f"invalid score {_show(value)} in column {column!r} (beyond float64's range)")
    if isinstance(value, int) or (text is not None and text.lstrip("+-").isdigit()):
        if not math.isinf(result) and int(result) != int(value):
            raise ValueError(f"invalid score {_show(value)} in column {column!r} (not exactly representable as a float64)")


def format_from_path(path: str) -> str | None:
    """The format a file name implies, or None (standard input, unknown extension).

    Examples
    --------
    >>> format_from_path("runs/test.TSV"), format_from_path("preds.jsonl.gz"), format_from_path("-")
    ('tsv', 'jsonl', None)
    """
    name = path.lower()
    if name.endswith(".gz"):
        name = name[:-3]
    return _EXTENSIONS.get(os.path.splitext(name)[1])


def sniff_format(first_line: str) -> str:
    """Guess the format from the first line: JSON Lines, TSV or CSV.

    Examples
    --------
    >>> sniff_format('{"label": 1, "score": 0.5}'), sniff_format("label\\tscore"), sniff_format("label,score")
    ('jsonl', 'tsv', 'csv')
    """
    stripped = first_line.lstrip("\ufeff \t\r\n")
    if stripped.startswith("{"):
        return "jsonl"
    return "tsv" if "\t" in first_line else "csv"


class CaseReader:
    """Iterate over the cases of a CSV, TSV or JSON Lines text stream.

    Parameters
    ----------
    stream : iterable of str
        Lines of text (a file opened in text mode, ``sys.stdin``, a list).
        It is read lazily, one line at a time, so cases arriving on a pipe are
        seen as soon as their line is complete.
    source : str
        Name for messages: the path as given, or ``<stdin>``.
    input_format : {"csv", "tsv", "jsonl"} or None
        None: guess from the first line (:func:`sniff_format`).
    correct_col : str or None
        The correctness column; None tries ``correct`` then ``label``.
    score_col : str
        The score column.
    skip_invalid : bool
        If True, a malformed line is skipped (and counted in :attr:`skipped`,
        reported to ``on_skip``) instead of raising.
    on_skip : callable, optional
        Called with the :class:`InputError` of every skipped line.

    Attributes
    ----------
    skipped : int
        Lines skipped so far (``skip_invalid=True``).
    chars_read : int
        Characters consumed so far, for a progress bar.
    format : str or None
        The format in use, known once the first line was read.

    Raises
    ------
    InputError
        While iterating: a malformed line (unless ``skip_invalid``), or a
        header without the requested columns, or no header line at all
        (never skipped).

    Examples
    --------
    >>> reader = CaseReader(["id,label,score", "a,yes,0.9", "", "b,no,0.2"], source="x.csv")
    >>> list(reader)
    [(2, True, 0.9), (4, False, 0.2)]
    >>> list(CaseReader(['{"correct": true, "score": 3}'], source="<stdin>"))
    [(1, True, 3.0)]
    >>> list(CaseReader(["label,score", "maybe,0.1"], source="x.csv"))
    Traceback (most recent call last):
    ...
    scored_pr._io.InputError: x.csv:2: invalid label 'maybe' in column 'label' (expected 1/0, true/false, yes/no)
    """

    def __init__(
        self,
        stream: Iterable[str],
        *,
        source: str = "<stdin>",
        input_format: str | None = None,
        correct_col: str | None = None,
        score_col: str = DEFAULT_SCORE_COLUMN,
        skip_invalid: bool = False,
        on_skip: Callable[[InputError], None] | None = None,
    ) -> None:
        if input_format is not None and input_format not in FORMATS:
            raise ValueError(f"input_format must be one of {', '.join(FORMATS)}; got {input_format!r} instead.")
        self._stream = stream
        self.source = source
        self.format = input_format
        self._correct_col = correct_col
        self._score_col = score_col
        self._skip_invalid = skip_invalid
        self._on_skip = on_skip
        self.skipped = 0
        self.chars_read = 0

    # ------------------------------------------------------------------ helpers

    def _counted(self, lines: Iterable[str]) -> Iterator[str]:
        readline = getattr(lines, "readline", None)
        if readline is not None:  # a stream: read each line with a length limit
            lines = iter(functools.partial(readline, MAX_LINE_CHARS + 1), "")
        for number, line in enumerate(lines, start=1):
            if len(line) > MAX_LINE_CHARS:
                raise InputError(
                    self.source, number,
                    f"line longer than {MAX_LINE_CHARS:,} characters (a binary file, or input without newlines?)",
                )
            self.chars_read += len(line)
            yield line

    def _bad(self, line: int, message: str) -> None:
        """Raise, or count and report the skipped line."""
        if "\ufffd" in message:  # open_input decodes leniently: say why the value looks odd
            message += " (the line is not valid UTF-8)"
        error = InputError(self.source, line, message)
        if not self._skip_invalid:
            raise error
        self.skipped += 1
        if self._on_skip is not None:
            self._on_skip(error)

    # ---------------------------------------------------------------- iteration

    def __iter__(self) -> Iterator[tuple[int, bool, float]]:
        lines = self._counted(self._stream)
        leading: list[str] = []  # blank lines before the first line with text, then that line
        for line in lines:
            leading.append(line)
            if line.strip():
                break
        if not leading or not leading[-1].strip():
            what = "a header line" if self.format != "jsonl" else "cases"
            raise InputError(self.source, None, f"empty input (expected {what})")
        if self.format is None:
            self.format = sniff_format(leading[-1])
        chained = itertools.chain(leading, lines)
        if self.format == "jsonl":
            return self._iter_jsonl(chained)
        return self._iter_delimited(chained, "\t" if self.format == "tsv" else ",")

    def _header_columns(self, header: list[str], line: int) -> tuple[int, str, int, str]:
        names = [h.strip().lstrip("\ufeff").strip() for h in header]
        folded = [n.lower() for n in names]

        def find(candidates: tuple[str, ...]) -> tuple[int, str] | None:
            for c in candidates:
                if c in names:
                    return names.index(c), c
            for c in candidates:
                if c.lower() in folded:
                    i = folded.index(c.lower())
                    return i, names[i]
            return None

        listed = ", ".join(repr(n) for n in names)
        if len(listed) > 120:  # e.g. the "header" of a binary file
            listed = listed[:117] + "..."
        correct_candidates = DEFAULT_CORRECT_COLUMNS if self._correct_col is None else (self._correct_col,)
        found_correct = find(correct_candidates)
        if found_correct is None:
            wanted = " or ".join(repr(c) for c in correct_candidates)
            raise InputError(self.source, line, f"no column {wanted} in the header ({listed}); use --correct-col")
        found_score = find((self._score_col,))
        if found_score is None:
            raise InputError(
                self.source, line, f"no column {self._score_col!r} in the header ({listed}); use --score-col"
            )
        return found_correct[0], found_correct[1], found_score[0], found_score[1]

    def _iter_delimited(self, lines: Iterator[str], delimiter: str) -> Iterator[tuple[int, bool, float]]:
        """Rows of a CSV/TSV file, read one physical line at a time.

        A line without a quote character is split directly; one with quotes
        goes through the ``csv`` module in strict mode. A quoted field may
        span lines (up to :data:`MAX_QUOTED_LINES`) when the lines it joins
        form a row of the header's width; otherwise a quote that opens and
        never closes makes that one line invalid (skippable), and reading
        resumes on the next line, so it never swallows valid lines.
        """
        pending: collections.deque[tuple[int, str]] = collections.deque()
        numbered = enumerate(lines, start=1)

        def next_line() -> tuple[int, str] | None:
            return pending.popleft() if pending else next(numbered, None)

        header: list[str] = []
        header_line = 0
        while True:
            item = next_line()
            if item is None:
                break
            header_line, text = item
            header = self._row(text, delimiter, header_line, None, next_line, pending) or []  # never None here
            if header and not (len(header) == 1 and not header[0].strip()):
                break
        ci, cname, si, sname = self._header_columns(header, header_line)
        width = len(header)
        labels = _LABELS
        row_of = self._row
        while True:
            item = next_line()
            if item is None:
                return
            number, text = item
            row = row_of(text, delimiter, number, width, next_line, pending)
            if row is None:
                continue
            if len(row) != width:
                if len(row) == 1 and not row[0].strip():  # blank line
                    continue
                shown = _show(delimiter.join(row))
                self._bad(number, f"ragged row: {len(row)} fields where the header has {width}: {shown}")
                continue
            label = row[ci]
            correct = labels.get(label)
            try:
                if correct is None:
                    correct = parse_label(label, cname)
                yield number, correct, parse_score(row[si], sname)
            except ValueError as exc:
                self._bad(number, str(exc))

    def _row(
        self,
        text: str,
        delimiter: str,
        number: int,
        width: int | None,
        next_line: Callable[[], tuple[int, str] | None],
        pending: collections.deque[tuple[int, str]],
    ) -> list[str] | None:
        """The fields of the row starting at line ``number``; None if that line is invalid.

        ``width`` is the header's (None while reading the header, where any
        malformed line is fatal).
        """
        stripped = text.rstrip("\r\n")
        if '"' not in stripped and "\0" not in stripped:
            return stripped.split(delimiter)
        try:
            return next(csv.reader((stripped,), delimiter=delimiter, strict=True), [""])
        except csv.Error as exc:
            error = exc
        if "\0" not in stripped:  # perhaps a quoted field that continues on the next lines
            joined = text
            taken: list[tuple[int, str]] = []
            while len(taken) < MAX_QUOTED_LINES:
                item = next_line()
                if item is None:
                    break
                taken.append(item)
                joined += item[1]
                try:
                    rows = list(csv.reader(io.StringIO(joined, newline=""), delimiter=delimiter, strict=True))
                except csv.Error:
                    continue
                if len(rows) == 1 and (width is None or len(rows[0]) == width):
                    return rows[0]
                break
            pending.extendleft(reversed(taken))  # not a multi-line row: read them again as lines
        if width is None:
            raise InputError(self.source, number, f"malformed line: {error}")
        self._bad(number, f"malformed line ({error}): {_show(stripped)}")
        return None

    def _iter_jsonl(self, lines: Iterator[str]) -> Iterator[tuple[int, bool, float]]:
        loads = functools.partial(json.loads, parse_float=_json_float)
        correct_candidates = DEFAULT_CORRECT_COLUMNS if self._correct_col is None else (self._correct_col,)
        score_col = self._score_col
        for number, line in enumerate(lines, start=1):
            if not line.strip():
                continue
            try:
                obj = loads(line)
            except ValueError as exc:
                msg = exc.msg if isinstance(exc, json.JSONDecodeError) else str(exc)
                self._bad(number, f"invalid JSON ({msg}): {_show(line.strip())}")
                continue
            except RecursionError:
                self._bad(number, f"invalid JSON (nested too deeply): {_show(line.strip())}")
                continue
            if not isinstance(obj, dict):
                self._bad(number, f"expected a JSON object, got {_show(obj)}")
                continue
            for key in correct_candidates:
                if key in obj:
                    break
            else:
                wanted = " or ".join(repr(c) for c in correct_candidates)
                self._bad(number, f"missing key {wanted} in {_show(line.strip())}")
                continue
            if score_col not in obj:
                self._bad(number, f"missing key {score_col!r} in {_show(line.strip())}")
                continue
            try:
                yield number, parse_label(obj[key], key), parse_score(obj[score_col], score_col)
            except ValueError as exc:
                self._bad(number, str(exc))

    def chunks(self, size: int = CHUNK_SIZE) -> Iterator[tuple[npt.NDArray[np.bool_], npt.NDArray[np.float64]]]:
        """The cases as (correct, scores) numpy arrays of at most ``size`` rows.

        For ``ScoredPrecisionRecallEvaluation.add_cases``: a million-row file
        becomes a few dozen calls.

        Examples
        --------
        >>> reader = CaseReader(["label,score", "1,0.9", "0,0.8", "1,0.1"], source="x.csv")
        >>> [(c.tolist(), s.tolist()) for c, s in reader.chunks(size=2)]
        [([True, False], [0.9, 0.8]), ([True], [0.1])]
        """
        import numpy as np

        correct: list[bool] = []
        scores: list[float] = []
        add_c = correct.append
        add_s = scores.append
        for _, c, s in self:
            add_c(c)
            add_s(s)
            if len(scores) >= size:
                yield np.array(correct, dtype=bool), np.array(scores, dtype=np.float64)
                correct.clear()
                scores.clear()
        if scores:
            yield np.array(correct, dtype=bool), np.array(scores, dtype=np.float64)


def open_input(path: str, stdin: IO[str] | None = None) -> tuple[Iterable[str], str, int | None]:
    """Open ``path`` (``-`` for standard input) for reading as UTF-8 text.

    Gzip is recognised by its magic bytes, on standard input as on files,
    whatever the name (``cat preds.csv.gz | scored-pr report -`` works).

    Returns
    -------
    stream : iterable of str
        The lines. Undecodable bytes become U+FFFD, so that a bad value is
        reported on its own line instead of failing the whole file.
    source : str
        ``path``, or ``<stdin>``.
    size : int or None
        The size in bytes of a regular uncompressed file, else None.

    Raises
    ------
    InputError
        If the file cannot be opened (no line number).
    """
    if path == "-":
        if stdin is None:
            stdin = sys.stdin
        if stdin is None or getattr(stdin, "closed", False):  # e.g. `scored-pr report - <&-`
            raise InputError("<stdin>", None, "standard input is closed")
        buffer = getattr(stdin, "buffer", None)
        if buffer is None:  # already text (a StringIO in tests): nothing to sniff
            return stdin, "<stdin>", None
        # re-decode the real stdin leniently, BOM included; gzip by its magic bytes
        return _text_stream(buffer), "<stdin>", None
    try:
        raw = open(path, "rb")  # noqa: SIM115 (closed by the caller)  # a BufferedReader: peek works
    except OSError as exc:
        raise InputError(path, None, exc.strerror or str(exc)) from None
    try:
        if raw.peek(len(GZIP_MAGIC))[: len(GZIP_MAGIC)] == GZIP_MAGIC:
            raw.close()  # gzip.open owns (and closes) its own handle
            fh: IO[str] = gzip.open(path, "rt", encoding="utf-8-sig", errors="replace", newline="")
            return fh, path, None
        size = os.fstat(raw.fileno()).st_size
    except OSError as exc:
        raw.close()
        raise InputError(path, None, exc.strerror or str(exc)) from None
    return io.TextIOWrapper(raw, encoding="utf-8-sig", errors="replace", newline=""), path, size


GZIP_MAGIC = b"\x1f\x8b"


def _text_stream(raw: IO[bytes]) -> IO[str]:
    """UTF-8 text over ``raw``, through gzip when it starts with gzip's magic bytes.

    The decision is made on the content, not the name, so ``cat x.csv.gz |
    scored-pr report -`` and a compressed file without a ``.gz`` suffix both
    work. Peeking does not consume: a plain stream is read from its start.
    """
    buffered: Any = raw if hasattr(raw, "peek") else io.BufferedReader(raw)  # type: ignore[arg-type]
    compressed = buffered.peek(len(GZIP_MAGIC))[: len(GZIP_MAGIC)] == GZIP_MAGIC
    binary: Any = gzip.GzipFile(fileobj=buffered, mode="rb") if compressed else buffered
    return io.TextIOWrapper(binary, encoding="utf-8-sig", errors="replace", newline="")


def sample_path() -> Path:
    """The bundled sample of 3,000 scored predictions (``scored_pr/data/sample.csv``).

    Examples
    --------
    >>> sample_path().name
    'sample.csv'
    """
    from importlib import resources
    from pathlib import Path

    return Path(str(resources.files("scored_pr").joinpath("data", "sample.csv")))


def read_sample() -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.float64]]:
    """The bundled sample as (correct, scores) arrays, in file order.

    Examples
    --------
    >>> correct, scores = read_sample()
    >>> len(scores), int(correct.sum())
    (3000, 710)
    """
    import numpy as np

    with open(sample_path(), encoding="utf-8", newline="") as fh:
        chunks = list(CaseReader(fh, source=str(sample_path()), input_format="csv").chunks())
    return np.concatenate([c for c, _ in chunks]), np.concatenate([s for _, s in chunks])


def finite_or_none(value: Any) -> Any:
    """NaN and infinities as None (JSON has no NaN); anything else unchanged.

    Examples
    --------
    >>> finite_or_none(float("nan")), finite_or_none(0.5), finite_or_none(3)
    (None, 0.5, 3)
    """
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value
