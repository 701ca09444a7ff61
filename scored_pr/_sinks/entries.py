"""What every sink reads from a summary: its entries (one rule of names for every kind), exact PR points, curves as JSON."""

from __future__ import annotations

import math
import re
import time as _time
from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from .._core import points as P
from .. import _kinds
from .. import _evaluators  # noqa: F401 - every kind registered
from .._validation import (
    check_evaluation,
    check_max_points,
    summary_name_clash,
    summary_value_error,
)
from ..streaming import json_safe



#: Summary keys that are not measures: the step and time a summary was made at.
_NOT_MEASURES = frozenset({"step", "time"})


def _need(package: str, extra: str, sink: str) -> Any:
    """Import an optional package or explain which extra installs it."""
    import importlib

    try:
        return importlib.import_module(package)
    except ImportError as exc:
        raise ImportError(
            f"scored_pr.integrations.{sink} needs the '{package}' package: the '{extra}' extra of scored-pr "
            f"(pip install '.[{extra}]' in a checkout of scored_pr)"
        ) from exc


_PER_QUERY = "it holds one ranking per query; pass one query's evaluator, evaluation[query]."


def _curve_sources(evaluation: Any) -> list[tuple[tuple[str, ...], Any]]:
    """(name parts, evaluator of one ranking) of every curve a sink draws for ``evaluation``, from its kind.

    One ranking (bounded too): itself, under no part. One ranking per label:
    each label's evaluator under ``(label,)`` and the pooled ranking (the
    micro average's) under ``("micro",)``. Anything else: no curve.
    """
    kind = _kinds.kind_of(evaluation)
    if kind is None:
        return []
    if kind.holds in ("ranking", "bounded"):
        return [((), evaluation)]
    if kind.holds == "per_label":
        return [*(((str(label),), evaluation[label]) for label in evaluation.labels), (("micro",), evaluation.pooled())]
    if kind.holds == "per_slice":  # each slice's evaluator under its name (overall, region=eu)
        return [((str(pairs),), evaluation[pairs]) for pairs in evaluation.slices()]
    return []


#: The keys of a mapping that hold one value per averaging mode: each is an entry's average.
AVERAGES = ("micro", "macro", "weighted", "samples")
#: The top-level key whose mapping holds one summary per label: its keys are the entries' labels.
LABELS_KEY = "labels"
#: The top-level keys whose mappings are keyed by label: ``labels`` (each label's ranking summary) and
#: ``classes`` (each class's precision, recall, F and support at the top-scoring class).
LABEL_KEYS = (LABELS_KEY, "classes")


class Entry(NamedTuple):
    """One number of a summary, as a sink writes it (see the module's notes)."""

    key: str  #: where it is in the summary: its keys (and sequence indices) joined by "/"
    measure: tuple[str, ...]  #: the keys that name what it measures (neither label nor average)
    label: str | None  #: the label it belongs to (a key of the summary's ``labels``), if any
    average: str | None  #: the averaging mode it is (a key in AVERAGES below the top level), if any
    value: float

    def parts(self) -> tuple[str, ...]:
        """Its name's parts: label, then average, then the measure's keys."""
        return tuple(p for p in (self.label, self.average) if p is not None) + self.measure


def summary_entries(summary: Mapping[str, Any], func: str = "summary_entries") -> list[Entry]:
    """Every number of a summary, flat or nested, with what it measures, its label and its average.

    The rule every sink follows, so that nothing is dropped:

    - ``step`` and ``time`` (top level) are the summary's step and time, not
      entries.
    - A number (int, float, bool, numpy scalar, :class:`~scored_pr.Bounds`)
      is an entry; ``None`` is NaN (JSON's null, as
      :func:`~scored_pr.streaming.json_safe` writes NaN).
    - A mapping is walked: under the top-level keys ``labels`` and
      ``classes`` (:data:`LABEL_KEYS`) each key is a label (``str(label)``); a key in :data:`AVERAGES` (``micro``,
      ``macro``, ``weighted``, ``samples``) is an average (at the top
      level, only when it holds a mapping); every other key is part of the
      measure's name. A number right under a label or an average is named
      by its top-level key.
    - A list, tuple or numpy array is walked with its indices (``"0"``,
      ``"1"``...) as parts of the measure's name.
    - Anything else (a string, an object) refuses the whole summary.

    Parameters
    ----------
    summary : mapping
        A ``summary()`` of any kind (with ``step`` and ``time``, as
        :class:`~scored_pr.streaming.SummaryLogger` hands it over), or any
        mapping of names to numbers.
    func : str
        The name errors carry.

    Returns
    -------
    list of Entry
        In the summary's order, each with its ``key`` (its keys joined by
        ``"/"``), ``measure``, ``label``, ``average`` and ``value`` (float).

    Raises
    ------
    TypeError
        If a value is none of the above (naming its key and its type), or
        ``summary`` is not a mapping; nothing is returned.

    Examples
    --------
    >>> from scored_pr import MultiLabelEvaluation
    >>> ev = MultiLabelEvaluation(["cat", "dog"])
    >>> ev.add_cases([[1, 0], [0, 1], [1, 1]], [[0.9, 0.2], [0.4, 0.8], [0.3, 0.6]])
    >>> entries = summary_entries(ev.summary())
    >>> [e.parts() for e in entries if e.measure == ("average_precision",)]
    [('cat', 'average_precision'), ('dog', 'average_precision'), ('macro', 'average_precision'), ('micro', 'average_precision'), ('weighted', 'average_precision'), ('samples', 'average_precision')]
    >>> summary_entries({"num_cases": 3, "labels": "cat"})
    Traceback (most recent call last):
    ...
    TypeError: summary_entries: argument 'summary' must map names to numbers (or None for NaN), to mappings of them or to sequences of them; got 'cat' (str) at key 'labels' instead. Nothing was written.
    """
    if not isinstance(summary, Mapping):
        raise summary_value_error(func, "", summary)
    out: list[Entry] = []

    def walk(value: Any, path: tuple[str, ...], measure: tuple[str, ...], label: str | None,
             average: str | None) -> None:
        if value is None or isinstance(value, (bool, int, float, np.bool_, np.integer, np.floating)):
            if not measure:  # a number right under a label or an average: its top-level key names it
                measure, average = path[:1], (None if average == path[0] else average)
            out.append(Entry("/".join(path), measure, label, average, math.nan if value is None else float(value)))
        elif isinstance(value, Mapping):
            for key, each in value.items():
                name = str(key)
                if len(path) == 1 and path[0] in LABEL_KEYS and label is None:
                    walk(each, path + (name,), measure, name, average)
                elif name in AVERAGES and average is None:
                    walk(each, path + (name,), measure, label, name)
                else:
                    walk(each, path + (name,), measure + (name,), label, average)
        elif isinstance(value, (list, tuple, np.ndarray)):
            items = value.tolist() if isinstance(value, np.ndarray) else value
            for i, each in enumerate(items):
                walk(each, path + (str(i),), measure + (str(i),), label, average)
        else:
            raise summary_value_error(func, "/".join(path), value)

    for key, value in summary.items():
        if key in _NOT_MEASURES:
            continue
        name = str(key)
        if isinstance(value, Mapping) and name in LABEL_KEYS:
            walk(value, (name,), (), None, None)
        elif isinstance(value, Mapping) and name in AVERAGES:
            walk(value, (name,), (), None, name)
        else:
            walk(value, (name,), (name,), None, None)
    return out


def _named(entries: list[Entry], name: Callable[[Entry], str], func: str) -> dict[str, float]:
    """{name(entry): value}; two entries of one name refuse the summary (ValueError naming both)."""
    out: dict[str, float] = {}
    keys: dict[str, str] = {}
    for entry in entries:
        n = name(entry)
        if n in keys:
            raise summary_name_clash(func, n, keys[n], entry.key)
        keys[n] = entry.key
        out[n] = entry.value
    return out


#: The most metrics MLflow takes in one ``log_batch`` call.
_MLFLOW_BATCH = 1000


def _mlflow_part(part: str) -> str:
    """One part of an MLflow metric or artifact name: what MLflow refuses in it (and a bare "." or "..") as "_"."""
    part = re.sub(r"[^\w.\- ]", "_", part)
    return part if part.strip(".") else part.replace(".", "_") or "_"


def _step_and_time(summary: Mapping[str, Any], count: int) -> tuple[int, float]:
    step = summary.get("step")
    when = summary.get("time")
    return (count if step is None else int(step)), (_time.time() if when is None else float(when))


def exact_pr_points(evaluation: Any, max_points: int | None = None) -> dict[str, npt.NDArray[np.float64]]:
    """Operating points of the exact PR curve with their confusion counts, at most ``max_points`` of them.

    Parameters
    ----------
    evaluation : any single-ranking evaluator kind
        The evaluator (a window or a shared evaluator is read through its
        ``snapshot()``). For a :class:`~scored_pr.BoundedEvaluation` the
        points are the exact operating points at the bins' edges: accepting
        every case scored at least a bin's lower end, for each bin holding a
        correct case (``threshold`` is that lower end). They are exact (the
        bins keep the weight above each edge), and while the summary is
        exact they are the exact evaluator's (grouped) points.
    max_points : int, optional
        The most points to return (>= 2); all of them by default. When the
        curve has more, points evenly spaced in rank along the curve are
        kept, always with both ends.

    Returns
    -------
    dict of numpy.ndarray (float64), each of shape (k,)
        ``tp``, ``fp``, ``tn``, ``fn``, ``precision``, ``recall`` and
        ``threshold`` (the score of the cut-off), in decreasing recall order
        (increasing threshold, the order of TensorBoard's ``pr_curves``
        plugin). Every ``(recall, precision)`` is a row of
        ``evaluation.pr_curve()`` and every threshold the score of
        ``pr_score_curve()``; ``tp + fn`` is ``num_positive_ref`` (misses
        included) and ``fp + tn`` ``num_negative_ref``. With sample weights
        the counts are weights. Empty arrays when no correct case was added.

    Raises
    ------
    TypeError
        If ``evaluation`` is not an evaluator, or ``max_points`` is not an
        int.
    UnsupportedQuery
        For a MultiQueryEvaluation (one ranking per query).
    ValueError
        If ``max_points`` < 2.

    Examples
    --------
    >>> from scored_pr import ScoredPrecisionRecallEvaluation
    >>> ev = ScoredPrecisionRecallEvaluation()
    >>> ev.add_cases([True, False, True, False], [0.9, 0.8, 0.7, 0.1])
    >>> p = exact_pr_points(ev)
    >>> p["recall"].tolist(), p["precision"].tolist(), p["tp"].tolist(), p["tn"].tolist()
    ([1.0, 0.5], [0.6666666666666666, 1.0], [2.0, 1.0], [1.0, 2.0])
    """
    check_max_points(max_points, "exact_pr_points")
    kind, ev = check_evaluation(evaluation, "exact_pr_points", multi=_PER_QUERY)
    if kind == "bounded":
        _, lo, pos, neg = ev.bins()
        has = pos > 0
        tp, fp = np.cumsum(pos)[has], np.cumsum(neg)[has]  # the weight accepted at each edge: exact
        with np.errstate(divide="ignore", invalid="ignore"):
            recall = tp / np.float64(ev.positive_weight)
        curve = np.column_stack((recall, tp / (tp + fp), lo[has]))
    else:
        curve = ev.pr_score_curve()  # rows (recall, precision, score), increasing recall
        scores, correct, weights = ev.ranked_cases()
        points = P.operating_points(np.negative(scores), correct, ev.ties, weights)  # the evaluator's own
        tp = np.asarray(points.tp, dtype=np.float64)
        fp = np.asarray(points.fp, dtype=np.float64)
    assert tp.shape[0] == curve.shape[0]  # one operating point per curve row
    n = curve.shape[0]
    if max_points is not None and n > max_points:
        keep = np.unique(np.rint(np.linspace(0, n - 1, int(max_points))).astype(np.int64))
    else:
        keep = np.arange(n)
    keep = keep[::-1]  # decreasing recall: TensorBoard's increasing threshold
    pos, neg = float(ev.positive_weight), float(ev.negative_weight)
    return {
        "tp": tp[keep],
        "fp": fp[keep],
        "tn": neg - fp[keep],
        "fn": pos - tp[keep],
        "precision": curve[keep, 1].astype(np.float64),
        "recall": curve[keep, 0].astype(np.float64),
        "threshold": curve[keep, 2].astype(np.float64),
    }


# --------------------------------------------------------------------- TensorBoard



def curves_json(evaluation: Any) -> dict[str, Any]:
    """The summary and the exact PR and ROC curves as a JSON-safe dict (what :class:`MLflow` logs).

    Any single-ranking evaluator kind (a window or a shared evaluator
    through one ``snapshot()``). For a :class:`~scored_pr.BoundedEvaluation`
    the curves are its estimates (``pr_band().estimate``, the ``score`` of a
    row the lower end of its bin) and two more entries, ``pr_boxes`` and
    ``roc_boxes`` (columns in ``boxes_columns``), hold the boxes that contain
    the exact curves.

    Examples
    --------
    >>> from scored_pr import ScoredPrecisionRecallEvaluation
    >>> ev = ScoredPrecisionRecallEvaluation()
    >>> ev.add_cases([True, False, True], [0.9, 0.5, float("inf")])
    >>> d = curves_json(ev)
    >>> d["pr_curve"], d["roc_curve"]
    ([[0.5, 1.0, None], [1.0, 1.0, 0.9]], [[0.5, 1.0], [1.0, 1.0]])
    """

    def rows(a: npt.NDArray[np.float64]) -> list[list[float | None]]:
        return [[float(x) if math.isfinite(x) else None for x in row] for row in a.tolist()]

    kind, evaluation = check_evaluation(evaluation, "curves_json", multi=_PER_QUERY)
    if kind == "bounded":
        pr, roc = evaluation.pr_band(), evaluation.roc_band()
        _, lo, pos, _ = evaluation.bins()
        return {
            "summary": json_safe(evaluation.summary()),
            "pr_curve_columns": ["recall", "precision", "score"],
            "pr_curve": rows(np.column_stack((pr.estimate, lo[pos > 0]))),
            "roc_curve_columns": ["recall", "rejection_recall"],
            "roc_curve": rows(roc.estimate),
            "boxes_columns": ["x_low", "x_high", "y_low", "y_high"],
            "pr_boxes": rows(pr.boxes),
            "roc_boxes": rows(roc.boxes),
        }
    return {
        "summary": json_safe(evaluation.summary()),
        "pr_curve_columns": ["recall", "precision", "score"],
        "pr_curve": rows(evaluation.pr_score_curve()),
        "roc_curve_columns": ["recall", "rejection_recall"],
        "roc_curve": rows(evaluation.roc_curve()),
    }
