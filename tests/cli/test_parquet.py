"""Parquet input of ``scored-pr report`` and ``stream``, held to the CSV path on the same data.

A Parquet file holding the same rows as a CSV file gives the same report,
the same summary lines and the same wide-file tables (ties included: scores
in steps of 0.1); files of many row groups are read batch by batch; a bad
row, a missing column and a missing pyarrow each give one line naming what
is wrong. Most tests run the command in process (fast); one runs it as a
subprocess in a clean environment.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

from cli_env import CMD, ROOT, clean_env  # noqa: E402

from scored_pr._cli import output as _cli_output  # noqa: E402
from scored_pr._cli.main import main  # noqa: E402
from scored_pr._io import parquet as _parquet  # noqa: E402
from scored_pr._io.formats import detect  # noqa: E402


def run_main(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        code = main(list(argv))
    except SystemExit as exc:  # argparse's usage errors
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def binary_data(seed: int, n: int = 500) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    s = np.round(rng.random(n) * 10) / 10  # many ties
    return rng.random(n) < 0.2 + 0.6 * s, s


def write_pair(tmp_path: Path, columns: dict[str, Any], row_group_size: int = 64, name: str = "pred") -> tuple[Path, Path]:
    """The same columns as a Parquet file (several row groups) and a CSV file."""
    table = pa.table(columns)
    parquet = tmp_path / f"{name}.parquet"
    pq.write_table(table, parquet, row_group_size=row_group_size)
    csv = tmp_path / f"{name}.csv"
    names = list(columns)
    lines = [",".join(names)]
    for row in zip(*(table.column(c).to_pylist() for c in names)):
        lines.append(",".join(repr(v) if isinstance(v, float) else str(int(v) if isinstance(v, bool) else v) for v in row))
    csv.write_text("\n".join(lines) + "\n")
    return parquet, csv


def same_json(a: str, b: str, source_a: Path, source_b: Path) -> None:
    """Two JSON outputs (one object, or JSON Lines) equal but for the file each names."""
    la, lb = a.splitlines(), b.splitlines()
    assert len(la) == len(lb) and la
    for x, y in zip(la, lb):
        assert json.loads(x.replace(str(source_a), "SRC")) == json.loads(y.replace(str(source_b), "SRC"))


@pytest.mark.parametrize("ties", ["grouped", "stable"])
def test_report_equals_the_csv_path_over_many_row_groups(tmp_path: Path, capsys: pytest.CaptureFixture[str], ties: str) -> None:
    y, s = binary_data(1)
    parquet, csv = write_pair(tmp_path, {"id": np.arange(y.size), "y": y, "p": s})
    assert pq.ParquetFile(parquet).metadata.num_row_groups == 8
    for fmt in ("json", "text", "table"):
        code, out_p, _ = run_main(capsys, "report", str(parquet), "--correct-col", "y", "--score-col", "p", "--ties", ties,
                                  "--format", fmt)
        code_c, out_c, _ = run_main(capsys, "report", str(csv), "--correct-col", "y", "--score-col", "p", "--ties", ties,
                                    "--format", fmt)
        assert code == code_c == 0
        if fmt == "json":
            same_json(out_p, out_c, parquet, csv)
        else:
            assert out_p.replace(str(parquet), "SRC") == out_c.replace(str(csv), "SRC")


@pytest.mark.parametrize("labels", ["int", "float", "str", "bool"])
def test_label_and_score_types(tmp_path: Path, capsys: pytest.CaptureFixture[str], labels: str) -> None:
    """Labels as bools, 0/1 integers, -1/1 floats or yes/no strings; int and float32 scores: as the CSV path reads them."""
    y, s = binary_data(2, n=200)
    column: Any = {"int": y.astype(np.int32), "float": np.where(y, 1.0, -1.0), "str": np.where(y, "yes", "no"),
                   "bool": y}[labels]
    scores = (s * 10).astype(np.int64) if labels == "int" else s.astype(np.float32).astype(np.float64)
    parquet, csv = write_pair(tmp_path, {"correct": column, "score": scores})
    code, out_p, err = run_main(capsys, "report", str(parquet), "--format", "json")
    assert code == 0, err
    code, out_c, _ = run_main(capsys, "report", str(csv), "--format", "json")
    same_json(out_p, out_c, parquet, csv)


def test_positive_label_on_a_string_column(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    y, s = binary_data(3, n=100)
    parquet, csv = write_pair(tmp_path, {"label": np.where(y, "spam", "ham"), "score": s}, row_group_size=30)
    outs = [run_main(capsys, "report", str(p), "--positive-label", "spam", "--format", "json") for p in (parquet, csv)]
    assert outs[0][0] == outs[1][0] == 0
    same_json(outs[0][1], outs[1][1], parquet, csv)


def test_bad_rows_stop_or_are_skipped_naming_the_row(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    table = pa.table({"correct": pa.array([1, 0, None, 1, 2, 0]), "score": pa.array([0.5, 0.4, 0.3, float("nan"), 0.1, None])})
    path = tmp_path / "bad.parquet"
    pq.write_table(table, path, row_group_size=2)
    code, out, err = run_main(capsys, "report", str(path))
    assert code == 2 and out == ""
    assert err == f"scored-pr: {path}: row 3: missing label in column 'correct'\n"
    code, out, err = run_main(capsys, "report", str(path), "--skip-invalid", "--format", "json")
    assert code == 0
    assert err.splitlines() == [
        f"scored-pr: skipped {path}: row 3: missing label in column 'correct'",
        f"scored-pr: skipped {path}: row 4: invalid score nan in column 'score' (NaN is not a score)",
        f"scored-pr: skipped {path}: row 5: invalid label 2 in column 'correct' (expected 1/0, -1/1, true/false, "
        "yes/no, or a --positive-label)",
        f"scored-pr: skipped {path}: row 6: missing score in column 'score'",
        f"scored-pr: skipped 4 invalid lines in {path}",
    ]
    got = json.loads(out)
    assert got["skipped_lines"] == 4 and got["num_cases"] == 2 and got["average_precision"] == 1.0


@pytest.mark.parametrize(("argv", "message"), [
    (["--correct-col", "truth"], "no column 'truth' in the file (columns: 'id', 'y', 'p'); use --correct-col"),
    (["--correct-col", "y", "--score-col", "prob"], "no column 'prob' in the file (columns: 'id', 'y', 'p'); use --score-col"),
    ([], "no column 'correct' or 'label' in the file (columns: 'id', 'y', 'p'); use --correct-col"),
    (["--label-col", "y", "--score-cols", "p,q"], "--score-cols: no column 'q' among the columns found ('id', 'y', 'p')"),
])
def test_a_missing_column_is_named_with_those_present(tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str],
                                                      message: str) -> None:
    y, s = binary_data(4, n=10)
    parquet, _ = write_pair(tmp_path, {"id": np.arange(10), "y": y, "p": s})
    for command in ("report", "stream"):
        code, out, err = run_main(capsys, command, str(parquet), *argv)
        assert code == 2 and out == "" and err == f"scored-pr: {parquet}: {message}\n", (command, err)


def test_missing_pyarrow_names_the_extra(tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    y, s = binary_data(5, n=10)
    parquet, _ = write_pair(tmp_path, {"correct": y, "score": s})
    for name in [m for m in sys.modules if m == "pyarrow" or m.startswith("pyarrow.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "pyarrow", None)  # `import pyarrow` raises ImportError, as when it is not installed
    monkeypatch.setitem(sys.modules, "pyarrow.parquet", None)
    for argv in (["report", str(parquet)], ["stream", str(parquet)], ["report", str(parquet), "--label-cols", "correct,x",
                                                                       "--score-cols", "score,y"]):
        code, out, err = run_main(capsys, *argv)
        assert code == 2 and out == ""
        assert err == (f"scored-pr: {parquet}: reading Parquet needs pyarrow, the optional extra 'parquet': pip install "
                       "pyarrow (or, in a checkout of scored_pr, pip install '.[parquet]')\n")


def test_format_from_magic_bytes_option_and_standard_input(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    y, s = binary_data(6, n=50)
    parquet, csv = write_pair(tmp_path, {"correct": y, "score": s})
    plain = tmp_path / "predictions"  # no suffix: Parquet's magic bytes say it
    plain.write_bytes(parquet.read_bytes())
    assert detect(str(plain)).name == "parquet" and detect(str(csv)).name != "parquet"
    want = run_main(capsys, "report", str(csv), "--format", "json")[1]
    same_json(run_main(capsys, "report", str(plain), "--format", "json")[1], want, plain, csv)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(parquet.read_bytes())))
    code, out, err = run_main(capsys, "report", "-", "--input-format", "parquet", "--format", "json")
    assert code == 0, err
    same_json(out, want, "<stdin>", csv)  # type: ignore[arg-type]
    not_parquet = tmp_path / "x.parquet"
    not_parquet.write_text("correct,score\n1,0.5\n")
    code, _, err = run_main(capsys, "report", str(not_parquet))
    assert code == 2 and err.startswith(f"scored-pr: {not_parquet}: not a readable Parquet file (")


def test_stream_equals_the_csv_stream(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    y, s = binary_data(7, n=300)
    parquet, csv = write_pair(tmp_path, {"y": y, "p": s}, row_group_size=47)
    args = ["--correct-col", "y", "--score-col", "p", "--every", "40", "--format", "json"]
    outs = [run_main(capsys, "stream", str(p), *args) for p in (parquet, csv)]
    assert outs[0][0] == outs[1][0] == 0
    lines = [[{k: v for k, v in json.loads(x).items() if k != "time"} for x in out.splitlines()] for _, out, _ in outs]
    assert len(lines[0]) == 8 and lines[0][:-1] == lines[1][:-1]
    assert {**lines[0][-1], "source": "SRC"} == {**lines[1][-1], "source": "SRC"}
    cp = tmp_path / "cp.npz"  # checkpoints count rows: a resumed run skips those it consumed
    pq.write_table(pa.table({"y": y[:120], "p": s[:120]}), tmp_path / "head.parquet", row_group_size=47)
    assert run_main(capsys, "stream", str(tmp_path / "head.parquet"), *args, "--checkpoint", str(cp))[0] == 0
    code, out, _ = run_main(capsys, "stream", str(parquet), *args, "--resume", str(cp))
    assert code == 0 and json.loads(out.splitlines()[-1]) == json.loads(outs[0][1].splitlines()[-1])


def wide_tables(seed: int, n: int = 120) -> tuple[dict[str, Any], dict[str, Any]]:
    rng = np.random.default_rng(seed)
    classes = ["cat", "dog", "bird"]
    parts = np.array([np.bincount(rng.integers(0, 3, 10), minlength=3) for _ in range(n)]) / 10.0
    y = np.where(rng.random(n) < 0.5, parts.argmax(axis=1), rng.integers(0, 3, n))
    multiclass = {"y": np.array(classes)[y], **{f"p_{c}": parts[:, j] for j, c in enumerate(classes)}}
    s = np.round(rng.random((n, 3)) * 5) / 5
    t = rng.random((n, 3)) < 0.2 + 0.6 * s
    multilabel = {**{c: t[:, j].astype(np.int64) for j, c in enumerate("abc")}, **{f"s_{c}": s[:, j] for j, c in enumerate("abc")}}
    return multiclass, multilabel


@pytest.mark.parametrize("layout", ["multiclass", "multilabel"])
def test_wide_report_and_stream_equal_the_csv_path(tmp_path: Path, capsys: pytest.CaptureFixture[str], layout: str) -> None:
    multiclass, multilabel = wide_tables(8)
    columns, options = (multiclass, ["--label-col", "y", "--score-prefix", "p_"]) if layout == "multiclass" else (
        multilabel, ["--label-cols", "a,b,c", "--score-prefix", "s_"])
    parquet, csv = write_pair(tmp_path, columns, row_group_size=25)
    for command in (["report"], ["stream", "--every", "50"]):
        outs = [run_main(capsys, *command, str(p), *options, "--format", "json") for p in (parquet, csv)]
        assert outs[0][0] == outs[1][0] == 0, outs[0][2]
        strip = [[{k: v for k, v in json.loads(x).items() if k != "time"} for x in out.splitlines()] for _, out, _ in outs]
        assert [{**x, "source": "SRC"} for x in strip[0]] == [{**x, "source": "SRC"} for x in strip[1]]


def test_progress_bar_on_a_terminal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from scored_pr._cli import report as _report

    class FakeTTY(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.setattr(_cli_output, "PROGRESS_DELAY", 0.0)
    monkeypatch.setattr(_cli_output, "PROGRESS_INTERVAL", 0.0)
    monkeypatch.setattr(_report, "CHUNK_ROWS", 50)
    monkeypatch.setattr(_parquet, "BATCH_ROWS", 50)
    y, s = binary_data(9, n=300)
    parquet, _ = write_pair(tmp_path, {"correct": y, "score": s}, row_group_size=50)
    tty = FakeTTY()
    monkeypatch.setattr(sys, "stderr", tty)
    assert main(["report", str(parquet)]) == 0
    drawn = tty.getvalue()
    assert "\r[" in drawn and "%" in drawn and "300 rows" in drawn and " 50%" in drawn
    assert drawn.endswith("\r") and drawn.rstrip("\r").split("\r")[-1].strip() == ""  # erased at the end


def test_subprocess_report_in_a_clean_environment(tmp_path: Path) -> None:
    y, s = binary_data(10, n=100)
    parquet, csv = write_pair(tmp_path, {"correct": y, "score": s})
    got = [subprocess.run([*CMD, "report", str(p), "--format", "json"], capture_output=True, text=True, timeout=60,
                          cwd=ROOT, env=clean_env()) for p in (parquet, csv)]
    assert got[0].returncode == 0, got[0].stderr
    same_json(got[0].stdout, got[1].stdout, parquet, csv)


def test_a_parquet_report_imports_neither_pandas_nor_matplotlib(tmp_path: Path) -> None:
    y, s = binary_data(11, n=100)
    parquet, _ = write_pair(tmp_path, {"correct": y, "score": s})
    code = ("import sys; from scored_pr._cli.main import main; status = main(['report', sys.argv[1], '--format', 'json']); "
            "print(sorted(m for m in ('pandas', 'matplotlib') if m in sys.modules), file=sys.stderr); sys.exit(status)")
    res = subprocess.run([sys.executable, "-c", code, str(parquet)], capture_output=True, text=True, timeout=60, cwd=ROOT,
                         env=clean_env())
    assert res.returncode == 0 and res.stderr.strip() == "[]", res.stderr


@pytest.mark.parametrize("precision, scale", [(5, 2), (38, 30)])
def test_a_decimal_score_column_reports_as_its_float64_values(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                             precision: int, scale: int) -> None:
    """decimal128 scores are read as the nearest float64: the report of the same scores as a double column."""
    from decimal import Decimal

    y, s = binary_data(11, n=300)
    decimals = [Decimal(f"{v:.2f}") for v in s]
    pq.write_table(pa.table({"correct": y, "score": pa.array(decimals, pa.decimal128(precision, scale))}),
                   tmp_path / "dec.parquet", row_group_size=64)
    pq.write_table(pa.table({"correct": y, "score": [float(d) for d in decimals]}), tmp_path / "f64.parquet")
    got = [run_main(capsys, "report", str(tmp_path / f"{name}.parquet"), "--format", "json") for name in ("dec", "f64")]
    assert got[0][0] == got[1][0] == 0, got[0][2]
    dec, f64 = (json.loads(out) for _, out, _ in got)
    assert dec.pop("source") != f64.pop("source")
    assert dec == f64 and dec["num_cases"] == 300


def test_two_decimal_scores_that_round_to_one_float64_are_refused_naming_the_row(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from decimal import Decimal

    values = [Decimal("0.5"), Decimal("0.1"), Decimal("0.3"), Decimal("0.1000000000000000000001")]
    path = tmp_path / "dec.parquet"
    pq.write_table(pa.table({"correct": [1, 0, 1, 1], "score": pa.array(values, pa.decimal128(38, 25))}), path,
                   row_group_size=2)  # the two values in different row groups
    code, out, err = run_main(capsys, "report", str(path), "--format", "json")
    assert code != 0 and out == ""
    assert "row 4: invalid score Decimal('0.1000000000000000000001000') in column 'score' (rounds to the float64 " \
           "0.1, as the distinct Decimal('0.1000000000000000000000000') of an earlier row does" in err
    code, out, err = run_main(capsys, "report", str(path), "--format", "json", "--skip-invalid")
    assert code == 0 and json.loads(out)["num_cases"] == 3


# ------------------------------------------------------------ compare reads Parquet through the registry of formats


def test_compare_reads_parquet_as_it_reads_the_same_data_in_csv(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    y, s = binary_data(11, n=300)
    rng = np.random.default_rng(12)
    sb = np.round(np.clip(s + rng.normal(0, 0.2, s.size), 0, 1), 3)
    ids = [f"c{i}" for i in range(y.size)]
    a_pq, a_csv = write_pair(tmp_path, {"id": ids, "correct": y, "score": s}, name="a")
    order = rng.permutation(y.size)  # B in another row order: joined on the ids
    b_pq, b_csv = write_pair(tmp_path, {"id": [ids[i] for i in order], "correct": y[order], "score": sb[order]}, name="b")
    argv = ("--resamples", "200", "--seed", "3", "--format", "json")
    code, want, err = run_main(capsys, "compare", str(a_csv), str(b_csv), *argv)
    assert code == 0 and err == ""
    for a, b in ((a_pq, b_pq), (a_csv, b_pq), (a_pq, b_csv)):
        code, got, err = run_main(capsys, "compare", str(a), str(b), *argv)
        assert code == 0 and err == ""
        g, w = json.loads(got), json.loads(want)
        assert (g.pop("a"), g.pop("b")) == (str(a), str(b))
        del w["a"], w["b"]
        assert g == w and g["num_cases"] == 300  # the same join, estimates, intervals and p-values
    # the text report too, but for the two file names
    text = run_main(capsys, "compare", str(a_pq), str(b_pq), "--resamples", "200")[1]
    text_csv = run_main(capsys, "compare", str(a_csv), str(b_csv), "--resamples", "200")[1]
    assert text.replace(".parquet", ".csv") == text_csv


def test_compare_names_a_missing_parquet_column_and_a_bad_row(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    a, _ = write_pair(tmp_path, {"key": ["x", "y"], "correct": [True, False], "score": [0.5, 0.25]}, name="a")
    code, out, err = run_main(capsys, "compare", str(a), str(a), "--score-col-b", "score")
    assert code == 2 and out == ""
    assert err == f"scored-pr: {a}: no column 'id' in the file (columns: 'key', 'correct', 'score'); use --id-col\n"
    bad = tmp_path / "bad.parquet"
    pq.write_table(pa.table({"id": ["x", "y"], "correct": [1, 2], "score": [0.5, 0.25]}), bad)
    code, out, err = run_main(capsys, "compare", str(bad), str(bad))
    assert code == 2 and out == ""
    assert err == (f"scored-pr: {bad}: row 2: invalid label 2 in column 'correct' (expected 1/0, -1/1, true/false, "
                   "yes/no, or a --positive-label)\n")
