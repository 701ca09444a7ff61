"""``scored-pr report`` and ``stream --resume`` on damaged state files of every kind: one line, exit 2.

Valid state files of each kind (exact with a stream checkpoint's header,
windowed, bounded, multi-query, multi-label of each kind) are mutated: each
header field replaced by values of the wrong type or range or removed, and
members dropped, duplicated, cut short or swapped. Every mutant is given to
``report`` and to ``stream --resume`` in a clean environment
(:mod:`tests.cli_env`): all of them through the command's entry point in one
process (a process per file would take minutes), and the cases of the issue
as separate ``python -m scored_pr`` processes. Each must answer with exactly
one line on standard error, no traceback, and exit status 2.
"""

from __future__ import annotations

import io
import json
import subprocess
import zipfile
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from scored_pr import BoundedEvaluation, MultiLabelEvaluation, MultiQueryEvaluation, ScoredPrecisionRecallEvaluation
from scored_pr import WindowedEvaluation
from scored_pr._state import exact as exact_state

from cli_env import CMD, ROOT, clean_env

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


def run(*args: str) -> subprocess.CompletedProcess[bytes]:
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
        result = run(*command)
        err = result.stderr.decode()
        assert result.returncode == 2 and "Traceback" not in err, (command, err)
        assert len(err.strip().splitlines()) == 1
        if command[0] == "report" or kind == "exact":
            assert f"field '{field}'" in err, err
