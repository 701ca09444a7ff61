"""The command line never prints a traceback and never loses or swallows a valid line.

Each case runs the installed command in a subprocess, as a user or a pipeline
would, with hostile input or a hostile output. Then ``scored-pr report`` and
``stream --resume`` on damaged state files of every kind: one line, exit 2.
"""

from __future__ import annotations

import gzip
import io
import json
import os
import shlex
import subprocess
import sys
import threading
import zipfile
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from scored_pr import BoundedEvaluation, MultiLabelEvaluation, MultiQueryEvaluation, ScoredPrecisionRecallEvaluation
from scored_pr import WindowedEvaluation
from scored_pr._state import exact as exact_state

from cli_env import CMD, ROOT, clean_env


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


# --------------------------------------------------------------------------- damaged state files of every kind
# ``scored-pr report`` and ``stream --resume`` on damaged state files of every kind: one line, exit 2.
#
# Valid state files of each kind (exact with a stream checkpoint's header,
# windowed, bounded, multi-query, multi-label of each kind) are mutated: each
# header field replaced by values of the wrong type or range or removed, and
# members dropped, duplicated, cut short or swapped. Every mutant is given to
# ``report`` and to ``stream --resume`` in a clean environment
# (:mod:`tests.cli_env`): all of them through the command's entry point in one
# process (a process per file would take minutes), and the cases of the issue
# as separate ``python -m scored_pr`` processes. Each must answer with exactly
# one line on standard error, no traceback, and exit status 2.


#: Values a header field is replaced by: wrong types, out of range, and null.
BAD_VALUES: list[Any] = ["x", -1, None, [1], {"a": 1}, 1.5, True, 10**10]


def valid_files(directory: Path) -> dict[str, Path]:
    """A small valid state file of each kind."""
    files = {}
    ev = ScoredPrecisionRecallEvaluation()
    ev.add_cases([True, False, True], [0.9, 0.5, 0.1])
    ev.add_misses(1)
    files["exact"] = directory / "exact.npz"
    exact_state.save(ev, files["exact"], extra={"line": 3, "source": "in.csv"})  # as stream --checkpoint writes
    window = WindowedEvaluation(4)
    window.add_cases([True, False, True], [0.9, 0.5, 0.1])
    window.add_misses(1)
    bounded = BoundedEvaluation(4)
    bounded.add_cases([True, False, True, False, True], [0.9, 0.5, 0.1, 0.3, 0.7])
    multi = MultiQueryEvaluation()
    multi.add_cases("q1", [True, False], [0.9, 0.5])
    multi.add_cases("q2", [False, True], [0.4, 0.2], sample_weight=[1.0, 2.0])
    rows = MultiLabelEvaluation(["a", "b"])
    rows.add_cases([[1, 0], [0, 1]], [[0.9, 0.2], [0.4, 0.8]])
    binned = MultiLabelEvaluation(["a", "b"], max_bins=4)
    binned.add_cases([[1, 0], [0, 1]], [[0.9, 0.2], [0.4, 0.8]])
    for name, evaluation in (("windowed", window), ("bounded", bounded), ("multi", multi),
                             ("multilabel", rows), ("multilabel_bins", binned)):
        files[name] = directory / f"{name}.npz"
        evaluation.save(files[name])
    return files


def read_members(path: Path) -> list[tuple[str, bytes]]:
    with zipfile.ZipFile(path) as zf:
        return [(i.filename, zf.read(i)) for i in zf.infolist()]


def write_members(path: Path, members: list[tuple[str, bytes]]) -> Path:
    with zipfile.ZipFile(path, "w") as zf:
        for name, payload in members:
            zf.writestr(zipfile.ZipInfo(name), payload)  # a ZipInfo: no warning for a duplicate name
    return path


def json_member(value: Any) -> bytes:
    buf = io.BytesIO()
    np.lib.format.write_array(buf, np.frombuffer(json.dumps(value).encode(), dtype=np.uint8))
    return buf.getvalue()


def mutants(directory: Path) -> list[Path]:
    """Every header field of every kind set to each bad value or removed; members dropped, doubled, cut, swapped."""
    out = []
    for kind, path in valid_files(directory).items():
        members = read_members(path)
        meta = json.loads(np.lib.format.read_array(io.BytesIO(dict(members)["meta.npy"])).tobytes())
        for field in meta:
            for i, value in enumerate([*BAD_VALUES, "<removed>"]):
                changed = {k: v for k, v in meta.items() if k != field or value != "<removed>"}
                if value != "<removed>":
                    changed[field] = value
                swapped = [(n, json_member(changed) if n == "meta.npy" else p) for n, p in members]
                out.append(write_members(directory / f"{kind}-{field}-{i}.npz", swapped))
        for n, (name, payload) in enumerate(members):
            others = [m for m in members if m[0] != name]
            out.append(write_members(directory / f"{kind}-drop{n}.npz", others))
            out.append(write_members(directory / f"{kind}-twice{n}.npz", [*members, (name, payload)]))
            out.append(write_members(directory / f"{kind}-cut{n}.npz", [*others, (name, payload[: len(payload) // 2])]))
            out.append(write_members(directory / f"{kind}-bytes{n}.npz", [*others, (name, json_member("x" * 40))]))
        out.append(write_members(directory / f"{kind}-extra.npz", [*members, ("extra.npy", json_member([]))]))
    return out


def run_at_root(*args: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([*CMD, *args], input=b"", capture_output=True, env=clean_env(), cwd=ROOT, timeout=120)


#: Runs the command's entry point (what ``python -m scored_pr`` runs) on each command line read
#: from standard input, in one process: per command, its exit status and what it wrote to standard
#: error, or the traceback of an exception that escaped it, as one JSON line.
DRIVER = """
import contextlib, io, json, sys, traceback
from scored_pr._cli.main import main
for line in sys.stdin:
    argv = json.loads(line)
    err = io.StringIO()
    try:
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            sys.stdin = io.StringIO("")
            code = main(argv)
    except SystemExit as exc:
        code = exc.code
    except BaseException:
        code, err = "escaped", io.StringIO(traceback.format_exc())
    sys.stdin = sys.__stdin__
    print(json.dumps([argv, code, err.getvalue()]), flush=True)
"""


def test_every_damaged_state_file_is_one_line_and_exit_2(tmp_path: Path) -> None:
    files = mutants(tmp_path)
    commands = [["report", str(f)] for f in files] + [["stream", "-", "--resume", str(f)] for f in files]
    batch = "".join(json.dumps(c) + "\n" for c in commands).encode()
    done = subprocess.run([CMD[0], "-c", DRIVER], input=batch, capture_output=True, env=clean_env(), cwd=ROOT,
                          timeout=600)
    assert done.returncode == 0, done.stderr.decode()[-3000:]
    results = [json.loads(line) for line in done.stdout.decode().splitlines()]
    assert len(results) == len(commands)
    loaded = 0
    for command, code, err in results:
        assert "Traceback" not in err, (command, err)
        if code == 0:  # a mutation the format tolerates (such as a bad value in 'extra')
            loaded += 1
            continue
        assert code == 2, (command, code, err)
        assert len(err.strip().splitlines()) == 1, (command, err)
        assert len(err) < 1000, (command, len(err))
    # nearly every mutant is refused: a test that accepted everything would prove nothing
    assert loaded < len(results) // 10, loaded


@pytest.mark.parametrize("kind, field, value", [
    ("exact", "misses", "x"), ("bounded", "num_cases", "x"), ("windowed", "first_id", "x"), ("multilabel", "labels", "abc"),
])
def test_the_header_fields_of_the_issue_are_one_line_naming_the_field(tmp_path: Path, kind: str, field: str,
                                                                      value: Any) -> None:
    path = valid_files(tmp_path)[kind]
    members = read_members(path)
    meta = json.loads(np.lib.format.read_array(io.BytesIO(dict(members)["meta.npy"])).tobytes())
    bad = write_members(tmp_path / "bad.npz", [(n, json_member({**meta, field: value}) if n == "meta.npy" else p)
                                                for n, p in members])
    for command in (("report", str(bad)), ("stream", "-", "--resume", str(bad))):
        result = run_at_root(*command)
        err = result.stderr.decode()
        assert result.returncode == 2 and "Traceback" not in err, (command, err)
        assert len(err.strip().splitlines()) == 1
        if command[0] == "report" or kind == "exact":
            assert f"field '{field}'" in err, err


@pytest.mark.parametrize("command", ["report", "stream"])
@pytest.mark.parametrize("sep, options, hint", [
    (";", [], "; the file looks ;-separated, and scored-pr reads comma- or tab-separated text: convert it first, "
              "e.g. pandas.read_csv(path, sep=';').to_csv(new_path, index=False)"),
    ("\t", [], "; the file looks tab-separated: pass --input-format tsv"),
    (";", ["--label-col", "y", "--score-prefix", "p_"], "; the file looks ;-separated, and scored-pr reads"),
])
def test_a_missing_column_in_a_header_split_on_another_character_names_the_separator(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str, sep: str, options: list[str],
        hint: str) -> None:
    from scored_pr._cli.main import main

    header = ["y", "p_a", "p_b"] if options else ["label", "score"]
    row = ["a", "0.9", "0.1"] if options else ["1", "0.9"]
    path = tmp_path / "pred.csv"
    path.write_text(sep.join(header) + "\n" + sep.join(row) + "\n")
    status = main([command, str(path), *options])
    err = capsys.readouterr().err
    assert status == 2
    first = "--label-col: no column 'y' among the columns found" if options else \
        "no column 'correct' or 'label' in the header"
    assert f"{path}:1: {first} ({sep.join(header)!r}){hint}" in err
    assert "use --correct-col" not in err


def test_a_missing_column_of_a_comma_header_has_no_separator_hint(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    from scored_pr._cli.main import main

    path = tmp_path / "pred.csv"
    path.write_text("label,score\n1,0.9\n")
    assert main(["report", str(path), "--score-col", "p"]) == 2
    assert capsys.readouterr().err == f"scored-pr: {path}:1: no column 'p' in the header ('label', 'score'); use --score-col\n"
