"""The checks of :mod:`scored_pr.streaming`'s logger and :mod:`scored_pr.integrations`' sinks.

Callbacks and cadence; TensorBoard, MLflow and Prometheus options. Each keeps
the exact message its module has always raised; tests match them.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from typing import Any

import numpy as np

from .errors import UnsupportedQuery, clipped
from .options import check_beta, check_flag, check_positive_int


def check_callbacks(value: Any, func: str, name: str = "callback") -> Any:
    """A callable, or a list or tuple of callables; returned unchanged."""
    expected = "callable or a list of callables"
    if isinstance(value, (list, tuple)):
        for i, each in enumerate(value):
            if not callable(each):
                raise TypeError(f"{func}: argument '{name}' must be {expected}; got {clipped(each, 80)} at index {i} instead.")
    elif not callable(value):
        raise TypeError(f"{func}: argument '{name}' must be {expected}; got {clipped(value, 80)} instead.")
    return value


def check_cadence(every: Any, seconds: Any, func: str) -> tuple[int | None, float | None]:
    """A logger's ``every`` (cases, an int >= 1) and ``seconds`` (> 0): one of them or both."""
    if every is None and seconds is None:
        raise ValueError(f"{func}: give 'every' (cases), 'seconds' or both; got neither.")
    return (
        None if every is None else check_positive_int(every, func, "every"),
        None if seconds is None else check_beta(seconds, func, "seconds"),
    )


def check_max_points(value: Any, func: str, name: str = "max_points") -> int | None:
    """None or an int >= 2: the most points of a curve written out."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{func}: argument '{name}' must be an int >= 2 or None; got {clipped(value, 40)} instead.")
    if value < 2:
        raise ValueError(f"{func}: argument '{name}' must be an int >= 2; got {value!r} instead.")
    return int(value)


def check_sink_options(func: str, max_points: Any = 2, **strings: Any) -> None:
    """A sink's str options (``prefix``, ``artifact_path``) and its ``max_points``, an int >= 2."""
    for name, value in strings.items():
        if not isinstance(value, str):
            raise TypeError(f"{func}: argument '{name}' must be a str; got {value!r:.40} instead.")
    if isinstance(max_points, bool) or not isinstance(max_points, int) or max_points < 2:
        raise ValueError(f"{func}: argument 'max_points' must be an int >= 2; got {max_points!r:.40} instead.")


def check_tensorboard_options(curves: Any, flush_secs: Any) -> tuple[bool, float]:
    """TensorBoard's ``curves`` (a bool) and ``flush_secs`` (a finite number of seconds > 0)."""
    return check_flag(curves, "TensorBoard", "curves"), check_beta(flush_secs, "TensorBoard", "flush_secs")


def check_mlflow_options(curves: Any, timeout: Any, max_pending: Any) -> tuple[bool, float, int]:
    """MLflow's ``curves`` (a bool), ``timeout`` (seconds > 0) and ``max_pending`` (an int >= 1)."""
    return (check_flag(curves, "MLflow", "curves"), check_beta(timeout, "MLflow", "timeout"),
            check_positive_int(max_pending, "MLflow", "max_pending"))


def check_summary_writer(target: Any, func: str) -> bool:
    """A TensorBoard target: a log directory (True) or a writer with ``add_scalar`` and ``add_pr_curve_raw`` (False)."""
    if isinstance(target, (str, os.PathLike)):
        return True
    if callable(getattr(target, "add_scalar", None)) and callable(getattr(target, "add_pr_curve_raw", None)):
        return False
    raise TypeError(
        f"{func}: argument 'target' must be a log directory (str or path) or a writer with add_scalar "
        f"and add_pr_curve_raw (torch's or tensorboardX's SummaryWriter); got {clipped(target, 80)} instead."
    )


#: A Prometheus label name (its data model); names starting "__" are reserved for Prometheus itself.
_LABEL_NAME = re.compile(r"[a-zA-Z_][a-zA-Z0-9_]*")


def check_metric_namespace(value: Any, func: str) -> str:
    """A Prometheus metric name prefix: ASCII letters, digits and '_', not starting with a digit."""
    if not isinstance(value, str) or not _LABEL_NAME.fullmatch(value):
        raise ValueError(
            f"{func}: argument 'namespace' must be a metric name prefix (letters, digits, '_'); got {value!r:.40} instead."
        )
    return value


def check_metric_labels(value: Mapping[str, str] | None, func: str) -> dict[str, str]:
    """Constant Prometheus labels: str names (not 'scope', the sink's own) to str values, as a new dict."""
    if value is not None and not isinstance(value, Mapping):
        raise TypeError(f"{func}: argument 'labels' must be a mapping of label names to str values or None; "
                        f"got {clipped(value, 40)} instead.")
    labels = dict(value or {})
    for key, each in labels.items():
        if not isinstance(key, str) or not isinstance(each, str) or key == "scope":
            raise ValueError(
                f"{func}: argument 'labels' must map label names (str, not 'scope') to str values; "
                f"got {key!r:.40}: {each!r:.40} instead."
            )
        if not _LABEL_NAME.fullmatch(key) or key.startswith("__"):  # every write would fail: refuse the sink now
            raise ValueError(
                f"{func}: argument 'labels' must map label names to str values, a label name being ASCII letters, "
                "digits and '_', not starting with a digit or '__' (reserved by Prometheus); "
                f"got {key!r:.40}: {each!r:.40} instead."
            )
    return labels


def check_logger_window(holds: str, window: Any, evaluation: Any, func: str) -> None:
    """A logger's ``window`` is fed beside an evaluator of one ranking; a kind of many rankings windows itself."""
    if window is not None and holds not in ("ranking", "bounded"):
        raise UnsupportedQuery(
            f"{func}: argument 'window' is fed the cases of an evaluator of one ranking; {type(evaluation).__name__} "
            f"holds one ranking per {'label' if holds == 'per_label' else 'query'} and cannot share its rows with a "
            "WindowedEvaluation: log a windowed evaluation of its own kind instead (MultiLabelEvaluation(labels, "
            "window=N)), or two loggers side by side."
        )


def summary_value_error(func: str, key: str, value: Any) -> TypeError:
    """A summary entry a sink cannot write: it names the entry's key (its path, for a nested one) and the type received."""
    return TypeError(
        f"{func}: argument 'summary' must map names to numbers (or None for NaN), to mappings of them or to "
        f"sequences of them; got {clipped(value, 40)} at key {key!r:.200} instead. "
        "Nothing was written."
    )


def summary_name_clash(func: str, name: str, first: str, second: str) -> ValueError:
    """Two entries of one summary that a sink would write under the same name."""
    return ValueError(
        f"{func}: argument 'summary' must give each entry its own name; got {first!r:.100} and {second!r:.100}, "
        f"both written as {name!r:.200} (a label named like an average, or names that differ only in characters "
        "the sink cannot write). Nothing was written."
    )


#: The label names a Prometheus sink sets itself on the gauges of a per-label summary.
SUMMARY_LABEL_NAMES = ("label", "average")


def check_no_label_clash(labels: Mapping[str, str], func: str) -> None:
    """Constant labels beside a per-label summary: none may be named 'label' or 'average' (the sink's own)."""
    for key in SUMMARY_LABEL_NAMES:
        if key in labels:
            raise ValueError(
                f"{func}: argument 'labels' must not name {key!r} when a summary holds one entry per label or "
                f"average (the sink sets 'label' and 'average' itself); got {key!r}: {labels[key]!r:.40} instead. "
                "Nothing was written."
            )
