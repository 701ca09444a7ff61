"""``scored-pr stream`` on wide files (multi-class and multi-label), held to ``scored-pr report`` and scikit-learn.

The final report of a stream that reads a whole file is exactly what ``report``
prints for it (text and JSON); every summary line holds the figures of the
rows read so far (each label's positives, AP and ROC AUC macro and micro,
against scikit-learn on the same prefix); a window's are those of its last N
rows; a checkpoint and ``--resume`` end with what one uninterrupted run
gives. The command runs as a user runs it: a subprocess in a clean
environment, once under ``env -i``.
"""

from __future__ import annotations

import json
import math
import os
import re
import shutil
import subprocess
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest

sk = pytest.importorskip("sklearn.metrics")

from cli_env import CMD, ROOT, clean_env, metrics_stream, scrape_after  # noqa: E402

CLASSES = ["cat", "dog", "bird", "fish"]
LABELS = ["a", "b", "c"]


def scored_pr(*args: str, stdin: str | None = None, cmd: list[str] | None = None, env: dict[str, str] | None = None
              ) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*(cmd or CMD), *args], input=stdin, capture_output=True, text=True, timeout=120, cwd=ROOT,
                          env=clean_env() if env is None else env)


def quietly(f: Any, *args: Any, **kwargs: Any) -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return f(*args, **kwargs)


def close(got: Any, want: Any) -> bool:
    got = math.nan if got is None else got
    return bool(np.allclose(float(got), float(want), rtol=1e-12, atol=1e-12, equal_nan=True))


def multiclass_file(path: Path, seed: int, n: int = 90) -> tuple[np.ndarray, np.ndarray]:
    """Class indices and probability rows in steps of 0.1 (many ties), every class present; written as CSV."""
    rng = np.random.default_rng(seed)
    k = len(CLASSES)
    parts = np.array([np.bincount(rng.integers(0, k, 10), minlength=k) for _ in range(n)])
    y = np.where(rng.random(n) < 0.5, parts.argmax(axis=1), rng.integers(0, k, n))
    y[:k] = np.arange(k)
    s = parts / 10.0
    lines = ["id,y," + ",".join(f"p_{c}" for c in CLASSES)]
    lines += [f"{i},{CLASSES[t]}," + ",".join(repr(float(v)) for v in row) for i, (t, row) in enumerate(zip(y, s))]
    path.write_text("\n".join(lines) + "\n")
    return y, s


def multilabel_file(path: Path, seed: int, n: int = 80) -> tuple[np.ndarray, np.ndarray]:
    """An indicator matrix and scores in steps of 0.2; written as JSON Lines."""
    rng = np.random.default_rng(seed)
    s = rng.integers(0, 6, (n, len(LABELS))) / 5.0
    y = rng.random((n, len(LABELS))) < 0.3 + 0.5 * s
    y[:2] = [[True, False, True], [False, True, False]]
    rows = []
    for t, row in zip(y, s):
        obj: dict[str, Any] = {c: int(v) for c, v in zip(LABELS, t)}
        obj.update({f"s_{c}": float(v) for c, v in zip(LABELS, row)})
        rows.append(json.dumps(obj))
    path.write_text("\n".join(rows) + "\n")
    return y, s


MC = ["--label-col", "y", "--score-prefix", "p_"]
ML = ["--label-cols", "a,b,c", "--score-prefix", "s_"]


def json_lines(text: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def report_json(path: Path, options: list[str]) -> dict[str, Any]:
    res = scored_pr("report", str(path), *options, "--format", "json")
    assert res.returncode == 0, res.stderr
    return json.loads(res.stdout)  # type: ignore[no-any-return]


def check_line(line: dict[str, Any], truth: np.ndarray, scores: np.ndarray, prefix: str = "") -> None:
    """A summary line's figures against scikit-learn on the rows it covers (an indicator matrix)."""
    assert line[prefix + "num_rows"] == len(truth)
    for j, own in enumerate(line[prefix + "labels"].values()):
        assert own["num_positive_ref"] == int(truth[:, j].sum())
    for mode in ("macro", "micro"):
        assert close(line[prefix + "average_precision"][mode], quietly(sk.average_precision_score, truth, scores, average=mode))
        present = truth.any(axis=0) & ~truth.all(axis=0)
        if mode == "micro" or present.all():
            want = sk.roc_auc_score(truth, scores, average=mode)
            assert close(line[prefix + "area_under_roc_curve"][mode], want), mode


@pytest.mark.parametrize("fmt", ["json", "text"])
def test_multiclass_stream_ends_with_the_report_and_its_lines_hold_each_prefix(tmp_path: Path, fmt: str) -> None:
    path = tmp_path / "pred.csv"
    y, s = multiclass_file(path, 1)
    res = scored_pr("stream", str(path), *MC, "--every", "25", "--format", fmt)
    assert res.returncode == 0, res.stderr
    report = scored_pr("report", str(path), *MC, "--format", fmt)
    assert report.returncode == 0
    onehot = np.eye(len(CLASSES), dtype=bool)[y]
    if fmt == "json":
        lines = json_lines(res.stdout)
        final = lines.pop()
        assert final.pop("final") is True and final == json.loads(report.stdout)
        assert [x["step"] for x in lines] == [25, 50, 75] and not any(x["final"] for x in lines)
        for x in lines:
            check_line(x, onehot[: x["step"]], s[: x["step"]])
    else:
        lines = res.stdout.split("\n\n", 1)
        summaries = lines[0].splitlines()
        assert len(summaries) == 3 and summaries[0].startswith("rows=25 pos: cat=")
        assert lines[1] == report.stdout  # the report, byte for byte
        first = onehot[:25]
        assert f"cat={int(first[:, 0].sum())} dog={int(first[:, 1].sum())}" in summaries[0]
        ap = sk.average_precision_score(first, s[:25], average="macro")
        assert re.search(rf"AP macro={ap:.4f} ", summaries[0])


def test_multilabel_jsonl_stream_from_stdin_equals_report(tmp_path: Path) -> None:
    path = tmp_path / "tags.jsonl"
    y, s = multilabel_file(path, 2)
    res = scored_pr("stream", "-", *ML, "--every", "20", "--format", "json", stdin=path.read_text())
    assert res.returncode == 0, res.stderr
    lines = json_lines(res.stdout)
    final = lines.pop()
    assert final.pop("final") is True
    want = report_json(path, ML)
    assert final == {**want, "source": "<stdin>"}
    assert len(lines) == 4
    for x in lines:
        check_line(x, y[: x["step"]], s[: x["step"]])


def test_skip_invalid_and_a_bad_row_stop_as_report_does(tmp_path: Path) -> None:
    path = tmp_path / "pred.csv"
    multiclass_file(path, 3, n=30)
    text = path.read_text().splitlines()
    text.insert(5, "99,cow,0.5,0.1,0.2,0.2")
    path.write_text("\n".join(text) + "\n")
    stopped = scored_pr("stream", str(path), *MC, "--format", "json")
    assert stopped.returncode == 2
    assert stopped.stderr.strip().endswith("(the report above covers the 4 rows read before it)")
    assert json.loads(stopped.stdout.splitlines()[-1])["num_cases"] == 4
    skipped = scored_pr("stream", str(path), *MC, "--format", "json", "--skip-invalid")
    assert skipped.returncode == 0, skipped.stderr
    final = json_lines(skipped.stdout)[-1]
    final.pop("final")
    assert final == report_json(path, [*MC, "--skip-invalid"]) and final["skipped_lines"] == 1


@pytest.mark.parametrize("layout", ["multiclass", "multilabel"])
def test_window_lines_and_report_are_those_of_the_last_rows(tmp_path: Path, layout: str) -> None:
    path = tmp_path / ("pred.csv" if layout == "multiclass" else "tags.jsonl")
    if layout == "multiclass":
        y, s = multiclass_file(path, 4)
        truth, options = np.eye(len(CLASSES), dtype=bool)[y], MC
    else:
        truth, s = multilabel_file(path, 4)
        options = ML
    res = scored_pr("stream", str(path), *options, "--every", "20", "--window", "30", "--cumulative", "--format", "json")
    assert res.returncode == 0, res.stderr
    lines = json_lines(res.stdout)
    final = lines.pop()
    assert final.pop("final") is True and final.pop("window_size") == 30
    assert final == report_json(path, options)  # --cumulative ends with the report of every row
    for x in lines:
        n = x["step"]
        check_line(x, truth[:n], s[:n])
        check_line(x, truth[max(0, n - 30):n], s[max(0, n - 30):n], prefix="window_")
    only = scored_pr("stream", str(path), *options, "--every", "20", "--window", "30", "--format", "json")
    assert only.returncode == 0, only.stderr
    lines = json_lines(only.stdout)
    final = lines.pop()
    assert final.pop("final") is True and final.pop("window_size") == 30
    last = tmp_path / ("last.csv" if layout == "multiclass" else "last.jsonl")  # the last 30 rows as a file of their own
    text = path.read_text().splitlines()
    last.write_text("\n".join((text[:1] if layout == "multiclass" else []) + text[-30:]) + "\n")
    assert final == {**report_json(last, options), "source": str(path)}
    assert all("window_num_rows" not in x and x["num_rows"] == min(x["step"], 30) for x in lines)


@pytest.mark.parametrize("layout", ["multiclass", "multilabel"])
def test_checkpoint_and_resume_equal_one_uninterrupted_run(tmp_path: Path, layout: str) -> None:
    path = tmp_path / ("pred.csv" if layout == "multiclass" else "tags.jsonl")
    if layout == "multiclass":
        multiclass_file(path, 5, n=100)
        options = MC
    else:
        multilabel_file(path, 5, n=100)
        options = ML
    text = path.read_text().splitlines()
    head = tmp_path / f"head{path.suffix}"
    head.write_text("\n".join(text[:57]) + "\n")  # the first part of a file that grew, or of a run that stopped
    cp = tmp_path / "state.npz"
    first = scored_pr("stream", str(head), *options, "--checkpoint", str(cp), "--checkpoint-every", "7", "--format", "json")
    assert first.returncode == 0, first.stderr
    # the checkpoint is a MultiLabelEvaluation state file: report reads it
    saved = scored_pr("report", str(cp), "--format", "json")
    assert saved.returncode == 0 and json.loads(saved.stdout)["kind"] == "multilabel"
    resumed = scored_pr("stream", str(path), *options, "--resume", str(cp), "--checkpoint", str(cp), "--every", "1000",
                        "--format", "json")
    assert resumed.returncode == 0, resumed.stderr
    final = json_lines(resumed.stdout)[-1]
    whole = json_lines(scored_pr("stream", str(path), *options, "--every", "1000", "--format", "json").stdout)[-1]
    assert final == whole and final["num_cases"] == 100
    again = scored_pr("stream", str(path), *options, "--resume", str(cp), "--format", "json")  # nothing new: the same
    assert json_lines(again.stdout)[-1] == whole
    other = MC if layout == "multilabel" else ML
    wrong = scored_pr("stream", str(path), *other, "--resume", str(cp))
    assert wrong.returncode == 2 and ("the checkpoint was made from a" in wrong.stderr or "no column" in wrong.stderr)
    binary = scored_pr("stream", str(path), "--resume", str(cp))
    assert binary.returncode == 2 and "MultiLabelEvaluation" in binary.stderr


@pytest.mark.parametrize(("args", "message"), [
    (["--window-seconds", "5"], "--window-seconds: not for a wide file"),
    (["--ties", "stable"], "--ties: not for a wide file"),
    (["--score-col", "p"], "--score-col: not for a wide file"),
    (["--misses", "2"], "--misses: not for a wide file"),
    (["--cumulative"], "--cumulative goes with --window N"),
    (["--window", "5", "--checkpoint", "x.npz"], "--checkpoint and --resume keep the cumulative evaluation only"),
])
def test_options_that_do_not_go_with_a_wide_stream_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                            args: list[str], message: str) -> None:
    from scored_pr._cli.main import main

    path = tmp_path / "pred.csv"
    multiclass_file(path, 6, n=8)
    assert main(["stream", str(path), *MC, *args]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and message in captured.err


def test_clean_env_i_text_stream(tmp_path: Path) -> None:
    """Under `env -i` (PATH, HOME, LANG, PYTHONPATH only; no PYTHONUNBUFFERED) the lines and report are the same."""
    env_cmd = shutil.which("env")
    if env_cmd is None:
        pytest.skip("no env(1)")
    path = tmp_path / "tags.jsonl"
    multilabel_file(path, 7)
    e = clean_env()
    cmd = [env_cmd, "-i", f"PATH={e['PATH']}", f"HOME={e['HOME']}", "LANG=C.UTF-8", f"PYTHONPATH={e['PYTHONPATH']}", *CMD]
    res = scored_pr("stream", str(path), *ML, "--every", "40", cmd=cmd, env={})
    assert res.returncode == 0, res.stderr
    summaries, report = res.stdout.split("\n\n", 1)
    assert [line.split()[0] for line in summaries.splitlines()] == ["rows=40", "rows=80"]
    assert report == scored_pr("report", str(path), *ML).stdout


def test_metrics_port_serves_every_label_and_every_average(tmp_path: Path) -> None:
    pytest.importorskip("prometheus_client")
    proc, url = metrics_stream("-", *ML, "--every", "10", "--format", "json")
    try:
        assert proc.stdin is not None and proc.stdout is not None
        path = tmp_path / "tags.jsonl"
        y, s = multilabel_file(path, 8, n=20)
        proc.stdin.write(path.read_text())
        proc.stdin.flush()
        lines = [json.loads(proc.stdout.readline()) for _ in range(2)]
        assert [x["step"] for x in lines] == [10, 20]
        text = scrape_after(url, 20)
        samples = {(name, average, label): float(value) for name, average, label, value in re.findall(
            r'^(scored_pr_\w+)\{average="(\w*)",label="(\w*)",scope="cumulative"\} (\S+)$', text, re.M)}
        assert samples[("scored_pr_num_rows", "", "")] == 20
        for mode in ("macro", "micro", "weighted"):
            want = quietly(sk.average_precision_score, y, s, average=mode)
            assert close(samples[("scored_pr_average_precision", mode, "")], want), mode
        assert close(samples[("scored_pr_area_under_roc_curve", "micro", "")], sk.roc_auc_score(y, s, average="micro"))
        # every label's own figures too, under its name
        for j, label in enumerate(LABELS):
            want = quietly(sk.average_precision_score, y[:, j], s[:, j])
            assert close(samples[("scored_pr_average_precision", "", label)], want), label
        proc.stdin.close()
        assert proc.wait(timeout=60) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
