"""``scored-pr report PATH --by COL[,COL]``: every number per slice of a file of cases.

Each ``--by`` names one crossing (``--by region`` one slice per region,
``--by region,device`` one per pair); the overall slice comes first. The file
is read row by row with its feature columns (CSV, TSV, JSON Lines, Parquet,
gzip and standard input as ``report`` reads them), each label and score by
the readers' own rules and messages (``file:line: value``), and the cases go
to a :class:`~scored_pr.SlicedEvaluation`. An empty field (a JSON null, a
Parquet null) is the missing value, shown ``(missing)``.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Iterable, Iterator
from typing import Any

from .._io.formats import detect
from .._io.values import InputError, parse_label, parse_score
from .inputs import SkipReporter, open_text, read_parquet
from .options import InputOptions, ReportOptions
from .output import error, fmt_value, table, write_report_page

#: The measures of the text table, each with its heading.
COLUMNS = (("average_precision", "AP"), ("area_under_roc_curve", "ROC AUC"), ("maximum_f_measure", "max F1"),
           ("r_precision", "R-prec"))
#: Rows handed to the evaluation at once.
CHUNK = 65_536
#: The slice the text report names worst must have at least this many cases.
WORST_MIN_CASES = 100


def crossings(by: list[str]) -> tuple[tuple[str, ...], tuple[tuple[str, ...], ...]]:
    """(keys, crossings) of the ``--by`` values: ``["region", "region,device"]``."""
    keys: list[str] = []
    specs: list[tuple[str, ...]] = []
    for text in by:
        names = tuple(n.strip() for n in text.split(",") if n.strip())
        for n in names:
            if n not in keys:
                keys.append(n)
        specs.append(names)
    return tuple(keys), tuple(specs)


def read_rows(path: str, fmt: str, source: str) -> Iterator[tuple[int, dict[str, Any] | None, list[str] | None]]:
    """``(line, row, None)`` per row; first ``(0, None, columns)`` with the file's columns."""
    if fmt == "parquet":
        table_: Any = read_parquet(path)
        yield 0, None, list(table_.column_names)
        for i, row in enumerate(table_.to_pylist()):
            yield i + 1, row, None
        return
    stream: Any
    stream, _ = open_text(path)
    try:
        if fmt == "jsonl":
            columns: list[str] | None = None
            for n, line in enumerate(stream, 1):
                if not line.strip():
                    continue
                try:
                    row = json.loads(line)
                except ValueError as exc:
                    raise InputError(source, n, f"invalid JSON: {exc}") from None
                if not isinstance(row, dict):
                    raise InputError(source, n, "a JSON Lines case must be an object")
                if columns is None:
                    columns = list(row)
                    yield 0, None, columns
                yield n, row, None
            if columns is None:
                yield 0, None, []
            return
        reader = csv.reader(stream, delimiter="\t" if fmt == "tsv" else ",")
        header = next(reader, None)
        if header is None:
            raise InputError(source, None, "empty input")
        header = [h.strip() for h in header]
        yield 0, None, header
        for row_ in reader:
            if not row_ or row_ == [""]:
                continue
            if len(row_) != len(header):
                raise InputError(source, reader.line_num, f"expected {len(header)} fields, got {len(row_)}")
            yield reader.line_num, {h: (v if v.strip() else None) for h, v in zip(header, row_)}, None
    finally:
        stream.close()


def correct_column(given: str | None, columns: list[str]) -> str:
    """The correctness column: the one given, else ``correct``, else ``label`` when the file has it."""
    return given or ("correct" if "correct" in columns or "label" not in columns else "label")


def has_columns(source: str, columns: list[str], wanted: Iterable[tuple[str, str]]) -> bool:
    """Whether every ``(name, what)`` of ``wanted`` is a column; else one line naming the first missing one and the
    file's columns (False: the command exits with status 2)."""
    for name, what in wanted:
        if name not in columns:
            error(f"{source}: {what} column {name!r} is not in the file; its columns are: {', '.join(columns)}")
            return False
    return True


def open_cases(path: str, inp: InputOptions, keys: tuple[str, ...],
               skips: SkipReporter) -> tuple[str, Iterator[tuple[int, bool, float, dict[str, Any]]]] | int:
    """The source name of ``path`` and its cases ``(line, correct, score, {key: value})``; or exit status 2.

    The header (a JSON Lines file's first object) is read here: a correctness,
    score or ``--by`` column it lacks is one line on stderr naming the column
    and listing the file's columns, and the status 2. A row that does not
    parse raises :class:`InputError` naming its line, or is handed to
    ``skips`` with ``--skip-invalid``. ``report --by`` and ``stream --by``
    read their input here, so both take the same rows the same way.
    """
    fmt = detect(path, inp.input_format).name
    source = "<stdin>" if path == "-" else path
    rows = read_rows(path, fmt, source)
    _, _, columns = next(rows)
    assert columns is not None
    cname = correct_column(inp.correct_col, columns)
    sname = inp.score_col
    if not has_columns(source, columns, ((cname, "correctness"), (sname, "score"), *((k, "--by") for k in keys))):
        return 2

    def cases() -> Iterator[tuple[int, bool, float, dict[str, Any]]]:
        for line, row, _ in rows:
            assert row is not None
            try:
                correct = parse_label(row.get(cname), cname, inp.positive_label)
                score = parse_score(row.get(sname), sname)
                values = {k: feature(row.get(k), k) for k in keys}
            except ValueError as exc:
                err = InputError(source, line, str(exc))
                if not inp.skip_invalid:
                    raise err from None
                skips(err)
                continue
            yield line, correct, score, values

    return source, cases()


def read(opts: ReportOptions, keys: tuple[str, ...], specs: tuple[tuple[str, ...], ...]) -> tuple[Any, str, int] | int:
    """The sliced evaluation of the file ``opts.path``, its source name and the lines skipped; or an exit status."""
    from .._evaluators.sliced import SlicedEvaluation

    skips = SkipReporter()
    opened = open_cases(opts.path, opts.input, keys, skips)
    if isinstance(opened, int):
        return opened
    source, cases = opened
    ev = SlicedEvaluation(keys, slices=((), *specs), ties=opts.ties)
    batch: tuple[list[bool], list[float], dict[str, list[Any]]] = ([], [], {k: [] for k in keys})

    def flush() -> None:
        try:
            ev.add_cases(batch[0], batch[1], **batch[2])
        except ValueError as exc:  # max_slices
            raise InputError(source, None, str(exc)) from None
        batch[0].clear()
        batch[1].clear()
        for k in keys:
            batch[2][k].clear()

    for _, correct, score, values in cases:
        batch[0].append(correct)
        batch[1].append(score)
        for k in keys:
            batch[2][k].append(values[k])
        if len(batch[0]) >= CHUNK:
            flush()
    flush()
    skips.finish(source)
    return ev, source, skips.count


def feature(value: Any, key: str) -> Any:
    """A feature field as read: None for empty or null; a nested JSON value is refused, naming the column."""
    if isinstance(value, (dict, list)):
        raise ValueError(f"invalid value {json.dumps(value)[:40]} in column {key!r}: a feature is a string, number or boolean")
    if isinstance(value, str):
        return value.strip() or None
    return value


def requested(by: Iterable[str]) -> tuple[tuple[str, ...], tuple[tuple[str, ...], ...]] | None:
    """(keys, crossings) of the ``--by`` values; None, after one line on standard error, when they name no column."""
    keys, specs = crossings(list(by))
    if not keys:
        error("--by: expected one or more column names (--by region or --by region,device)")
        return None
    return keys, specs


def run(opts: ReportOptions) -> int:
    """``scored-pr report PATH --by ...``: the per-slice table (text or JSON), its intervals and HTML page."""
    asked = requested(opts.by)
    if asked is None:
        return 2
    keys, specs = asked
    if opts.plot or opts.output.curve or opts.misses or opts.wide.requested:
        error("--by: --plot, --curve, --misses and the wide-file options do not apply to a sliced report")
        return 2
    got = read(opts, keys, specs)
    if isinstance(got, int):
        return got
    ev, source, skipped = got
    intervals = _intervals(ev, opts) if opts.intervals.ci else {}
    print_slices(ev, source, skipped, keys, opts.output.format, intervals, opts.intervals.level if opts.intervals.ci else None)
    if opts.html:
        return write_report_page(ev, source, opts.html, intervals or None, gaps=_gaps(ev, opts))
    return 0


def print_slices(ev: Any, source: str, skipped: int, keys: tuple[str, ...], fmt: str, intervals: dict[Any, dict[str, Any]],
                 level: float | None, extra: dict[str, Any] | None = None) -> None:
    """Print every slice of ``ev`` (text table or one JSON object) and the worst slice, as ``report --by`` does.

    ``level``: the confidence of ``intervals`` (the worst slice is then ranked by its upper bound), or None;
    ``extra``: more fields of the JSON object (``stream --by``'s refused cases).
    """
    order = {spec: i for i, spec in enumerate(ev.crossings)}
    # crossing by crossing (a stream opens the slices of its crossings interleaved; a file's batch, one after another)
    rows = sorted(ev.table(), key=lambda row: order[tuple(k for k, _ in row["slice"])])
    worst = ev.worst("average_precision", min_cases=WORST_MIN_CASES, confidence=level)
    if fmt == "json":
        from ..streaming import json_safe

        out = []
        for row in rows:
            item = {**row, "slice": str(row["slice"])}
            for m, iv in intervals.get(row["slice"], {}).items():
                item[f"{m}_interval"] = [iv.low, iv.high]
            out.append(json_safe(item))
        print(json.dumps({"source": source, "keys": list(keys), "skipped": skipped, "slices": out,
                          "worst": None if worst is None else str(slice_name(worst.slice)), **(extra or {})}, allow_nan=False))
        return
    headers = ("slice", "cases", "positives", *(h for _, h in COLUMNS))
    if intervals:
        headers += ("AP interval", "ROC AUC interval")
    lines = []
    for row in rows:
        cells = [str(row["slice"]), str(row["num_cases"]), str(row["num_positive_ref"]),
                 *(fmt_value(row[m]) for m, _ in COLUMNS)]
        if intervals:
            ivs = intervals.get(row["slice"], {})
            cells += [_fmt_interval(ivs.get(m)) for m in ("average_precision", "area_under_roc_curve")]
        lines.append(tuple(cells))
    print(f"Source: {source} ({ev.overall.num_cases if () in ev else 0} cases, {len(rows)} slices)")
    print(table(lines, headers, names_first=True))
    if worst is not None:
        how = f"lowest upper {level:g} bound" if level is not None else "lowest value"
        print(f"Worst slice by average precision ({how}, at least {WORST_MIN_CASES} cases): {slice_name(worst.slice)}")


#: The page's headline measure (the first of the HTML page's measures, by which the worst slice is marked).
GAPS_MEASURE = ("average_precision", "average precision")


def _gaps(ev: Any, opts: ReportOptions) -> dict[str, Any] | None:
    """With ``--ci``: the page's gaps table, each slice against the rest of its crossing (Holm-adjusted)."""
    if not opts.intervals.ci:
        return None
    o = opts.intervals
    rows = ev.gaps(GAPS_MEASURE[0], reference="overall", confidence=o.level, correction="holm", n_resamples=o.resamples)
    return {"measure": GAPS_MEASURE[0], "label": GAPS_MEASURE[1], "level": o.level, "correction": "holm", "rows": rows}


def slice_name(pairs: Any) -> str:
    from .._validation.slices import slice_text

    return slice_text(tuple(pairs))


def _fmt_interval(iv: Any) -> str:
    return "" if iv is None else f"[{fmt_value(iv.low)}, {fmt_value(iv.high)}]"


def _intervals(ev: Any, opts: ReportOptions) -> dict[Any, dict[str, Any]]:
    """{slice: {measure: Interval}} of AP (bootstrap) and ROC AUC (DeLong) for every slice holding both classes."""
    from .._uncertainty import confidence_interval

    out: dict[Any, dict[str, Any]] = {}
    o = opts.intervals
    for pairs in ev.slices():
        one = ev[pairs]
        if one.weighted or not one.num_positive_ref or not one.num_negative_ref:
            continue
        out[pairs] = {
            "average_precision": confidence_interval(one, "average_precision", o.level, method="bca" if o.bootstrap == "bca" else "bootstrap",
                                                     n_resamples=o.resamples, seed=o.seed),
            "area_under_roc_curve": confidence_interval(one, "area_under_roc_curve", o.level),
        }
    return out


def add_option(p: Any) -> None:
    """``--by COL[,COL]`` of ``report``."""
    p.add_argument("--by", action="append", metavar="COL[,COL]", default=None,
                   help="report every slice: one per value of COL (or per combination of the columns named), "
                   "beside the overall one; repeat for more crossings (--by region --by region,device). An empty "
                   "field or null is its own slice, (missing)")


__all__ = ["add_option", "correct_column", "crossings", "feature", "has_columns", "open_cases", "print_slices",
           "read", "read_rows", "requested", "run", "slice_name"]
