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

from .._io import fastparse as fp

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


def _queries(data: bytes, a: np.ndarray, starts: I64, lengths: I64, ids: list[str], index: dict[bytes, int]) -> I64 | None:
    """Each row's index into ``ids``, the distinct query ids in order of first appearance (extended here)."""
    n = starts.size
    if n and int(lengths.max()) > MAX_ID_BYTES:
        return None
    words = fp.field_words(a, starts, lengths, _nwords(lengths))
    change = np.ones(n, dtype=bool)  # rows whose query differs from the row before: few, files are grouped
    if n > 1:
        change[1:] = np.any(words[1:] != words[:-1], axis=1) | (lengths[1:] != lengths[:-1])
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
    return head_index[np.cumsum(change) - 1]


#: Bytes of a file parsed at a time: the arrays of a block stay in the caches.
BLOCK_BYTES = 1 << 20


def _blocks(data: bytes) -> Iterator[tuple[int, int, bytes]]:
    """``(offset, lines before, bytes)`` of consecutive runs of whole lines, about BLOCK_BYTES each."""
    pos, lines = 0, 0
    while pos < len(data):
        end = data.rfind(b"\n", pos, pos + BLOCK_BYTES) + 1
        if end <= pos:  # a line longer than a block
            end = data.find(b"\n", pos) + 1 or len(data)
        chunk = data[pos:end]
        yield pos, lines, chunk
        lines += chunk.count(b"\n")
        pos = end


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


def _keys(query: I64, words: U64, lengths: I64) -> U64:
    """Join keys ordered by query: the query index in the top 24 bits, 40 bits of the id's hash below.

    Sorted keys put each query's documents together, so that looking up a
    run's rows (grouped by query) searches a small, cache-resident range.
    """
    return (query.astype(np.uint64) << np.uint64(40)) | (_hash(query, words, lengths) >> np.uint64(24))


def _distinct(query: I64, words: U64, lengths: I64) -> tuple[U64, I64] | None:
    """Sorted join keys and the rows in that order; None if two keys are equal (the general path decides)."""
    keys = _keys(query, words, lengths)
    order = np.argsort(keys)
    sorted_keys = keys[order]
    if sorted_keys.size > 1 and bool(np.any(sorted_keys[1:] == sorted_keys[:-1])):
        return None
    return sorted_keys, order


def _table(data: bytes, width: int, query_field: int, doc_field: int, value_field: int, ints: bool) -> tuple[dict[str, object], np.ndarray, str] | None:
    """The columns of a regular file, block by block: rows, their values and the last row's last field."""
    ids: list[str] = []
    index: dict[bytes, int] = {}
    parts: dict[str, list[np.ndarray]] = {name: [] for name in ("query", "doc_start", "doc_len", "doc_words", "line", "values")}
    last = ""
    for offset, before, chunk in _blocks(data):
        parsed = _regular_lines(chunk, width)
        if parsed is None:
            return None
        a, fields, lines = parsed
        q_start = fields.start(query_field)
        query = _queries(chunk, a, q_start, fields.end(query_field) - q_start, ids, index)
        if query is None:
            return None
        doc_start = fields.start(doc_field)
        doc_len = fields.end(doc_field) - doc_start
        if doc_len.size and int(doc_len.max()) > MAX_ID_BYTES:
            return None
        at = fields.start(value_field)
        values: np.ndarray
        if ints:
            values, proved = fp.parse_ints(a, at, fields.end(value_field) - at)
        else:
            values, proved = fp.parse_floats(a, at, fields.end(value_field) - at, chunk)
            proved &= np.abs(values) < 2.0**53  # NaN, an overflow or an inexact integer: refused line by line
        if not bool(np.all(proved)):
            return None
        if fields.grid.shape[0]:
            last = chunk[int(fields.start(width - 1)[-1]) : int(fields.end(width - 1)[-1])].decode("ascii")
        for name, value in (("query", query), ("doc_start", doc_start + offset), ("doc_len", doc_len),
                            ("doc_words", fp.field_words(a, doc_start, doc_len, _nwords(doc_len))),
                            ("line", lines + before), ("values", values)):  # fmt: skip
            parts[name].append(value)
    width_words = max((w.shape[1] for w in parts["doc_words"]), default=1)
    words = np.concatenate([_widen(w, width_words) for w in parts["doc_words"]]) if parts["doc_words"] else np.zeros((0, 1), dtype=np.uint64)
    columns: dict[str, object] = {
        name: np.concatenate(parts[name]) if parts[name] else np.zeros(0, dtype=np.float64 if name == "values" and not ints else np.int64)
        for name in ("query", "doc_start", "doc_len", "line", "values")
    }
    if _repeats(columns["query"], words, columns["doc_len"]):  # type: ignore[arg-type]
        return None
    columns.update(data=data, query_ids=ids, doc_words=words)
    return columns, np.zeros(0), last


def _nwords(lengths: I64) -> int:
    """64-bit words that hold the longest field."""
    return max(1, -(-int(lengths.max()) // 8)) if lengths.size else 1


def run_columns(data: bytes) -> RunColumns | None:
    """The rows of a regular run file (``query Q0 docno rank score run_id``), or None."""
    got = _table(data, 6, 0, 2, 4, ints=False)
    if got is None:
        return None
    columns, _, run_id = got
    scores = columns.pop("values")
    return RunColumns(**columns, scores=scores, run_id=run_id)  # type: ignore[arg-type]


def qrels_columns(data: bytes) -> QrelsColumns | None:
    """The rows of a regular qrels file (``query iteration docno grade``), or None."""
    got = _table(data, 4, 0, 2, 3, ints=True)
    if got is None:
        return None
    columns, _, _ = got
    grades = columns.pop("values")
    return QrelsColumns(**columns, grades=grades)  # type: ignore[arg-type]


def match(run: RunColumns, qrels: QrelsColumns) -> I64 | None:
    """For each run row, the qrels row judging the same (query, document), or -1.

    None when two judged documents of one query share a join key (the
    general path then looks them up by name).
    """
    if len(run.query_ids) >= 1 << 24:
        return None  # more queries than the join keys hold
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
    h = _keys(run.query, run_words, run.doc_len)
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
