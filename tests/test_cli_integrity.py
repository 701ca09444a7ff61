"""The command line never prints a traceback and never loses or swallows a valid line.

Each case runs the installed command in a subprocess, as a user or a pipeline
would, with hostile input or a hostile output.
"""

from __future__ import annotations

import gzip
import os
import subprocess
import sys
from pathlib import Path

import pytest

from scored_pr import MultiQueryEvaluation

CMD = [sys.executable, "-m", "scored_pr"]


def run(*args: str, stdin: bytes | None = None, **kw: object) -> subprocess.CompletedProcess[bytes]:
    proc = subprocess.run([*CMD, *args], input=stdin, capture_output=True, timeout=120, **kw)  # type: ignore[call-overload]
    assert b"Traceback" not in proc.stderr, proc.stderr.decode()[-2000:]
    return proc


def test_deeply_nested_json_is_one_invalid_line() -> None:
    deep = b'{"label": 1, "score": ' + b"[" * 100_000 + b"]" * 100_000 + b"}\n"
    body = b'{"label": 1, "score": 0.5}\n' + deep + b'{"label": 0, "score": 0.25}\n'
    proc = run("report", "-", "--input-format", "jsonl", stdin=body)
    assert proc.returncode == 2 and b"<stdin>:2: invalid JSON (nested too deeply)" in proc.stderr
    proc = run("report", "-", "--input-format", "jsonl", "--skip-invalid", "--format", "json", stdin=body)
    assert proc.returncode == 0 and b'"num_cases": 2' in proc.stdout and b'"skipped_lines": 1' in proc.stdout


def test_closed_standard_input() -> None:
    proc = subprocess.run(f"{sys.executable} -m scored_pr report - <&-", shell=True, capture_output=True, timeout=60)
    assert proc.returncode == 2 and b"standard input is closed" in proc.stderr
    assert b"Traceback" not in proc.stderr


def test_input_without_newlines_stops_instead_of_filling_memory() -> None:
    body = b"correct,score\n" + b"1,0.5," * 400_000  # 2.4 MB on one line
    proc = run("report", "-", stdin=body)
    assert proc.returncode == 2 and b"<stdin>:2: line longer than 1,048,576 characters" in proc.stderr


@pytest.mark.parametrize("fmt, body, shown", [
    ("csv", b"correct,score\n1,0.5\n0,1e400\n", b"'1e400'"),
    ("jsonl", b'{"label": 1, "score": 0.5}\n{"label": 0, "score": 1e400}\n', b"inf"),
    ("csv", b"correct,score\n1,9007199254740993\n0,9007199254740992\n", b"'9007199254740993'"),
])
def test_overflowing_and_inexact_scores_are_rejected_like_the_api(fmt: str, body: bytes, shown: bytes) -> None:
    proc = run("report", "-", "--input-format", fmt, stdin=body)
    assert proc.returncode == 2, proc.stdout
    assert b"beyond float64's range" in proc.stderr or b"not exactly representable" in proc.stderr, proc.stderr
    ok = run("report", "-", "--input-format", "csv", stdin=b"correct,score\n1,inf\n0,-Infinity\n")
    assert ok.returncode == 0  # an explicit infinity is a score


def test_overflowing_trec_scores_are_rejected(tmp_path: Path) -> None:
    (tmp_path / "q").write_text("1 0 d1 1\n")
    (tmp_path / "r").write_text("1 Q0 d1 1 1e400 run\n")
    with pytest.raises(ValueError, match=r"r:1: invalid score '1e400' .*beyond float64's range"):
        MultiQueryEvaluation.from_trec(tmp_path / "q", tmp_path / "r")


def test_non_utf8_trec_files_name_the_file_and_line(tmp_path: Path) -> None:
    (tmp_path / "q").write_bytes(b"1 0 d1 1\n1 0 d\xff2 0\n")
    (tmp_path / "r").write_text("1 Q0 d1 1 0.5 run\n")
    with pytest.raises(ValueError, match=r"q:2: not valid UTF-8 \(byte 0xff at column 6\)"):
        MultiQueryEvaluation.from_trec(tmp_path / "q", tmp_path / "r")


def test_huge_misses_on_the_command_line() -> None:
    proc = run("report", "-", "--misses", "9" * 400, stdin=b"correct,score\n1,0.5\n")
    assert proc.returncode == 2 and b"at most 2**53" in proc.stderr


def test_a_closed_output_pipe_is_quiet_and_exits_1() -> None:
    """`scored-pr demo | head -1`: no 'Exception ignored' message, status 1 (the Python docs' recipe)."""
    proc = subprocess.run(f"{sys.executable} -m scored_pr demo | head -c 10; exit ${{PIPESTATUS[0]}}",
                          shell=True, executable="/bin/bash", capture_output=True, timeout=60)
    assert proc.returncode == 1, proc.stderr
    assert proc.stderr == b"", proc.stderr


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_a_full_disk_is_an_output_error_not_an_input_error() -> None:
    with open("/dev/full", "wb") as full:
        proc = subprocess.run([*CMD, "demo"], stdout=full, stderr=subprocess.PIPE, timeout=60)
    assert proc.returncode == 1
    assert b"cannot write output: [Errno 28] No space left on device" in proc.stderr
    assert b"cannot read input" not in proc.stderr and b"Traceback" not in proc.stderr


def test_a_stray_quote_invalidates_one_physical_line_only() -> None:
    body = b'correct,score\n1,0.9\n0,"0.8\n1,0.7\n0,0.6\n1,0.5\n'
    proc = run("report", "-", "--skip-invalid", "--format", "json", stdin=body)
    assert proc.returncode == 0, proc.stderr
    assert b'"num_cases": 4' in proc.stdout and b'"skipped_lines": 1' in proc.stdout
    assert b"skipped <stdin>:3: malformed line" in proc.stderr
    assert b"skipped 1 invalid line" in proc.stderr


def test_a_quoted_field_may_still_span_lines() -> None:
    body = b'id,correct,score\n"a\nb",1,0.9\nc,0,0.1\n'
    proc = run("report", "-", "--format", "json", stdin=body)
    assert proc.returncode == 0 and b'"num_cases": 2' in proc.stdout


def test_plot_reports_the_path_it_wrote(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    data = tmp_path / "p.csv"
    data.write_text("correct,score\n1,0.9\n0,0.1\n")
    out = tmp_path / "figure"  # no suffix
    proc = run("report", str(data), "--plot", str(out))
    assert proc.returncode == 0, proc.stderr
    assert out.is_file() and not (tmp_path / "figure.png").exists()
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert f"wrote {out}".encode() in proc.stderr


def test_truncated_gzip_in_report_is_an_input_error(tmp_path: Path) -> None:
    data = gzip.compress(b"correct,score\n" + b"1,0.5\n" * 50_000)
    path = tmp_path / "cut.csv.gz"
    path.write_bytes(data[: len(data) // 2])
    proc = run("report", str(path))
    assert proc.returncode == 2 and b"cannot read input" in proc.stderr
