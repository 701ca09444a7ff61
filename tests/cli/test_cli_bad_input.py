"""The command line never prints a traceback and never loses or swallows a valid line.

Each case runs the installed command in a subprocess, as a user or a pipeline
would, with hostile input or a hostile output.
"""

from __future__ import annotations

import gzip
import os
import shlex
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from scored_pr import MultiQueryEvaluation

from cli_env import CMD, clean_env


def run(*args: str, stdin: bytes | None = None, **kw: object) -> subprocess.CompletedProcess[bytes]:
    proc = subprocess.run([*CMD, *args], input=stdin, capture_output=True, timeout=120, env=clean_env(), **kw)  # type: ignore[call-overload]
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
    proc = subprocess.run(f"{sys.executable} -m scored_pr report - <&-", shell=True, capture_output=True, timeout=60,
                          env=clean_env())
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


def many_rows(path: Path, n: int) -> Path:
    """A CSV of ``n`` cases with distinct scores (so its ROC curve has ``n`` + 1 rows)."""
    path.write_text("correct,score\n" + "".join(f"{i % 3 == 0:d},{i / n!r}\n" for i in range(n)))
    return path


def test_a_closed_output_pipe_is_quiet_and_exits_1(tmp_path: Path) -> None:
    """`scored-pr report big.csv --curve roc | head -c 10`: no 'Exception ignored' message, status 1.

    The output is more than a pipe's buffer (64 KiB), so the command is surely
    still writing when ``head`` leaves: the test cannot pass by a race.
    """
    data = many_rows(tmp_path / "big.csv", 40_000)
    whole = run("report", str(data), "--curve", "roc")
    assert whole.returncode == 0 and len(whole.stdout) > 2 * 65_536
    proc = subprocess.run(f"{shlex.join([*CMD, 'report', str(data), '--curve', 'roc'])} | head -c 10; "
                          "exit ${PIPESTATUS[0]}",
                          shell=True, executable="/bin/bash", capture_output=True, timeout=120, env=clean_env())
    assert proc.stdout == whole.stdout[:10]
    assert proc.returncode == 1, proc.stderr
    assert proc.stderr == b"", proc.stderr


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_a_full_disk_is_an_output_error_not_an_input_error() -> None:
    """In a user's environment (stdout block-buffered, no PYTHONUNBUFFERED): one line, status 1."""
    with open("/dev/full", "wb") as full:
        proc = subprocess.run([*CMD, "demo"], stdout=full, stderr=subprocess.PIPE, timeout=60, env=clean_env())
    assert proc.returncode == 1
    assert proc.stderr == b"scored-pr: cannot write output: [Errno 28] No space left on device\n"


@pytest.mark.parametrize("window", [[], ["--window", "500"]], ids=["cumulative", "window"])
def test_stream_into_a_closed_pipe_stops_quietly_at_the_first_broken_pipe(tmp_path: Path, window: list[str]) -> None:
    """`scored-pr stream big.csv --every 1000 | head -1`: status 1, nothing on stderr, as `report` does."""
    data = many_rows(tmp_path / "big.csv", 300_000)
    err = tmp_path / "err"
    with open(err, "wb") as err_file:
        proc = subprocess.Popen([*CMD, "stream", str(data), "--every", "1000", *window],
                                stdout=subprocess.PIPE, stderr=err_file, env=clean_env())
        assert proc.stdout is not None
        first = proc.stdout.readline()
        proc.stdout.close()  # `head -1` leaves
        try:
            status = proc.wait(timeout=120)
        finally:
            proc.kill()
    assert first.startswith(b"cases=")
    assert (status, err.read_bytes()) == (1, b"")


def test_stream_of_an_endless_input_ends_when_its_reader_leaves(tmp_path: Path) -> None:
    """`(echo correct,score; yes 1,0.5) | scored-pr stream | head -1` ends: the stream stops reading."""
    err = tmp_path / "err"
    with open(err, "wb") as err_file:
        proc = subprocess.Popen([*CMD, "stream"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=err_file,
                                env=clean_env())
        assert proc.stdin is not None and proc.stdout is not None

        def yes() -> None:
            block = b"1,0.5\n" * 4096
            try:
                proc.stdin.write(b"correct,score\n")  # type: ignore[union-attr]
                while True:
                    proc.stdin.write(block)  # type: ignore[union-attr]
            except (BrokenPipeError, OSError, ValueError):
                pass

        writer = threading.Thread(target=yes, daemon=True)
        writer.start()
        first = proc.stdout.readline()
        proc.stdout.close()
        try:
            status = proc.wait(timeout=120)
        except subprocess.TimeoutExpired:
            pytest.fail("scored-pr stream kept reading an endless input after its reader left")
        finally:
            proc.kill()
            writer.join(timeout=60)
    assert first.startswith(b"cases=1000 ")
    assert (status, err.read_bytes()) == (1, b"")


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize("window", [[], ["--window", "500"]], ids=["cumulative", "window"])
def test_stream_onto_a_full_disk_is_one_output_error(tmp_path: Path, window: list[str]) -> None:
    data = many_rows(tmp_path / "big.csv", 30_000)
    with open("/dev/full", "wb") as full:
        proc = subprocess.run([*CMD, "stream", str(data), "--every", "1000", *window], stdout=full,
                              stderr=subprocess.PIPE, timeout=120, env=clean_env())
    assert proc.returncode == 1
    assert proc.stderr == b"scored-pr: cannot write output: [Errno 28] No space left on device\n"


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
