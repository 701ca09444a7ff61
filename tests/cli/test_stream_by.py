"""``scored-pr stream --by COL[,COL]``: every slice of a stream, in every input format.

The stream runs as a user runs it: ``python -m scored_pr`` in a subprocess with a clean
environment (``cli_env.clean_env``: no PYTHONUNBUFFERED), its input a file or standard input.
Each slice's final numbers are held equal to ``report --by`` on the same rows, and the summary
lines to an exact evaluator fed the slice's rows read so far. ``--max-slices``: the stream goes
on, the cases of a slice over the limit are left out (said once, counted at the end), and the
slices kept equal ``report --by`` of the rows that were not left out. The Prometheus exposition
is scraped over HTTP from ``--metrics-port`` (the server tier: tests/tiers.py).
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from cli_env import CMD, ROOT, clean_env, metrics_stream, scrape_after
from scored_pr._cli.main import main
from sliced_files import evaluator_of, write_sliced

ROWS = [
    (1, 0.9, "eu", "m"), (0, 0.8, "eu", "d"), (1, 0.7, "us", "m"), (0, 0.6, "", "d"), (1, 0.5, "us", "d"),
    (0, 0.1, "us", "m"), (1, 0.6, "eu", "d"), (0, 0.6, "eu", "m"), (1, 0.3, "asia", "m"), (0, 0.35, "asia", "d"),
    (1, 0.45, "eu", "m"), (0, 0.2, "us", "d"),
]


def scored_pr(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*CMD, *args], input=stdin, capture_output=True, text=True, timeout=120, cwd=ROOT,
                          env=clean_env())


def csv_text(rows: list[tuple[Any, ...]] = ROWS, sep: str = ",") -> str:
    return sep.join(("correct", "score", "region", "device")) + "\n" + "".join(sep.join(map(str, r)) + "\n" for r in rows)


def write(tmp: Path, fmt: str) -> Path:
    return write_sliced(tmp, fmt, ROWS)


def report_by(capsys: pytest.CaptureFixture[str], path: Path, *by: str) -> dict[str, Any]:
    status = main(["report", str(path), *by, "--format", "json"])
    out, err = capsys.readouterr()
    assert status == 0, err
    return json.loads(out)


def json_lines(out: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in out.splitlines() if line.strip()]


exact = evaluator_of


def by_name(slices: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """The slices of a JSON report by name (the order within a crossing is the order the slices were opened)."""
    return {s["slice"]: s for s in slices}


def where_of(name: str) -> dict[str, str]:
    return {} if name == "overall" else dict(p.split("=") for p in name.split(", "))


BY = ("--by", "region", "--by", "region,device")


@pytest.mark.parametrize("fmt", ["csv", "tsv", "csv.gz", "jsonl", "parquet"])
def test_every_slice_at_the_end_equals_report_by_on_the_same_rows(tmp_path: Path, fmt: str,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, fmt)
    want = report_by(capsys, path, *BY)
    got = scored_pr("stream", str(path), *BY, "--every", "5", "--format", "json")
    assert got.returncode == 0 and got.stderr == "", got.stderr
    lines = json_lines(got.stdout)
    assert [x["step"] for x in lines[:-1]] == [5, 10] and [x["final"] for x in lines] == [False, False, True]
    final = lines[-1]
    assert by_name(final["slices"]) == by_name(want["slices"]) and len(final["slices"]) == 12
    assert final["worst"] == want["worst"] and final["keys"] == ["region", "device"]
    assert final["refused_cases"] == 0 and final["max_slices"] == 10_000
    # each summary line holds every slice opened so far, each what an evaluator of its rows so far says
    for line in lines[:-1]:
        seen = ROWS[:line["step"]]
        names = [k for k, v in line.items() if isinstance(v, dict)]
        assert names[0] == "overall"
        for name in names:
            ref = exact(seen, where_of(name)).summary()
            assert line[name]["num_cases"] == ref["num_cases"], name
            for m in ("average_precision", "area_under_roc_curve", "maximum_f_measure"):
                assert line[name][m] == (None if np.isnan(ref[m]) else ref[m]), (name, m)


def test_standard_input_and_the_text_output(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    got = scored_pr("stream", "-", "--by", "region", "--every", "6", stdin=csv_text())
    assert got.returncode == 0, got.stderr
    text = got.stdout.splitlines()
    assert text[0] == "step 6:" and text[1].startswith("  overall: cases=6 pos=3 AP=")
    assert [line.split(":")[0].strip() for line in text[1:5]] == ["overall", "region=eu", "region=us", "region=(missing)"]
    eu = exact(ROWS[:6], {"region": "eu"})
    assert f"region=eu: cases=2 pos=1 AP={eu.average_precision():.4f}" in text[2]
    # the end is report --by's text table of the same rows
    path = tmp_path / "p.csv"
    path.write_text(csv_text())
    assert main(["report", str(path), "--by", "region"]) == 0
    table = capsys.readouterr().out.splitlines()
    end = text[text.index("") + 1:]
    assert end[0] == "Source: <stdin> (12 cases, 5 slices)" and end[1:] == table[1:]


def test_a_by_column_not_in_the_input_is_one_line_and_exit_2(tmp_path: Path) -> None:
    got = scored_pr("stream", "-", "--by", "region,country", stdin=csv_text())
    assert got.returncode == 2 and got.stdout == ""
    assert got.stderr == ("scored-pr: <stdin>: --by column 'country' is not in the file; its columns are: "
                          "correct, score, region, device\n")
    path = write(tmp_path, "jsonl")
    got = scored_pr("stream", str(path), "--by", "country")
    assert got.returncode == 2 and got.stdout == "" and len(got.stderr.splitlines()) == 1
    assert "--by column 'country' is not in the file; its columns are: correct, score, region, device" in got.stderr


def test_at_max_slices_the_stream_goes_on_without_the_cases_of_new_slices(tmp_path: Path,
                                                                         capsys: pytest.CaptureFixture[str]) -> None:
    got = scored_pr("stream", "-", "--by", "region", "--max-slices", "2", "--every", "100", "--format", "json",
                    stdin=csv_text())
    assert got.returncode == 0, got.stderr
    err = got.stderr.splitlines()
    # the first refusal: one line naming the slice, the count it would make, and the line
    assert err[0] == ("scored-pr: <stdin>:5: --max-slices 2: the slice region=(missing) would be slice 3; its cases are "
                      "left out and the stream goes on (every case of a new slice from here on is counted, and said at "
                      "the end)")
    assert err[1] == ("scored-pr: --max-slices 2: 3 cases left out (of every slice, overall included), of 2 slices not "
                      "opened: region=(missing); region=asia")
    assert len(err) == 2
    final = json_lines(got.stdout)[-1]
    assert (final["refused_cases"], final["refused_slices"], final["max_slices"]) == (3, 2, 2)
    kept = [r for r in ROWS if r[2] in ("eu", "us")]
    path = tmp_path / "kept.csv"
    path.write_text(csv_text(kept))
    assert by_name(final["slices"]) == by_name(report_by(capsys, path, "--by", "region")["slices"])


def test_a_refused_feature_value_stops_the_stream_or_is_skipped(tmp_path: Path) -> None:
    lines = [json.dumps({"correct": 1, "score": 0.5, "region": "eu"}), '{"correct": 0, "score": 0.4, "region": Infinity}',
             json.dumps({"correct": 0, "score": 0.3, "region": "us"})]
    path = tmp_path / "bad.jsonl"
    path.write_text("\n".join(lines) + "\n")
    got = scored_pr("stream", str(path), "--by", "region", "--format", "json")
    assert got.returncode == 2 and got.stderr.startswith(f"scored-pr: {path}:2: ") and "region" in got.stderr
    assert json_lines(got.stdout)[-1]["slices"][0]["num_cases"] == 1  # the report of the cases read before it
    got = scored_pr("stream", str(path), "--by", "region", "--format", "json", "--skip-invalid")
    assert got.returncode == 0 and "skipped 1 invalid line" in got.stderr
    assert [s["slice"] for s in json_lines(got.stdout)[-1]["slices"]] == ["overall", "region=eu", "region=us"]


@pytest.mark.parametrize("extra, message", [
    (("--window", "5", "--cumulative"), "--by: --cumulative (a window beside every case) does not go with --by; run "
     "--by with and without --window"),
    (("--window-seconds", "5", "--checkpoint", "cp.npz"), "--by: --window-seconds keeps times of this process only; "
     "it does not go with --checkpoint or --resume (use --window N)"),
    (("--misses", "3"), "--by: --misses has no slice; it does not go with --by"),
])
def test_options_that_do_not_go_with_by_are_one_line_and_exit_2(extra: tuple[str, ...], message: str,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["stream", "-", "--by", "region", *extra]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err == f"scored-pr: {message}\n"


def test_max_slices_without_by_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["stream", "-", "--max-slices", "3"]) == 2
    assert capsys.readouterr().err == "scored-pr: --max-slices goes with --by COL (the most slices of a stream by slice)\n"


def test_metrics_port_serves_one_series_per_slice_with_a_label_per_key(capsys: pytest.CaptureFixture[str],
                                                                       tmp_path: Path) -> None:
    pytest.importorskip("prometheus_client")
    proc, url = metrics_stream("-", "--by", "region", "--by", "region,device", "--every", "12", "--format", "json")
    try:
        assert proc.stdin is not None and proc.stdout is not None
        proc.stdin.write(csv_text())
        proc.stdin.flush()
        line = json.loads(proc.stdout.readline())
        assert line["step"] == 12
        text = scrape_after(url, 12)
        series = {(device, region): float(value) for device, region, value in re.findall(
            r'^scored_pr_average_precision\{device="([^"]*)",region="([^"]*)",scope="cumulative"\} (\S+)$', text, re.M)}
        names = [k for k, v in line.items() if isinstance(v, dict)]
        assert len(series) == len(names) == 12
        for name in names:
            where = where_of(name)
            want = exact(ROWS, where).average_precision()
            got = series[(where.get("device", ""), where.get("region", ""))]
            assert got == want or (np.isnan(got) and np.isnan(want)), name
        proc.stdin.close()
        assert proc.wait(timeout=60) == 0
        path = tmp_path / "p.csv"
        path.write_text(csv_text())
        final = json.loads(proc.stdout.read().strip().splitlines()[-1])
        assert by_name(final["slices"]) == by_name(report_by(capsys, path, *BY)["slices"])
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
