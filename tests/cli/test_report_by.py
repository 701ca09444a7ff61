"""``scored-pr report FILE --by COL[,COL]``: every slice of a file of cases, in every input format.

Each slice's numbers are compared with an exact evaluator fed, by hand, only that slice's rows
(read from the same data written here); a ``--by`` column the file lacks is one line, exit 2.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from scored_pr import ScoredPrecisionRecallEvaluation as E
from scored_pr._cli.main import main
from sliced_files import evaluator_of, write_sliced

ROWS = [
    (1, 0.9, "eu", "m"), (0, 0.8, "eu", "d"), (1, 0.7, "us", "m"), (0, 0.6, "", "d"), (1, 0.5, "us", "d"),
    (0, 0.1, "us", "m"), (1, 0.6, "eu", "d"), (0, 0.6, "eu", "m"),
]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def write(tmp: Path, fmt: str) -> Path:
    return write_sliced(tmp, fmt, ROWS)


def expected(where: dict[str, str]) -> E:
    return evaluator_of(ROWS, where)


@pytest.mark.parametrize("fmt", ["csv", "tsv", "csv.gz", "jsonl", "parquet"])
def test_every_slice_of_every_format_equals_an_evaluator_of_its_rows(tmp_path: Path, fmt: str,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, fmt)
    status, out, err = run(capsys, "report", str(path), "--by", "region", "--by", "region,device", "--format", "json")
    assert status == 0, err
    got = json.loads(out)
    names = [s["slice"] for s in got["slices"]]
    assert names[0] == "overall" and "region=(missing)" in names and "region=eu, device=m" in names
    for item in got["slices"]:
        where = {} if item["slice"] == "overall" else dict(p.split("=") for p in item["slice"].split(", "))
        ref = expected(where).summary()
        assert item["num_cases"] == ref["num_cases"]
        for m in ("average_precision", "area_under_roc_curve", "maximum_f_measure"):
            want = ref[m]
            assert item[m] == (None if np.isnan(want) else want), (item["slice"], m)


def test_text_table_and_intervals(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, "csv")
    status, out, _ = run(capsys, "report", str(path), "--by", "region")
    assert status == 0
    lines = out.splitlines()
    assert lines[0] == f"Source: {path} (8 cases, 4 slices)"
    assert [line.split("|")[1].strip() for line in lines[3:]] == ["overall", "region=eu", "region=us", "region=(missing)"]
    eu = expected({"region": "eu"})
    assert lines[4].split("|")[4].strip() == repr(eu.average_precision())
    status, out, _ = run(capsys, "report", str(path), "--by", "region", "--ci", "--format", "json", "--resamples", "200")
    item = next(s for s in json.loads(out)["slices"] if s["slice"] == "region=eu")
    iv = eu.confidence_interval("area_under_roc_curve", 0.95)
    assert item["area_under_roc_curve_interval"] == [iv.low, iv.high]
    iv = eu.confidence_interval("average_precision", 0.95, method="bootstrap", n_resamples=200, seed=0)
    assert item["average_precision_interval"] == [iv.low, iv.high]


def test_a_by_column_not_in_the_file_is_one_line_and_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, "csv")
    status, out, err = run(capsys, "report", str(path), "--by", "region,country")
    assert status == 2 and out == ""
    assert err == (f"scored-pr: {path}: --by column 'country' is not in the file; its columns are: "
                   "correct, score, region, device\n")


def test_a_bad_row_is_named_with_its_line_or_skipped(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.csv"
    path.write_text("correct,score,region\n1,0.5,eu\nmaybe,0.4,us\n0,0.3,us\n")
    status, _, err = run(capsys, "report", str(path), "--by", "region")
    assert status == 2 and err.startswith(f"scored-pr: {path}:3: ") and "maybe" in err
    status, out, err = run(capsys, "report", str(path), "--by", "region", "--skip-invalid", "--format", "json")
    assert status == 0 and json.loads(out)["skipped"] == 1 and "skipped 1 invalid line" in err


def test_html_page_of_the_slices(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, "csv")
    page = tmp_path / "r.html"
    status, _, _ = run(capsys, "report", str(path), "--by", "region", "--html", str(page))
    text = page.read_text()
    assert status == 0 and "region=(missing)" in text and '"item_noun":"slice"' in text.replace(" ", "")


def test_report_of_a_sliced_state_file_prints_every_slice(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from scored_pr import SlicedEvaluation

    ev = SlicedEvaluation("region")
    ev.add_cases([c for c, *_ in ROWS], [s for _, s, *_ in ROWS], region=[r or None for _, _, r, _ in ROWS])
    ev.save(tmp_path / "sliced.npz")
    status, out, _ = run(capsys, "report", str(tmp_path / "sliced.npz"), "--format", "json")
    got = json.loads(out)
    assert status == 0 and got["kind"] == "sliced" and got["num_slices"] == 4
    assert got["region=eu: average_precision"] == ev.slice(region="eu").average_precision()
    assert got["region=(missing): num_cases"] == 1


def test_html_page_with_ci_shows_each_slices_intervals(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import re

    path = write(tmp_path, "csv")
    page = tmp_path / "r.html"
    status, _, _ = run(capsys, "report", str(path), "--by", "region", "--ci", "--resamples", "200", "--html", str(page))
    assert status == 0
    m = re.search(r'<script type="application/json" id="scored-pr-data">(.*?)</script>', page.read_text(), re.S)
    assert m is not None
    rows = {r["name"]: r for r in json.loads(m.group(1))["items"]}
    eu = expected({"region": "eu"})
    auc = eu.confidence_interval("area_under_roc_curve", 0.95)
    ap = eu.confidence_interval("average_precision", 0.95, method="bootstrap", n_resamples=200, seed=0)
    assert rows["region=eu"]["intervals"] == {
        "average_precision": [ap.low, ap.high, 0.95, "bootstrap"],
        "area_under_roc_curve": [auc.low, auc.high, 0.95, "delong"],
    }
    one_class = [name for name, r in rows.items() if not r["positives"] or not r["negatives"]]
    assert all(rows[name]["intervals"] == {} for name in one_class)
