"""The sorted container of a sliding window: the scores of both classes in shared blocks.

:class:`PairedBlocks` holds two multisets of floats, the scores of the
correct and of the incorrect cases in a window, and answers how many
scores of one class lie below (or at) a given score: the counts from which
:class:`~scored_pr.WindowedEvaluation` keeps its Mann-Whitney statistic as
cases enter and leave.

Layout: the line is cut into blocks by ascending bounds ``maxes``; block
``b`` holds the scores ``s`` with ``maxes[b - 1] < s <= maxes[b]`` of both
classes, as two ascending Python lists (``pos[b]``, ``neg[b]``) with their
lengths (``plen[b]``, ``nlen[b]``). One bisection of the bounds finds the
block of a score for both classes at once, equal scores never span two
blocks, and the number of scores of a class below a score is the sum of
that class's block lengths before its block plus one bisection in it.
This is the layout of ``sortedcontainers.SortedList`` (sorted lists of
about :data:`LOAD` items and their maxima) shared by two lists, with the
positional index replaced by a C-level ``sum`` over the few block lengths:
in a sliding window every insertion is followed by a deletion, and
SortedList rebuilds its index after every split or merge of a block.

Complexity, for W scores in all: insertion and deletion O(log W)
comparisons plus a memory move of at most ``2 * LOAD`` pointers; a rank
query O(log W) comparisons plus a sum over W / ``LOAD`` block lengths.
Blocks are split when a class's list in them exceeds ``2 * LOAD`` and
joined with a neighbour when both lists together fall to ``LOAD / 2``; a
list made of one repeated score cannot be split and may grow beyond.

:meth:`PairedBlocks.slide` is the sliding window's per-case path (a case
enters, the oldest leaves; :meth:`PairedBlocks.enter` and
:meth:`PairedBlocks.leave` are its two halves): each half does its rank
query and its change with one bisection of the bounds, written out rather
than calling :meth:`rank`, :meth:`add` and :meth:`remove`
(``tests/evaluators/test_windows.py`` holds them to those methods).
:meth:`PairedBlocks.slide_pairs` is :meth:`slide` returning the change of
the window's doubled Mann-Whitney count instead of the four counts: it asks
both rank queries before changing anything, so two cases of the same class
need only the block lengths between their two blocks, not a prefix sum
each (``tests/evaluators/test_window_per_case.py`` holds it to a literal
count of the pairs).
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right, insort
from typing import Any

import numpy as np
import numpy.typing as npt

__all__ = ["PairedBlocks", "LOAD", "HALF", "TWICE"]

#: Target number of scores in a block (both classes together).
LOAD = 500
#: A block whose two lists hold this many scores or fewer joins a neighbour.
HALF = LOAD >> 1
#: A block is split when one class's list in it grows beyond this.
TWICE = 2 * LOAD


def _locate(blocks: list[list[float]], b: int, y: float, correct: bool) -> tuple[list[float], int]:
    """``blocks[b]`` and the index in it of the first score equal to ``y``; ValueError if there is none."""
    try:
        blk = blocks[b]
        i = bisect_left(blk, y)
        if blk[i] == y:
            return blk, i
    except IndexError:  # b or i past the end: y is beyond every bound, or beyond every score of its block
        pass
    raise ValueError(f"PairedBlocks: {y!r} is not among the {'correct' if correct else 'incorrect'} scores")


class PairedBlocks:
    """The scores of the correct (``pos``) and incorrect (``neg``) cases, in shared sorted blocks.

    Methods take the class as ``correct`` (True: the correct cases' scores).
    Equal floats are interchangeable (``-0.0`` and ``0.0`` included): only
    counts are asked of this container.
    """

    __slots__ = ("maxes", "pos", "neg", "plen", "nlen", "sides")

    def __init__(self) -> None:
        self.maxes: list[float] = []  #: block bounds, strictly ascending
        self.pos: list[list[float]] = []  #: per block, the correct cases' scores, ascending
        self.neg: list[list[float]] = []  #: per block, the incorrect cases' scores, ascending
        self.plen: list[int] = []  #: len(pos[b])
        self.nlen: list[int] = []  #: len(neg[b])
        #: by class (``sides[correct]``): (its blocks, their lengths, the other class's blocks,
        #: theirs); the lists are only ever changed in place, so these stay theirs
        self.sides = ((self.neg, self.nlen, self.pos, self.plen), (self.pos, self.plen, self.neg, self.nlen))

    @classmethod
    def from_sorted(cls, scores: npt.NDArray[np.float64], correct: npt.NDArray[np.bool_]) -> PairedBlocks:
        """The container of ``scores`` (ascending) with their classes ``correct``. O(W)."""
        out = cls()
        n = scores.size
        if not n:
            return out
        # cut every LOAD scores, moved on to the end of the tie run it falls in
        cuts = np.arange(LOAD, n, LOAD)
        cuts = np.unique(np.searchsorted(scores, scores[cuts - 1], side="right"))
        cuts = cuts[cuts < n].tolist()
        if cuts and n - cuts[-1] <= HALF:
            cuts.pop()  # no short block at the end
        for lo, hi in zip([0, *cuts], [*cuts, n]):
            seg, cor = scores[lo:hi], correct[lo:hi]
            out.pos.append(seg[cor].tolist())
            out.neg.append(seg[~cor].tolist())
            out.maxes.append(float(seg[-1]))
        out.plen.extend(len(b) for b in out.pos)
        out.nlen.extend(len(b) for b in out.neg)
        return out

    def __len__(self) -> int:
        return sum(self.plen) + sum(self.nlen)

    def count(self, correct: bool) -> int:
        """The number of scores of the class. O(W / LOAD)."""
        return sum(self.plen if correct else self.nlen)

    def items(self, correct: bool) -> list[float]:
        """The scores of the class, ascending (for the tests)."""
        return [x for blk in (self.pos if correct else self.neg) for x in blk]

    def rank(self, x: float, correct: bool) -> tuple[int, int]:
        """(scores of the class < ``x``, scores of the class <= ``x``)."""
        maxes = self.maxes
        b = bisect_left(maxes, x)
        lens = self.plen if correct else self.nlen
        if b == len(maxes):
            n = sum(lens)
            return n, n
        blk = (self.pos if correct else self.neg)[b]
        i = bisect_left(blk, x)
        lt = sum(lens[:b]) + i if b else i
        if i < len(blk) and blk[i] == x:  # equal scores are all in this block
            return lt, lt - i + bisect_right(blk, x)
        return lt, lt

    def add(self, x: float, correct: bool) -> None:
        """Insert ``x`` into the class."""
        maxes = self.maxes
        if not maxes:
            maxes.append(x)
            self.pos.append([x] if correct else [])
            self.neg.append([] if correct else [x])
            self.plen.append(1 if correct else 0)
            self.nlen.append(0 if correct else 1)
            return
        b = bisect_left(maxes, x)
        blocks, lens = (self.pos, self.plen) if correct else (self.neg, self.nlen)
        if b == len(maxes):  # beyond every bound: the last block's bound moves up
            b -= 1
            maxes[b] = x
            blocks[b].append(x)
        else:
            insort(blocks[b], x)
        lens[b] += 1
        if lens[b] > TWICE:
            self.split_big(b)

    def remove(self, x: float, correct: bool) -> None:
        """Remove one score equal to ``x`` from the class (ValueError if there is none)."""
        maxes = self.maxes
        b = bisect_left(maxes, x)
        blocks, lens = (self.pos, self.plen) if correct else (self.neg, self.nlen)
        blk = blocks[b] if b < len(maxes) else []
        i = bisect_left(blk, x)
        if i == len(blk) or blk[i] != x:
            raise ValueError(f"PairedBlocks.remove: {x!r} is not among the {'correct' if correct else 'incorrect'} scores")
        del blk[i]
        lens[b] -= 1
        if self.plen[b] + self.nlen[b] <= HALF:
            self.join_small(b)

    def enter(self, x: float, correct: bool) -> tuple[int, int]:
        """``rank(x, not correct)``, then ``add(x, correct)``: one bisection of the bounds for both.

        The sliding window's per-case path while it fills, and its catch-up:
        :meth:`slide`'s first half.
        """
        return self.slide(x, correct, None, False)[:2]

    def leave(self, x: float, correct: bool) -> tuple[int, int]:
        """``remove(x, correct)``, then return ``rank(x, not correct)``: one bisection of the bounds for both.

        Raises ValueError, changing nothing, if the class holds no score
        equal to ``x``. :meth:`slide`'s second half.
        """
        return self.slide(None, False, x, correct)[2:]

    def slide(self, x: float | None, correct: bool, y: float | None, y_correct: bool) -> tuple[int, int, int, int]:
        """``enter(x, correct)``, then ``leave(y, y_correct)``: their four counts, in one call.

        The per-case path of :meth:`enter` and :meth:`leave` (a window filling
        up, the catch-up of its rank sum) and of :meth:`slide_pairs` at a new
        maximum, so its common branches are written out: each half's rank query and change with one bisection of
        the bounds, without the calls :meth:`rank`, :meth:`add` and
        :meth:`remove` would make, and the call and the lookups paid once for
        both. ``x`` None: no case enters (:meth:`leave`); ``y`` None: none
        leaves (:meth:`enter`); the counts of a missing half are 0. Raises
        ValueError, as :meth:`leave`, if ``y_correct``'s class holds no score
        equal to ``y`` (after ``x`` has entered).
        """
        maxes = self.maxes
        sides = self.sides
        lt = le = lt2 = le2 = 0
        if x is not None:
            b = bisect_left(maxes, x)
            if b == len(maxes):  # beyond every bound, or empty: the general methods
                lt, le = self.rank(x, not correct)
                self.add(x, correct)
            else:
                own, own_lens, other, other_lens = sides[correct]
                blk = other[b]
                i = bisect_left(blk, x)
                lt = sum(other_lens[:b]) + i if b else i
                try:  # i == len(blk) (rare) raises: nothing of the other class at or above x here
                    le = lt - i + bisect_right(blk, x) if blk[i] == x else lt  # equal scores are all in this block
                except IndexError:
                    le = lt
                insort(own[b], x)
                n = own_lens[b] = own_lens[b] + 1
                if n > TWICE:
                    self.split_big(b)
        if y is not None:
            b = bisect_left(maxes, y)
            own, own_lens, other, other_lens = sides[y_correct]
            blk, i = _locate(own, b, y, y_correct)
            del blk[i]
            n = own_lens[b] = own_lens[b] - 1
            blk = other[b]
            i = bisect_left(blk, y)
            lt2 = sum(other_lens[:b]) + i if b else i
            try:
                le2 = lt2 - i + bisect_right(blk, y) if blk[i] == y else lt2
            except IndexError:
                le2 = lt2
            if n + other_lens[b] <= HALF:
                self.join_small(b)
        return lt, le, lt2, le2

    def slide_pairs(self, x: float, correct: bool, y: float, y_correct: bool, grouped: bool, c: int) -> int:
        """``slide(x, correct, y, y_correct)``, returning the change in the doubled Mann-Whitney count instead.

        A full size window's per-case path (``WindowedEvaluation.add_case``
        while its ROC AUC is asked after each case): ``x`` enters the class
        ``correct`` as the newest case and ``y`` leaves ``y_correct`` as the
        oldest; ``c`` is the number of correct scores before the call and
        ``grouped`` the tie policy. The result is what the window's
        ``_pairs2`` (2 per correctly ordered (correct, incorrect) pair, 1 per
        tie under the grouped policy; under the stable policy a tie counts 2
        when the correct case is the older) gains. Both rank queries are
        asked before anything changes: when ``x`` and ``y`` are of the same
        class the other class does not change, and the change is a
        difference of two ranks in it, so only the block lengths between
        their blocks are summed. The blocks end as :meth:`slide` leaves them.
        Raises ValueError, changing nothing, if ``y_correct``'s class holds
        no score equal to ``y``.
        """
        maxes = self.maxes
        bx = bisect_left(maxes, x)
        by = bisect_left(maxes, y)
        sides = self.sides
        own, own_lens, other, other_lens = sides[correct]
        y_own, y_lens, y_other, y_other_lens = sides[y_correct]
        yblk, j = _locate(y_own, by, y, y_correct)
        same = correct is y_correct
        if bx == len(maxes):  # beyond every bound (a new maximum): the general path
            lt, le, lt2, le2 = self.slide(x, correct, y, y_correct)
            qx = lt + le if grouped else 2 * lt
            qy = lt2 + le2 if grouped else 2 * le2
            if same:
                return qx - qy if correct else qy - qx
            return qx + qy - 2 * (c + 1) if correct else 2 * c - qx - qy
        # x's rank among the other class, and y's among its own other class (before any change):
        # block-local parts here, the blocks before them below. q: lt + le (grouped), 2 lt for
        # x (stable: the newest ranks after its equals), 2 le for y (the oldest ranks before).
        blk = other[bx]
        i = bisect_left(blk, x)
        if grouped:
            try:
                qx = i + bisect_right(blk, x, i) if blk[i] == x else 2 * i
            except IndexError:
                qx = 2 * i
            blk = y_other[by]
            i = bisect_left(blk, y)
            try:
                qy = i + bisect_right(blk, y, i) if blk[i] == y else 2 * i
            except IndexError:
                qy = 2 * i
        else:
            qx = 2 * i
            qy = 2 * bisect_right(y_other[by], y)
        if same:
            # the other class does not change: x's rank less y's is the other class's scores
            # in the blocks from y's to x's, plus the block-local parts
            if bx > by:
                qx += 2 * sum(other_lens[by:bx])
            elif bx < by:
                qy += 2 * sum(other_lens[bx:by])
            d = qx - qy if correct else qy - qx
        else:
            if bx:
                qx += 2 * sum(other_lens[:bx])
            if by:
                qy += 2 * sum(y_other_lens[:by])
            # y's rank counts x, which has entered its class by then: 1 per x < y, 1 per x <= y (grouped)
            if x <= y:
                qy += 2 if x < y or not grouped else 1
            d = qx + qy - 2 * (c + 1) if correct else 2 * c - qx - qy
        # the changes, in slide's order (x enters, then y leaves), so the blocks end alike
        insort(own[bx], x)
        n = own_lens[bx] = own_lens[bx] + 1
        if n > TWICE:
            self.split_big(bx)
            by = bisect_left(maxes, y)
            yblk = y_own[by]
            j = bisect_left(yblk, y)
        elif same and bx == by and x < y:
            j += 1  # x entered before y's first equal
        del yblk[j]
        n = y_lens[by] = y_lens[by] - 1
        if n + y_other_lens[by] <= HALF:
            self.join_small(by)
        return d

    # ------------------------------------------------------------ rebalancing

    def _split(self, b: int, correct: bool) -> bool:
        """Split block ``b`` at the median of the class's list in it; False if that list is one repeated score."""
        big, lens_big = (self.pos, self.plen) if correct else (self.neg, self.nlen)
        small, lens_small = (self.neg, self.nlen) if correct else (self.pos, self.plen)
        s = big[b]
        v = s[(len(s) >> 1) - 1]
        if v == s[-1]:  # the upper half is one tie run: cut below it
            k = bisect_left(s, v)
            if not k:
                return False
            v = s[k - 1]
        o = small[b]
        ks, ko = bisect_right(s, v), bisect_right(o, v)
        big.insert(b + 1, s[ks:])
        del s[ks:]
        small.insert(b + 1, o[ko:])
        del o[ko:]
        lens_big[b] = ks
        lens_big.insert(b + 1, len(big[b + 1]))
        lens_small[b] = ko
        lens_small.insert(b + 1, len(small[b + 1]))
        self.maxes.insert(b, v)  # block b now ends at v; block b + 1 keeps the old bound
        return True

    def split_big(self, b: int) -> None:
        """Split block ``b``, and the blocks that splitting makes, until no list exceeds TWICE (or cannot be split).

        Called by :meth:`add` and :meth:`enter`.
        """
        end = b + 1
        while b < end:
            if (self.plen[b] > TWICE and self._split(b, True)) or (self.nlen[b] > TWICE and self._split(b, False)):
                end += 1
            else:
                b += 1

    def join_small(self, b: int) -> None:
        """Block ``b`` fell to HALF scores or fewer: join it with a neighbour (or drop it if it is the last and empty)."""
        maxes, pos, neg, plen, nlen = self.maxes, self.pos, self.neg, self.plen, self.nlen
        if len(maxes) == 1:
            if not plen[0] and not nlen[0]:
                del maxes[0], pos[0], neg[0], plen[0], nlen[0]
            return
        if b == 0:
            b = 1
        pos[b - 1].extend(pos[b])
        neg[b - 1].extend(neg[b])
        plen[b - 1] += plen[b]
        nlen[b - 1] += nlen[b]
        maxes[b - 1] = maxes[b]
        del maxes[b], pos[b], neg[b], plen[b], nlen[b]
        self.split_big(b - 1)

    def _check(self) -> None:
        """Assert every structural invariant (for the tests)."""
        maxes = self.maxes
        assert len(maxes) == len(self.pos) == len(self.neg) == len(self.plen) == len(self.nlen)
        assert all(a < b for a, b in zip(maxes, maxes[1:])), "bounds not strictly ascending"
        lo: Any = None
        for b, hi in enumerate(maxes):
            for blk, n in ((self.pos[b], self.plen[b]), (self.neg[b], self.nlen[b])):
                assert len(blk) == n
                assert all(u <= v for u, v in zip(blk, blk[1:]))
                assert all(v <= hi for v in blk) and (lo is None or all(v > lo for v in blk))
            if len(maxes) > 1:
                assert self.plen[b] + self.nlen[b], "an empty block beside others"
            lo = hi
        expected = ((self.neg, self.nlen, self.pos, self.plen), (self.pos, self.plen, self.neg, self.nlen))
        assert all(x is y for side, want in zip(self.sides, expected) for x, y in zip(side, want))
