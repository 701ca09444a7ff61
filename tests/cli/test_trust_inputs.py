"""Inputs that used to be taken silently: refused, with the line or column and the value named.

- A wide file (``report --label-col/--label-cols``) whose header names a
  column twice: which copy is meant is unknown (a class reported twice, one
  copy empty; a label read from the first copy only), so it is an error.
- A score written ``1_0``: Python's ``float()`` reads 10, CSV readers, JSON
  and trec_eval do not; every reader of score text refuses it, on the
  per-line path and on the fast block path (a file long enough to take it).

The command runs as a user runs it: a subprocess in a clean environment.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from cli_env import CMD, ROOT, clean_env

from scored_pr._io.cases import CaseReader, parse_score
from scored_pr._io.wide import WideReader
from scored_pr.trec import read_run


def scored_pr(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*CMD, *args], input=stdin, capture_output=True, text=True, timeout=120, cwd=ROOT,
                          env=clean_env())


# ------------------------------------------------------------------ duplicate columns


WIDE_ROWS = ["a,0.9,0.1,0.2", "b,0.1,0.2,0.8", "c,0.2,0.7,0.1"]


@pytest.mark.parametrize(
    ("header", "options", "column"),
    [
        ("y,p_a,p_a,p_b", ["--label-col", "y", "--score-prefix", "p_"], "p_a"),  # a class scored twice
        ("y,p_a,p_b,y", ["--label-col", "y", "--score-prefix", "p_"], "y"),  # the label column twice
        ("y,p_a,p_b,p_b", ["--label-col", "y", "--score-cols", "p_a,p_b"], "p_b"),  # a named score column
        ("y,p_a,p_b,z,z", ["--label-col", "y", "--score-cols", "p_a,p_b"], "z"),  # a column not used
    ],
)
def test_a_wide_header_naming_a_column_twice_is_an_error_naming_it(tmp_path: Path, header: str, options: list[str],
                                                                      column: str) -> None:
    width = header.count(",") + 1
    rows = [",".join((r + ",0.5,0.5").split(",")[:width]) for r in WIDE_ROWS]
    path = tmp_path / "wide.csv"
    path.write_text("\n".join([header, *rows]) + "\n")
    got = scored_pr("report", *options, str(path))
    assert got.returncode == 2, got.stdout
    assert got.stdout == ""
    assert "Traceback" not in got.stderr
    assert f"wide.csv:1: column {column!r} appears 2 times in the header" in got.stderr


def test_a_multilabel_wide_header_naming_a_label_column_twice_is_an_error(tmp_path: Path) -> None:
    path = tmp_path / "wide.tsv"
    path.write_text("a\tb\ts_a\ts_b\ta\n1\t0\t0.9\t0.2\t0\n0\t1\t0.1\t0.8\t1\n")
    got = scored_pr("report", "--label-cols", "a,b", "--score-prefix", "s_", str(path))
    assert got.returncode == 2
    assert "wide.tsv:1: column 'a' appears 2 times in the header (fields 1, 5)" in got.stderr


def test_a_wide_json_object_with_a_key_twice_is_an_error_naming_it(tmp_path: Path) -> None:
    path = tmp_path / "wide.jsonl"
    path.write_text('{"y": "a", "p_a": 0.9, "p_a": 0.1, "p_b": 0.2}\n{"y": "b", "p_a": 0.1, "p_b": 0.8}\n')
    got = scored_pr("report", "--label-col", "y", "--score-prefix", "p_", str(path))
    assert got.returncode == 2
    assert "wide.jsonl:1: invalid JSON (key 'p_a' appears 2 times in one object" in got.stderr


def test_the_wide_reader_refuses_a_repeated_header_before_any_row() -> None:
    reader = WideReader(iter(["y,p_a,p_a,p_b\n", "a,0.9,0.1,0.2\n"]), source="f.csv", input_format="csv",
                        label_col="y", score_prefix="p_")
    with pytest.raises(Exception, match=r"^f\.csv:1: column 'p_a' appears 2 times in the header \(fields 2, 3\)"):
        reader.read()


def test_distinct_wide_columns_still_read() -> None:
    reader = WideReader(iter(["y,p_a,p_b\n", "a,0.9,0.1\n", "b,0.2,0.7\n"]), source="f.csv", input_format="csv",
                        label_col="y", score_prefix="p_")
    truth, scores = reader.read()
    assert truth.tolist() == [0, 1] and scores.tolist() == [[0.9, 0.1], [0.2, 0.7]]


@pytest.mark.parametrize("header", ["correct,score,score", "correct,score,correct"])
def test_a_one_ranking_header_naming_a_read_column_twice_is_an_error(tmp_path: Path, header: str) -> None:
    path = tmp_path / "cases.csv"
    path.write_text(header + "\n1,0.5,1\n0,0.25,0\n")
    got = scored_pr("report", str(path))
    assert got.returncode == 2 and got.stdout == ""
    twice = "score" if header.endswith("score") else "correct"
    assert f"cases.csv:1: column {twice!r} appears 2 times in the header" in got.stderr


# ------------------------------------------------------------------ underscores in numbers


@pytest.mark.parametrize("text", ["1_0", "0.2_5", "1e1_0", " 1_000 "])
def test_parse_score_refuses_underscores(text: str) -> None:
    assert float(text) == float(text.replace("_", ""))  # what it used to read
    with pytest.raises(ValueError, match=rf"invalid score {text!r} in column 'p' \(a number has no underscores\)"):
        parse_score(text, "p")


def _lines(n: int) -> list[str]:
    return [f"{i % 2},0.{i:06d}" for i in range(n)]


@pytest.mark.parametrize("before", [2, 5000])  # the per-line path, and the fast block path
@pytest.mark.parametrize("sep", [",", "\t"])
def test_csv_and_tsv_scores_with_underscores_are_refused_with_line_and_value(tmp_path: Path, before: int,
                                                                              sep: str) -> None:
    rows = [line.replace(",", sep) for line in ["correct,score", *_lines(before), "1,1_0", *_lines(before)]]
    path = tmp_path / ("cases.tsv" if sep == "\t" else "cases.csv")
    path.write_text("\n".join(rows) + "\n")
    got = scored_pr("report", str(path))
    assert got.returncode == 2 and got.stdout == ""
    assert f"{path.name}:{before + 2}: invalid score '1_0' in column 'score' (a number has no underscores)" in got.stderr
    reader = CaseReader(path.open("rb"), source="x", input_format="tsv" if sep == "\t" else "csv")
    with pytest.raises(Exception, match="a number has no underscores"):
        list(reader)


@pytest.mark.parametrize("before", [2, 5000])
def test_jsonl_string_scores_with_underscores_are_refused(tmp_path: Path, before: int) -> None:
    rows = [json.dumps({"correct": i % 2, "score": i / 7}) for i in range(before)]
    rows.append(json.dumps({"correct": 1, "score": "1_0"}))
    path = tmp_path / "cases.jsonl"
    path.write_text("\n".join(rows) + "\n")
    got = scored_pr("report", str(path))
    assert got.returncode == 2
    assert f"cases.jsonl:{before + 1}: invalid score '1_0' in column 'score'" in got.stderr


def test_stream_refuses_underscores_and_reports_what_came_before(tmp_path: Path) -> None:
    path = tmp_path / "cases.csv"
    path.write_text("correct,score\n1,0.9\n0,0.1\n1,1_0\n")
    got = scored_pr("stream", str(path))
    assert got.returncode == 2
    assert "cases.csv:4: invalid score '1_0' in column 'score' (a number has no underscores)" in got.stderr
    assert "Number of Cases=2\n" in got.stdout


def test_a_wide_score_with_underscores_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "wide.csv"
    path.write_text("y,p_a,p_b\na,0.9,0.1\nb,1_0,0.8\n")
    got = scored_pr("report", "--label-col", "y", "--score-prefix", "p_", str(path))
    assert got.returncode == 2
    assert "wide.csv:3: invalid score '1_0' in column 'p_a' (a number has no underscores)" in got.stderr


@pytest.mark.parametrize("before", [2, 5000])  # the per-line reader, and the numpy columns of a regular file
def test_trec_run_scores_with_underscores_are_refused(tmp_path: Path, before: int) -> None:
    lines = [f"q1 Q0 d{i} {i} 0.{i:06d} run" for i in range(before)] + [f"q1 Q0 x 0 1_0 run"]
    path = tmp_path / "run.txt"
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(Exception, match=rf"run\.txt:{before + 1}: invalid score '1_0'.*no underscores"):
        read_run(path)


def test_compare_refuses_underscored_scores(tmp_path: Path) -> None:
    a, b = tmp_path / "a.csv", tmp_path / "b.csv"
    a.write_text("id,correct,score\n1,1,0.9\n2,0,1_0\n3,1,0.4\n")
    b.write_text("id,correct,score\n1,1,0.8\n2,0,0.3\n3,1,0.5\n")
    got = scored_pr("compare", str(a), str(b))
    assert got.returncode == 2
    assert "1_0" in got.stderr and "no underscores" in got.stderr and "Traceback" not in got.stderr


# ------------------------------------------------------------------ messages


def test_a_json_boolean_class_says_it_is_matched_as_text(tmp_path: Path) -> None:
    path = tmp_path / "wide.jsonl"
    path.write_text('{"y": true, "p_True": 0.9, "p_False": 0.1}\n{"y": "False", "p_True": 0.2, "p_False": 0.8}\n')
    got = scored_pr("report", "--label-col", "y", "--score-prefix", "p_", str(path))
    assert got.returncode == 2
    line = got.stderr.strip()
    # it used to say "class True ... is not one of the classes of the score columns (True, False)"
    assert line.endswith("wide.jsonl:1: class 'true' (the JSON boolean true, matched as text) in column 'y' is not "
                         "one of the classes of the score columns ('True', 'False')"), line


def test_int_classes_against_string_labels_blame_the_argument_passed() -> None:
    from scored_pr import MultiLabelEvaluation

    ev = MultiLabelEvaluation(labels=["a", "b"])
    with pytest.raises(TypeError) as caught:
        ev.add_cases([0, 1], [[0.1, 0.2], [0.3, 0.1]])
    assert str(caught.value) == ("add_cases: argument 'Y' must be the evaluator's labels (strs: 'a', 'b') or "
                                 "indicators, one per label; got 0 (int) at index 0 instead.")
    with pytest.raises(TypeError, match=r"^add_case: argument 'y_row' must be the evaluator's labels \(strs: 'a', 'b'\)"):
        ev.add_case(1, [0.1, 0.2])
    with pytest.raises(TypeError, match=r"^add_cases: argument 'Y' must be the evaluator's labels \(ints or bools: 1, 2\)"):
        MultiLabelEvaluation(labels=[1, 2]).add_cases(["a", "b"], [[0.1, 0.2], [0.3, 0.1]])
    assert ev == MultiLabelEvaluation(labels=["a", "b"]) and ev.num_rows == 0  # the refused calls changed nothing
    ev.add_cases(["b", "a"], [[0.1, 0.2], [0.3, 0.1]])  # the classes it names are still taken
    assert ev.num_rows == 2


def test_functional_labels_of_the_wrong_type_still_blame_labels() -> None:
    import numpy as np

    import scored_pr.functional as F

    with pytest.raises(TypeError, match=r"^average_precision: argument 'labels' must be labels of the type of 'y_true'"):
        F.average_precision(np.array([0, 1, 2]), np.full((3, 3), 1 / 3), labels=["a", "b", "c"])


def test_a_plot_that_cannot_be_written_names_its_path_once(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    data = tmp_path / "cases.csv"
    data.write_text("correct,score\n1,0.5\n0,0.2\n")
    target = tmp_path / "missing" / "plot.png"
    got = scored_pr("report", "--plot", str(target), str(data))
    assert got.returncode == 1
    assert got.stderr == f"scored-pr: cannot write the plot {target}: No such file or directory\n"


def test_a_resume_path_that_is_not_a_checkpoint_is_named_once_and_blamed(tmp_path: Path) -> None:
    data = tmp_path / "cases.csv"
    data.write_text("correct,score\n1,0.5\n0,0.2\n")
    got = scored_pr("stream", "--resume", str(data), str(data))
    assert got.returncode == 2
    assert got.stderr.count(str(data)) == 1, got.stderr
    assert got.stderr.startswith(f"scored-pr: {data}: not a stream checkpoint: is not a scored_pr state file")
    got = scored_pr("stream", "--resume", str(tmp_path), str(data))  # a directory: the checkpoint's fault
    assert got.returncode == 2
    assert got.stderr == f"scored-pr: {tmp_path}: cannot read the checkpoint: Is a directory\n"


def test_trec_names_a_missing_file_once(tmp_path: Path) -> None:
    qrels, run = tmp_path / "q.txt", tmp_path / "r.txt"
    got = scored_pr("trec", str(qrels), str(run))
    assert got.returncode == 2
    assert got.stderr == f"scored-pr: {qrels}: cannot read: No such file or directory\n"
    qrels.write_text("q1 0 d1 1\n")
    got = scored_pr("trec", str(qrels), str(run))
    assert got.stderr == f"scored-pr: {run}: cannot read: No such file or directory\n"


def _ipv6_loopback() -> bool:
    import socket

    try:
        with socket.socket(socket.AF_INET6) as s:
            s.bind(("::1", 0))
        return True
    except OSError:
        return False


@pytest.mark.skipif(not _ipv6_loopback(), reason="no IPv6 loopback here")
def test_the_metrics_url_of_an_ipv6_host_has_brackets() -> None:
    pytest.importorskip("prometheus_client")
    got = scored_pr("stream", "--metrics-port", "0", "--metrics-host", "::1", "-", stdin="correct,score\n1,0.5\n")
    assert got.returncode == 0, got.stderr
    import re

    assert re.match(r"scored-pr: serving Prometheus metrics on http://\[::1\]:\d+/metrics\n", got.stderr), got.stderr
