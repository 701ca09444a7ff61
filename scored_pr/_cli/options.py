"""The command line's options: the argparse value types (each parses one option's text or says what it
expected) and the typed options each command takes."""

from __future__ import annotations

import argparse
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from .._io.formats import FORMATS, CaseColumns, WideColumns

#: What ``--input-format`` accepts: the registered formats (CSV, TSV, JSON Lines, Parquet).
INPUT_FORMATS = tuple(FORMATS)

#: The largest count accepted by --misses (the evaluator's limit: counts stay
#: exact in float64); ``_validation.MAX_COUNT``, which imports numpy.
MAX_COUNT = 2**53


def _integer(text: str, expected: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected {expected}, got {text[:40]!r}") from None


def _number(text: str, expected: str) -> float:
    try:
        return float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected {expected}, got {text[:40]!r}") from None


def non_negative(text: str) -> int:
    """An integer from 0 to 2**53 (counts: --misses)."""
    value = _integer(text, "a non-negative integer")
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected a non-negative integer, got {text!r}")
    if value > MAX_COUNT:
        raise argparse.ArgumentTypeError(f"expected an integer of at most 2**53, got {text[:40]!r}")
    return value


def positive(text: str) -> int:
    """An integer from 1 to 2**53 (--every, --window, --checkpoint-every)."""
    value = non_negative(text)
    if value == 0:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {text!r}")
    return value


def port(text: str) -> int:
    """A TCP port, 0 to 65535 (--metrics-port)."""
    value = non_negative(text)
    if value > 65535:
        raise argparse.ArgumentTypeError(f"expected a TCP port (0 to 65535), got {text[:40]!r}")
    return value


def positive_seconds(text: str) -> float:
    """A finite number of seconds > 0 (--window-seconds)."""
    value = _number(text, "a number of seconds > 0")
    if not (value > 0 and value != float("inf")):
        raise argparse.ArgumentTypeError(f"expected a number of seconds > 0, got {text!r}")
    return value


def level(text: str) -> float:
    """A confidence level strictly between 0 and 1 (--level)."""
    value = _number(text, "a number between 0 and 1")
    if not 0.0 < value < 1.0:
        raise argparse.ArgumentTypeError(f"expected a number strictly between 0 and 1, got {text!r}")
    return value


def resamples(text: str) -> int:
    """A number of bootstrap resamples, 10 to 10,000,000 (--resamples)."""
    value = _integer(text, "an integer >= 10")
    if not 10 <= value <= 10_000_000:
        raise argparse.ArgumentTypeError(f"expected an integer from 10 to 10,000,000, got {text!r}")
    return value


def seed(text: str) -> int:
    """A non-negative random seed, any size (--seed)."""
    value = _integer(text, "a non-negative integer")
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected a non-negative integer, got {text!r}")
    return value


# ------------------------------------------------------------ option groups


def add_input_options(p: argparse.ArgumentParser) -> None:
    """How ``report`` and ``stream`` read cases: :class:`InputOptions`."""
    g = p.add_argument_group("input")
    g.add_argument(
        "--input-format",
        choices=INPUT_FORMATS,
        help="csv, tsv, jsonl or parquet; default: from the file extension (.parquet and .pq are Parquet, "
        "as is a file starting with Parquet's magic bytes), else guessed from the first line",
    )
    g.add_argument(
        "--correct-col",
        metavar="NAME",
        help="the correctness column (labels 1/0, -1/1, true/false, yes/no, any case); default: correct, else label",
    )
    g.add_argument(
        "--positive-label",
        metavar="VALUE",
        help="the positive class's label (e.g. spam): a row is correct when its label equals VALUE, and any "
        "other label is negative; default: none (labels must be 1/0, -1/1, true/false or yes/no)",
    )
    g.add_argument("--score-col", metavar="NAME", default="score", help="the score column (default: score)")
    g.add_argument(
        "--skip-invalid",
        action="store_true",
        help="skip malformed lines (reported on stderr, and counted) instead of stopping with status 2",
    )


def add_html_option(p: Any, what: str) -> None:
    """``--html FILE.html``, of ``report`` and ``compare``."""
    p.add_argument("--html", metavar="FILE.html", help=f"also write {what} as one self-contained HTML page "
                   "(curves with a tooltip per point, a threshold control; no network, opens from file://)")


def add_interval_options(g: Any) -> None:
    """``--level``, ``--bootstrap``, ``--resamples`` and ``--seed``, of ``report --ci`` and ``compare``: :class:`IntervalOptions`."""
    g.add_argument("--level", type=level, default=0.95, metavar="P", help="confidence level (default: 0.95)")
    g.add_argument(
        "--bootstrap", choices=("percentile", "bca"), default="percentile",
        help="the bootstrap interval for average precision: percentile or bias-corrected and accelerated "
        "(default: percentile)",
    )
    g.add_argument("--resamples", type=resamples, default=2000, metavar="N",
                   help="bootstrap resamples, stratified by class (default: 2000)")  # fmt: skip
    g.add_argument("--seed", type=seed, default=0, metavar="N",
                   help="bootstrap seed: the same seed gives the same intervals (default: 0)")  # fmt: skip


def add_ci_options(p: argparse.ArgumentParser) -> None:
    """``--ci`` and its options, for ``scored-pr report``."""
    g = p.add_argument_group("confidence intervals")
    g.add_argument(
        "--ci", action="store_true",
        help="add confidence intervals: DeLong's for ROC AUC (as R's pROC), a bootstrap for average precision",
    )
    add_interval_options(g)


def add_eval_options(p: argparse.ArgumentParser) -> None:
    """``--ties``, ``--misses`` and ``--format``, of ``report`` and ``stream``."""
    g = p.add_argument_group("evaluation and output")
    g.add_argument(
        "--ties",
        choices=("stable", "grouped"),
        default="grouped",
        help="grouped: one threshold per distinct score, independent of line order (default); "
        "stable: equal scores keep file order (LingPipe 3.9.2)",
    )
    g.add_argument(
        "--misses", type=non_negative, default=0, metavar="N", help="relevant items the system never returned (default: 0)"
    )
    g.add_argument(
        "--format",
        choices=("text", "json", "table"),
        default="text",
        help="text: the LingPipe-style report; json: one object; table: a Markdown table (default: text)",
    )


# ------------------------------------------------------------ typed options
# What each command reads from its command line, built from argparse's
# namespace in scored_pr._cli.main (the only module that sees the namespace).


@dataclass(frozen=True)
class InputOptions(CaseColumns):
    """How ``report``, ``stream`` and ``threshold`` read cases: the input layer's own columns
    (:class:`~scored_pr._io.formats.CaseColumns`, handed to it as they are) and ``--input-format``."""

    input_format: str | None = None


@dataclass(frozen=True)
class OutputOptions:
    """How a report is printed: text, json or table, with a curve or none."""

    format: str = "text"
    curve: str | None = None
    interpolate: bool = False


@dataclass(frozen=True)
class IntervalOptions:
    """``--ci`` (``report``) and the interval options ``compare`` shares with it."""

    ci: bool = False
    level: float = 0.95
    bootstrap: str = "percentile"
    resamples: int = 2000
    seed: int = 0
    no_progress: bool = False


#: The wide-file options of ``report`` and ``stream`` (one score column per class or label): the columns
#: the input layer reads a wide file by.
WideOptions = WideColumns


#: ``report``'s options that read one ranking, with their defaults: given with a state
#: file or a wide file, each is named in an error instead of being silently ignored.
REPORT_DEFAULTS: dict[str, Any] = {
    "input_format": None, "correct_col": None, "positive_label": None, "score_col": "score",
    "skip_invalid": False, "ties": "grouped", "misses": 0, "curve": None, "interpolate": False,
    "plot": None, "ci": False, "calibration": False,
}  # fmt: skip


@dataclass(frozen=True)
class ReportOptions:
    """``scored-pr report PATH``."""

    path: str
    input: InputOptions = InputOptions()
    ties: str = "grouped"
    misses: int = 0
    output: OutputOptions = OutputOptions()
    plot: str | None = None
    no_progress: bool = False
    intervals: IntervalOptions = IntervalOptions()
    wide: WideOptions = WideOptions()
    html: str | None = None
    by: tuple[str, ...] = ()
    calibration: bool = False

    def given(self, names: Iterable[str]) -> list[str]:
        """The options among ``names`` (keys of :data:`REPORT_DEFAULTS`) given a value other than their default."""
        values = {**vars(self.input), **vars(self.output), "ties": self.ties, "misses": self.misses,
                  "plot": self.plot, "ci": self.intervals.ci, "calibration": self.calibration}  # fmt: skip
        return ["--" + name.replace("_", "-") for name in names if values[name] != REPORT_DEFAULTS[name]]


@dataclass(frozen=True)
class StreamOptions:
    """``scored-pr stream [PATH]``."""

    path: str = "-"
    input: InputOptions = InputOptions()
    ties: str = "grouped"
    misses: int = 0
    output: OutputOptions = OutputOptions()
    every: int = 1000
    window: int | None = None
    window_seconds: float | None = None
    cumulative: bool = False
    checkpoint: str | None = None
    checkpoint_every: int = 10_000
    resume: str | None = None
    no_skip: bool = False
    metrics_port: int | None = None
    metrics_host: str = "127.0.0.1"
    wide: WideOptions = WideOptions()
    by: tuple[str, ...] = ()
    max_slices: int | None = None


@dataclass(frozen=True)
class CompareOptions:
    """``scored-pr compare A B``."""

    path_a: str
    path_b: str
    id_col: str = "id"
    correct_col: str | None = None
    score_col: str = "score"
    score_col_b: str | None = None
    input_format: str | None = None
    measures: list[str] | None = None
    intervals: IntervalOptions = IntervalOptions()
    format: str = "text"
    html: str | None = None
    by: tuple[str, ...] = ()


@dataclass(frozen=True)
class TrecOptions:
    """``scored-pr trec QRELS RUN``: trec_eval's options."""

    qrels_path: str
    run_path: str
    per_query: bool = False
    measures: list[str] | None = None
    complete: bool = False
    level: int = 1
    summary: bool = True
    max_docs: int | None = None
    judged_only: bool = False
    num_docs: int = 0
