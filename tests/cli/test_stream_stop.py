"""scored-pr stream under signals, bad input and crashes: nothing read is ever lost.

Each test runs the real command in a subprocess, as systemd, Kubernetes,
``timeout`` or a terminal would, and feeds it through a pipe.
"""

from __future__ import annotations

import gzip
import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from cli_env import clean_env

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")

CMD = [sys.executable, "-m", "scored_pr", "stream"]


def start(*args: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen([*CMD, *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env=clean_env())


def wait_for_lines(proc: subprocess.Popen[bytes], count: int) -> list[bytes]:
    assert proc.stdout is not None
    return [proc.stdout.readline() for _ in range(count)]


def final_json(stdout: bytes) -> dict[str, object]:
    final = [json.loads(line) for line in stdout.splitlines() if line.strip() and json.loads(line).get("final")]
    assert len(final) == 1, stdout[-2000:]
    return final[0]


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP])
def test_a_stop_signal_prints_the_report_of_every_case_read(sig: int) -> None:
    proc = start("--every", "1", "--format", "json")
    assert proc.stdin is not None
    proc.stdin.write(b"correct,score\n" + b"".join(f"{i % 2},{i / 100}\n".encode() for i in range(40)))
    proc.stdin.flush()
    wait_for_lines(proc, 40)  # every case is in: one summary line each
    proc.send_signal(sig)  # the command now waits on the pipe for more
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 128 + sig, err
    report = final_json(out)
    assert report["num_cases"] == 40 and report["num_positive_ref"] == 20
    assert f"stopped by {signal.Signals(sig).name} after 40 cases" in err.decode()


def test_sigint_at_random_moments_never_loses_or_double_counts_a_case() -> None:
    """50 trials: all-positive input, SIGINT at a random moment while cases flow."""
    rng = random.Random(2024)
    for trial in range(50):
        proc = start("--every", "50", "--format", "json")
        assert proc.stdin is not None and proc.stdout is not None
        written = 0

        def feed() -> None:
            nonlocal written
            try:
                proc.stdin.write(b"label,score\n")  # type: ignore[union-attr]
                for block in range(400):
                    proc.stdin.write(b"".join(f"1,{(block * 50 + i) % 997}\n".encode() for i in range(50)))  # type: ignore[union-attr]
                    proc.stdin.flush()  # type: ignore[union-attr]
                    written += 50
                proc.stdin.close()  # type: ignore[union-attr]
            except (BrokenPipeError, ValueError, OSError):
                pass

        writer = threading.Thread(target=feed)
        writer.start()
        first = proc.stdout.readline()  # cases are flowing
        assert first, proc.stderr.read() if proc.stderr else b""
        time.sleep(rng.uniform(0.0, 0.05))
        proc.send_signal(signal.SIGINT)
        # read through the same buffered pipe as `first` (communicate() would skip its buffer)
        out = proc.stdout.read()
        err = proc.stderr.read() if proc.stderr else b""
        proc.wait(timeout=60)
        writer.join()
        lines = [json.loads(x) for x in (first + out).splitlines() if x.strip()]
        final = [x for x in lines if x["final"]]
        assert len(final) == 1, (trial, err)
        report = final[0]
        last_summary = max((x["num_cases"] for x in lines if not x["final"]), default=0)
        # every case counted is ranked (AP is exactly 1 on all-positive data),
        # none is counted twice, and none that a summary already saw is lost
        assert report["average_precision"] == 1.0 and report["r_precision"] == 1.0, (trial, report)
        assert last_summary <= report["num_cases"] <= written, (trial, last_summary, report["num_cases"], written)
        assert report["num_positive_ref"] == report["num_cases"]
        assert proc.returncode in (0, 130), (trial, proc.returncode, err)  # 0: input ended before the signal


def test_a_malformed_line_stops_after_the_report_of_what_was_read() -> None:
    proc = subprocess.run([*CMD, "--format", "json"], input=b"correct,score\n1,0.5\n0,0.4\nmaybe,0.3\n1,0.2\n",
                          capture_output=True, timeout=60, env=clean_env())
    assert proc.returncode == 2
    assert final_json(proc.stdout)["num_cases"] == 2
    err = proc.stderr.decode()
    assert "<stdin>:4: invalid label 'maybe'" in err and "2 cases read before it" in err


def test_a_truncated_gzip_stops_after_the_report_of_what_was_read(tmp_path: Path) -> None:
    body = "correct,score\n" + "".join(f"{i % 3 == 0:d},{i}\n" for i in range(20_000))
    data = gzip.compress(body.encode())
    path = tmp_path / "cut.csv.gz"
    path.write_bytes(data[: len(data) * 2 // 3])
    proc = subprocess.run([*CMD, str(path), "--format", "json"], capture_output=True, timeout=60, env=clean_env())
    assert proc.returncode == 2
    n = final_json(proc.stdout)["num_cases"]
    assert isinstance(n, int) and 1000 < n < 20_000
    assert "cannot read input" in proc.stderr.decode() and f"{n} cases read before it" in proc.stderr.decode()


def run_report(*args: str, stdin: bytes | None = None) -> dict[str, object]:
    proc = subprocess.run([*CMD, *args, "--format", "json"], input=stdin, capture_output=True, timeout=120,
                          env=clean_env())
    assert proc.returncode == 0, proc.stderr
    report = final_json(proc.stdout)
    report.pop("source")
    return report


def test_kill_9_then_resume_reports_what_one_uninterrupted_run_reports(tmp_path: Path) -> None:
    rng = random.Random(5)
    rows = [f"{int(rng.random() < 0.3)},{rng.randrange(500) / 100}\n" for _ in range(30_000)]
    data = tmp_path / "preds.csv"
    data.write_text("correct,score\n" + "".join(rows))
    checkpoint = tmp_path / "cp.npz"
    single = run_report(str(data), "--ties", "stable")

    # the first run reads a live feed and is killed -9 part way through
    proc = start("--checkpoint", str(checkpoint), "--checkpoint-every", "1000", "--every", "1000",
                 "--ties", "stable", "--format", "json")
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(b"correct,score\n")
    for i in range(0, 17_500, 500):
        proc.stdin.write("".join(rows[i:i + 500]).encode())
        proc.stdin.flush()
    while True:  # wait until it has taken at least 15,000 cases
        seen = json.loads(proc.stdout.readline())
        if seen["num_cases"] >= 15_000:
            break
    proc.kill()
    proc.wait(timeout=30)
    assert checkpoint.exists()

    # the restart reads the whole file again and skips what the checkpoint holds
    resumed = run_report(str(data), "--resume", str(checkpoint), "--checkpoint", str(checkpoint), "--ties", "stable")
    assert resumed == single
    # and the final checkpoint holds exactly the whole input
    again = run_report(str(data), "--resume", str(checkpoint), "--ties", "stable")
    assert again == single


def test_resume_rejects_what_is_not_a_checkpoint(tmp_path: Path) -> None:
    from scored_pr import ScoredPrecisionRecallEvaluation

    plain = tmp_path / "plain.npz"
    ScoredPrecisionRecallEvaluation(ties="stable").save(plain)
    for path, message in ((tmp_path / "missing.npz", "no such checkpoint"), (plain, "not a stream checkpoint")):
        proc = subprocess.run([*CMD, "--resume", str(path), "--ties", "stable"], input=b"correct,score\n1,1\n",
                              capture_output=True, timeout=60, env=clean_env())
        assert proc.returncode == 2 and message in proc.stderr.decode(), proc.stderr
        assert b"Traceback" not in proc.stderr
    cp = tmp_path / "cp.npz"
    subprocess.run([*CMD, "--checkpoint", str(cp), "--ties", "grouped"], input=b"correct,score\n1,1\n",
                   capture_output=True, timeout=60, check=True, env=clean_env())
    proc = subprocess.run([*CMD, "--resume", str(cp), "--ties", "stable"], input=b"correct,score\n1,1\n",
                          capture_output=True, timeout=60, env=clean_env())
    assert proc.returncode == 2 and "--ties grouped" in proc.stderr.decode()
    assert os.path.exists(cp)


# --------------------------------------------------------------------------- two stop signals at once


@pytest.fixture(scope="module")
def big_csv(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """300,000 cases: long enough that every signal below arrives while the stream reads."""
    rng = random.Random(27)
    path = tmp_path_factory.mktemp("big") / "big.csv"
    path.write_text("correct,score\n" + "".join(f"{int(rng.random() < 0.3)},{rng.random():.6f}\n"
                                                for _ in range(300_000)))
    return path


def read_checkpoint(path: Path) -> tuple[int, int]:
    """(num_cases, the input line it continues after) of a stream checkpoint."""
    from scored_pr import ScoredPrecisionRecallEvaluation
    from scored_pr._state.exact import load_with_extra

    ev, extra = load_with_extra(ScoredPrecisionRecallEvaluation, path, "--resume")
    return ev.num_cases, extra["line"]


TWO_SIGNALS = [(signal.SIGHUP, signal.SIGTERM), (signal.SIGINT, signal.SIGTERM)]
#: Seconds after the first summary line (reading is under way), and between the two signals: 0 is
#: two kill(2) calls back to back, the rest put the second signal at different points of the stop.
DELAYS = (0.0, 0.1)
GAPS = (0.0, 0.0005, 0.002, 0.01)


@pytest.mark.parametrize("window", [False, True], ids=["checkpoint", "window"])
@pytest.mark.parametrize("first,second", TWO_SIGNALS, ids=[f"{a.name}-{b.name}" for a, b in TWO_SIGNALS])
def test_two_stop_signals_at_once_still_give_the_report_the_checkpoint_and_128_plus_n(
    tmp_path: Path, big_csv: Path, first: signal.Signals, second: signal.Signals, window: bool
) -> None:
    """A terminal closing (HUP then TERM), Ctrl-C then a supervisor's TERM: whatever arrives, and when,
    the first signal decides the status, and the report and the exit checkpoint are written."""
    for trial, (delay, gap) in enumerate((d, g) for d in DELAYS for g in GAPS):
        cp = tmp_path / f"cp{trial}.npz"
        extra = ["--window", "5000"] if window else ["--checkpoint", str(cp), "--checkpoint-every", "7000"]
        proc = subprocess.Popen([*CMD, str(big_csv), "--every", "10000", "--format", "json", *extra],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=clean_env())
        assert proc.stdout is not None and proc.stderr is not None
        first_line = proc.stdout.readline()  # the stream is reading (its handlers are in place)
        time.sleep(delay)
        proc.send_signal(first)
        if gap:
            time.sleep(gap)
        proc.send_signal(second)
        out, err = first_line + proc.stdout.read(), proc.stderr.read()
        status = proc.wait(timeout=60)
        where = (trial, delay, gap, err.decode()[-1500:])
        assert b"Traceback" not in err, where
        # Sent back to back (gap 0), or up to 2 ms apart on a loaded 2-core machine that does not
        # run the process in between (seen in CI at 2 ms), both signals can be pending when it next
        # runs, and the kernel keeps no order among pending signals: either may then be "the first";
        # what holds is that exactly one decides the status and the message (10 ms apart: the first).
        both_pending = gap <= 0.002 and status in (128 + first, 128 + second)
        decided = signal.Signals(status - 128) if both_pending else first
        assert status == 128 + decided, where
        report = final_json(out)
        summaries = [json.loads(x) for x in out.splitlines() if x.strip() and not json.loads(x)["final"]]
        assert summaries and report["cases_read" if window else "num_cases"] >= summaries[-1]["num_cases"], where
        seen = report["cases_read"] if window else report["num_cases"]
        assert isinstance(seen, int) and seen < 300_000, where  # stopped part way, as intended
        assert f"scored-pr: stopped by {decided.name} after {seen} cases;" in err.decode(), where
        if not window:
            assert read_checkpoint(cp) == (seen, seen + 1), where  # the header is line 1


@pytest.mark.parametrize("source", ["busy", "waiting"])
@pytest.mark.parametrize("second", [signal.SIGINT, signal.SIGHUP], ids=["INT", "HUP"])
def test_a_term_followed_at_once_by_a_lower_numbered_signal_exits_143(
    big_csv: Path, second: signal.Signals, source: str
) -> None:
    """``kill -TERM; kill -INT``: the interpreter runs its handlers in signal-number order, so a
    handler that took the signal it was called for as the first made SIGINT (or SIGHUP) decide.
    The order they arrived in decides: SIGTERM, 143, whether the stream was busy reading a file or
    waiting on a pipe, and whatever the gap between the two. The command runs single-threaded (one
    BLAS thread): in a process with other threads, the kernel may hand the second signal to another
    thread while the first waits for the main one, and their order is then lost (docs/cli.md)."""
    env = clean_env(OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1", MKL_NUM_THREADS="1")
    for trial, gap in enumerate((0.0, 0.0, 0.0, 0.0005, 0.002, 0.01)):
        if source == "busy":
            proc = subprocess.Popen([*CMD, str(big_csv), "--every", "10000", "--format", "json"],
                                    stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
            assert proc.stdout is not None
            first_line = proc.stdout.readline()  # the stream is reading (its handlers are in place)
        else:
            proc = subprocess.Popen([*CMD, "--every", "5", "--format", "json"], stdin=subprocess.PIPE,
                                    stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
            assert proc.stdin is not None and proc.stdout is not None
            proc.stdin.write(b"correct,score\n" + b"".join(f"{i % 2},{i / 100}\n".encode() for i in range(5)))
            proc.stdin.flush()
            first_line = proc.stdout.readline()  # the five cases are in: it now waits on the pipe
        proc.send_signal(signal.SIGTERM)
        if gap:
            time.sleep(gap)
        proc.send_signal(second)
        out, err = proc.communicate(timeout=60)
        where = (trial, gap, err.decode()[-1500:])
        # sent back to back (gap 0, or up to 2 ms on a loaded machine), both can be pending when the
        # process next runs, and the kernel keeps no order among pending signals (docs/cli.md):
        # either then decides, and exactly one does
        both_pending = gap <= 0.002 and proc.returncode == 128 + second
        decided = second if both_pending else signal.SIGTERM
        assert proc.returncode == 128 + decided, where
        seen = final_json(first_line + out)["num_cases"]
        assert f"scored-pr: stopped by {decided.name} after {seen} cases;" in err.decode(), where
        other = (signal.SIGTERM if both_pending else second).name.encode()
        assert b"Traceback" not in err and other not in err, where


# --------------------------------------------------------------------------- checkpoints that cannot be written


@pytest.mark.parametrize("where", ["missing-directory", "a-directory"])
def test_an_unwritable_checkpoint_path_is_a_usage_error_before_any_input_is_read(tmp_path: Path, where: str) -> None:
    data = tmp_path / "in.csv"
    data.write_text("correct,score\n" + "1,0.5\n0,0.25\n" * 1500)
    target = tmp_path / "nonexistent" / "cp.npz" if where == "missing-directory" else tmp_path
    proc = subprocess.run([*CMD, str(data), "--checkpoint", str(target), "--checkpoint-every", "1000"],
                          capture_output=True, timeout=60, env=clean_env())
    err = proc.stderr.decode()
    assert (proc.returncode, proc.stdout) == (2, b""), err  # nothing read, nothing reported
    expected = f"scored-pr: --checkpoint: expected a file path in a writable directory; got {str(target)!r} ("
    assert err.startswith(expected), err
    assert err.count("\n") == 1 and "cannot read input" not in err and str(data) not in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.csv"]  # and no probe left behind


def test_a_checkpoint_that_fails_later_is_an_output_error_after_the_report(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The disk fills at the second checkpoint: the stream stops there, reports, and exits 1."""
    from scored_pr._state import exact as _exact_state
    from scored_pr._cli.main import main

    data = tmp_path / "in.csv"
    data.write_text("correct,score\n" + "".join(f"{i % 2},{i / 1000}\n" for i in range(1000)))
    cp = tmp_path / "cp.npz"
    save = _exact_state.save
    calls = []

    def full_disk_at_the_second_call(*args: object, **kwargs: object) -> None:
        calls.append(args[2] if len(args) > 2 else kwargs.get("extra"))
        if len(calls) >= 2:
            raise OSError(28, "No space left on device")
        save(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(_exact_state, "save", full_disk_at_the_second_call)
    status = main(["stream", str(data), "--checkpoint", str(cp), "--checkpoint-every", "100", "--format", "json"])
    out, err = capsys.readouterr()
    assert status == 1, err
    assert final_json(out.encode())["num_cases"] == 200  # it stopped at the failed checkpoint, and reported
    assert err == (f"scored-pr: --checkpoint {cp}: cannot write the checkpoint: [Errno 28] No space left on device "
                   "(an output error; the report above covers the 200 cases read)\n")
    assert read_checkpoint(cp) == (100, 101)  # the last good checkpoint is intact
    assert len(calls) == 3  # the exit checkpoint was tried too


def test_a_stop_raised_at_any_instruction_of_the_reading_loop_is_answered_not_escaped() -> None:
    """A stop signal's handler runs between two bytecode instructions, and raises Stopped there while
    the reading listens: from every such instruction the Stopped must reach _read_stream's handlers.
    (CPython 3.13's exception table leaves a loop's backward jump after a ``with`` block outside the
    enclosing try of the same function: a signal handled there escaped as a traceback.) Raise it at
    each listening instruction in turn, as the handler would."""
    from scored_pr._cli import stream as cli
    from scored_pr._cli.stopping import GracefulStop, Stopped

    cases = [(i + 1, i % 2 == 0, 0.1 * i) for i in range(3)]
    watched = {cli._read_stream.__code__, getattr(cli, "_feed", cli._read_stream).__code__}

    def run(at: int | None) -> tuple[int, object]:
        seen = 0
        taken: list[int] = []

        def take(line: int, correct: bool, score: float) -> bool:
            taken.append(line)
            return True

        def tracer(frame, event, arg):  # noqa: ANN001, ANN202 - sys.settrace's protocol
            nonlocal seen
            if frame.f_code not in watched:
                return None
            frame.f_trace_opcodes = True
            if event == "opcode" and stop._live:  # where the handler would raise (see GracefulStop._handle)
                seen += 1
                if seen == at:
                    stop._live = False  # as the handler does: never raise twice
                    raise Stopped(signal.SIGTERM)
            return tracer

        stop = GracefulStop()  # not entered: no handler is installed, only the states are used
        sys.settrace(tracer)
        try:
            result = cli._read_stream(stop, iter(cases), take)
        finally:
            sys.settrace(None)
        return seen, result

    total, result = run(None)
    assert total > 10 and result == (None, None), (total, result)
    for at in range(1, total + 1):
        seen, (stopped, failure) = run(at)  # raises if the Stopped escaped
        assert failure is None and (stopped is None) == (seen < at), (at, seen, stopped)
