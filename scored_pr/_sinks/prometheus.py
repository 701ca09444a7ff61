"""The Prometheus sink: one gauge per measure, a label per slice key or label, served or pushed."""

from __future__ import annotations

import re
import time as _time
import weakref
from collections.abc import Mapping
from typing import Any

from .. import _kinds
from .._validation import (
    check_instance,
    check_metric_labels,
    check_metric_namespace,
    SUMMARY_LABEL_NAMES,
    check_no_label_clash,
)
from ..streaming import WINDOW_PREFIX, Sink
from .._validation.slices import MISSING_TEXT as MISSING_VALUE_TEXT, check_no_key_clash

from .entries import Entry, summary_entries
from .entries import _need, _named

#: Gauges already made, per registry: sinks with the same namespace and label
#: names share them (one per model or shard, told apart by label values).
_GAUGES: weakref.WeakKeyDictionary[Any, dict[str, Any]] = weakref.WeakKeyDictionary()


class Prometheus(Sink):
    """Keep the latest summary in Prometheus gauges: one per measure, window and cumulative side by side.

    Parameters
    ----------
    registry : prometheus_client.CollectorRegistry, optional
        Where the gauges are registered; ``prometheus_client.REGISTRY`` (the
        one ``start_http_server(port)`` serves) by default.
    namespace : str, default "scored_pr"
        Metric name prefix: ``<namespace>_average_precision``.
    labels : mapping of str to str, optional
        Constant labels of every gauge this sink sets (``{"model": "v2"}``).
        Several sinks may share a registry and namespace when they have the
        same label names (one per model, told apart by the values).

    Notes
    -----
    Every summary entry ``key`` (except ``step`` and ``time``) sets the
    gauge ``<namespace>_<key>`` with ``scope="cumulative"``, and every
    ``window_<key>`` the same gauge with ``scope="window"``; when the
    evaluator handed over is itself a window, its figures are
    ``scope="window"``. A nested summary (a multi-label one) sets
    ``<namespace>_<measure>`` with the labels ``label`` and ``average`` as
    well (see the module's notes and :func:`summary_entries`); its gauges then
    carry those label names, so give it a namespace of its own when a
    binary summary's gauges share the registry. Constant ``labels`` must not
    be named ``label`` or ``average`` for such a summary. NaN (a measure not defined yet) is exported as NaN.
    ``<namespace>_last_summary_timestamp_seconds`` holds the summary's
    ``time``, to alert on a stalled stream, and ``<namespace>_summary_step``
    its ``step`` (cases seen, by default). The gauges hold the latest
    summary: Prometheus samples them when it scrapes.

    Examples
    --------
    >>> from prometheus_client import CollectorRegistry, generate_latest
    >>> from scored_pr import ScoredPrecisionRecallEvaluation, WindowedEvaluation
    >>> from scored_pr.streaming import SummaryLogger
    >>> from scored_pr.integrations import Prometheus
    >>> registry = CollectorRegistry()
    >>> sink = Prometheus(registry, labels={"model": "v2"})
    >>> ev = SummaryLogger(ScoredPrecisionRecallEvaluation(), sink, every=4, window=WindowedEvaluation(size=2))
    >>> ev.add_cases([True, False, False, True], [0.9, 0.8, 0.3, 0.2])
    >>> [line for line in generate_latest(registry).decode().splitlines() if "_under_roc_curve{" in line]
    ['scored_pr_area_under_roc_curve{model="v2",scope="cumulative"} 0.5', 'scored_pr_area_under_roc_curve{model="v2",scope="window"} 0.0']
    """

    def __init__(self, registry: Any = None, *, namespace: str = "scored_pr", labels: Mapping[str, str] | None = None) -> None:
        client = _need("prometheus_client", "prometheus", "Prometheus")
        if registry is None:
            registry = client.REGISTRY
        check_instance(
            registry, client.CollectorRegistry, "Prometheus", "registry", "a prometheus_client.CollectorRegistry or None"
        )
        check_metric_namespace(namespace, "Prometheus")
        labels = check_metric_labels(labels, "Prometheus")
        self._client = client
        self.registry = registry
        self.namespace = namespace
        self.labels = labels
        self._names = sorted(labels)

    def _gauge(self, key: str, help_text: str, scoped: bool = True, labelled: bool = False) -> Any:
        gauges = _GAUGES.setdefault(self.registry, {})
        name = f"{self.namespace}_{key}"
        names = tuple(self._names + (list(SUMMARY_LABEL_NAMES) if labelled else []) + (["scope"] if scoped else []))
        gauge = gauges.get(name)
        if gauge is None:
            gauge = gauges[name] = self._client.Gauge(name, help_text, labelnames=names, registry=self.registry)
        elif tuple(gauge._labelnames) != names:
            raise ValueError(
                f"Prometheus: the gauge {name!r} exists in this registry with the labels "
                f"{list(gauge._labelnames)}; this sink has {list(names)}: give it the same label names or "
                "another namespace."
            )
        return gauge

    def write(self, summary: Mapping[str, Any], evaluation: Any = None, window: Any = None) -> None:
        """Set the gauges to every number of ``summary`` (refused whole, before any is set, if one is not a number).

        The summary of a :class:`~scored_pr.SlicedEvaluation` sets one sample
        per slice on each measure's gauge, with a label per key (its value,
        ``(missing)``, or empty where the slice does not fix the key: the
        overall slice has every key empty).
        """
        kind = None if evaluation is None else _kinds.kind_of(evaluation)
        if kind is not None and kind.holds == "per_slice":
            self._write_slices(summary, evaluation)
            return
        entries = summary_entries(summary, "Prometheus.write")
        plain_scope = "cumulative" if evaluation is None else _kinds.scope_of(evaluation)
        labelled = any(e.label is not None or e.average is not None for e in entries)
        if labelled:
            check_no_label_clash(self.labels, "Prometheus.write")

        where: dict[str, tuple[str, dict[str, str]]] = {}  # sample -> (measure, its labels)

        def sample(entry: Entry) -> str:
            measure = "_".join(re.sub(r"[^a-zA-Z0-9_]", "_", p) for p in entry.measure)
            scope = plain_scope
            if entry.label is None and measure.startswith(WINDOW_PREFIX):
                measure, scope = measure[len(WINDOW_PREFIX):], "window"
            labels = {"label": entry.label or "", "average": entry.average or ""} if labelled else {}
            labels["scope"] = scope
            text = f"{self.namespace}_{measure}{{" + ",".join(f"{k}={v!r}" for k, v in sorted(labels.items())) + "}"
            where[text] = (measure, labels)
            return text

        # one gauge per measure, one sample per (scope, label, average): two entries on one sample refuse the summary,
        # and every gauge is made (or its label names checked) before any is set
        samples = _named(entries, sample, "Prometheus.write")
        help_text = "scored_pr summary: {} (scope: cumulative or window)"
        gauges = {text: self._gauge(where[text][0], help_text.format(where[text][0]), labelled=labelled) for text in samples}
        for text, value in samples.items():
            gauges[text].labels(**self.labels, **where[text][1]).set(value)
        when, step = summary.get("time"), summary.get("step")
        stamp = self._gauge("last_summary_timestamp_seconds", "Time of the latest scored_pr summary.", scoped=False)
        (stamp.labels(**self.labels) if self._names else stamp).set(_time.time() if when is None else float(when))
        if step is not None:
            gauge = self._gauge("summary_step", "Step of the latest scored_pr summary (default: cases seen).", scoped=False)
            (gauge.labels(**self.labels) if self._names else gauge).set(float(step))

    def _write_slices(self, summary: Mapping[str, Any], evaluation: Any) -> None:
        """One sample per slice and measure, labelled by the slice's key values (every gauge made before any is set)."""
        keys = list(evaluation.keys)
        check_no_key_clash(self.labels, keys, "Prometheus.write")
        scope = _kinds.scope_of(evaluation)
        samples: list[tuple[str, dict[str, str], float]] = []
        for pairs in evaluation.slices():
            one = summary.get(str(pairs))
            if not isinstance(one, Mapping):
                continue  # a slice made after the summary was taken
            fixed = {k: (MISSING_VALUE_TEXT if v is None else str(v)) for k, v in pairs}
            labels = {k: fixed.get(k, "") for k in keys}
            for e in summary_entries(one, "Prometheus.write"):
                measure = "_".join(re.sub(r"[^a-zA-Z0-9_]", "_", p) for p in e.measure)
                samples.append((measure, labels, e.value))
        gauges = {}
        for measure, _, _ in samples:
            if measure not in gauges:
                gauges[measure] = self._sliced_gauge(measure, keys)
        for measure, labels, value in samples:
            gauges[measure].labels(**self.labels, **labels, scope=scope).set(value)
        when, step = summary.get("time"), summary.get("step")
        stamp = self._gauge("last_summary_timestamp_seconds", "Time of the latest scored_pr summary.", scoped=False)
        (stamp.labels(**self.labels) if self._names else stamp).set(_time.time() if when is None else float(when))
        if step is not None:
            gauge = self._gauge("summary_step", "Step of the latest scored_pr summary (default: cases seen).", scoped=False)
            (gauge.labels(**self.labels) if self._names else gauge).set(float(step))

    def _sliced_gauge(self, measure: str, keys: list[str]) -> Any:
        gauges = _GAUGES.setdefault(self.registry, {})
        name = f"{self.namespace}_{measure}"
        names = tuple(self._names + keys + ["scope"])
        gauge = gauges.get(name)
        if gauge is None:
            gauge = gauges[name] = self._client.Gauge(
                name, f"scored_pr summary per slice: {measure} (scope: cumulative or window)", labelnames=names,
                registry=self.registry)
        elif tuple(gauge._labelnames) != names:
            raise ValueError(
                f"Prometheus: the gauge {name!r} exists in this registry with the labels "
                f"{list(gauge._labelnames)}; this sink has {list(names)}: give it the same label names or "
                "another namespace."
            )
        return gauge

    def __repr__(self) -> str:
        return f"Prometheus(namespace={self.namespace!r}, labels={self.labels!r})"
