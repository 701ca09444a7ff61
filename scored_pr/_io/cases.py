"""Reading scored cases from CSV, TSV and JSON Lines, for the ``scored-pr`` command.

Pure parsing, no printing: :class:`CaseReader` turns a text stream into
``(line_number, correct, score)`` triples (or numpy chunks of them) and raises
:class:`~scored_pr._io.values.InputError` naming the source, the line and the
offending value. One field becomes a value in :mod:`.values` (:func:`parse_label`,
:func:`parse_score`), a file or standard input is opened in :mod:`.opening`,
wide files are read by :mod:`.wide`'s ``WideReader``, and :mod:`.formats`
registers this reader as the ``csv``, ``tsv`` and ``jsonl`` formats.

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
import functools
import io
import json
import math
from collections.abc import Iterable, Iterator
from typing import IO, TYPE_CHECKING, Any, Callable, Union

from .linefeed import ByteFeed, TextFeed
from .values import (_EXACT_INT, _LABELS, DEFAULT_CORRECT_COLUMNS, DEFAULT_SCORE_COLUMN, InputError, _json_float,
                     _separator_hint, _show, _twice, _unique_keys, parse_label, parse_score)

if TYPE_CHECKING:  # numpy is imported where arrays are made: `scored-pr --help` does not need it
    from pathlib import Path

    import numpy as np
    import numpy.typing as npt
FORMATS = ("csv", "tsv", "jsonl")

#: Cases per numpy chunk handed to ``add_cases``: large enough to amortise the
#: call, small enough to keep memory flat and the progress bar moving.
CHUNK_SIZE = 65_536

#: Longest line read, in characters: input without newlines (a binary file, a
#: stream that never ends a line) stops with an error instead of filling memory.
MAX_LINE_CHARS = 1 << 20

#: Physical lines a quoted CSV field may span.
MAX_QUOTED_LINES = 100

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
    scored_pr._io.values.InputError: x.csv:2: invalid label 'maybe' in column 'label' (expected 1/0, -1/1, true/false, yes/no, or a --positive-label)
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

