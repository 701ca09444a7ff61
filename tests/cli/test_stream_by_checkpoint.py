"""``scored-pr stream --by`` with ``--window N`` (a window per slice) and ``--checkpoint``/``--resume``.

The stream runs as a user runs it: ``python -m scored_pr`` in a subprocess with a clean environment
(``cli_env.clean_env``). Each slice's window holds the slice's last N cases: its numbers equal an
exact evaluator fed, by hand, the last N rows of that slice. A checkpoint is the sliced state file
(``SlicedEvaluation.load`` reads it; ``scored-pr report`` prints it); a stream resumed from one ends
as the uninterrupted stream ends, and a checkpoint of other keys, window, ties or ``--max-slices``
is refused in one line, exit status 2.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from cli_env import CMD, ROOT, clean_env
from sliced_files import evaluator_of
from test_stream_by import ROWS, by_name, csv_text, json_lines, where_of

from scored_pr import SlicedEvaluation, WindowedEvaluation


def scored_pr(*args: str, stdin: str | None = None, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*CMD, *args], input=stdin, capture_output=True, text=True, timeout=120, cwd=cwd,
                          env=clean_env())


def last_of_slice(rows: list[tuple[Any, ...]], where: dict[str, str], n: int) -> list[tuple[Any, ...]]:
    """The last ``n`` of ``rows`` in the slice ``where`` (a slow literal reference of a slice's window)."""
    inside = [r for r in rows if all({"region": r[2] or "(missing)", "device": r[3]}[k] == v for k, v in where.items())]
    return inside[-n:] if n else []


def _same(a: Any, b: float) -> bool:
    return (a is None and np.isnan(b)) or a == pytest.approx(b)


def test_each_slice_is_a_window_of_its_own_last_n_cases(tmp_path: Path) -> None:
    path = tmp_path / "p.csv"
    path.write_text(csv_text())
    got = scored_pr("stream", str(path), "--by", "region", "--by", "region,device", "--window", "3", "--every", "4",
                    "--format", "json")
    assert got.returncode == 0 and got.stderr == "", got.stderr
    lines = json_lines(got.stdout)
    assert [x.get("step") for x in lines[:-1]] == [4, 8, 12]
    for line in lines[:-1]:
        seen = ROWS[:line["step"]]
        for name in [k for k, v in line.items() if isinstance(v, dict)]:
            ref = evaluator_of(last_of_slice(seen, where_of(name), 3), {})
            assert line[name]["num_cases"] == ref.num_cases, name
            for m in ("average_precision", "area_under_roc_curve", "maximum_f_measure"):
                assert _same(line[name][m], ref.summary()[m]), (line["step"], name, m)
    final = by_name(lines[-1]["slices"])
    assert len(final) == 12
    for name, row in final.items():
        ref = evaluator_of(last_of_slice(ROWS, where_of(name), 3), {})
        assert row["num_cases"] == ref.num_cases and _same(row["average_precision"], ref.average_precision()), name


def test_a_resumed_stream_ends_as_the_uninterrupted_one(tmp_path: Path) -> None:
    head, full = tmp_path / "head.csv", tmp_path / "full.csv"
    head.write_text(csv_text(ROWS[:7]))
    full.write_text(csv_text())
    cp = tmp_path / "cp.npz"
    for window in ((), ("--window", "4")):
        args = ("--by", "region", "--by", "region,device", *window, "--format", "json")
        first = scored_pr("stream", str(head), *args, "--checkpoint", str(cp), "--checkpoint-every", "3")
        assert first.returncode == 0, first.stderr
        saved = SlicedEvaluation.load(cp)
        assert saved.num_cases_seen == (7 if not window else 4) and saved.kind == ("windowed" if window else "exact")
        # the checkpoint holds every slice's evaluator: each equals one fed the slice's rows by hand
        for key in saved.slices():
            where = {k: ("(missing)" if v is None else v) for k, v in key}
            rows = last_of_slice(ROWS[:7], where, 4) if window else last_of_slice(ROWS[:7], where, 7)
            assert saved[key].num_cases == len(rows), key
        resumed = scored_pr("stream", str(full), *args, "--resume", str(cp), "--checkpoint", str(tmp_path / "cp2.npz"))
        whole = scored_pr("stream", str(full), *args)
        assert resumed.returncode == whole.returncode == 0, resumed.stderr
        assert json_lines(resumed.stdout)[-1]["slices"] == json_lines(whole.stdout)[-1]["slices"]
        again = SlicedEvaluation.load(tmp_path / "cp2.npz")
        if window:
            assert again.slice(region="eu").snapshot() == _window_of(last_of_slice(ROWS, {"region": "eu"}, 4), 4).snapshot()
        else:
            assert again.slice(region="eu") == evaluator_of(ROWS, {"region": "eu"})
        # scored-pr report reads the checkpoint as any state file
        shown = scored_pr("report", str(tmp_path / "cp2.npz"), "--format", "json")
        assert shown.returncode == 0 and json.loads(shown.stdout)


def _window_of(rows: list[tuple[Any, ...]], n: int) -> WindowedEvaluation:
    ev = WindowedEvaluation(n)
    for c, s, _, _ in rows:
        ev.add_case(bool(c), s)
    return ev


def test_the_checkpoint_is_written_every_n_cases_and_at_exit_atomically(tmp_path: Path) -> None:
    cp = tmp_path / "cp.npz"
    cp.write_text("old")
    cp.chmod(0o640)
    got = scored_pr("stream", "-", "--by", "region", "--checkpoint", str(cp), "--checkpoint-every", "5",
                    stdin=csv_text())
    assert got.returncode == 0, got.stderr
    assert (cp.stat().st_mode & 0o777) == 0o640 and SlicedEvaluation.load(cp).num_cases_seen == 12
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cp.npz"]  # no temporary file left


@pytest.mark.parametrize("other, said", [
    (("--by", "device"), "other --by keys"),
    (("--by", "region", "--window", "5"), "other window"),
    (("--by", "region", "--ties", "stable"), "other window and --ties"),
    (("--by", "region", "--max-slices", "7"), "other --max-slices"),
])
def test_a_checkpoint_of_another_setup_is_refused_in_one_line(tmp_path: Path, other: tuple[str, ...], said: str) -> None:
    cp = tmp_path / "cp.npz"
    assert scored_pr("stream", "-", "--by", "region", "--checkpoint", str(cp), stdin=csv_text()).returncode == 0
    got = scored_pr("stream", "-", *other, "--resume", str(cp), stdin=csv_text())
    assert got.returncode == 2 and got.stdout == "" and len(got.stderr.splitlines()) == 1
    assert got.stderr.startswith(f"scored-pr: {cp}: the checkpoint was made with {said}"), got.stderr


def test_a_checkpoint_of_one_ranking_is_not_a_by_checkpoint(tmp_path: Path) -> None:
    cp = tmp_path / "cp.npz"
    assert scored_pr("stream", "-", "--checkpoint", str(cp), stdin=csv_text()).returncode == 0
    got = scored_pr("stream", "-", "--by", "region", "--resume", str(cp), stdin=csv_text())
    assert got.returncode == 2 and "not a stream --by checkpoint" in got.stderr and len(got.stderr.splitlines()) == 1
    got = scored_pr("stream", "-", "--by", "region", "--resume", str(tmp_path / "none.npz"), stdin=csv_text())
    assert got.returncode == 2 and "no such checkpoint" in got.stderr


def test_a_window_per_slice_is_what_the_gauges_call_a_window() -> None:
    pytest.importorskip("prometheus_client")
    from prometheus_client import CollectorRegistry, generate_latest

    from scored_pr.integrations import Prometheus

    for ev, scope in ((SlicedEvaluation("region", kind="windowed", size=3), "window"),
                      (SlicedEvaluation("region"), "cumulative")):
        ev.add_cases([1, 0, 1], [0.9, 0.4, 0.3], region=["eu", "eu", "us"])
        registry = CollectorRegistry()
        sink = Prometheus(registry)
        sink.write(ev.summary(), ev, None)
        text = generate_latest(registry).decode()
        assert f'scored_pr_average_precision{{region="eu",scope="{scope}"}} 1.0' in text, text
