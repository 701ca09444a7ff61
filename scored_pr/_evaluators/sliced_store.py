"""The cases of a sliced exact evaluation, stored once: columns in arrival order.

:class:`~scored_pr.SlicedEvaluation` of the exact kind keeps no evaluator per
slice. Each case is stored once, as columns: whether it was correct, its
score, its weight (only once a weight other than 1 arrives) and, for each
kept crossing other than the overall slice, the id of its slice (int32); the
values behind the ids are in the evaluation's dictionaries. Misses are
counts per slice id. A query that needs a slice's ranking reads the columns:
:func:`scored_pr._core.slicing.segment_order` ranks every crossing's slices
at once (one sort by (slice, score)), or one slice's rows are picked out and
handed to an evaluator. Single cases wait in lists (a few bytes of list
slot per value) and become a chunk of columns at the next read.

Exception safety as :class:`scored_pr._evaluators.store.CaseStore`: a
method computes into locals, then commits in one line that calls nothing.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

__all__ = ["SliceStore"]

#: Single cases kept in lists before they become a chunk (bounds the lists' memory).
FLUSH_AT = 1 << 16

Chunk = tuple[npt.NDArray[np.bool_], npt.NDArray[np.float64], "npt.NDArray[np.float64] | None", tuple[npt.NDArray[np.int32], ...]]


class SliceStore:
    """Every case once, in arrival order: correct, score, weight, one slice id per crossing.

    Memory: 13 bytes per case with one crossing besides the overall slice
    (1 + 8 + 4), 4 more per further crossing, 8 more once weighted; two
    Python ints per slice for its misses.
    """

    __slots__ = ("_columns", "_chunks", "_pc", "_ps", "_pw", "_pids", "misses", "negative_misses", "version")

    def __init__(self, crossings: int) -> None:
        self._columns = crossings
        self._chunks: tuple[Chunk, ...] = ()
        self._pc: list[bool] = []
        self._ps: list[float] = []
        self._pw: list[float] | None = None
        self._pids: list[tuple[int, ...]] = []  # each single case's slice ids
        #: per slice id: unreturned positive and negative references
        self.misses: list[int] = []
        self.negative_misses: list[int] = []
        #: changes at every mutation (the table's memo compares it)
        self.version = 0

    def new_slice(self) -> None:
        """Room for the counts of one more slice id."""
        self.misses.append(0)
        self.negative_misses.append(0)

    def add(self, correct: bool, score: float, weight: float, ids: tuple[int, ...]) -> None:
        """One checked case; ``ids`` its slice id in each crossing (the overall slice's excepted). O(1)."""
        self.version += 1
        if self._pw is not None:
            self._pw.append(weight)
        elif weight != 1.0:
            self._pw = [1.0] * len(self._ps) + [weight]
        self._pids.append(ids)
        self._pc.append(correct)
        self._ps.append(score)  # last: the case counts once its score is in (see num_cases)
        if len(self._ps) >= FLUSH_AT:
            self.columns()

    def add_batch(self, c: npt.NDArray[np.bool_], s: npt.NDArray[np.float64], w: npt.NDArray[np.float64] | None,
                  ids: list[npt.NDArray[np.int64]]) -> None:
        """A checked batch (copied); ``w`` None when every weight is 1. O(k)."""
        if not c.size:
            return
        if w is not None and bool((w == 1.0).all()):
            w = None
        chunk: Chunk = (np.array(c, dtype=bool), np.array(s, dtype=np.float64),
                        None if w is None else np.array(w, dtype=np.float64),
                        tuple(np.asarray(i, dtype=np.int32) for i in ids))
        singles = self._singles()
        chunks, version = (*self._chunks, *singles, chunk), self.version + 1
        self._chunks, self.version = chunks, version  # commit: one line, no call
        if singles:
            self._drop_singles()

    def _singles(self) -> tuple[Chunk, ...]:
        if not self._ps:
            return ()
        k = len(self._ps)
        c = np.fromiter(self._pc[:k], dtype=bool, count=k)
        s = np.fromiter(self._ps, dtype=np.float64, count=k)
        w = None if self._pw is None else np.fromiter(self._pw[:k], dtype=np.float64, count=k)
        table = np.array(self._pids[:k], dtype=np.int32).reshape(k, self._columns)
        ids = tuple(np.ascontiguousarray(table[:, j]) for j in range(self._columns))
        return ((c, s, w, ids),)

    def _drop_singles(self) -> None:
        pc, ps, pids = [], [], []  # type: ignore[var-annotated]
        self._pc, self._ps, self._pw, self._pids = pc, ps, None, pids  # commit: one line, no call

    def add_counts(self, sids: list[int], misses: int, negative_misses: int) -> None:
        """Misses and negative misses added to every slice of ``sids``."""
        for sid in sids:
            self.misses[sid] += misses
            self.negative_misses[sid] += negative_misses
        self.version += 1

    @property
    def num_cases(self) -> int:
        return sum(ch[0].size for ch in self._chunks) + len(self._ps)

    @property
    def weighted(self) -> bool:
        """Whether a weight other than 1 was ever stored."""
        return self._pw is not None or any(ch[2] is not None for ch in self._chunks)

    def columns(self) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.float64], npt.NDArray[np.float64] | None,
                               list[npt.NDArray[np.int32]]]:
        """``(correct, scores, weights or None, ids per crossing)`` of every case, in arrival order (one chunk after)."""
        chunks = (*self._chunks, *self._singles())
        if not chunks:
            empty = np.zeros(0, dtype=np.int32)
            return np.zeros(0, dtype=bool), np.zeros(0), None, [empty] * self._columns
        if len(chunks) > 1 or not self._chunks:
            one: Chunk = chunks[0]
            if len(chunks) > 1:
                weighted = any(ch[2] is not None for ch in chunks)
                c = np.concatenate([ch[0] for ch in chunks])
                s = np.concatenate([ch[1] for ch in chunks])
                w = np.concatenate([np.ones(ch[0].size) if ch[2] is None else ch[2] for ch in chunks]) if weighted else None
                ids = tuple(np.concatenate([ch[3][j] for ch in chunks]) for j in range(self._columns))
                one = (c, s, w, ids)
            pc, ps, pids = [], [], []  # type: ignore[var-annotated]
            # commit: one line that calls nothing
            self._chunks, self._pc, self._ps, self._pw, self._pids = (one,), pc, ps, None, pids
        c, s, w, ids = self._chunks[0]
        return c, s, w, list(ids)

    def slice_rows(self, column: int | None, sid: int) -> npt.NDArray[np.intp] | None:
        """The rows (arrival order) of slice ``sid`` of crossing ``column``; None: every row (the overall slice)."""
        if column is None:
            return None
        return np.flatnonzero(self.columns()[3][column] == sid)

    @classmethod
    def joined(cls, a: SliceStore, b: SliceStore, map_a: npt.NDArray[np.int64], map_b: npt.NDArray[np.int64],
               count: int) -> SliceStore:
        """A store of ``a``'s cases then ``b``'s, their slice ids renamed by ``map_a``/``map_b`` (``count`` ids)."""
        out = cls(a._columns)
        for part, mapping in ((a, map_a), (b, map_b)):
            c, s, w, ids = part.columns()
            out.add_batch(c, s, w if w is not None else None, [mapping[i] for i in ids])
        out.misses, out.negative_misses = [0] * count, [0] * count
        for part, mapping in ((a, map_a), (b, map_b)):
            for sid, (m, nm) in enumerate(zip(part.misses, part.negative_misses)):
                out.misses[int(mapping[sid])] += m
                out.negative_misses[int(mapping[sid])] += nm
        return out

    def _check(self) -> None:
        """Assert the structural invariants (for the tests)."""
        for c, s, w, ids in self._chunks:
            assert c.dtype == np.bool_ and s.dtype == np.float64 and c.shape == s.shape
            assert w is None or w.shape == s.shape
            assert len(ids) == self._columns and all(i.shape == s.shape and i.dtype == np.int32 for i in ids)
        assert len(self._pc) == len(self._ps) == len(self._pids)
        assert all(len(p) == self._columns for p in self._pids)
        assert self._pw is None or len(self._pw) == len(self._ps)
        assert len(self.misses) == len(self.negative_misses)

