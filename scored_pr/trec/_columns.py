"""Regular qrels and run files read as columns with numpy, and dict views over them.

:func:`run_columns` and :func:`qrels_columns` accept a file only when every
line is *regular*: ASCII, fields separated by one space or tab, exactly six
fields in a run (four in qrels), scores and grades of the plain decimal form,
identifiers of at most :data:`MAX_ID_BYTES` bytes, no document twice for one
query. Blank lines and ``#`` comment lines may appear anywhere. Anything else
returns None and the reader of :mod:`scored_pr.trec._parse` reads the file line by
line, as before: it accepts what trec_eval accepts and reports the first
malformed line; so the columns change speed, never results or messages.

:class:`RunView` and :class:`QrelsView` present the columns as the
``{query: [(docno, score), ...]}`` and ``{query: {docno: grade}}`` mappings
of :class:`~scored_pr.trec.Run` and :class:`~scored_pr.trec.Qrels`, building
each query's entry on first access.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from .. import _fastparse as fp

__all__ = ["MAX_ID_BYTES", "QrelsColumns", "QrelsView", "RunColumns", "RunView", "match", "qrels_columns", "run_columns"]

#: Longest query id or document id read as columns (four 64-bit words).
MAX_ID_BYTES = 32
_SEPARATORS = (32, 9)  # space, tab

I64 = npt.NDArray[np.int64]
U64 = npt.NDArray[np.uint64]


@dataclass(frozen=True)
class _Table:
    """Rows of a regular file: query index, document id (bytes and words), line number."""

    data: bytes
    query_ids: list[str]  # distinct, in order of first appearance
    query: I64  # per row: index into query_ids
    doc_start: I64
    doc_len: I64
    doc_words: U64  # (rows, words): the id's bytes, zero-padded
    line: I64  # physical line number of each row

    def docno(self, row: int) -> str:
        s = int(self.doc_start[row])
        return self.data[s : s + int(self.doc_len[row])].decode("ascii")

    def rows_by_query(self) -> tuple[I64, I64]:
        """Row numbers grouped by query (file order within a query), and each query's offset into them."""
        order = np.argsort(self.query, kind="stable")
        counts = np.bincount(self.query, minlength=len(self.query_ids))
        return order, np.concatenate(([0], np.cumsum(counts)))


@dataclass(frozen=True)
class RunColumns(_Table):
    scores: npt.NDArray[np.float64]
    run_id: str


@dataclass(frozen=True)
class QrelsColumns(_Table):
    grades: I64


def _regular_lines(data: bytes, width: int) -> tuple[np.ndarray, fp.Fields, I64] | None:
    """The padded bytes, the fields of each content line and its line number."""
    if not data.isascii():
        return None  # str.split() knows more whitespace than the separators here
    if not data.endswith(b"\n"):
        data += b"\n"
    a = np.frombuffer(data + bytes(fp.PADDING), dtype=np.uint8)
    body = a[: len(data)]
    starts, ends, nl = fp.line_ends(body)
    # Control bytes other than tab, newline and a carriage return before a
    # newline would split fields (or not) differently from str.split().
    control = int(np.count_nonzero(body < 32))
    if control != nl.size:
        crlf = data.count(b"\r\n") if b"\r" in data else 0
        if control != nl.size + data.count(b"\t") + crlf or (crlf and data.count(b"\r") != crlf):
            return None
    content = ends > starts
    comment = np.take(body, starts) == 35  # '#': a comment line (its first field starts with '#')
    wanted = content & ~comment
    fields = fp.delimited_fields(body, starts, ends, nl, _SEPARATORS, width)
    proven = fields.proven
    if not bool(np.all(proven | ~wanted)):
        return None  # another number of fields, or separators other than one space or tab
    fields = fields.select(~comment[proven] & content[proven])
    if fields.grid.size and (
        bool(np.any(fields.grid[:, 0] <= fields.line_starts))  # an empty first field
        or bool(np.any(np.diff(fields.grid, axis=1) <= 1))  # two separators in a row
        or bool(np.any(fields.line_ends <= fields.grid[:, -1] + 1))  # a separator at the end
    ):
        return None
    lines = np.flatnonzero(proven)[~comment[proven] & content[proven]] + 1
    return a, fields, lines


def _queries(data: bytes, a: np.ndarray, starts: I64, lengths: I64) -> tuple[list[str], I64] | None:
    """Distinct query ids in order of first appearance, and each row's index into them."""
    n = starts.size
    if n and int(lengths.max()) > MAX_ID_BYTES:
        return None
    words = fp.field_words(a, starts, lengths, _nwords(lengths))
    change = np.ones(n, dtype=bool)  # rows whose query differs from the row before: few, files are grouped
    if n > 1:
        change[1:] = np.any(words[1:] != words[:-1], axis=1) | (lengths[1:] != lengths[:-1])
    ids: list[str] = []
    index: dict[bytes, int] = {}
    heads = np.flatnonzero(change)
    head_index = np.empty(heads.size, dtype=np.int64)
    for k, row in enumerate(heads.tolist()):
        s = int(starts[row])
        key = data[s : s + int(lengths[row])]
        i = index.get(key)
        if i is None:
            i = index[key] = len(ids)
            ids.append(key.decode("ascii"))
        head_index[k] = i
    return ids, head_index[np.cumsum(change) - 1]


_MIX = (np.uint64(0x9E3779B97F4A7C15), np.uint64(0xC2B2AE3D27D4EB4F), np.uint64(0x165667B19E3779F9))


def _hash(query: I64, words: U64, lengths: I64) -> U64:
    """A 64-bit mix of (query, document id): equal keys hash equal; collisions are checked by callers."""
    with np.errstate(over="ignore"):
        h = query.astype(np.uint64) * _MIX[0] + lengths.astype(np.uint64)
        for w in range(words.shape[1]):
            h = (h ^ words[:, w]) * _MIX[1]
            h ^= h >> np.uint64(29)
        h = (h ^ (h >> np.uint64(32))) * _MIX[2]
        return h ^ (h >> np.uint64(31))  # type: ignore[no-any-return]


def _repeats(query: I64, words: U64, lengths: I64) -> bool:
    """Whether a (query, document id) key repeats, or two keys share a hash (then the line reader decides)."""
    h = np.sort(_hash(query, words, lengths))
    return h.size > 1 and bool(np.any(h[1:] == h[:-1]))


def _distinct(query: I64, words: U64, lengths: I64) -> tuple[U64, I64] | None:
    """Sorted key hashes and the rows in that order; None if a key repeats or two keys collide."""
    h = _hash(query, words, lengths)
    order = np.argsort(h, kind="stable")
    sorted_h = h[order]
    if sorted_h.size > 1 and bool(np.any(sorted_h[1:] == sorted_h[:-1])):
        return None  # a document twice for one query (the line reader names it), or a hash collision
    return sorted_h, order


def _table(data: bytes, width: int, query_field: int, doc_field: int) -> tuple[dict[str, object], np.ndarray, fp.Fields] | None:
    parsed = _regular_lines(data, width)
    if parsed is None:
        return None
    a, fields, lines = parsed
    q_start = fields.start(query_field)
    queries = _queries(data, a, q_start, fields.end(query_field) - q_start)
    if queries is None:
        return None
    doc_start = fields.start(doc_field)
    doc_len = fields.end(doc_field) - doc_start
    if doc_len.size and int(doc_len.max()) > MAX_ID_BYTES:
        return None
    words = fp.field_words(a, doc_start, doc_len, _nwords(doc_len))
    if _repeats(queries[1], words, doc_len):
        return None
    columns = {"data": data, "query_ids": queries[0], "query": queries[1], "doc_start": doc_start, "doc_len": doc_len,
               "doc_words": words, "line": lines}  # fmt: skip
    return columns, a, fields


def _nwords(lengths: I64) -> int:
    """64-bit words that hold the longest field."""
    return max(1, -(-int(lengths.max()) // 8)) if lengths.size else 1


def run_columns(data: bytes) -> RunColumns | None:
    """The rows of a regular run file (``query Q0 docno rank score run_id``), or None."""
    got = _table(data, 6, 0, 2)
    if got is None:
        return None
    columns, a, fields = got
    at = fields.start(4)
    scores, proved = fp.parse_floats(a, at, fields.end(4) - at, data)
    if not bool(np.all(proved & (np.abs(scores) < 2.0**53))):
        return None  # NaN, an overflow or an inexact integer (refused line by line), or another spelling
    run_id = ""
    if fields.grid.shape[0]:
        run_id = data[int(fields.start(5)[-1]) : int(fields.end(5)[-1])].decode("ascii")
    return RunColumns(**columns, scores=scores, run_id=run_id)  # type: ignore[arg-type]


def qrels_columns(data: bytes) -> QrelsColumns | None:
    """The rows of a regular qrels file (``query iteration docno grade``), or None."""
    got = _table(data, 4, 0, 2)
    if got is None:
        return None
    columns, a, fields = got
    at = fields.start(3)
    grades, proved = fp.parse_ints(a, at, fields.end(3) - at)
    if not bool(np.all(proved)):
        return None
    return QrelsColumns(**columns, grades=grades)  # type: ignore[arg-type]


def match(run: RunColumns, qrels: QrelsColumns) -> I64 | None:
    """For each run row, the qrels row judging the same (query, document), or -1; None on a hash collision."""
    qmap = {q: i for i, q in enumerate(run.query_ids)}
    to_run = np.array([qmap.get(q, -1) for q in qrels.query_ids], dtype=np.int64)
    q_of = to_run[qrels.query] if qrels.query.size else np.zeros(0, dtype=np.int64)
    known = np.flatnonzero(q_of >= 0)  # judged rows of queries the run has
    width = max(run.doc_words.shape[1], qrels.doc_words.shape[1])
    run_words, judged_words = _widen(run.doc_words, width), _widen(qrels.doc_words, width)
    distinct = _distinct(q_of[known], judged_words[known], qrels.doc_len[known])
    if distinct is None:
        return None
    sorted_h, order = distinct
    if sorted_h.size == 0:  # nothing judged for the run's queries
        return np.full(run.query.size, -1, dtype=np.int64)
    h = _hash(run.query, run_words, run.doc_len)
    at = np.minimum(np.searchsorted(sorted_h, h), sorted_h.size - 1)
    found = sorted_h[at] == h
    rows = known[order[at]]
    # The same hash is not enough: the same query, length and bytes are.
    found &= (q_of[rows] == run.query) & (qrels.doc_len[rows] == run.doc_len)
    found &= np.all(judged_words[rows] == run_words, axis=1)
    return np.where(found, rows, -1)


def _widen(words: U64, width: int) -> U64:
    """``words`` with zero words appended up to ``width`` columns (ids padded alike hash alike)."""
    if words.shape[1] == width:
        return words
    return np.concatenate([words, np.zeros((words.shape[0], width - words.shape[1]), dtype=np.uint64)], axis=1)


class _View(Mapping[str, object]):
    """A read-only ``{query: value}`` mapping over a table, each value built on first access."""

    def __init__(self, table: _Table) -> None:
        self._table = table
        self._index = {q: i for i, q in enumerate(table.query_ids)}
        self._built: dict[str, object] = {}
        self._groups: tuple[I64, I64] | None = None

    def rows(self, query: str) -> I64:
        """The table rows of ``query``, in file order (KeyError if absent)."""
        i = self._index[query]
        if self._groups is None:
            self._groups = self._table.rows_by_query()
        order, offsets = self._groups
        return order[offsets[i] : offsets[i + 1]]

    def __getitem__(self, query: str) -> object:
        value = self._built.get(query)
        if value is None:
            value = self._built[query] = self._build(self.rows(query))
        return value

    def _build(self, rows: I64) -> object:
        raise NotImplementedError

    def __iter__(self) -> Iterator[str]:
        return iter(self._table.query_ids)

    def __len__(self) -> int:
        return len(self._table.query_ids)

    def __contains__(self, query: object) -> bool:
        return query in self._index

    def __repr__(self) -> str:
        return repr(dict(self))


class RunView(_View):
    """``{query: [(docno, score), ...]}`` in file order, over :class:`RunColumns`."""

    def _build(self, rows: I64) -> list[tuple[str, float]]:
        t = self._table
        assert isinstance(t, RunColumns)
        return [(t.docno(r), s) for r, s in zip(rows.tolist(), t.scores[rows].tolist())]


class QrelsView(_View):
    """``{query: {docno: grade}}`` in file order, over :class:`QrelsColumns`."""

    def _build(self, rows: I64) -> dict[str, int]:
        t = self._table
        assert isinstance(t, QrelsColumns)
        return {t.docno(r): g for r, g in zip(rows.tolist(), t.grades[rows].tolist())}
