"""``scored-pr compare A B --by COL[,COL]``: ``compare``'s comparison of two models, per slice.

Each ``--by`` names one crossing (``--by region``: one slice per region;
``--by region,device``: one per pair), as ``report --by`` does; the overall
slice comes first. Each file is read row by row with its feature columns
(CSV, TSV, JSON Lines, Parquet, gzip and standard input, through
:mod:`.sliced`'s reader), each label and score by the readers' own rules and
messages (``file:line: value``), its ids as ``compare`` reads them (text; a
number or boolean by its JSON text) and unique within the file. The slices
are those of a :class:`~scored_pr.SlicedEvaluation` of each file (A's in the
order first seen, then those only B has).

A slice whose cases carry the same ids in A and B is compared as ``compare``
compares two files: joined on the ids (the same label on both sides) and
paired (DeLong's paired test, the paired bootstrap). Any other slice (a case
in one file only, or a case whose feature differs between the files) is
compared unpaired, each model on its own cases (DeLong's unpaired test,
independent bootstraps: :func:`scored_pr.compare` given two evaluators). A
slice that cannot be compared (a class missing, no case in one file) says
why in a note instead of stopping the command.

With ``--html PATH`` the page of ``compare --html`` (the overall slice: both
models' curves overlaid and their comparison, paired or not) adds a sortable
table of every slice's comparison, a note where a slice has none.
"""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING, Any

from .._io.formats import detect
from .._io.values import InputError, parse_label, parse_score
from .compare import COMPARISON_HEADERS, compare_paired, comparison_cells, comparisons_json, join, same_ranking
from .options import CompareOptions
from .output import COMPARABLE, error, interval_method, print_notes, table
from .sliced import correct_column, feature, has_columns, read_rows, requested, slice_name

if TYPE_CHECKING:
    from .._core.stats import Comparison

__all__ = ["run"]

#: One file's cases: id -> (correct, score, the --by features in the order of the keys).
Cases = dict[str, tuple[bool, float, tuple[Any, ...]]]


def case_id(value: Any) -> str:
    """An id as ``compare`` compares it: a string without its surrounding white space, else its JSON text."""
    if isinstance(value, str):
        return value.strip()
    return "" if value is None else json.dumps(value)


def _read(path: str, opts: CompareOptions, score_col: str, keys: tuple[str, ...]) -> tuple[Cases, str] | int:
    """The cases of one file with their features, and its source name; or the exit status of a missing column."""
    from .._validation.slices import feature_value

    fmt = detect(path, opts.input_format).name
    source = "<stdin>" if path == "-" else path
    rows = read_rows(path, fmt, source)
    _, _, columns = next(rows)
    assert columns is not None
    cname = correct_column(opts.correct_col, columns)
    wanted = ((opts.id_col, "id"), (cname, "correctness"), (score_col, "score"), *((k, "--by") for k in keys))
    if not has_columns(source, columns, wanted):
        return 2
    cases: Cases = {}
    first_line: dict[str, int] = {}
    for line, row, _ in rows:
        assert row is not None
        key = case_id(row.get(opts.id_col))
        if key in cases:
            raise InputError(source, line, f"id {key!r} appears twice (first on line {first_line[key]}); "
                             "ids must be unique to join the files one to one")  # fmt: skip
        try:
            correct = parse_label(row.get(cname), cname)
            score = parse_score(row.get(score_col), score_col)
            values = tuple(feature_value(feature(row.get(k), k), k, "compare") for k in keys)
        except (TypeError, ValueError) as exc:
            raise InputError(source, line, str(exc)) from None
        cases[key] = (correct, score, values)
        first_line[key] = line
    return cases, source


def _sliced(cases: Cases, keys: tuple[str, ...], specs: tuple[tuple[str, ...], ...]) -> Any:
    """A :class:`~scored_pr.SlicedEvaluation` of ``cases``: it names, orders and holds each slice's cases."""
    from .._evaluators.sliced import SlicedEvaluation

    ev = SlicedEvaluation(keys, slices=((), *specs))
    values = list(cases.values())
    ev.add_cases([c for c, _, _ in values], [s for _, s, _ in values],
                 **{k: [f[i] for _, _, f in values] for i, k in enumerate(keys)})  # fmt: skip
    return ev


def _members(cases: Cases, keys: tuple[str, ...], specs: tuple[tuple[str, ...], ...]) -> dict[Any, Cases]:
    """The cases of every slice, by its (key, value) pairs (``()``: every case): one pass per crossing.

    The pairs are dictionary keys as in the :class:`~scored_pr.SlicedEvaluation`, so a slice is found
    under the pairs its ``slices()`` names.
    """
    out: dict[Any, Cases] = {(): cases}
    for spec in specs:
        where = [keys.index(k) for k in spec]
        for i, c in cases.items():
            out.setdefault(tuple((k, c[2][j]) for k, j in zip(spec, where)), {})[i] = c
    return out


def _compare_slice(a: Cases, b: Cases, src_a: str, src_b: str, opts: CompareOptions) -> dict[str, Any]:
    """One slice: its counts, whether it was paired, its comparisons (or a note saying why there are none)."""
    from .._uncertainty import compare

    iv = opts.intervals
    out: dict[str, Any] = {
        "num_cases_a": len(a), "num_cases_b": len(b),
        "num_correct_a": sum(c for c, _, _ in a.values()), "num_correct_b": sum(c for c, _, _ in b.values()),
    }  # fmt: skip
    paired = a.keys() == b.keys()
    out["paired"] = paired
    out["same_ranking"] = None
    results: dict[str, Comparison] = {}
    if not a or not b:
        out["note"] = f"no case in {src_b if a else src_a}"
    elif paired:
        correct, sa, sb = join({i: c[:2] for i, c in a.items()}, {i: c[:2] for i, c in b.items()}, src_a, src_b)
        if correct.all() or not correct.any():
            out["note"] = "a class is missing: a comparison needs correct and incorrect cases"
        else:
            results = compare_paired(correct, sa, sb, opts.measures, iv.level, iv.bootstrap, iv.resamples, iv.seed)
            out["same_ranking"] = same_ranking(sa, sb)
    else:
        evs = [_evaluator(side) for side in (a, b)]
        if any(not ev.num_positive_ref or not ev.num_negative_ref for ev in evs):
            out["note"] = "a class is missing in one file: a comparison needs correct and incorrect cases in each"
        else:
            for measure in opts.measures or COMPARABLE:
                results[measure] = compare(
                    evs[0], evs[1], measure=measure, method=interval_method(measure, iv.bootstrap), level=iv.level,
                    n_resamples=iv.resamples, seed=iv.seed,
                )  # fmt: skip
    out["results"] = results
    return out


def _evaluator(cases: Cases) -> Any:
    """An exact evaluator of one file's cases in a slice (the unpaired form of ``compare``)."""
    from .._evaluators.exact import ScoredPrecisionRecallEvaluation

    ev = ScoredPrecisionRecallEvaluation()
    ev.add_cases([c for c, _, _ in cases.values()], [s for _, s, _ in cases.values()])
    return ev


def run(opts: CompareOptions) -> int:
    """``scored-pr compare A B --by ...``: every slice's comparison, as a table or one JSON object; the exit status."""
    asked = requested(opts.by)
    if asked is None:
        return 2
    keys, specs = asked
    if opts.path_a == "-" and opts.path_b == "-":
        raise InputError("<stdin>", None, "only one of A and B can be standard input")
    got_a = _read(opts.path_a, opts, opts.score_col, keys)
    if isinstance(got_a, int):
        return got_a
    got_b = _read(opts.path_b, opts, opts.score_col_b or opts.score_col, keys)
    if isinstance(got_b, int):
        return got_b
    (a, src_a), (b, src_b) = got_a, got_b
    ev_a, ev_b = _sliced(a, keys, specs), _sliced(b, keys, specs)
    order = [*ev_a.slices(), *(p for p in ev_b.slices() if p not in ev_a)]
    in_a, in_b = _members(a, keys, specs), _members(b, keys, specs)
    slices = [(pairs, _compare_slice(in_a.get(pairs, {}), in_b.get(pairs, {}), src_a, src_b, opts)) for pairs in order]
    level = opts.intervals.level
    status = _html(opts.html, ev_a, ev_b, (src_a, src_b), slices) if opts.html else 0
    if opts.format == "json":
        items = []
        for pairs, s in slices:
            item = {"slice": slice_name(pairs), **{k: v for k, v in s.items() if k != "results"},
                    "comparisons": comparisons_json(s["results"])}  # fmt: skip
            items.append(item)
        obj = {"a": src_a, "b": src_b, "id_col": opts.id_col, "keys": list(keys), "level": level, "slices": items}
        print(json.dumps(obj, allow_nan=False))
        return status
    out = sys.stdout
    print(f"A: {src_a}\nB: {src_b}", file=out)
    print(f"{len(slices)} slices by {', '.join(' x '.join(spec) for spec in specs)}; {100 * level:g}% intervals of "
          "A - B, paired where a slice holds the same ids in both files (joined on "
          f"{opts.id_col!r}), unpaired otherwise\n", file=out)  # fmt: skip
    rows = []
    notes: dict[str, str] = {}
    for pairs, s in slices:
        name = slice_name(pairs)
        cases = f"{s['num_cases_a']:,}" if s["paired"] else f"{s['num_cases_a']:,} / {s['num_cases_b']:,}"
        how = "paired" if s["paired"] else "unpaired"
        if "note" in s:
            notes[name] = s["note"]
        for m, r in s["results"].items():
            rows.append((name, cases, how, m, *comparison_cells(r)))
            if r.interval.note:
                notes[f"{name}: {m}"] = r.interval.note
    print(table(rows, ("slice", "cases", "pairing", "measure", *COMPARISON_HEADERS), names_first=True), file=out)
    print_notes(notes, out)
    return status


def _html(path: str, ev_a: Any, ev_b: Any, sources: tuple[str, str], slices: list[tuple[Any, dict[str, Any]]]) -> int:
    """Write the page: both models' overall curves overlaid, the overall comparison, and every slice's; the exit status."""
    import os

    from .. import _html as html
    from .._html import slices as _html_slices
    from .output import write_html

    overall = dict(slices)[()]
    names = (f"A: {os.path.basename(sources[0])}", f"B: {os.path.basename(sources[1])}")
    title = f"scored_pr comparison by slice: {os.path.basename(sources[0])} vs {os.path.basename(sources[1])}"
    rows = _html_slices.comparisons([(slice_name(pairs), s) for pairs, s in slices])
    return write_html(html.render_compare(ev_a.overall, ev_b.overall, names, overall["results"], title,
                                          bool(overall["same_ranking"]), slices=rows, paired=overall["paired"]), path)
