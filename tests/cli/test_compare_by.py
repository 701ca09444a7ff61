"""``scored-pr compare A B --by COL[,COL]``: ``compare``'s comparison per slice, in every input format.

A slice holding the same ids in both files is held to ``scored-pr compare`` run on two files written
here with only that slice's rows (filtered by hand: the slow literal reference); any other slice to
the library's unpaired ``compare(ev_a, ev_b)`` of evaluators fed, by hand, each file's rows of the
slice. A ``--by`` column a file lacks is one line naming it and the file's columns, exit 2.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from scored_pr import ScoredPrecisionRecallEvaluation as E
from scored_pr import compare
from scored_pr._cli.main import main

FIELDS = ("id", "correct", "score", "region", "device")
RESAMPLES = "100"  # the fewest the command's --resamples accepts is 10: enough to hold two runs equal


def _rows(seed: int, n: int = 120) -> list[tuple[str, int, float, str, str]]:
    """Cases with rounded scores (ties across classes) and a missing region on some rows."""
    rng = np.random.default_rng(seed)
    correct = rng.random(n) < 0.45
    score = np.round(0.4 * correct + rng.random(n) * 0.7, 2)
    region = rng.choice(["eu", "us", ""], n, p=[0.45, 0.45, 0.1])
    device = rng.choice(["m", "d"], n)
    return [(f"k{i:03d}", int(correct[i]), float(score[i]), str(region[i]), str(device[i])) for i in range(n)]


A_ROWS = _rows(1)
#: B: the same cases scored by another model, in another order
B_ROWS = [(i, c, round(min(1.0, s * 0.8 + 0.1 * (k % 3)), 2), r, d) for k, (i, c, s, r, d) in enumerate(A_ROWS)][::-1]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def write(path: Path, rows: list[tuple[Any, ...]], fmt: str) -> str:
    """``rows`` as a file of format ``fmt`` (an empty region: an empty field, a JSON or Parquet null)."""
    if fmt in ("csv", "tsv", "csv.gz"):
        sep = "\t" if fmt == "tsv" else ","
        text = sep.join(FIELDS) + "\n" + "".join(sep.join(map(str, r)) + "\n" for r in rows)
        path = path.with_suffix("." + fmt)
        path.write_bytes(gzip.compress(text.encode()) if fmt.endswith(".gz") else text.encode())
        return str(path)
    if fmt == "jsonl":
        path = path.with_suffix(".jsonl")
        path.write_text("".join(json.dumps({"id": i, "correct": c, "score": s, "region": r or None, "device": d}) + "\n"
                                for i, c, s, r, d in rows))
        return str(path)
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    path = path.with_suffix(".parquet")
    columns = list(zip(*rows)) if rows else [[] for _ in FIELDS]
    pq.write_table(pa.table({"id": list(columns[0]), "correct": list(columns[1]), "score": list(columns[2]),
                             "region": [r or None for r in columns[3]], "device": list(columns[4])}), path)
    return str(path)


def in_slice(row: tuple[Any, ...], name: str) -> bool:
    """Whether ``row`` belongs to the slice the command names ``name`` (``region=eu, device=m``, ``overall``)."""
    if name == "overall":
        return True
    values = {"region": row[3] or "(missing)", "device": row[4]}
    return all(values[k] == v for k, v in (p.split("=") for p in name.split(", ")))


def json_of(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, Any]:
    status, out, err = run(capsys, *argv, "--format", "json", "--resamples", RESAMPLES, "--seed", "3")
    assert status == 0, err
    return json.loads(out)


@pytest.mark.parametrize("fmt", ["csv", "tsv", "csv.gz", "jsonl", "parquet"])
def test_each_paired_slice_equals_compare_on_the_files_filtered_to_it(tmp_path: Path, fmt: str,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    a, b = write(tmp_path / "a", A_ROWS, fmt), write(tmp_path / "b", B_ROWS, fmt)
    got = json_of(capsys, "compare", a, b, "--by", "region", "--by", "region,device")
    names = [s["slice"] for s in got["slices"]]
    assert names[0] == "overall" and "region=(missing)" in names and "region=eu, device=m" in names
    assert len(names) == len(set(names)) == 1 + 3 + 6
    for item in got["slices"]:
        name = item["slice"]
        assert item["paired"] is True, name  # the same cases in both files: every slice is paired
        fa = write(tmp_path / "fa", [r for r in A_ROWS if in_slice(r, name)], fmt)
        fb = write(tmp_path / "fb", [r for r in B_ROWS if in_slice(r, name)], fmt)
        want = json_of(capsys, "compare", fa, fb)
        assert item["comparisons"] == want["comparisons"], name
        assert item["same_ranking"] == want["same_ranking"]
        assert item["num_cases_a"] == item["num_cases_b"] == want["num_cases"]
        assert item["num_correct_a"] == want["num_correct"]


def test_a_slice_whose_cases_differ_is_compared_unpaired(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # B drops some cases and moves others to another region: those slices hold other ids in B
    moved = {"k000", "k001", "k002", "k003"}
    b_rows = [(i, c, s, "us" if i in moved and r == "eu" else r, d) for i, c, s, r, d in B_ROWS if i not in ("k010", "k011")]
    a, b = write(tmp_path / "a", A_ROWS, "csv"), write(tmp_path / "b", b_rows, "jsonl")
    got = json_of(capsys, "compare", a, b, "--by", "region")
    by_name = {s["slice"]: s for s in got["slices"]}
    for name, item in by_name.items():
        ra = [r for r in A_ROWS if in_slice(r, name)]
        rb = [r for r in b_rows if in_slice(r, name)]
        assert (item["num_cases_a"], item["num_cases_b"]) == (len(ra), len(rb))
        same_ids = {r[0] for r in ra} == {r[0] for r in rb}
        assert item["paired"] is same_ids, name
        if same_ids:
            continue
        assert item["same_ranking"] is None
        ev_a, ev_b = E(), E()
        for ev, rows in ((ev_a, ra), (ev_b, rb)):
            for _, c, s, _, _ in rows:
                ev.add_case(bool(c), s)
        for m, method in (("area_under_roc_curve", "delong"), ("average_precision", "bootstrap")):
            ref = compare(ev_a, ev_b, measure=m, method=method, level=0.95, n_resamples=int(RESAMPLES), seed=3)
            c = item["comparisons"][m]
            assert (c["a"], c["b"], c["difference"], c["low"], c["high"], c["method"]) == (
                ref.estimate_a, ref.estimate_b, ref.difference, ref.interval.low, ref.interval.high, ref.method), (name, m)
            assert c["p_value"] == ref.p_value
    # two cases fewer in B, four moved from eu to us: those slices unpaired
    assert not by_name["overall"]["paired"] and not by_name["region=eu"]["paired"] and not by_name["region=us"]["paired"]


def test_json_shape_and_the_text_table(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    a, b = write(tmp_path / "a", A_ROWS, "csv"), write(tmp_path / "b", B_ROWS, "csv")
    got = json_of(capsys, "compare", a, b, "--by", "device", "--measure", "area_under_roc_curve", "--level", "0.9")
    assert set(got) == {"a", "b", "id_col", "keys", "level", "slices"}
    assert (got["a"], got["b"], got["id_col"], got["keys"], got["level"]) == (a, b, "id", ["device"], 0.9)
    assert [s["slice"] for s in got["slices"]] == ["overall", "device=" + A_ROWS[0][4], "device=" + ("d" if A_ROWS[0][4] == "m" else "m")]
    for item in got["slices"]:
        assert set(item) == {"slice", "num_cases_a", "num_cases_b", "num_correct_a", "num_correct_b", "paired",
                             "same_ranking", "comparisons"}
        assert set(item["comparisons"]) == {"area_under_roc_curve"}
        assert set(item["comparisons"]["area_under_roc_curve"]) == {"a", "b", "difference", "low", "high",
                                                                    "statistic", "p_value", "method"}
    status, out, err = run(capsys, "compare", a, b, "--by", "device", "--measure", "area_under_roc_curve",
                           "--level", "0.9")
    assert status == 0 and err == ""
    lines = out.splitlines()
    assert lines[:2] == [f"A: {a}", f"B: {b}"] and lines[2].startswith("3 slices by device; 90% intervals of A - B")
    for item in got["slices"]:
        c = item["comparisons"]["area_under_roc_curve"]
        row = next(x for x in lines if x.startswith(f"| {item['slice']} "))
        cells = [x.strip() for x in row.strip("|").split("|")]
        assert cells[1:4] == [f"{item['num_cases_a']:,}", "paired", "area_under_roc_curve"]
        assert cells[4:7] == [f"{c['a']:.6f}", f"{c['b']:.6f}", f"{c['difference']:+.6f}"]


def test_a_slice_that_cannot_be_compared_says_why_and_the_others_go_on(tmp_path: Path,
                                                                       capsys: pytest.CaptureFixture[str]) -> None:
    rows = [("a", 1, 0.9, "eu", "m"), ("b", 0, 0.2, "eu", "m"), ("c", 1, 0.8, "us", "m"), ("d", 1, 0.7, "us", "d")]
    other = [(i, c, 1 - s, r, d) for i, c, s, r, d in rows] + [("e", 0, 0.5, "fr", "m")]
    a, b = write(tmp_path / "a", rows, "csv"), write(tmp_path / "b", other, "csv")
    got = json_of(capsys, "compare", a, b, "--by", "region")
    notes = {s["slice"]: s.get("note") for s in got["slices"]}
    assert notes["region=eu"] is None and got["slices"][1]["comparisons"]
    assert "class is missing" in notes["region=us"]
    assert notes["region=fr"] == f"no case in {a}"
    status, out, err = run(capsys, "compare", a, b, "--by", "region", "--resamples", RESAMPLES)
    assert status == 0 and f"  note: region=fr: no case in {a}" in out.splitlines()


@pytest.mark.parametrize("which", ["a", "b"])
def test_a_by_column_missing_from_a_file_is_one_line_naming_it_and_the_columns(
        tmp_path: Path, which: str, capsys: pytest.CaptureFixture[str]) -> None:
    a, b = write(tmp_path / "a", A_ROWS, "csv"), write(tmp_path / "b", B_ROWS, "tsv")
    bad = tmp_path / f"{which}.jsonl"
    bad.write_text("".join(json.dumps({"id": i, "correct": c, "score": s}) + "\n" for i, c, s, _, _ in A_ROWS))
    argv = [str(bad), b] if which == "a" else [a, str(bad)]
    status, out, err = run(capsys, "compare", *argv, "--by", "region,device")
    assert status == 2 and out == ""
    assert err.splitlines() == [f"scored-pr: {bad}: --by column 'region' is not in the file; its columns are: "
                                "id, correct, score"]


@pytest.mark.parametrize(("argv", "message"), [
    (["--by", ","], "--by: expected one or more column names"),
    (["--by", "region", "--id-col", "key"], "id column 'key' is not in the file"),
])  # fmt: skip
def test_bad_requests_are_one_line_and_status_2(tmp_path: Path, argv: list[str], message: str,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    a, b = write(tmp_path / "a", A_ROWS, "csv"), write(tmp_path / "b", B_ROWS, "csv")
    status, out, err = run(capsys, "compare", a, b, *argv)
    assert status == 2 and out == "" and len(err.splitlines()) == 1 and message in err
    assert not (tmp_path / "x.html").exists()


def test_a_repeated_id_is_refused_as_compare_refuses_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    a = write(tmp_path / "a", [*A_ROWS, A_ROWS[5]], "csv")
    b = write(tmp_path / "b", B_ROWS, "csv")
    status, out, err = run(capsys, "compare", a, b, "--by", "region")
    assert status == 2 and out == ""
    assert err == (f"scored-pr: {a}:{len(A_ROWS) + 2}: id 'k005' appears twice (first on line 7); "
                   "ids must be unique to join the files one to one\n")


def _page_data(path: Path) -> dict[str, Any]:
    """The data a page carries (its ``<script id="scored-pr-data">``), as the page's script reads it."""
    text = path.read_text(encoding="utf-8")
    start = text.index('<script type="application/json" id="scored-pr-data">') + len('<script type="application/json" id="scored-pr-data">')
    return json.loads(text[start:text.index("</script>", start)])


def test_html_page_holds_every_slices_comparison_as_the_json_report(tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    moved = {"k000", "k001", "k002", "k003"}  # region=eu and region=us hold other ids in B: compared unpaired
    b_rows = [(i, c, s, "us" if i in moved and r == "eu" else r, d) for i, c, s, r, d in B_ROWS]
    a, b = write(tmp_path / "a", A_ROWS, "csv"), write(tmp_path / "b", b_rows, "csv")
    page = tmp_path / "cmp.html"
    status, out, err = run(capsys, "compare", a, b, "--by", "region", "--html", str(page), "--format", "json",
                           "--resamples", RESAMPLES, "--seed", "3")
    assert status == 0 and err == f"scored-pr: wrote {page}\n"
    got = json.loads(out)
    data = _page_data(page)
    assert data["layout"] == "compare" and data["paired"] is True
    # the overall slice: both models' curves and its comparison, as compare --html draws two files
    overall = got["slices"][0]
    assert [r["name"] for r in data["rankings"]] == ["A: a.csv", "B: b.csv"]
    assert {c["measure"]: c["p_value"] for c in data["comparisons"]} == {
        m: c["p_value"] for m, c in overall["comparisons"].items()}
    # every slice's comparison: a row per measure, as the JSON report gives it
    rows = data["slice_comparisons"]
    want = [(s["slice"], m, s["paired"], c["difference"], c["low"], c["high"], c["p_value"])
            for s in got["slices"] for m, c in s["comparisons"].items()]
    assert [(r["name"], r["measure"], r["paired"], r["difference"], r["low"], r["high"], r["p_value"])
            for r in rows if r["measure"] is not None] == want
    assert {r["name"]: r["paired"] for r in rows} == {"overall": True, "region=eu": False, "region=us": False,
                                                       "region=(missing)": True}


def test_html_page_says_why_a_slice_has_no_comparison(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rows = [r for r in A_ROWS if r[3] != "us"] + [("u1", 1, 0.5, "us", "m"), ("u2", 1, 0.4, "us", "d")]
    a, b = write(tmp_path / "a", rows, "csv"), write(tmp_path / "b", rows, "csv")
    page = tmp_path / "cmp.html"
    status, _, _ = run(capsys, "compare", a, b, "--by", "region", "--html", str(page), "--resamples", RESAMPLES)
    assert status == 0
    us = [r for r in _page_data(page)["slice_comparisons"] if r["name"] == "region=us"]
    assert us == [{"name": "region=us", "num_cases_a": 2, "num_cases_b": 2, "paired": True, "measure": None,
                   "note": "a class is missing: a comparison needs correct and incorrect cases"}]


def test_an_html_page_that_cannot_be_written_is_status_1_after_the_table(tmp_path: Path,
                                                                        capsys: pytest.CaptureFixture[str]) -> None:
    a, b = write(tmp_path / "a", A_ROWS, "csv"), write(tmp_path / "b", B_ROWS, "csv")
    status, out, err = run(capsys, "compare", a, b, "--by", "region", "--html", str(tmp_path / "no" / "x.html"),
                           "--resamples", RESAMPLES)
    assert status == 1 and "| overall" in out and "cannot write the HTML report" in err
