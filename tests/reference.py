"""A slow, literal reference implementation of every measure, for the tests.

Written as plainly as possible from the definitions in docs/definitions.md and the
docstrings: Python lists, loops, exact fractions where it costs nothing. It
shares no code with scored_pr.
"""

from __future__ import annotations

import math
from fractions import Fraction

NAN = float("nan")


class Reference:
    def __init__(self, ties: str = "stable") -> None:
        self.ties = ties
        self.cases: list[tuple[bool, float]] = []  # insertion order
        self.misses = 0
        self.negative_misses = 0

    # -- input
    def add_case(self, correct: bool, score: float) -> None:
        self.cases.append((bool(correct), float(score)))

    def add_misses(self, n: int) -> None:
        self.misses += n

    def add_negative_misses(self, n: int) -> None:
        self.negative_misses += n

    # -- counts
    @property
    def P(self) -> int:
        return sum(c for c, _ in self.cases) + self.misses

    @property
    def N(self) -> int:
        return sum(not c for c, _ in self.cases) + self.negative_misses

    def ranked(self) -> list[tuple[bool, float]]:
        # Python's sort is stable: equal scores stay in insertion order.
        return sorted(self.cases, key=lambda case: -case[1])

    def groups(self) -> list[list[tuple[bool, float]]]:
        """Runs of equal scores in rank order (one case per run when stable)."""
        out: list[list[tuple[bool, float]]] = []
        for case in self.ranked():
            if self.ties == "grouped" and out and out[-1][0][1] == case[1]:
                out[-1].append(case)
            else:
                out.append([case])
        return out

    def points(self) -> list[dict]:
        """One dict per cut-off that adds at least one correct case."""
        pts = []
        tp = fp = 0
        for group in self.groups():
            fp_before = fp
            tp += sum(c for c, _ in group)
            fp += sum(not c for c, _ in group)
            if any(c for c, _ in group):
                pts.append(dict(tp=tp, fp=fp, k=tp + fp, fp_before=fp_before, score=group[-1][1]))
        return pts

    # -- curves
    @staticmethod
    def ratio(a: int, b: int) -> float:
        return a / b if b else NAN

    def pr_curve(self, interpolate: bool = False) -> list[list[float]]:
        rows = [[self.ratio(p["tp"], self.P), p["tp"] / p["k"]] for p in self.points()]
        return self.prune(rows) if interpolate else rows

    def pr_score_curve(self, interpolate: bool = False) -> list[list[float]]:
        rows = [[self.ratio(p["tp"], self.P), p["tp"] / p["k"], p["score"]] for p in self.points()]
        return self.prune(rows) if interpolate else rows

    def roc_curve(self, interpolate: bool = False) -> list[list[float]]:
        rows = [[self.ratio(p["tp"], self.P), 1.0 - self.ratio(p["fp"], self.N)] for p in self.points()]
        if self.ties == "grouped" and self.misses:
            # unreturned positives and negatives: one more tie group at the bottom
            rows.append([1.0, 1.0 - self.ratio(self.N, self.N)])
        if not interpolate:
            return rows
        if self.ties == "stable":
            return self.prune(rows)
        return self.hull(rows)

    @staticmethod
    def hull(rows: list[list[float]]) -> list[list[float]]:
        """Rows that are vertices of the upper convex hull of the ROC points and (0, 0).

        Literally: a point is a vertex unless it lies on or below the segment
        between two other points (one on each side of it, or above it).
        """
        if any(math.isnan(rr) for _, rr in rows):
            return []
        pts = [(0.0, 0.0)] + [(1.0 - rr, r) for r, rr in rows]  # (fpr, tpr)
        kept = []
        for j, (x, y) in enumerate(pts[1:], start=1):
            covered = False
            for a in range(len(pts)):
                for b in range(len(pts)):
                    if a == j or b == j or a == b:
                        continue
                    (xa, ya), (xb, yb) = pts[a], pts[b]
                    if not xa <= x <= xb or not ya <= y:
                        continue
                    if xa == xb:  # vertical chord: covers a point on it below its top
                        covered = covered or (x == xa and y < yb)
                    elif ya + (yb - ya) * (x - xa) / (xb - xa) >= y - 1e-12:
                        covered = True
            if not covered:
                kept.append(rows[j - 1])
        return kept

    @staticmethod
    def prune(rows: list[list[float]]) -> list[list[float]]:
        kept = []
        best = -math.inf
        for row in reversed(rows):
            if row[1] > best:  # NaN > x is False: NaN rows never survive
                kept.append(row)
                best = row[1]
        return kept[::-1]

    # -- scalars
    @staticmethod
    def step_area(rows: list[list[float]]) -> float:
        area, last = 0.0, 0.0
        for row in rows:
            area += (row[0] - last) * row[1]
            last = row[0]
        return area

    def area_under_pr_curve(self, interpolate: bool = False) -> float:
        return self.step_area(self.pr_curve(interpolate))

    def area_under_roc_curve(self, interpolate: bool = False) -> float:
        if self.P == 0 or self.N == 0:
            return NAN  # one class: no pair to compare
        if interpolate:
            rows = self.roc_curve(True)
            if self.ties == "stable":
                return self.step_area(rows)
            # trapezoids between hull vertices in (fpr, tpr), from (0, 0), then flat to fpr 1
            area, x0, y0 = 0.0, 0.0, 0.0
            for r, rr in rows:
                area += (1.0 - rr - x0) * (y0 + r) / 2
                x0, y0 = 1.0 - rr, r
            return area + (1.0 - x0) * y0
        # Mann-Whitney over every (positive, negative) pair, returned or not: a pair
        # counts 1 when the positive ranks above, 1/2 when tied (grouped), else 0.
        # Misses rank below every returned case; with grouped ties they tie with the
        # unreturned negatives, with stable ties they are never reached (0).
        ranked = self.ranked()
        total = Fraction(0)
        for i, (ci, si) in enumerate(ranked):
            if not ci:
                continue
            for j, (cj, sj) in enumerate(ranked):
                if cj:
                    continue
                if self.ties == "grouped" and si == sj:
                    total += Fraction(1, 2)
                elif i < j:
                    total += 1
            total += self.negative_misses  # returned positive above every unreturned negative
        if self.ties == "grouped":
            total += Fraction(self.misses * self.negative_misses, 2)
        return float(total / (self.P * self.N))

    def average_precision(self) -> float:
        if self.P == 0:
            return NAN
        total = 0.0
        tp_prev = 0
        for p in self.points():
            total += (p["tp"] - tp_prev) * (p["tp"] / p["k"])
            tp_prev = p["tp"]
        return total / self.P

    def maximum_f_measure(self, beta: float = 1.0) -> float:
        best = 0.0
        for r, p in self.pr_curve():
            f = (1 + beta**2) * p * r / (beta**2 * p + r)
            best = max(best, f)
        return best

    def pr_breakeven_point(self) -> float:
        """Where precision equals recall: precision at rank R = P (R-precision)."""
        return self.r_precision()

    def lingpipe392_breakeven_point(self) -> float:
        for r, p in self.pr_curve(True):
            if r > p:
                return p
        return 0.0

    def expected_tp_top(self, k: int) -> Fraction:
        """Correct cases among the top k; a cut tie group counts pro rata."""
        total = Fraction(0)
        seen = 0
        for group in self.groups():
            pos = sum(c for c, _ in group)
            if seen + len(group) <= k:
                total += pos
            elif seen < k:
                total += Fraction(pos * (k - seen), len(group))
            seen += len(group)
        return total

    def precision_at(self, k: int) -> float:
        if k > len(self.cases):
            return NAN
        return float(self.expected_tp_top(k) / k)

    def r_precision(self) -> float:
        if self.P == 0:
            return NAN
        return float(self.expected_tp_top(min(self.P, len(self.cases))) / self.P)

    def reciprocal_rank(self) -> float:
        start = 0
        for group in self.groups():
            m = len(group)
            pos = sum(c for c, _ in group)
            if pos:
                # P(first correct at offset j) = C(m - j - 1, pos - 1) / C(m, pos)
                e = sum(
                    Fraction(math.comb(m - j - 1, pos - 1), math.comb(m, pos)) / (start + j + 1)
                    for j in range(m - pos + 1)
                )
                return float(e)
            start += m
        return 0.0


def paired(ties: str, data: list, misses: int = 0, negative_misses: int = 0):
    """(scored_pr evaluator, Reference) fed the same cases and counts."""
    from scored_pr import ScoredPrecisionRecallEvaluation

    ev = ScoredPrecisionRecallEvaluation(ties=ties)
    ref = Reference(ties)
    for c, s in data:
        ev.add_case(c, s)
        ref.add_case(c, s)
    ev.add_misses(misses)
    ref.add_misses(misses)
    ev.add_negative_misses(negative_misses)
    ref.add_negative_misses(negative_misses)
    return ev, ref
