"""The evaluator's rules as Spark SQL expressions: a label's class, the faults of every column, bucket keys.

The Spark adapter (``spark.py``) runs its checks and counts in the JVM, one
aggregate per fault over every row, rather than in a Python pass over the
rows; this module writes those rules once, each the evaluator's own
(``_validation``): what a label is, which scores, weights and query ids are
refused, and the bucket of a score.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from .._validation import MAX_WEIGHT, MIN_WEIGHT
from .backend import Columns


def label_expr(df: Any, label_col: str, pos_label: Any) -> tuple[Any, Any]:
    """(correct, bad): the row's class and whether its label is no label, the evaluator's rule in SQL."""
    from pyspark.sql import functions as F
    from pyspark.sql import types as T

    col, dtype = F.col(label_col), df.schema[label_col].dataType
    if pos_label is None:
        if isinstance(dtype, T.BooleanType):
            return col, col.isNull()
        num = col.cast("double")
        return num == 1.0, col.isNull() | F.isnan(num) | ~num.isin(1.0, 0.0, -1.0)
    if isinstance(pos_label, str):
        return col == F.lit(pos_label), col.isNull()
    if isinstance(dtype, T.IntegralType) and not isinstance(pos_label, (bool, float)) and -2**63 <= pos_label < 2**63:
        return col == F.lit(pos_label), col.isNull()  # long against long: exact beyond 2**53, as numpy compares
    num = col.cast("double")  # a bool as 1.0 or 0.0: pos_label=2 leaves no row positive, as in the evaluator
    return num == F.lit(float(pos_label)), col.isNull() | F.isnan(num)


def count(bad: Any) -> Any:
    """The rows where ``bad`` holds, as an aggregate."""
    from pyspark.sql import functions as F

    return F.sum(F.when(bad, 1).otherwise(0))


def first(bad: Any, col: Any) -> Any:
    """One value of ``col`` where ``bad`` holds (as text; ``"null"`` for a null), as an aggregate."""
    from pyspark.sql import functions as F

    return F.first(F.when(bad, F.coalesce(col.cast("string"), F.lit("null"))), True)


def number(text: Any) -> Any:
    """A score shown as its number when the text is an integer (a long refused as not exact), else as is."""
    try:
        return int(text)
    except (TypeError, ValueError):
        return text


def bucket_expr(score: Any, bounds: npt.NDArray[np.float64]) -> Any:
    """A CASE tree (depth log2 of the buckets) giving each score's bucket: the bounds strictly above it."""
    from pyspark.sql import functions as F

    def tree(lo: int, hi: int) -> Any:
        if lo == hi:
            return F.lit(lo)
        mid = (lo + hi) // 2  # bucket <= mid iff score >= bounds[mid]
        return F.when(score >= F.lit(float(bounds[mid])), tree(lo, mid)).otherwise(tree(mid + 1, hi))

    return tree(0, int(bounds.size))


def row_checks(df: Any, cols: Columns) -> tuple[list[Any], dict[str, tuple[Any, Any]], list[Any]]:
    """(fields, checks, aggregates) of one ranking's rows: the narrow columns (``c``, ``s``[, ``w``, ``q``]), each
    argument's (fault, column), and the scan's aggregates (rows, weight totals, label encodings, faults)."""
    from pyspark.sql import functions as F
    from pyspark.sql import types as T

    correct, bad_label = label_expr(df, cols.label, cols.pos_label)
    sc, sdt = F.col(cols.score), df.schema[cols.score].dataType
    bad_score = sc.isNull() | F.isnan(sc.cast("double"))
    if isinstance(sdt, T.LongType):  # beyond 2**53 a long may not be a float64: refused, not rounded into a tie
        # floor() of a double below 2**63 is the long it equals (a cast back to long would be optimised away as
        # a round trip); 2**63 itself (the double of 2**63 - 1 and its neighbours) is no long: refused first
        bad_score = bad_score | F.when(sc.cast("double") >= F.lit(2.0**63), F.lit(True)).otherwise(
            F.floor(sc.cast("double")) != sc)
    fields = [correct.alias("c"), (sc.cast("double") + F.lit(0.0)).alias("s")]  # -0.0 -> 0.0, as the evaluator
    checks = {"label_col": (bad_label, F.col(cols.label)), "score_col": (bad_score, sc)}
    aggs = [F.count(F.lit(1)).alias("rows")]
    if cols.weight is not None:
        w, wc = F.col(cols.weight).cast("double"), F.col(cols.weight)
        bad_w = (wc.isNull() | F.isnan(w) | (w < 0) | (F.abs(w) == float("inf"))
                 | ((w > 0) & ((w < MIN_WEIGHT) | (w > MAX_WEIGHT))))  # the evaluators' rule
        checks["weight_col"] = (bad_w, wc)
        aggs += [count(w != 1.0).alias("not_one"), F.sum(F.when(~bad_w, w)).alias("total")]  # overflow: inf
        fields.append(w.alias("w"))
    if cols.pos_label is None and isinstance(df.schema[cols.label].dataType, T.NumericType):
        num = F.col(cols.label).cast("double")  # 0 and -1 together: the evaluator refuses the encoding
        aggs += [count(num == 0.0).alias("zeros"), count(num == -1.0).alias("minus")]
    if cols.query is not None:
        q = F.col(cols.query)
        bad_q = q.isNull() | F.isnan(q) if isinstance(df.schema[cols.query].dataType, (T.FloatType, T.DoubleType)) \
            else q.isNull()
        checks["query_col"] = (bad_q, q)
        fields.append(q.alias("q"))
    for arg, (bad, col) in checks.items():
        aggs += [count(bad).alias(f"n_{arg}"), first(bad, col).alias(f"ex_{arg}")]
    return fields, checks, aggs
