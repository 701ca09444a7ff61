"""Reading scored cases from Parquet files with pyarrow, for the ``scored-pr`` command.

A Parquet file is read one record batch at a time (``ParquetFile.iter_batches``,
which reads row group after row group), only the columns the options name,
so memory stays bounded by a batch whatever the file's size. The readers
are :class:`~scored_pr._io.cases.CaseReader` and
:class:`~scored_pr._io.cases.WideReader` with another source of rows: the
same column options, the same label and score rules (:func:`parse_label`,
:func:`parse_score`), the same ``--skip-invalid``, the same messages, with
``row N`` (1-based, in file order) where a text file says its line.

A batch whose label column is boolean or numeric and whose score column is
numeric, without nulls, NaN or a value the per-row rules must judge, is
taken as numpy arrays at once; every other row goes through the per-row
rules, so the fast path changes speed only.

pyarrow is an optional dependency (the ``parquet`` extra): it is imported
when a Parquet file is read, and its absence is an :class:`InputError`
naming the extra.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, Callable

from .cases import CaseReader, _Piece
from .values import DEFAULT_CORRECT_COLUMNS, DEFAULT_SCORE_COLUMN, InputError, _twice, parse_label, parse_score
from .wide import WideReader

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

#: File name endings read as Parquet (any case).
SUFFIXES = (".parquet", ".pq")

#: The four bytes a Parquet file starts (and ends) with.
MAGIC = b"PAR1"

#: Rows per record batch read from the file.
BATCH_ROWS = 65_536

#: How to install pyarrow, said when it is missing.
INSTALL = "pip install pyarrow (or, in a checkout of scored_pr, pip install '.[parquet]')"

#: Integers beyond this magnitude must be exactly representable as float64 (as in the text readers).
_EXACT_INT = 2**53


def _pyarrow(source: str) -> Any:
    """``pyarrow.parquet``, or an InputError naming the extra that installs it."""
    try:
        import pyarrow.parquet as pq
    except ImportError:
        raise InputError(source, None, f"reading Parquet needs pyarrow, the optional extra 'parquet': {INSTALL}") from None
    return pq


def open_parquet(path: str) -> tuple[Any, str, int | None]:
    """``(ParquetFile, source, size)`` of ``path`` (``-``: standard input, read whole into memory)."""
    source = "<stdin>" if path == "-" else path
    pq = _pyarrow(source)
    import pyarrow as pa

    size: int | None = None
    try:
        if path == "-":
            stdin = sys.stdin
            if stdin is None or getattr(stdin, "closed", False):
                raise InputError(source, None, "standard input is closed")
            buffer = getattr(stdin, "buffer", None)
            if buffer is None:
                raise InputError(source, None, "Parquet is binary: standard input has no binary buffer")
            target: Any = pa.BufferReader(buffer.read())
        else:
            target = path
            size = os.stat(path).st_size
        return pq.ParquetFile(target), source, size
    except OSError as exc:  # a missing file, a directory, no permission
        raise InputError(source, None, exc.strerror or str(exc)) from None
    except (pa.ArrowException, ValueError) as exc:  # not Parquet, or a corrupted footer
        raise InputError(source, None, f"not a readable Parquet file ({str(exc).splitlines()[0][:200]})") from None


def _listed(names: list[str]) -> str:
    text = ", ".join(repr(n) for n in names)
    return text if len(text) <= 200 else text[:197] + "..."


class _Rows:
    """Record batches of some columns of a Parquet file, with the 1-based number of each batch's first row."""

    def __init__(self, path: str) -> None:
        self.file, self.source, self.size = open_parquet(path)
        self.names: list[str] = list(self.file.schema_arrow.names)
        self.total = int(self.file.metadata.num_rows)
        self.read = 0  # rows read so far

    def batches(self, columns: list[str]) -> Iterator[tuple[int, Any]]:
        import pyarrow as pa

        try:
            for batch in self.file.iter_batches(batch_size=BATCH_ROWS, columns=columns, use_threads=False):
                first = self.read + 1
                self.read += batch.num_rows
                yield first, batch
        except (pa.ArrowException, ValueError) as exc:  # a corrupted page: the rows before it were read
            raise InputError(self.source, None, f"cannot read row {self.read + 1} on: "
                             f"{str(exc).splitlines()[0][:200]}") from None

    @property
    def bytes_read(self) -> int:
        """The share of the file's bytes the rows read so far stand for (for the progress bar)."""
        if not self.total or self.size is None:
            return 0
        return self.size * self.read // self.total


class ParquetCases(CaseReader):
    """The cases of a Parquet file: a correctness column and a score column, as :class:`CaseReader` reads text.

    Parameters
    ----------
    path : str
        The file, or ``-`` for standard input (read whole into memory: Parquet's footer is at the end).
    correct_col, score_col, skip_invalid, on_skip, positive_label
        As :class:`CaseReader`: ``correct_col`` None tries ``correct`` then
        ``label`` (an exact name first, then any case).

    Raises
    ------
    InputError
        pyarrow missing (naming the extra), a file that is not Parquet, a
        column missing (naming it and listing the file's columns), or while
        iterating a malformed row (``file: row N: ...``) unless ``skip_invalid``.
    """

    def __init__(
        self,
        path: str,
        *,
        correct_col: str | None = None,
        score_col: str = DEFAULT_SCORE_COLUMN,
        skip_invalid: bool = False,
        on_skip: Callable[[InputError], None] | None = None,
        positive_label: str | None = None,
    ) -> None:
        super().__init__((), input_format=None, correct_col=correct_col, score_col=score_col,
                         skip_invalid=skip_invalid, on_skip=on_skip, positive_label=positive_label)
        self._file = _Rows(path)
        self.source = self._file.source
        self.format = "parquet"
        self.size = self._file.size
        self._columns = self._find_columns(self._file.names)
        self._decimals: dict[float, Any] = {}  # float64 -> the Decimal it came from (columns of > 15 digits)

    @property
    def chars_read(self) -> int:
        """Bytes of the file the rows read so far stand for, for a progress bar."""
        return self._file.bytes_read

    def _bad(self, line: int, message: str) -> None:
        error = InputError(self.source, None, f"row {line}: {message}")
        if not self._skip_invalid:
            raise error
        self.skipped += 1
        if self._on_skip is not None:
            self._on_skip(error)

    def _distinct_decimals(self, values: list[Any], scores: npt.NDArray[np.float64]) -> npt.NDArray[np.bool_]:
        """Which rows' Decimal scores keep apart from every other's as float64 (the rest are judged row by row)."""
        import numpy as np

        seen = self._decimals
        ok = np.ones(len(values), dtype=bool)
        for i, (v, f) in enumerate(zip(values, scores.tolist())):
            if seen.setdefault(f, v) != v:
                ok[i] = False
        return ok

    def _check_merge(self, value: Any, score: float, column: str) -> None:
        """Refuse a Decimal score that rounds to the float64 of a distinct one read before (a tie rounding made)."""
        first = self._decimals.setdefault(score, value)
        if first != value:
            raise ValueError(f"invalid score {value!r} in column {column!r} (rounds to the float64 {float(score)!r}, as the "
                             f"distinct {first!r} of an earlier row does: round the column if the tie is acceptable)")

    def _find_columns(self, names: list[str]) -> tuple[str, str]:
        wanted = DEFAULT_CORRECT_COLUMNS if self._correct_col is None else (self._correct_col,)
        correct = _find(names, wanted)
        if correct is None:
            shown = " or ".join(repr(c) for c in wanted)
            raise InputError(self.source, None, f"no column {shown} in the file (columns: {_listed(names)}); use --correct-col")
        score = _find(names, (self._score_col,))
        if score is None:
            raise InputError(self.source, None, f"no column {self._score_col!r} in the file (columns: {_listed(names)}); "
                             "use --score-col")
        for name, option in ((correct, "--correct-col"), (score, "--score-col")):
            if names.count(name) > 1:
                raise InputError(self.source, None, _twice(names, name, f"the {option} column must be named once"))
        return correct, score

    def _pieces(self, fast: bool) -> Iterator[_Piece]:
        """Whole batches as ``(correct, scores)`` arrays (``fast``), else ``(row, correct, score)`` triples."""
        import numpy as np

        cname, sname = self._columns
        columns = [cname] if cname == sname else [cname, sname]
        for first, batch in self._file.batches(columns):
            label_col = batch.column(cname)
            score_col = batch.column(sname)
            correct, label_ok = _labels(label_col) if self._positive is None else (None, None)
            scores, score_ok = _scores(score_col)
            n = batch.num_rows
            if _may_merge(score_col.type) and scores is not None and score_ok is not None:
                score_ok = score_ok & self._distinct_decimals(score_col.to_pylist(), scores)
            keep = np.ones(n, dtype=bool)
            if correct is None or scores is None or label_ok is None or score_ok is None or not (label_ok & score_ok).all():
                correct = np.zeros(n, dtype=bool) if correct is None else correct.copy()
                scores = np.zeros(n, dtype=np.float64) if scores is None else scores.copy()
                bad = np.arange(n) if label_ok is None or score_ok is None else np.flatnonzero(~(label_ok & score_ok))
                labels, values = label_col.to_pylist(), score_col.to_pylist()
                for i in bad.tolist():
                    try:
                        correct[i] = parse_label(labels[i], cname, self._positive)
                        scores[i] = parse_score(values[i], sname)
                        if _may_merge(score_col.type) and values[i] is not None:
                            self._check_merge(values[i], scores[i], sname)
                    except ValueError as exc:
                        keep[i] = False
                        self._bad(first + i, str(exc))
            if fast:
                yield (correct, scores) if keep.all() else (correct[keep], scores[keep])
            else:
                for i in np.flatnonzero(keep).tolist():
                    yield first + i, bool(correct[i]), float(scores[i])


def _labels(column: Any) -> tuple[npt.NDArray[np.bool_] | None, npt.NDArray[np.bool_] | None]:
    """A boolean or numeric label column as (correct, plainly valid), else (None, None): judged row by row."""
    import numpy as np
    import pyarrow as pa

    from .._validation.cases import arrow_to_numpy  # imports numpy: not at the top (`scored-pr --help`)

    t = column.type
    if pa.types.is_boolean(t) and column.null_count == 0:
        values = arrow_to_numpy(column)
        return values, np.ones(values.size, dtype=bool)
    if (pa.types.is_integer(t) or pa.types.is_floating(t)) and column.null_count == 0:
        values = arrow_to_numpy(column)
        return values == 1, (values == 1) | (values == 0) | (values == -1)
    return None, None


def _scores(column: Any) -> tuple[npt.NDArray[np.float64] | None, npt.NDArray[np.bool_] | None]:
    """A numeric score column as (float64 scores, plainly valid), else (None, None): judged row by row."""
    import numpy as np
    import pyarrow as pa

    from .._validation.cases import arrow_to_numpy

    t = column.type
    if (pa.types.is_integer(t) or pa.types.is_floating(t)) and column.null_count == 0:
        values = arrow_to_numpy(column)
        # float16 and float32 widen exactly; an integer of 2**53 or more, NaN and the infinities
        # are judged by parse_score (exactness, "NaN is not a score", inf allowed)
        scores = values.astype(np.float64)
        return scores, np.abs(scores) < _EXACT_INT
    if pa.types.is_decimal(t) and column.null_count == 0:
        # float(Decimal) rounds to the nearest float64, as the number's text would be read; a column of at most
        # 15 significant digits maps distinct values to distinct float64s, a wider one is checked (_may_merge)
        scores = np.array([float(v) for v in column.to_pylist()], dtype=np.float64)
        return scores, np.isfinite(scores)
    return None, None


def _may_merge(t: Any) -> bool:
    """Whether a column of type ``t`` is decimal with more than 15 digits: two values may round to one float64."""
    import pyarrow as pa

    return bool(pa.types.is_decimal(t) and t.precision > 15)


def _plain(column: Any) -> list[Any]:
    """A column's values as JSON-like Python values (str, int, float, bool, None); others as their text."""
    import pyarrow as pa

    values = column.to_pylist()
    t = column.type
    if pa.types.is_dictionary(t):
        t = t.value_type
    if pa.types.is_string(t) or pa.types.is_large_string(t) or pa.types.is_boolean(t) or pa.types.is_integer(t) \
            or pa.types.is_floating(t) or pa.types.is_null(t):
        return values
    return [v if v is None or isinstance(v, (str, int, float, bool)) else str(v) for v in values]


class ParquetWide(WideReader):
    """The rows of a wide Parquet file (multi-class or multi-label), as :class:`WideReader` reads text.

    The options' columns are found in the file's schema (a missing one
    names the option and lists the file's columns); each row is judged by
    the same rules and messages, with ``row N`` for the line.
    """

    def __init__(
        self,
        path: str,
        *,
        label_col: str | None = None,
        label_cols: list[str] | None = None,
        score_cols: list[str] | None = None,
        score_prefix: str | None = None,
        skip_invalid: bool = False,
        on_skip: Callable[[InputError], None] | None = None,
    ) -> None:
        super().__init__((), label_col=label_col, label_cols=label_cols, score_cols=score_cols,
                         score_prefix=score_prefix, skip_invalid=skip_invalid, on_skip=on_skip)
        self._file = _Rows(path)
        self.source = self._file.source
        self.format = "parquet"
        self.size = self._file.size
        self._resolve(self._file.names, None)

    @property
    def chars_read(self) -> int:
        """Bytes of the file the rows read so far stand for, for a progress bar."""
        return self._file.bytes_read

    def _bad(self, line: int, message: str) -> None:
        ParquetCases._bad(self, line, message)  # type: ignore[arg-type]

    def _pieces(self, fast: bool) -> Iterator[_Piece]:
        names = self._file.names
        keys = list(dict.fromkeys([*self._truth_keys, *self._score_keys]))
        for first, batch in self._file.batches([names[k] for k in keys]):
            values = {k: _plain(batch.column(names[k])) for k in keys}
            for i in range(batch.num_rows):
                case = self._case(first + i, lambda key: values[key][i])  # noqa: B023 - called at once
                if case is not None:
                    yield case  # type: ignore[misc]


class ParquetKeyed:
    """The keyed cases of a Parquet file, ``(row, id, correct, score)``, for ``scored-pr compare``.

    The columns are found as the one-ranking reader finds them (the exact name,
    else the same name in another case); each value goes through the rules of
    every reader (:func:`parse_label`, :func:`parse_score`). An id is compared
    as text: a string as it is (surrounding white space dropped, as in CSV), a
    number or boolean by its JSON text (as JSON Lines ids are).
    """

    def __init__(self, path: str, *, id_col: str = "id", correct_col: str | None = None,
                 score_col: str = DEFAULT_SCORE_COLUMN) -> None:
        self._file = _Rows(path)
        self.source = self._file.source
        self.size = self._file.size
        names = self._file.names
        wanted = DEFAULT_CORRECT_COLUMNS if correct_col is None else (correct_col,)
        found = []
        for candidates, option in (((id_col,), "--id-col"), (wanted, "--correct-col"), ((score_col,), "--score-col")):
            name = _find(names, candidates)
            if name is None:
                shown = " or ".join(repr(c) for c in candidates)
                raise InputError(self.source, None, f"no column {shown} in the file (columns: {_listed(names)}); use {option}")
            if names.count(name) > 1:
                raise InputError(self.source, None, _twice(names, name, f"the {option} column must be named once"))
            found.append(name)
        self._columns = found

    def __iter__(self) -> Iterator[tuple[int, str, bool, float]]:
        import json

        iname, cname, sname = self._columns
        for first, batch in self._file.batches(list(dict.fromkeys(self._columns))):
            ids, labels, scores = (batch.column(c).to_pylist() for c in (iname, cname, sname))
            for i, (key, label, score) in enumerate(zip(ids, labels, scores)):
                row = first + i
                if key is None:
                    raise InputError(self.source, None, f"row {row}: missing id in column {iname!r}")
                text = key.strip() if isinstance(key, str) else json.dumps(key) if isinstance(key, (int, float)) else str(key)
                try:
                    yield row, text, parse_label(label, cname), parse_score(score, sname)
                except ValueError as exc:
                    raise InputError(self.source, None, f"row {row}: {exc}") from None


def _find(names: list[str], candidates: tuple[str, ...]) -> str | None:
    """The first of ``candidates`` among ``names``, by its exact name, else in another case."""
    folded = [n.lower() for n in names]
    for c in candidates:
        if c in names:
            return c
    for c in candidates:
        if c.lower() in folded:
            return names[folded.index(c.lower())]
    return None
