"""The scored-pr command: demo, report, stream; input parsing; bad input; progress bar; the
README's main command and every example script.

Most tests call ``main(argv)`` in-process (capsys captures its output); a few
run the installed command in a subprocess, as a user would.
"""

from __future__ import annotations

import gzip
import importlib.util
import io
import json
import math
import queue
import random
import re
import shutil
import subprocess
import sys
import threading
from pathlib import Path
from statistics import NormalDist

import numpy as np
import pytest

from scored_pr import ScoredPrecisionRecallEvaluation
from scored_pr._cli import report as _cli
from scored_pr._cli import inputs as _inputs
from scored_pr._cli import output as _cli_output
from scored_pr._io import cases as _io
from scored_pr._cli.main import main
from scored_pr._io.cases import CaseReader, InputError, parse_label, parse_score

from cli_env import clean_env

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "scored_pr" / "data" / "sample.csv"


# --------------------------------------------------------------------------- the bundled sample


def make_sample_csv(n: int = 3000, positive_rate: float = 0.25, seed: int = 20240611) -> str:
    """The generator of scored_pr/data/sample.csv (see scored_pr/data/README.md).

    Only ``random.Random(seed).random()`` is drawn (its sequence is guaranteed
    across Python versions); normal deviates come from ``NormalDist.inv_cdf``.
    A positive's logit is N(1.0, 1.4^2), a negative's N(-1.6, 1.3^2); the score
    is the logistic of the logit rounded to 3 decimals (hence ties).
    """
    rng = random.Random(seed)
    z = NormalDist()
    rows = ["id,label,score"]
    for i in range(n):
        positive = rng.random() < positive_rate
        u = min(max(rng.random(), 1e-12), 1 - 1e-12)
        logit = (1.0 + 1.4 * z.inv_cdf(u)) if positive else (-1.6 + 1.3 * z.inv_cdf(u))
        score = 1.0 / (1.0 + math.exp(-logit))
        rows.append(f"doc{i + 1:05d},{int(positive)},{score:.3f}")
    return "\n".join(rows) + "\n"


def test_bundled_sample_is_reproducible() -> None:
    assert SAMPLE.read_text(encoding="utf-8") == make_sample_csv()


def test_bundled_sample_is_realistic_and_small() -> None:
    correct, scores = _io.read_sample()
    assert correct.size == 3000 and 0.2 < correct.mean() < 0.3
    assert 500 < np.unique(scores).size < 3000  # ties, but not degenerate
    assert SAMPLE.stat().st_size < 150_000
    assert _io.sample_path().is_file()


# --------------------------------------------------------------------------- helpers


def run_main(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8", newline="")
    return str(path)


CASES = [(True, 0.9), (False, 0.8), (True, 0.7), (True, 0.4), (False, 0.33), (False, 0.1)]


def reference(cases=CASES, ties: str = "grouped", misses: int = 0) -> ScoredPrecisionRecallEvaluation:
    ev = ScoredPrecisionRecallEvaluation(ties=ties)
    for c, s in cases:
        ev.add_case(c, s)
    ev.add_misses(misses)
    return ev


def csv_text(cases=CASES, labels=("1", "0"), sep: str = ",", header: str = "id{sep}correct{sep}score") -> str:
    lines = [header.format(sep=sep)]
    for i, (c, s) in enumerate(cases):
        lines.append(f"x{i}{sep}{labels[0] if c else labels[1]}{sep}{s!r}")
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------- demo


def test_demo_prints_the_worked_example_and_the_sample(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_main(capsys, "demo")
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert "  Area Under PR Curve (uninterpolated)=0.5111111111111111" in lines
    assert "0.600000 0.750000 0.666667" in lines
    sample = ScoredPrecisionRecallEvaluation()
    sample.add_cases(*_io.read_sample())
    assert "The bundled sample: 3,000 scored predictions" in out
    assert str(sample) in out


def test_no_command_is_the_demo(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_main(capsys)
    assert code == 0 and "The bundled sample" in out


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["--version"])
    assert exc.value.code == 0
    assert capsys.readouterr().out.startswith("scored-pr ")


# --------------------------------------------------------------------------- report


def test_report_text_is_the_evaluators_report(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, "p.csv", csv_text())
    code, out, err = run_main(capsys, "report", path)
    assert code == 0 and err == ""
    assert out == str(reference()) + "\n"


def test_report_json_has_every_documented_key(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, "p.csv", csv_text())
    code, out, _ = run_main(capsys, "report", path, "--format", "json", "--misses", "2")
    assert code == 0
    obj = json.loads(out)
    ev = reference(misses=2)
    for key in (
        "num_cases", "num_positive_ref", "average_precision", "area_under_pr_curve",
        "area_under_pr_curve_interpolated", "area_under_roc_curve", "maximum_f_measure",
        "pr_breakeven_point", "reciprocal_rank", "precision_at_5", "precision_at_10", "precision_at_100",
    ):  # fmt: skip
        assert key in obj
    assert obj["num_positive_ref"] == 5 and obj["num_misses"] == 2
    assert obj["average_precision"] == ev.average_precision()
    assert obj["area_under_roc_curve"] == ev.area_under_roc_curve()
    assert obj["precision_at_100"] is None  # NaN (fewer than 100 cases) is null: strict JSON
    assert obj["skipped_lines"] == 0 and obj["ties"] == "grouped" and obj["source"] == path


def test_report_table_is_markdown(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, "p.csv", csv_text())
    code, out, _ = run_main(capsys, "report", path, "--format", "table")
    lines = out.splitlines()
    assert code == 0
    assert lines[0].split() == ["|", "measure", "|", "value", "|"]
    assert set(lines[1]) <= set("|:-")
    # right-aligned: the probabilities' calibration rows (ECE, Brier) may widen the value column
    assert re.search(rf"\| +{re.escape(repr(reference().average_precision()))} \|", out)
    assert len({len(line) for line in lines}) == 1  # aligned


@pytest.mark.parametrize("ties", ["stable", "grouped"])
def test_report_ties_and_misses(tmp_path: Path, capsys: pytest.CaptureFixture[str], ties: str) -> None:
    tied = [(True, 0.5), (False, 0.5), (True, 0.5), (False, 0.2), (True, 0.2)]
    path = write(tmp_path, "p.csv", csv_text(tied))
    code, out, _ = run_main(capsys, "report", path, "--ties", ties, "--misses", "1", "--format", "json")
    assert code == 0
    ev = reference(tied, ties=ties, misses=1)
    assert json.loads(out)["average_precision"] == ev.average_precision()
    assert json.loads(out)["ties"] == ties


@pytest.mark.parametrize("interpolate", [False, True])
def test_report_curves_in_every_format(tmp_path: Path, capsys: pytest.CaptureFixture[str], interpolate: bool) -> None:
    path = write(tmp_path, "p.csv", csv_text())
    ev = reference()
    flag = ["--interpolate"] if interpolate else []
    # text: the LingPipe table for PR, RECALL/REJ.REC. columns for ROC
    _, out, _ = run_main(capsys, "report", path, "--curve", "pr", *flag)
    buf = io.StringIO()
    ScoredPrecisionRecallEvaluation.print_precision_recall_curve(ev.pr_curve(interpolate), buf)
    assert out.endswith(buf.getvalue())
    _, out, _ = run_main(capsys, "report", path, "--curve", "roc", *flag)
    roc = ev.roc_curve(interpolate)
    assert out.splitlines()[-len(roc) - 1].split() == ["RECALL", "REJ.REC."]
    # json: the points, with the score for PR
    _, out, _ = run_main(capsys, "report", path, "--curve", "pr", "--format", "json", *flag)
    curve = json.loads(out)["curve"]
    assert curve["columns"] == ["recall", "precision", "score"] and curve["interpolated"] is interpolate
    assert curve["points"] == ev.pr_score_curve(interpolate).tolist()
    # table: one row per point
    _, out, _ = run_main(capsys, "report", path, "--curve", "roc", "--format", "table", *flag)
    assert out.splitlines()[-len(roc) - 2].split("|")[1].strip() == "recall"


def test_report_roc_curve_json_nan_is_null(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, "p.csv", csv_text([(True, 0.5), (True, 0.4)]))
    _, out, _ = run_main(capsys, "report", path, "--curve", "roc", "--format", "json")
    obj = json.loads(out)
    assert obj["curve"]["points"] == [[0.5, None], [1.0, None]]
    assert obj["area_under_roc_curve"] is None


# --------------------------------------------------------------------------- input formats


@pytest.mark.parametrize(
    "labels", [("1", "0"), ("true", "false"), ("yes", "no"), ("TRUE", "False"), ("Yes", "NO"), (" 1", "0 ")]
)
def test_labels(tmp_path: Path, capsys: pytest.CaptureFixture[str], labels: tuple[str, str]) -> None:
    path = write(tmp_path, "p.csv", csv_text(labels=labels))
    code, out, _ = run_main(capsys, "report", path)
    assert code == 0 and out == str(reference()) + "\n"


@pytest.mark.parametrize(
    "name, text",
    [
        ("p.tsv", csv_text(sep="\t")),
        ("p.tab", csv_text(sep="\t")),
        ("p.csv", "score,correct\n" + "".join(f"{s},{int(c)}\n" for c, s in CASES)),  # any column order
        ("p.csv", csv_text(header="id,label,score")),
        ("p.csv", csv_text(header="ID,Correct,Score")),  # case-insensitive names
        ("p.csv", "\ufeff" + csv_text()),  # a BOM
        ("p.csv", csv_text().replace("\n", "\r\n")),  # Windows line ends
        ("p.csv", "\n\n" + csv_text().replace("\nx2", "\n\nx2")),  # blank lines
        ("p.csv", csv_text().replace("x1,", '"x,\n1",')),  # quoting, a newline inside a field
        ("p.jsonl", "".join(json.dumps({"correct": c, "score": s, "id": i}) + "\n" for i, (c, s) in enumerate(CASES))),
        ("p.ndjson", "".join(json.dumps({"label": int(c), "score": str(s)}) + "\n" for c, s in CASES)),
        ("p.json", "".join(json.dumps({"label": "yes" if c else "no", "score": s}) + "\n\n" for c, s in CASES)),
        ("p.txt", csv_text(sep="\t")),  # unknown extension: sniffed
        ("p.dat", json.dumps({"label": True, "score": 0.9}) + "\n" + "".join(
            json.dumps({"label": c, "score": s}) + "\n" for c, s in CASES[1:])),
    ],
    ids=["tsv", "tab", "column order", "label column", "case-insensitive", "BOM", "CRLF", "blank lines",
         "quoted newline", "jsonl", "ndjson", "json", "sniffed tsv", "sniffed jsonl"],
)  # fmt: skip
def test_formats(tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, text: str) -> None:
    path = write(tmp_path, name, text)
    code, out, err = run_main(capsys, "report", path)
    assert (code, err) == (0, "")
    assert out == str(reference()) + "\n"


def test_gzip(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "p.csv.gz"
    with gzip.open(path, "wt", encoding="utf-8") as fh:
        fh.write(csv_text())
    code, out, _ = run_main(capsys, "report", str(path))
    assert code == 0 and out == str(reference()) + "\n"


def test_gzip_is_recognised_by_content_not_name(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "predictions"  # no suffix at all
    path.write_bytes(gzip.compress(csv_text().encode("utf-8")))
    code, out, err = run_main(capsys, "report", str(path))
    assert (code, err) == (0, "") and out == str(reference()) + "\n"


def test_gzip_on_standard_input() -> None:
    """`cat preds.csv.gz | scored-pr report -`: the magic bytes decide, in a real pipe."""
    proc = subprocess.run(
        [sys.executable, "-m", "scored_pr", "report", "-"],
        input=gzip.compress(csv_text().encode("utf-8")), capture_output=True, timeout=60, env=clean_env(),
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.decode("utf-8").replace("\r\n", "\n") == str(reference()) + "\n"
    plain = subprocess.run(
        [sys.executable, "-m", "scored_pr", "report", "-"],
        input=csv_text().encode("utf-8"), capture_output=True, timeout=60, env=clean_env(),
    )
    assert plain.returncode == 0 and plain.stdout == proc.stdout


def test_input_format_overrides_the_extension(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, "p.csv", csv_text(sep="\t"))
    code, out, _ = run_main(capsys, "report", path, "--input-format", "tsv")
    assert code == 0 and out == str(reference()) + "\n"


def test_custom_columns(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, "p.csv", csv_text(header="id{sep}gold{sep}prob"))
    code, out, _ = run_main(capsys, "report", path, "--correct-col", "gold", "--score-col", "prob")
    assert code == 0 and out == str(reference()) + "\n"


@pytest.mark.parametrize("text, fmt", [(csv_text(), None), (csv_text(sep="\t"), None), (csv_text(), "csv")])
def test_stdin(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], text: str, fmt: str) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(text))
    code, out, _ = run_main(capsys, "report", "-", *(["--input-format", fmt] if fmt else []))
    assert code == 0 and out == str(reference()) + "\n"


def test_a_million_row_file_is_read_in_chunks(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rng = np.random.default_rng(5)
    n = 100_000  # a tenth of a million: the test suite stays fast; the code path is the same
    correct = rng.random(n) < 0.3
    scores = np.round(rng.normal(correct * 1.0, 1.0), 4)
    path = tmp_path / "big.csv"
    with open(path, "w", encoding="utf-8") as fh:
        fh.write("label,score\n")
        fh.writelines(f"{int(c)},{s!r}\n" for c, s in zip(correct.tolist(), scores.tolist()))
    code, out, _ = run_main(capsys, "report", str(path), "--format", "json")
    ev = ScoredPrecisionRecallEvaluation()
    ev.add_cases(correct, scores)
    assert code == 0
    assert json.loads(out)["average_precision"] == pytest.approx(ev.average_precision(), rel=1e-12)
    assert json.loads(out)["num_cases"] == n


# --------------------------------------------------------------------------- bad input

BAD = [
    ("bad label", "p.csv", "id,correct,score\na,1,0.5\nb,maybe,0.3\n", 3,
     "invalid label 'maybe' in column 'correct' (expected 1/0, -1/1, true/false, yes/no, or a --positive-label)"),
    ("label 2", "p.csv", "correct,score\n1,0.5\n2,0.3\n", 3, "invalid label '2'"),
    ("empty label", "p.csv", "correct,score\n1,0.5\n,0.3\n", 3, "missing label in column 'correct'"),
    ("non-numeric score", "p.csv", "correct,score\n1,0.5\n0,high\n", 3, "invalid score 'high' in column 'score'"),
    ("NaN score", "p.csv", "correct,score\n1,0.5\n0,NaN\n", 3, "invalid score 'NaN' in column 'score' (NaN is not"),
    ("empty score", "p.csv", "correct,score\n1,0.5\n0,\n", 3, "missing score in column 'score'"),
    ("missing column", "p.csv", "id,correct,prob\na,1,0.5\n", 1,
     "no column 'score' in the header ('id', 'correct', 'prob'); use --score-col"),
    ("missing label column", "p.csv", "id,gold,score\na,1,0.5\n", 1, "no column 'correct' or 'label'"),
    ("ragged short", "p.csv", "id,correct,score\na,1,0.5\nb,0\n", 3,
     "ragged row: 2 fields where the header has 3: 'b,0'"),
    ("ragged long", "p.tsv", "correct\tscore\n1\t0.5\t7\n", 2, "ragged row: 3 fields where the header has 2"),
    ("line after blank lines", "p.csv", "correct,score\n\n\n1,x\n", 4, "invalid score 'x'"),
    ("bad JSON", "p.jsonl", '{"label": 1, "score": 0.5}\n{"label": 0, "score": }\n', 2, "invalid JSON"),
    ("JSON not an object", "p.jsonl", '{"label": 1, "score": 0.5}\n[0, 0.4]\n', 2, "expected a JSON object, got [0, 0.4]"),
    ("JSON missing key", "p.jsonl", '{"label": 1, "score": 0.5}\n{"label": 0}\n', 2, "missing key 'score'"),
    ("JSON NaN", "p.jsonl", '{"label": 1, "score": NaN}\n', 1, "invalid score nan in column 'score' (NaN is not"),
    ("JSON bool score", "p.jsonl", '{"label": 1, "score": true}\n', 1, "invalid score True in column 'score'"),
    ("JSON null label", "p.jsonl", '{"label": null, "score": 1}\n', 1, "missing label in column 'label'"),
    ("JSON float label", "p.jsonl", '{"label": 0.5, "score": 1}\n', 1, "invalid label 0.5 in column 'label'"),
    ("undecodable byte", "p.csv", "correct,score\n1,0.5\n0,0.\udcff3\n", 3, "invalid score '0.\ufffd3'"),
]  # fmt: skip


@pytest.mark.parametrize("what, name, text, line, message", BAD, ids=[b[0] for b in BAD])
def test_bad_input_exits_2_with_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], what: str, name: str, text: str, line: int, message: str
) -> None:
    path = tmp_path / name
    path.write_bytes(text.encode("utf-8", "surrogateescape"))
    code, out, err = run_main(capsys, "report", str(path))
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith(f"scored-pr: {path}:{line}: ")
    assert message in err


@pytest.mark.parametrize(
    "name, text, message",
    [("missing.csv", None, "No such file or directory"), ("empty.csv", "", "empty input (expected a header line)"),
     ("blank.jsonl", "\n\n", "empty input (expected cases)")],
)  # fmt: skip
def test_bad_file_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, text, message: str) -> None:
    path = tmp_path / name
    if text is not None:
        path.write_text(text)
    code, out, err = run_main(capsys, "report", str(path))
    assert (code, out) == (2, "")
    assert err == f"scored-pr: {path}: {message}\n"


def test_a_directory_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run_main(capsys, "report", str(tmp_path))
    assert code == 2 and err.startswith(f"scored-pr: {tmp_path}: ") and err.count("\n") == 1


@pytest.mark.parametrize("argv", [["--misses", "-1"], ["--misses", "x"], ["--ties", "random"], ["--format", "xml"]])
def test_bad_options_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    path = write(tmp_path, "p.csv", csv_text())
    with pytest.raises(SystemExit) as exc:
        main(["report", path, *argv])
    assert exc.value.code == 2
    assert "Traceback" not in capsys.readouterr().err


def test_skip_invalid_skips_and_counts(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = csv_text() + "y,maybe,0.3\nz,1\nw,0,NaN\n" + "".join(f"v{i},2,0.1\n" for i in range(5))
    path = write(tmp_path, "p.csv", text)
    code, out, err = run_main(capsys, "report", path, "--skip-invalid", "--format", "json")
    assert code == 0
    assert json.loads(out)["skipped_lines"] == 8
    assert json.loads(out)["average_precision"] == reference().average_precision()
    lines = err.splitlines()
    assert lines[0] == (
        f"scored-pr: skipped {path}:8: invalid label 'maybe' in column 'correct' (expected 1/0, -1/1, true/false, yes/no, or a --positive-label)"
    )
    assert len(lines) == _inputs.MAX_SKIP_MESSAGES + 1  # the first few, then the count
    assert lines[-1] == f"scored-pr: skipped 8 invalid lines in {path}"


def test_skip_invalid_does_not_skip_a_missing_column(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, "p.csv", "a,b\n1,2\n")
    code, _, err = run_main(capsys, "report", path, "--skip-invalid")
    assert code == 2 and "no column 'correct' or 'label'" in err


# --------------------------------------------------------------------------- parsing functions


@pytest.mark.parametrize(
    "value, expected",
    [("1", True), ("0", False), ("true", True), ("FALSE", False), ("Yes", True), (" no\t", False),
     (True, True), (False, False), (1, True), (0, False), ("-1", False), ("1.0", True), (" -1.0", False),
     (1.0, True), (-1, False), (0.0, False)],
)  # fmt: skip
def test_parse_label(value, expected: bool) -> None:
    assert parse_label(value) is expected


@pytest.mark.parametrize("value", ["2", "-2", "t", "y", "1.5", "on", "maybe", 2, 0.5, None, "", [1]])
def test_parse_label_rejects(value) -> None:
    with pytest.raises(ValueError, match="label"):
        parse_label(value, "gold")


@pytest.mark.parametrize(
    "value, expected",
    [("0.5", 0.5), (" -3 ", -3.0), ("1e-300", 1e-300), ("inf", math.inf), ("-Infinity", -math.inf), (2, 2.0),
     (0.25, 0.25), ("-0.0", 0.0)],
)  # fmt: skip
def test_parse_score(value, expected: float) -> None:
    assert parse_score(value) == expected


@pytest.mark.parametrize("value", ["nan", "NaN", "-nan", "x", "0.5.1", "", "  ", None, True, [0.5], 10**400])
def test_parse_score_rejects(value) -> None:
    with pytest.raises(ValueError, match="score"):
        parse_score(value)


def test_reader_reports_line_numbers_and_counts_characters() -> None:
    lines = ["id,correct,score\n", "\n", "a,1,0.5\n", "b,0,0.25\n"]
    reader = CaseReader(lines, source="f.csv")
    assert list(reader) == [(3, True, 0.5), (4, False, 0.25)]
    assert reader.chars_read == sum(map(len, lines))
    assert reader.format == "csv"


def test_reader_rejects_an_unknown_format() -> None:
    with pytest.raises(ValueError, match="input_format"):
        CaseReader([], input_format="xlsx")


def test_input_error_str() -> None:
    err = InputError("a.csv", 3, "bad")
    assert str(err) == "a.csv:3: bad" and (err.source, err.line, err.message) == ("a.csv", 3, "bad")
    assert isinstance(err, ValueError)


# --------------------------------------------------------------------------- stream


def test_stream_prints_a_summary_every_n_and_a_report(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(csv_text()))
    code, out, err = run_main(capsys, "stream", "--every", "2")
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert [line.split()[0] for line in lines[:3]] == ["cases=2", "cases=4", "cases=6"]
    assert lines[3] == ""
    assert "\n".join(lines[4:]) == str(reference())
    assert lines[0] == "cases=2 pos=1 AP=1.0000 AUC=1.0000 maxF1=1.0000 BEP=1.0000 P@10=nan"


def test_stream_json_lines(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(csv_text()))
    code, out, _ = run_main(capsys, "stream", "--every", "4", "--format", "json", "--misses", "1")
    objs = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and len(objs) == 2
    assert objs[0]["num_cases"] == 4 and objs[0]["final"] is False
    assert objs[1]["num_cases"] == 6 and objs[1]["num_misses"] == 1 and objs[1]["final"] is True
    assert objs[1]["average_precision"] == reference(misses=1).average_precision()


def test_stream_from_a_file_with_bad_lines(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, "p.csv", csv_text() + "q,1,oops\n")
    code, out, err = run_main(capsys, "stream", path, "--every", "3")
    assert code == 2 and err == (
        f"scored-pr: {path}:8: invalid score 'oops' in column 'score' (expected a number)"
        " (the report above covers the 6 cases read before it)\n"
    )
    assert out.splitlines()[:2][0].startswith("cases=3")  # summaries before the error stay printed
    assert "Number of Cases=6" in out  # and the report of what was read comes before the error
    code, out, err = run_main(capsys, "stream", path, "--every", "3", "--skip-invalid", "--format", "table")
    assert code == 0 and f"skipped 1 invalid line in {path}" in err and "| average_precision" in out


class Interrupted(io.StringIO):
    """Standard input on which the user presses Ctrl-C after three lines."""

    def __init__(self) -> None:
        super().__init__()
        self.lines = ["label,score\n", "1,0.5\n", "0,0.4\n"]

    def __iter__(self):
        yield from self.lines
        raise KeyboardInterrupt

    def readline(self, size=-1):
        if not self.lines:
            raise KeyboardInterrupt
        return self.lines.pop(0)


def test_stream_reports_what_arrived_on_ctrl_c(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "stdin", Interrupted())
    code, out, err = run_main(capsys, "stream")
    assert code == 130
    assert "  Number of Cases=2" in out.splitlines()
    assert err == "scored-pr: stopped by SIGINT after 2 cases; the report above covers them\n"


def test_report_on_ctrl_c_exits_130_without_traceback(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "stdin", Interrupted())
    code, out, err = run_main(capsys, "report", "-")
    assert (code, out, err) == (130, "", "scored-pr: interrupted\n")


def test_stream_reads_lines_as_they_arrive() -> None:
    """`model | scored-pr stream`: a summary is printed before the input ends."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "scored_pr", "stream", "--every", "2"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT, env=clean_env(),
    )  # fmt: skip
    assert proc.stdin is not None and proc.stdout is not None
    lines: queue.Queue[str | None] = queue.Queue()

    def pump() -> None:
        for line in proc.stdout:  # type: ignore[union-attr]
            lines.put(line)
        lines.put(None)  # end of output

    threading.Thread(target=pump, daemon=True).start()
    try:
        proc.stdin.write("label,score\n1,0.9\n0,0.4\n")
        proc.stdin.flush()
        first = lines.get(timeout=60)  # arrives while stdin is still open
        assert first is not None and first.startswith("cases=2 pos=1 AP=1.0000")
        proc.stdin.write("1,0.1\n")
        proc.stdin.close()
        assert proc.wait(timeout=60) == 0
        rest = list(iter(lambda: lines.get(timeout=60), None))
    finally:
        proc.kill()
    assert "  Number of Cases=3\n" in rest


# --------------------------------------------------------------------------- progress bar


class FakeTTY(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_no_progress_bar_when_stderr_is_not_a_terminal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(_cli_output, "PROGRESS_DELAY", 0.0)
    monkeypatch.setattr(_cli_output, "PROGRESS_INTERVAL", 0.0)
    monkeypatch.setattr(_cli, "CHUNK_ROWS", 10)
    path = write(tmp_path, "p.csv", csv_text(CASES * 50))
    code, _, err = run_main(capsys, "report", path)
    assert code == 0 and err == ""  # capsys' stderr is not a terminal


def test_progress_bar_on_a_terminal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    monkeypatch.setattr(_cli_output, "PROGRESS_DELAY", 0.0)
    monkeypatch.setattr(_cli_output, "PROGRESS_INTERVAL", 0.0)
    monkeypatch.setattr(_cli, "CHUNK_ROWS", 10)
    path = write(tmp_path, "p.csv", csv_text(CASES * 50))
    tty = FakeTTY()
    monkeypatch.setattr(sys, "stderr", tty)
    assert main(["report", path]) == 0
    drawn = tty.getvalue()
    assert "\r[" in drawn and "%" in drawn and "rows/s" in drawn and "300 rows" in drawn
    assert drawn.endswith("\r") and drawn.rstrip("\r").split("\r")[-1].strip() == ""  # erased at the end
    assert capsys.readouterr().out == str(reference(CASES * 50)) + "\n"  # stdout untouched
    tty.truncate(0)
    tty.seek(0)
    assert main(["report", path, "--no-progress"]) == 0
    assert tty.getvalue() == ""


def test_progress_bar_waits_for_long_inputs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    path = write(tmp_path, "p.csv", csv_text())
    tty = FakeTTY()
    monkeypatch.setattr(sys, "stderr", tty)
    assert main(["report", path]) == 0  # a short input takes less than PROGRESS_DELAY
    assert tty.getvalue() == ""


def test_progress_without_a_known_size(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_cli_output, "PROGRESS_DELAY", 0.0)
    tty = FakeTTY()
    bar = _cli_output.Progress(tty, None, enabled=True)
    bar.update(100, 1234)
    bar.close()
    assert "1,234 rows" in tty.getvalue() and "[" not in tty.getvalue()


# --------------------------------------------------------------------------- plot


def test_plot_writes_a_png(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("matplotlib")
    path = write(tmp_path, "p.csv", csv_text())
    png = tmp_path / "out.png"
    code, out, err = run_main(capsys, "report", path, "--plot", str(png), "--format", "json")
    assert code == 0 and json.loads(out)["num_cases"] == 6
    assert err == f"scored-pr: wrote {png}\n"
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_plot_unwritable_exits_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("matplotlib")
    path = write(tmp_path, "p.csv", csv_text())
    code, _, err = run_main(capsys, "report", path, "--plot", str(tmp_path / "no" / "such" / "dir.png"))
    assert code == 1 and err.startswith("scored-pr: cannot write the plot") and err.count("\n") == 1


def test_plot_without_matplotlib_names_the_extra(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    monkeypatch.setitem(sys.modules, "matplotlib.figure", None)
    path = write(tmp_path, "p.csv", csv_text())
    code, out, err = run_main(capsys, "report", path, "--plot", str(tmp_path / "x.png"))
    assert code == 1 and out == str(reference()) + "\n"
    # both hints work from a checkout: matplotlib itself, or the extra of the project in the current directory
    assert "pip install matplotlib" in err and "pip install '.[plot]'" in err and err.count("\n") == 1


# --------------------------------------------------------------------------- as a user runs it


def test_subprocess_report_json_and_no_matplotlib_import(tmp_path: Path) -> None:
    path = write(tmp_path, "p.csv", csv_text())
    result = subprocess.run(
        [sys.executable, "-m", "scored_pr", "report", path, "--format", "json"],
        capture_output=True, text=True, timeout=120, cwd=ROOT, env=clean_env(),
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["average_precision"] == reference().average_precision()
    assert result.stderr == ""  # no progress bar on a pipe
    code = "import sys; from scored_pr._cli.main import main; main(['report', sys.argv[1]]); " \
           "assert 'matplotlib' not in sys.modules, 'matplotlib imported without --plot'"
    result = subprocess.run([sys.executable, "-c", code, path], capture_output=True, text=True, timeout=120,
                            env=clean_env())
    assert result.returncode == 0, result.stderr


def test_subprocess_bad_input(tmp_path: Path) -> None:
    path = write(tmp_path, "p.csv", "correct,score\n1,0.5\nmaybe,0.2\n")
    result = subprocess.run(
        [sys.executable, "-m", "scored_pr", "report", path], capture_output=True, text=True, timeout=120, cwd=ROOT,
        env=clean_env(),
    )
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr == (
        f"scored-pr: {path}:3: invalid label 'maybe' in column 'correct' (expected 1/0, -1/1, true/false, yes/no, or a --positive-label)\n"
    )


def test_subprocess_stdin_with_a_bom_and_bad_bytes() -> None:
    data = b"\xef\xbb\xbflabel,score\r\n1,0.9\r\n0,0.5\r\n1,0.\xff\r\n"
    result = subprocess.run(
        [sys.executable, "-m", "scored_pr", "report", "-", "--skip-invalid", "--format", "json"],
        input=data, capture_output=True, timeout=120, cwd=ROOT, env=clean_env(),
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["num_cases"] == 2
    assert result.stderr.decode().splitlines()[0] == (
        "scored-pr: skipped <stdin>:4: invalid score '0.\ufffd' in column 'score' (expected a number)"
        " (the line is not valid UTF-8)"
    )


def test_positive_label_and_numeric_labels_as_the_api_reads_them(
    tmp_path, capsys: pytest.CaptureFixture[str]
) -> None:
    """--positive-label and the -1/1, 1.0/0.0 forms give the evaluator the API would build."""
    from scored_pr import ScoredPrecisionRecallEvaluation

    rows = [("spam", 0.9), ("ham", 0.8), ("spam", 0.5), ("ham", 0.5), ("spam", 0.1)]
    expected = ScoredPrecisionRecallEvaluation(pos_label="spam")
    expected.add_cases([r[0] for r in rows], [r[1] for r in rows])
    csv_path = tmp_path / "labels.csv"
    csv_path.write_text("label,score\n" + "".join(f" {c} ,{s}\n" for c, s in rows))
    jsonl_path = tmp_path / "labels.jsonl"
    jsonl_path.write_text("".join(json.dumps({"label": c, "score": s}) + "\n" for c, s in rows))
    for path in (csv_path, jsonl_path):
        code, out, err = run_main(capsys, "report", str(path), "--positive-label", "spam", "--format", "json")
        assert (code, err) == (0, "")
        got = json.loads(out)
        assert got["average_precision"] == expected.average_precision()
        assert got["num_positive_ref"] == 3
    numeric = tmp_path / "numeric.csv"
    numeric.write_text("label,score\n1.0,0.9\n-1,0.8\n1,0.5\n-1.0,0.5\n0.0,0.1\n")
    code, out, err = run_main(capsys, "report", str(numeric), "--format", "json")
    assert (code, err) == (0, "") and json.loads(out)["num_positive_ref"] == 2
    code, out, err = run_main(capsys, "report", str(csv_path))  # strings without --positive-label
    assert code == 2 and "invalid label ' spam '" in err and "--positive-label" in err


# --------------------------------------------------------------------------- stream --window


def test_stream_command_with_a_window(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rows = [(True, 0.9), (False, 0.8), (True, 0.3), (False, 0.2), (True, 0.1)]
    path = tmp_path / "cases.csv"
    path.write_text("correct,score\n" + "".join(f"{int(c)},{s}\n" for c, s in rows), encoding="utf-8")
    assert main(["stream", str(path), "--every", "2", "--window", "3"]) == 0
    out = capsys.readouterr().out
    ref = ScoredPrecisionRecallEvaluation()
    ref.add_cases([c for c, _ in rows[-3:]], [s for _, s in rows[-3:]])
    assert "Window: the last 3 cases (3 of 5 cases read)" in out and str(ref) in out
    assert out.splitlines()[1].startswith("cases=3 pos=1 AP=0.5000 AUC=0.5000")  # after 4 cases: the last 3
    assert main(["stream", str(path), "--every", "4", "--window", "2", "--cumulative"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0] == (
        "cases=4 pos=2 AP=0.8333 AUC=0.7500 maxF1=0.8000 BEP=0.5000 P@10=nan"
        " | window: cases=2 pos=1 AP=1.0000 AUC=1.0000 maxF1=1.0000 BEP=1.0000 P@10=nan"
    )
    for argv, message in [
        (["--cumulative"], "--cumulative goes with --window"),
        (["--window", "2", "--misses", "1"], "with --window, add --cumulative"),
        (["--window", "2", "--checkpoint", str(tmp_path / "s.npz")], "do not go with --window"),
    ]:
        assert main(["stream", str(path), *argv]) == 2
        assert message in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["stream", str(path), "--window", "2", "--window-seconds", "5"])
    with pytest.raises(SystemExit):
        main(["stream", str(path), "--window-seconds", "0"])


# --------------------------------------------------------------------------- the README's command and the example scripts
# The README's main command and every example script run and print what they should.


EXAMPLES = sorted(p for p in (ROOT / "examples").glob("*.py"))


#: Examples that start a cluster (worker processes, a JVM) get more time than the rest.
SLOW = {"distributed_dask.py", "spark_bounded.py"}
#: Arguments an example takes to run quickly (its timing part: one round instead of the best of seven).
ARGS = {"streaming_inference.py": ("1",)}
HAS_SPARK = importlib.util.find_spec("pyspark") is not None and shutil.which("java") is not None


def run(*args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, timeout=timeout, cwd=ROOT,
                          env=clean_env())


def example_param(path: Path) -> object:
    if path.name == "spark_bounded.py":
        return pytest.param(path, marks=pytest.mark.skipif(not HAS_SPARK, reason="needs pyspark and a Java runtime"))
    return path


def test_demo_prints_the_worked_example_report() -> None:
    result = run("-m", "scored_pr", "demo")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert "  Area Under PR Curve (uninterpolated)=0.5111111111111111" in lines
    # the break-even point is R-precision by definition: one line says so (there used to be two rows)
    assert "  BEP (Precision-Recall break even point; always equals R-Precision)=0.5" in lines
    assert not any(line.startswith("  R-Precision=") for line in lines)
    assert "0.600000 0.750000 0.666667" in lines


def test_unknown_command_exits_2() -> None:
    result = run("-m", "scored_pr", "frobnicate")
    assert result.returncode == 2
    assert "invalid choice" in result.stderr


@pytest.mark.parametrize("script", [example_param(p) for p in EXAMPLES], ids=[p.name for p in EXAMPLES])
def test_example_runs(script: Path) -> None:
    result = run(str(script), *ARGS.get(script.name, ()), timeout=900 if script.name in SLOW else 120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip()


def test_benchmark_script_smoke_run() -> None:
    """The benchmark suite runs from a clone (its timings are judged in benchmarks/, not here)."""
    result = run("benchmarks/bench.py", "--quick", "--only", "cached,memory")
    assert result.returncode == 0, result.stderr
    assert "| memory: bulk add_cases" in result.stdout and "passed" in result.stdout.splitlines()[-1]


def test_readme_quickstart_runs() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = text.split("## Quickstart", 1)[1].split("```python\n", 1)[1].split("```", 1)[0]
    result = run("-c", block)
    assert result.returncode == 0, result.stderr
    assert "Average Precision=" in result.stdout


def test_readme_first_lines_are_the_two_commands() -> None:
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert lines[3].endswith(".venv/bin/scored-pr demo")
    assert lines[4].endswith(".venv/bin/python -m pytest -n auto -m 'not heavy'")  # the fast tier
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert ".venv/bin/python -m pytest -n auto -m 'not heavy'\n" in ci and "'.[test]'" in ci
