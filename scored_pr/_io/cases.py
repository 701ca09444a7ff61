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

import csv
import decimal
import functools
import io
import json
import math
import os
import sys
from collections.abc import Iterable, Iterator
from typing import IO, TYPE_CHECKING, Any, Callable, Union

from .linefeed import ByteFeed, TextFeed

if TYPE_CHECKING:  # numpy is imported where arrays are made: `scored-pr --help` does not need it
    from pathlib import Path

    import numpy as np
    import numpy.typing as npt

FORMATS = ("csv", "tsv", "jsonl")

#: Default names of the correctness column, tried in this order.
DEFAULT_CORRECT_COLUMNS = ("correct", "label")
DEFAULT_SCORE_COLUMN = "score"

_EXTENSIONS = {".csv": "csv", ".tsv": "tsv", ".tab": "tsv", ".jsonl": "jsonl", ".ndjson": "jsonl", ".json": "jsonl"}

_LABELS = {
    "1": True, "0": False, "-1": False, "1.0": True, "0.0": False, "-1.0": False,
    "true": True, "false": False, "yes": True, "no": False,
}  # fmt: skip
_LABEL_EXPECTED = "expected 1/0, -1/1, true/false, yes/no, or a --positive-label"

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


#: What JSON calls the values ``json.loads`` returns, for messages.
_JSON_TYPES = {bool: "boolean", int: "number", float: "number", list: "array", dict: "object", type(None): "null"}


def _twice(names: list[str], name: str, rule: str) -> str:
    """Why a header that names ``name`` more than once cannot be read: which copy is meant is unknown."""
    at = [str(i + 1) for i, n in enumerate(names) if n == name]
    return f"column {name!r} appears {len(at)} times in the header (fields {', '.join(at)}); {rule}: rename or remove the copies"


def _separator_hint(names: list[str], delimiter: str | None) -> str:
    """What to say when a header split on ``delimiter`` lacks a column and looks split on another character."""
    if delimiter != ",":
        return ""
    joined = ",".join(names)
    if "\t" in joined:
        return "; the file looks tab-separated: pass --input-format tsv"
    if ";" in joined:
        return ("; the file looks ;-separated, and scored-pr reads comma- or tab-separated text: convert it first, "
                "e.g. pandas.read_csv(path, sep=';').to_csv(new_path, index=False)")
    return ""


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object's ``object_pairs_hook`` that refuses a key given twice (``json`` keeps the last silently)."""
    obj = dict(pairs)
    if len(obj) != len(pairs):
        keys = [k for k, _ in pairs]
        repeated = next(k for i, k in enumerate(keys) if k in keys[:i])
        raise ValueError(f"key {repeated!r} appears {keys.count(repeated)} times in one object; a wide file "
                         "must name each column once")
    return obj


def parse_label(value: Any, column: str = "correct", positive: str | None = None) -> bool:
    """Parse one correctness value: 1/0, -1/1, true/false or yes/no, any case.

    Parameters
    ----------
    value : str, bool or number
        The field as read. Surrounding whitespace is ignored; JSON booleans
        and the numbers 1, 0 and -1 are accepted as such (``1.0`` too), as
        the API accepts them.
    column : str
        The column name, for the error message.
    positive : str, optional
        The positive class's label (``--positive-label``): the value is
        correct when it equals ``positive`` (after stripping whitespace;
        a JSON number or boolean is compared by its JSON text, so
        ``--positive-label 2`` matches ``2`` and ``"2"``), and every other
        non-empty value is a negative.

    Returns
    -------
    bool

    Raises
    ------
    ValueError
        Naming the value and the column, e.g. ``invalid label 'maybe' in
        column 'correct' (expected 1/0, -1/1, true/false, yes/no, or a --positive-label)``.

    Examples
    --------
    >>> parse_label("Yes"), parse_label(" 0 "), parse_label(True), parse_label("-1"), parse_label(1.0)
    (True, False, True, False, True)
    >>> parse_label("spam", positive="spam"), parse_label("ham", positive="spam"), parse_label(2, positive="2")
    (True, False, True)
    >>> parse_label("maybe")
    Traceback (most recent call last):
    ...
    ValueError: invalid label 'maybe' in column 'correct' (expected 1/0, -1/1, true/false, yes/no, or a --positive-label)
    """
    if positive is not None:
        if isinstance(value, str):
            text = value.strip()
        elif isinstance(value, bool):
            text = "true" if value else "false"
        elif isinstance(value, (int, float)) and value == value:
            text = repr(value)
            if text != positive and isinstance(value, float) and value.is_integer():
                text = str(int(value))
        else:
            text = ""
        if not text:
            raise ValueError(f"missing label in column {column!r}")
        return text == positive
    if isinstance(value, str):
        try:
            return _LABELS[value]
        except KeyError:
            result = _LABELS.get(value.strip().lower())
            if result is not None:
                return result
    elif isinstance(value, bool):
        return value
    elif type(value) in (int, float) and value in (0, 1, -1):
        return value == 1
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
    >>> parse_score("1_0")
    Traceback (most recent call last):
    ...
    ValueError: invalid score '1_0' in column 'score' (a number has no underscores)
    """
    if isinstance(value, str):
        if "_" in value:  # float() reads "1_0" as 10; CSV readers, JSON and trec_eval do not
            raise ValueError(f"invalid score {_show(value)} in column {column!r} (a number has no underscores)")
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
    elif isinstance(value, decimal.Decimal):  # a Parquet decimal column: the nearest float64, as its text would be
        result = float(value)
        if math.isinf(result) and value.is_finite():
            raise ValueError(f"invalid score {_show(value)} in column {column!r} (beyond float64's range)")
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
    stream : iterable of str, or a binary stream
        Lines of text (a file opened in text mode, ``sys.stdin``, a list),
        read lazily, one line at a time, so cases arriving on a pipe are seen
        as soon as their line is complete. Or a binary stream of UTF-8 (as
        :func:`open_input` returns with ``binary=True``), decoded here exactly
        as ``open_input``'s text is; :meth:`chunks` then reads it in blocks
        and parses them with numpy.
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
    positive_label : str, optional
        The positive class's label (see :func:`parse_label`); without it the
        labels must be 1/0, -1/1, true/false or yes/no.

    Attributes
    ----------
    skipped : int
        Lines skipped so far (``skip_invalid=True``).
    chars_read : int
        Characters (bytes, for a binary stream) consumed so far, for a progress bar.
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
    scored_pr._io.cases.InputError: x.csv:2: invalid label 'maybe' in column 'label' (expected 1/0, -1/1, true/false, yes/no, or a --positive-label)
    """

    def __init__(
        self,
        stream: Iterable[str] | IO[bytes],
        *,
        source: str = "<stdin>",
        input_format: str | None = None,
        correct_col: str | None = None,
        score_col: str = DEFAULT_SCORE_COLUMN,
        skip_invalid: bool = False,
        on_skip: Callable[[InputError], None] | None = None,
        positive_label: str | None = None,
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
        self._positive = None if positive_label is None else positive_label.strip()
        self._delimiter: str | None = None  # the header's separator (CSV/TSV), for a hint when a column is missing
        self.skipped = 0
        self._feed: TextFeed | ByteFeed | None = None

    @property
    def chars_read(self) -> int:
        """Characters consumed so far (bytes, for a binary stream), for a progress bar."""
        return 0 if self._feed is None else self._feed.consumed

    # ------------------------------------------------------------------ helpers

    def _too_long(self, number: int) -> None:
        raise InputError(
            self.source, number,
            f"line longer than {MAX_LINE_CHARS:,} characters (a binary file, or input without newlines?)",
        )  # fmt: skip

    def _bad(self, line: int, message: str) -> None:
        """Raise, or count and report the skipped line."""
        if "\ufffd" in message:  # input is decoded leniently: say why the value looks odd
            message += " (the line is not valid UTF-8)"
        error = InputError(self.source, line, message)
        if not self._skip_invalid:
            raise error
        self.skipped += 1
        if self._on_skip is not None:
            self._on_skip(error)

    # ---------------------------------------------------------------- iteration

    def __iter__(self) -> Iterator[tuple[int, bool, float]]:
        for piece in self._pieces(fast=False):  # one (line, correct, score) at a time
            yield piece  # type: ignore[misc]

    def _pieces(self, fast: bool) -> Iterator[_Piece]:
        """The cases in file order: ``(line, correct, score)`` triples and, from
        the numpy fast path (``fast`` and a binary stream), ``(correct, scores)``
        array pairs of whole blocks."""
        if _is_binary(self._stream):
            feed: TextFeed | ByteFeed = ByteFeed(self._stream, self._too_long, MAX_LINE_CHARS)  # type: ignore[arg-type]
        else:
            feed = TextFeed(self._stream, self._too_long, MAX_LINE_CHARS)  # type: ignore[arg-type]
        self._feed = feed
        leading: list[tuple[int, str]] = []  # blank lines before the first line with text, then that line
        while True:
            item = feed.next_line()
            if item is None:
                break
            leading.append(item)
            if item[1].strip():
                break
        if not leading or not leading[-1][1].strip():
            what = "a header line" if self.format != "jsonl" else "cases"
            raise InputError(self.source, None, f"empty input (expected {what})")
        if self.format is None:
            self.format = sniff_format(leading[-1][1])
        feed.pending.extend(leading)  # read them again
        fast = fast and isinstance(feed, ByteFeed)
        if self.format == "jsonl":
            yield from self._iter_jsonl(feed, fast)
        else:
            yield from self._iter_delimited(feed, "\t" if self.format == "tsv" else ",", fast)

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
        hint = _separator_hint(names, self._delimiter)
        if found_correct is None:
            wanted = " or ".join(repr(c) for c in correct_candidates)
            raise InputError(self.source, line, f"no column {wanted} in the header ({listed}){hint or '; use --correct-col'}")
        found_score = find((self._score_col,))
        if found_score is None:
            raise InputError(
                self.source, line, f"no column {self._score_col!r} in the header ({listed}){hint or '; use --score-col'}"
            )
        for found, option in ((found_correct, "--correct-col"), (found_score, "--score-col")):
            if names.count(found[1]) > 1:
                raise InputError(self.source, line, _twice(names, found[1], f"the {option} column must be named once"))
        return found_correct[0], found_correct[1], found_score[0], found_score[1]

    def _iter_delimited(self, feed: TextFeed | ByteFeed, delimiter: str, fast: bool) -> Iterator[_Piece]:
        """Rows of a CSV/TSV file, read one physical line at a time (or a block, on the fast path).

        A line without a quote character is split directly; one with quotes
        goes through the ``csv`` module in strict mode. A quoted field may
        span lines (up to :data:`MAX_QUOTED_LINES`) when the lines it joins
        form a row of the header's width; otherwise a quote that opens and
        never closes makes that one line invalid (skippable), and reading
        resumes on the next line, so it never swallows valid lines.

        The fast path takes blocks of lines without quotes or NUL bytes
        (:meth:`ByteFeed.take_block`), parses them with numpy
        (:mod:`scored_pr._io.fastparse`) and sends every line it cannot prove
        well-formed through the per-line path, so results and messages are
        the same either way.
        """
        header: list[str] = []
        header_line = 0
        while True:
            item = feed.next_line()
            if item is None:
                break
            header_line, text = item
            header = self._row(text, delimiter, header_line, None, feed) or []  # never None here
            if header and not (len(header) == 1 and not header[0].strip()):
                break
        self._delimiter = delimiter
        ci, cname, si, sname = self._header_columns(header, header_line)
        width = len(header)
        layout = (delimiter, width, ci, cname, si, sname)
        fast = fast and width >= 2 and ci != si and self._positive is None  # the block parser knows 1/0 words only
        line_of = self._delimited_line
        while True:
            if fast and not feed.pending:
                block = feed.take_block(b'"\0')  # type: ignore[union-attr]
                if block is not None:
                    yield from self._delimited_block(block[0], block[1], layout)
                    continue
            item = feed.next_line()
            if item is None:
                return
            number, text = item
            case = line_of(number, text, layout, feed)
            if case is not None:
                yield number, case[0], case[1]

    def _delimited_line(
        self, number: int, text: str, layout: tuple[str, int, int, str, int, str], feed: TextFeed | ByteFeed | None
    ) -> tuple[bool, float] | None:
        """The case on line ``number`` (reading on for a quoted field that spans lines), or None."""
        delimiter, width, ci, cname, si, sname = layout
        row = self._row(text, delimiter, number, width, feed)
        if row is None:
            return None
        if len(row) != width:
            if len(row) == 1 and not row[0].strip():  # blank line
                return None
            shown = _show(delimiter.join(row))
            self._bad(number, f"ragged row: {len(row)} fields where the header has {width}: {shown}")
            return None
        label = row[ci]
        correct = _LABELS.get(label) if self._positive is None else None
        try:
            if correct is None:
                correct = parse_label(label, cname, self._positive)
            return correct, parse_score(row[si], sname)
        except ValueError as exc:
            self._bad(number, str(exc))
            return None

    def _delimited_block(
        self, first: int, data: bytes, layout: tuple[str, int, int, str, int, str]
    ) -> Iterator[_Piece]:
        """The cases of a block of complete lines without quotes, NUL bytes or lone ``\\r``, as arrays."""
        import numpy as np

        from . import fastparse as fp

        delimiter, width, ci, _, si, _ = layout
        a = np.frombuffer(data + bytes(fp.PADDING), dtype=np.uint8)
        starts, ends, nl = fp.line_ends(a[: len(data)])
        fields = fp.delimited_fields(a[: len(data)], starts, ends, nl, ord(delimiter), width)
        proven = fields.proven
        label_at = fields.start(ci)
        correct, label_ok = fp.parse_labels(a, label_at, fields.end(ci) - label_at)
        score_at = fields.start(si)
        scores, score_ok = fp.parse_floats(a, score_at, fields.end(si) - score_at, data)
        # What the per-line path would reject or must judge (an overflow, an
        # integer float64 cannot hold exactly) stays with it.
        ok = label_ok & score_ok & (np.abs(scores) < _EXACT_INT)
        if proven.all() and ok.all():
            yield correct, scores
            return
        n = nl.size
        rows = np.flatnonzero(proven)
        keep = np.zeros(n, dtype=bool)
        keep[rows[ok]] = True
        all_correct = np.zeros(n, dtype=bool)
        all_scores = np.zeros(n, dtype=np.float64)
        all_correct[rows] = correct
        all_scores[rows] = scores
        for i in np.flatnonzero(~keep).tolist():
            text = data[starts[i] : nl[i] + 1].decode("utf-8", "replace")
            case = self._delimited_line(first + i, text, layout, None)
            if case is not None:
                all_correct[i], all_scores[i] = case
                keep[i] = True
        yield all_correct[keep], all_scores[keep]

    def _row(
        self, text: str, delimiter: str, number: int, width: int | None, feed: TextFeed | ByteFeed | None
    ) -> list[str] | None:
        """The fields of the row starting at line ``number``; None if that line is invalid.

        ``width`` is the header's (None while reading the header, where any
        malformed line is fatal). ``feed`` supplies the next lines for a quoted
        field that spans lines (None: the line has no quote).
        """
        stripped = text.rstrip("\r\n")
        if '"' not in stripped and "\0" not in stripped:
            return stripped.split(delimiter)
        try:
            return next(csv.reader((stripped,), delimiter=delimiter, strict=True), [""])
        except csv.Error as exc:
            error = exc
        if "\0" not in stripped and feed is not None:  # perhaps a quoted field that continues on the next lines
            joined = text
            taken: list[tuple[int, str]] = []
            while len(taken) < MAX_QUOTED_LINES:
                item = feed.next_line()
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
            feed.pending.extendleft(reversed(taken))  # not a multi-line row: read them again as lines
        if width is None:
            raise InputError(self.source, number, f"malformed line: {error}")
        self._bad(number, f"malformed line ({error}): {_show(stripped)}")
        return None

    def _iter_jsonl(self, feed: TextFeed | ByteFeed, fast: bool) -> Iterator[_Piece]:
        """One case per line; on the fast path, blocks of lines decoded with json's C scanner."""
        decode = functools.partial(json.loads, parse_float=_json_float)
        fast = fast and self._positive is None  # the block path knows the plain labels only
        while True:
            if fast and not feed.pending:
                block = feed.take_block()  # type: ignore[union-attr]
                if block is not None:
                    yield from self._jsonl_block(block[0], block[1], decode)
                    continue
            item = feed.next_line()
            if item is None:
                return
            number, line = item
            case = self._jsonl_line(number, line, decode)
            if case is not None:
                yield number, case[0], case[1]

    def _jsonl_line(self, number: int, line: str, decode: Callable[[str], Any]) -> tuple[bool, float] | None:
        if not line.strip():
            return None
        try:
            obj = decode(line)
        except ValueError as exc:
            msg = exc.msg if isinstance(exc, json.JSONDecodeError) else str(exc)
            self._bad(number, f"invalid JSON ({msg}): {_show(line.strip())}")
            return None
        except RecursionError:
            self._bad(number, f"invalid JSON (nested too deeply): {_show(line.strip())}")
            return None
        if not isinstance(obj, dict):
            self._bad(number, f"expected a JSON object, got {_show(obj)}")
            return None
        correct_candidates = DEFAULT_CORRECT_COLUMNS if self._correct_col is None else (self._correct_col,)
        for key in correct_candidates:
            if key in obj:
                break
        else:
            wanted = " or ".join(repr(c) for c in correct_candidates)
            self._bad(number, f"missing key {wanted} in {_show(line.strip())}")
            return None
        score_col = self._score_col
        if score_col not in obj:
            self._bad(number, f"missing key {score_col!r} in {_show(line.strip())}")
            return None
        try:
            return parse_label(obj[key], key, self._positive), parse_score(obj[score_col], score_col)
        except ValueError as exc:
            self._bad(number, str(exc))
            return None

    def _jsonl_block(self, first: int, data: bytes, decode: Callable[[str], Any]) -> Iterator[_Piece]:
        """The cases of a block of complete lines: each line that is exactly one JSON object
        with a plain label and a finite score is taken here, every other line goes
        through :meth:`_jsonl_line`."""
        import numpy as np

        text = data.decode("utf-8", "replace")
        lines = text.split("\n")
        lines.pop()  # after the last newline
        objects = _one_object_per_line(data, text)  # the whole block in one json.loads
        if objects is not None:
            where = list(range(len(lines)))
        else:  # line by line with json's C scanner
            scan = _json_scanner()
            objects = []
            where = []  # the line of each object
            for i, line in enumerate(lines):
                try:
                    obj, end = scan(line, 0)
                except (StopIteration, ValueError, RecursionError):
                    continue
                if type(obj) is dict and (end == len(line) or line[end:] == "\r"):
                    objects.append(obj)
                    where.append(i)
        missing = _MISSING
        if self._correct_col is None:
            labels = [o["correct"] if "correct" in o else o.get("label", missing) for o in objects]
        else:
            key = self._correct_col
            labels = [o.get(key, missing) for o in objects]
        score_col = self._score_col
        correct, label_ok = _label_array(labels)
        scores, score_ok = _score_array([o.get(score_col, missing) for o in objects])
        ok = label_ok & score_ok
        if len(objects) == len(lines) and ok.all():
            yield correct, scores
            return
        n = len(lines)
        at = np.array(where, dtype=np.int64)
        keep = np.zeros(n, dtype=bool)
        keep[at[ok]] = True
        all_correct = np.zeros(n, dtype=bool)
        all_scores = np.zeros(n, dtype=np.float64)
        all_correct[at] = correct
        all_scores[at] = scores
        for i in np.flatnonzero(~keep).tolist():
            case = self._jsonl_line(first + i, lines[i] + "\n", decode)
            if case is not None:
                all_correct[i], all_scores[i] = case
                keep[i] = True
        yield all_correct[keep], all_scores[keep]

    def chunks(self, size: int = CHUNK_SIZE) -> Iterator[tuple[npt.NDArray[np.bool_], npt.NDArray[np.float64]]]:
        """The cases as (correct, scores) numpy arrays of at most ``size`` rows.

        For ``ScoredPrecisionRecallEvaluation.add_cases``: a million-row file
        becomes a few dozen calls. Given a binary stream (:func:`open_input`
        with ``binary=True``), whole blocks of lines are parsed with numpy
        (:mod:`scored_pr._io.fastparse`); any line the fast path cannot prove
        well-formed is read exactly as :meth:`__iter__` reads it, so the
        cases, their order and every message are the same.

        Examples
        --------
        >>> reader = CaseReader(["label,score", "1,0.9", "0,0.8", "1,0.1"], source="x.csv")
        >>> [(c.tolist(), s.tolist()) for c, s in reader.chunks(size=2)]
        [([True, False], [0.9, 0.8]), ([True], [0.1])]
        >>> reader = CaseReader(io.BytesIO(b"label,score\\n1,0.9\\n0,0.8\\n1,0.1\\n"), source="x.csv")
        >>> [(c.tolist(), s.tolist()) for c, s in reader.chunks(size=2)]
        [([True, False], [0.9, 0.8]), ([True], [0.1])]
        """
        import numpy as np

        parts: list[tuple[npt.NDArray[np.bool_], npt.NDArray[np.float64]]] = []
        rows = 0
        correct: list[bool] = []
        scores: list[float] = []
        add_c = correct.append
        add_s = scores.append

        def flush_singles() -> None:
            if scores:
                parts.append((np.array(correct, dtype=bool), np.array(scores, dtype=np.float64)))
                correct.clear()
                scores.clear()

        for piece in self._pieces(fast=True):
            if len(piece) == 3:
                add_c(piece[1])  # type: ignore[arg-type]
                add_s(piece[2])  # type: ignore[arg-type, misc]
                rows += 1
            else:
                flush_singles()
                parts.append(piece)  # type: ignore[arg-type]
                rows += len(piece[0])
            if rows >= size:
                flush_singles()
                all_c = np.concatenate([c for c, _ in parts])
                all_s = np.concatenate([s for _, s in parts])
                full = rows - rows % size
                for lo in range(0, full, size):
                    yield all_c[lo : lo + size], all_s[lo : lo + size]
                parts = [(all_c[full:], all_s[full:])] if full < rows else []
                rows -= full
        flush_singles()
        if rows:
            yield np.concatenate([c for c, _ in parts]), np.concatenate([s for _, s in parts])


#: A case from the per-line path, or a block's arrays from the fast path.
_Piece = Union[tuple[int, bool, float], tuple["npt.NDArray[np.bool_]", "npt.NDArray[np.float64]"]]

_MISSING = object()


def _is_binary(stream: Any) -> bool:
    """A binary stream (read in blocks), as opposed to text or an iterable of lines."""
    return isinstance(stream, (io.BufferedIOBase, io.RawIOBase))


@functools.lru_cache(maxsize=None)
def _json_scanner() -> Callable[[str, int], tuple[Any, int]]:
    """json's C scanner with ``json.loads``' defaults: one value from a position, and where it ends."""
    from json import scanner

    return scanner.make_scanner(json.JSONDecoder())  # type: ignore[no-any-return, arg-type]


def _one_object_per_line(data: bytes, text: str) -> list[dict[str, Any]] | None:
    """The JSON object on each line of a block, parsed in one call; None unless each line is plainly one object.

    The lines are joined into one JSON array. That is only sound when no
    value can span lines, so the bytes are checked first: every line starts
    with ``{`` and ends with ``}`` (before ``\r\n``), has an even number of
    quotes and no backslash (strings then end on their line), and its braces
    and brackets outside strings close exactly at its last byte. Then the
    array's elements are the lines' objects, each parsed as ``json.loads``
    would parse its line alone.
    """
    import numpy as np

    from . import fastparse as fp

    if b"\\" in data:
        return None  # escapes: quotes are not simply string ends
    a = np.frombuffer(data, dtype=np.uint8)
    starts, ends, nl = fp.line_ends(a)
    n = nl.size
    if n == 0 or not bool(np.all(ends > starts)):
        return None
    if not (bool(np.all(a[starts] == 123)) and bool(np.all(a[ends - 1] == 125))):
        return None
    quotes = np.flatnonzero(a == 34)
    if np.any(np.bincount(np.searchsorted(nl, quotes), minlength=n) % 2):
        return None  # a string would cross a line end
    brackets = np.flatnonzero((a == 123) | (a == 125) | (a == 91) | (a == 93))
    outside = np.searchsorted(quotes, brackets) % 2 == 0  # an even number of quotes before: not in a string
    brackets = brackets[outside]
    byte = a[brackets]
    depth = np.cumsum(np.where((byte == 123) | (byte == 91), 1, -1))
    closed = brackets[depth == 0]
    if depth.size == 0 or int(depth.min()) < 0 or closed.size != n or not bool(np.all(closed == ends - 1)):
        return None
    try:
        objects = json.loads("[" + text[:-1].replace("\n", ",") + "]")
    except (ValueError, RecursionError):
        return None  # a malformed line somewhere: the lines are judged one by one
    return objects if len(objects) == n else None  # type: ignore[no-any-return]


def _label_array(labels: list[Any]) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.bool_]]:
    """JSON labels as booleans, and which ones are plainly valid (true/false, 0/1, an exact label word)."""
    import numpy as np

    types = set(map(type, labels))
    if types <= {bool, int}:
        try:
            values = np.array(labels, dtype=np.int64)
        except OverflowError:  # a huge integer: not a label; judged line by line
            pass
        else:
            return values == 1, (values == 0) | (values == 1)
    get = _LABELS.get
    mapped = [
        get(x) if type(x) is str else (x if type(x) is bool else (bool(x) if type(x) is int and x in (0, 1) else None))
        for x in labels
    ]
    ok = np.array([m is not None for m in mapped], dtype=bool)
    return np.array([m is True for m in mapped], dtype=bool), ok


def _score_array(scores: list[Any]) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.bool_]]:
    """JSON scores as float64, and which ones are plainly valid: numbers (not booleans) below 2**53 in magnitude."""
    import numpy as np

    if set(map(type, scores)) <= {float, int}:
        try:
            values = np.array(scores, dtype=np.float64)
        except OverflowError:
            pass
        else:
            return values, np.abs(values) < _EXACT_INT  # NaN and infinities fail too
    floats = [float(x) if type(x) is float or (type(x) is int and -_EXACT_INT < x < _EXACT_INT) else math.nan for x in scores]
    values = np.array(floats, dtype=np.float64)
    return values, np.abs(values) < _EXACT_INT


def open_input(path: str, stdin: IO[str] | None = None, binary: bool = False) -> tuple[Any, str, int | None]:
    """Open ``path`` (``-`` for standard input) for reading as UTF-8 text.

    Gzip is recognised by its magic bytes, on standard input as on files,
    whatever the name (``cat preds.csv.gz | scored-pr report -`` works).

    Parameters
    ----------
    path : str
        The file, or ``-``.
    stdin : text stream, optional
        Standard input (default ``sys.stdin``).
    binary : bool, default False
        Return the (decompressed) bytes instead, for :class:`CaseReader` to
        decode itself and parse in blocks. A standard input without a binary
        buffer (a ``StringIO``) is returned as it is, text.

    Returns
    -------
    stream : iterable of str, or a binary stream
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
        binary_stream = _binary_stream(buffer)
        return (binary_stream if binary else _text(binary_stream)), "<stdin>", None
    try:
        raw = open(path, "rb")  # noqa: SIM115 (closed by the caller)  # a BufferedReader: peek works
    except OSError as exc:
        raise InputError(path, None, exc.strerror or str(exc)) from None
    try:
        if raw.peek(len(GZIP_MAGIC))[: len(GZIP_MAGIC)] == GZIP_MAGIC:
            raw.close()
            import gzip

            fh: Any = gzip.open(path, "rb")  # gzip.open owns (and closes) its own handle
            return (fh if binary else _text(fh)), path, None
        size = os.fstat(raw.fileno()).st_size
    except OSError as exc:
        raw.close()
        raise InputError(path, None, exc.strerror or str(exc)) from None
    return (raw if binary else _text(raw)), path, size


GZIP_MAGIC = b"\x1f\x8b"


def _binary_stream(raw: IO[bytes]) -> IO[bytes]:
    """The bytes of ``raw``, through gzip when it starts with gzip's magic bytes.

    The decision is made on the content, not the name, so ``cat x.csv.gz |
    scored-pr report -`` and a compressed file without a ``.gz`` suffix both
    work. Peeking does not consume: a plain stream is read from its start.
    """
    buffered: Any = raw if hasattr(raw, "peek") else io.BufferedReader(raw)  # type: ignore[arg-type]
    if buffered.peek(len(GZIP_MAGIC))[: len(GZIP_MAGIC)] == GZIP_MAGIC:
        import gzip

        return gzip.GzipFile(fileobj=buffered, mode="rb")  # type: ignore[return-value]
    return buffered  # type: ignore[no-any-return]


def _text(binary: IO[bytes]) -> IO[str]:
    """UTF-8 text over ``binary``: a BOM dropped, undecodable bytes as U+FFFD, line ends kept."""
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

    return Path(str(resources.files("scored_pr") / "data" / "sample.csv"))


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
    """NaN and infinities as None (JSON has no NaN): :func:`scored_pr._core.jsonsafe.json_ready`.

    Examples
    --------
    >>> finite_or_none(float("nan")), finite_or_none(0.5), finite_or_none(3)
    (None, 0.5, 3)
    """
    from .._core.jsonsafe import json_ready  # imports numpy: not at module import (see above)

    return json_ready(value)


class WideReader(CaseReader):
    """Rows of a wide file: k score columns and the truth of each row, for ``scored-pr report``.

    Two layouts, chosen by the options (checked by the command line):

    - **multi-class** (``label_col``): one column holding each row's class
      name, and one score column per class. With ``score_cols`` the classes
      are those columns' names; with ``score_prefix`` every column whose
      name starts with the prefix is a score column (header order, or the
      first JSON object's key order) and its class is the rest of its name.
      A row whose class is not among them is invalid.
    - **multi-label** (``label_cols``): one indicator column per label
      (1/0, -1/1, true/false, yes/no, as :func:`parse_label`) and its score
      column: the one at the same position of ``score_cols``, or with
      ``score_prefix`` the column named prefix + label column.

    Each row is read line by line (no numpy fast path); a malformed row is
    reported (``file:line: message``) and stops the reading, or is skipped
    with ``skip_invalid``, exactly as :class:`CaseReader` does. Columns
    the options name but the header (or first JSON object) lacks stop the
    reading with a message naming the option and the columns found.

    Attributes
    ----------
    names : list of str
        The class or label of each score column, known once the header
        (or first JSON object) was read.
    score_names : list of str
        The score columns, in the same order.

    Examples
    --------
    >>> r = WideReader(["y,p_a,p_b", "b,0.2,0.8", "a,0.6,0.4"], source="x.csv", label_col="y", score_prefix="p_")
    >>> [(line, t, s) for line, t, s in r], r.names
    ([(2, 1, (0.2, 0.8)), (3, 0, (0.6, 0.4))], ['a', 'b'])
    >>> r = WideReader(['{"a": 1, "b": 0, "sa": 0.5, "sb": 0.1}'], source="x.jsonl", label_cols=["a", "b"],
    ...                score_cols=["sa", "sb"])
    >>> list(r)
    [(1, (True, False), (0.5, 0.1))]
    """

    def __init__(
        self,
        stream: Iterable[str] | IO[bytes],
        *,
        source: str = "<stdin>",
        input_format: str | None = None,
        label_col: str | None = None,
        label_cols: list[str] | None = None,
        score_cols: list[str] | None = None,
        score_prefix: str | None = None,
        skip_invalid: bool = False,
        on_skip: Callable[[InputError], None] | None = None,
    ) -> None:
        super().__init__(stream, source=source, input_format=input_format, skip_invalid=skip_invalid, on_skip=on_skip)
        if (label_col is None) == (label_cols is None) or (score_cols is None) == (score_prefix is None):
            raise ValueError("WideReader needs one of label_col and label_cols, and one of score_cols and score_prefix")
        self._label_col = label_col
        self._label_cols = label_cols
        self._score_cols = score_cols
        self._score_prefix = score_prefix
        self.names: list[str] = []
        self.score_names: list[str] = []
        self._truth_keys: list[Any] = []  # field index (CSV/TSV) or key (JSON) of the class or indicator columns
        self._score_keys: list[Any] = []
        self._truth_names: list[str] = []
        self._class_index: dict[str, int] = {}

    @property
    def multiclass(self) -> bool:
        """Whether the rows carry a class name (``label_col``) rather than k indicators."""
        return self._label_col is not None

    def _resolve(self, names: list[str], line: int | None) -> None:
        """Find the option's columns among ``names`` (a header, or a JSON object's keys)."""
        listed = ", ".join(repr(n) for n in names)
        if len(listed) > 200:
            listed = listed[:197] + "..."
        repeated = next((n for i, n in enumerate(names) if n in names[:i]), None)
        if repeated is not None:  # one row would feed a class (or label) twice, or from the wrong copy
            raise InputError(self.source, line, _twice(names, repeated, "a wide file must name each column once"))

        def find(name: str, option: str) -> int:
            if name in names:
                return names.index(name)
            raise InputError(self.source, line, f"{option}: no column {name!r} among the columns found ({listed})"
                             f"{_separator_hint(names, self._delimiter)}")

        prefix = self._score_prefix
        if self._label_col is not None:
            truth = [find(self._label_col, "--label-col")]
            if self._score_cols is not None:
                scores = [find(c, "--score-cols") for c in self._score_cols]
                classes = list(self._score_cols)
            else:
                assert prefix is not None
                scores = [i for i, n in enumerate(names) if n.startswith(prefix) and i != truth[0]]
                # a class name is compared stripped of surrounding whitespace, as each row's class is
                classes = [names[i][len(prefix):].strip() for i in scores]
                if len(scores) < 2 or "" in classes:
                    why = "a column named only the prefix has no class" if "" in classes else (
                        f"{len(scores)} column{'' if len(scores) == 1 else 's'} start with it; need at least 2")
                    raise InputError(self.source, line, f"--score-prefix {prefix!r}: {why} (columns found: {listed})")
            if truth[0] in scores:
                raise InputError(self.source, line, f"--label-col {self._label_col!r} is also a score column")
            classes = [c.strip() for c in classes]
            seen: dict[str, int] = {}
            for i, c in zip(scores, classes):
                if c in seen:  # e.g. 'p_x' and 'p_ x': a row's class ' x' is read as 'x', so one would take both
                    raise InputError(self.source, line, (
                        f"score columns {names[seen[c]]!r} and {names[i]!r} both name class {c!r} (class names "
                        "are compared without surrounding whitespace); rename one of them"))
                seen[c] = i
            self._class_index = {c: i for i, c in enumerate(classes)}
            self.names = classes
        else:
            assert self._label_cols is not None
            truth = [find(c, "--label-cols") for c in self._label_cols]
            if self._score_cols is not None:
                scores = [find(c, "--score-cols") for c in self._score_cols]
            else:
                scores = [find(f"{prefix}{c}", f"--score-prefix {prefix!r} (the score of label column {c!r})")
                          for c in self._label_cols]
            both = sorted(set(truth) & set(scores))
            if both:
                raise InputError(self.source, line, f"--label-cols and the score columns share {names[both[0]]!r}")
            self.names = list(self._label_cols)
        self._truth_names = [names[i] for i in truth]
        self.score_names = [names[i] for i in scores]
        self._truth_keys, self._score_keys = truth, scores

    def _case(self, number: int, get: Callable[[Any], Any]) -> tuple[int, Any, tuple[float, ...]] | None:
        """The row's (line, truth, scores), or None (reported or skipped) when a field is invalid."""
        try:
            if self._label_col is not None:
                value = get(self._truth_keys[0])
                text = value.strip() if isinstance(value, str) else json.dumps(value)
                index = self._class_index.get(text)
                if index is None:
                    if value is None or text == "":
                        raise ValueError(f"missing class in column {self._truth_names[0]!r}")
                    # a JSON true or 1 is matched by its JSON text: say so, or "True" looks like one of them
                    shown = _show(value) if isinstance(value, str) else (
                        f"{_show(text)} (the JSON {_JSON_TYPES.get(type(value), 'value')} {_show(text)[1:-1]}, matched as text)")
                    raise ValueError(f"class {shown} in column {self._truth_names[0]!r} is not one of the "
                                     f"classes of the score columns ({', '.join(_show(c) for c in self.names)})")
                truth: Any = index
            else:
                truth = tuple(parse_label(get(k), c) for k, c in zip(self._truth_keys, self._truth_names))
            scores = tuple(parse_score(get(k), c) for k, c in zip(self._score_keys, self.score_names))
        except ValueError as exc:
            self._bad(number, str(exc))
            return None
        return number, truth, scores

    def _iter_delimited(self, feed: TextFeed | ByteFeed, delimiter: str, fast: bool) -> Iterator[_Piece]:
        header: list[str] = []
        header_line = 0
        while True:
            item = feed.next_line()
            if item is None:
                break
            header_line, text = item
            header = self._row(text, delimiter, header_line, None, feed) or []
            if header and not (len(header) == 1 and not header[0].strip()):
                break
        self._delimiter = delimiter
        self._resolve([h.strip().lstrip("\ufeff").strip() for h in header], header_line)
        width = len(header)
        while True:
            item = feed.next_line()
            if item is None:
                return
            number, text = item
            row = self._row(text, delimiter, number, width, feed)
            if row is None:
                continue
            if len(row) != width:
                if len(row) == 1 and not row[0].strip():  # blank line
                    continue
                self._bad(number, f"ragged row: {len(row)} fields where the header has {width}: {_show(delimiter.join(row))}")
                continue
            case = self._case(number, row.__getitem__)
            if case is not None:
                yield case  # type: ignore[misc]

    def _iter_jsonl(self, feed: TextFeed | ByteFeed, fast: bool) -> Iterator[_Piece]:
        decode = functools.partial(json.loads, parse_float=_json_float, object_pairs_hook=_unique_keys)
        resolved = False
        while True:
            item = feed.next_line()
            if item is None:
                return
            number, line = item
            if not line.strip():
                continue
            try:
                obj = decode(line)
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
            if not resolved:  # the first object names the columns, as a header would
                self._resolve(list(obj), number)
                self._truth_keys, self._score_keys = self._truth_names, self.score_names
                resolved = True
            case = self._case(number, lambda key: obj.get(key))
            if case is not None:
                yield case  # type: ignore[misc]

    def read(self) -> tuple[npt.NDArray[Any], npt.NDArray[np.float64]]:
        """All rows as ``(truth, scores)``: class indices (n,) or an indicator matrix (n, k), and (n, k) scores."""
        import numpy as np

        truths: list[Any] = []
        scores: list[Any] = []
        for _, truth, row in self._pieces(fast=False):  # type: ignore[misc]
            truths.append(truth)
            scores.append(row)
        k = len(self.names)
        if self.multiclass:
            return np.array(truths, dtype=np.intp), np.array(scores, dtype=np.float64).reshape(-1, k)
        return np.array(truths, dtype=bool).reshape(-1, k), np.array(scores, dtype=np.float64).reshape(-1, k)
