"""Every file scored_pr writes is written atomically: state files, checkpoints, HTML reports, plots.

One helper (``scored_pr._atomic``) writes them all: a temporary file beside the
target, fsynced, renamed over it. The tests hold each writer to the same
promises: a failure in the middle of a write (an exception, a full disk, a
file-size limit) leaves the previous file byte-identical and no temporary
file; the target keeps its mode; a symlink is followed (its target replaced,
the link kept); a new file gets 0o666 less the umask. The writers are the
``save`` of every kind in the registry, ``to_html`` of every kind, and the
command line's checkpoints, plots and HTML reports.
"""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any, Callable

import numpy as np
import pytest

import scored_pr
from scored_pr import _atomic, _kinds
from cli_env import CMD, ROOT, clean_env

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX modes, symlinks and resource limits")

PREVIOUS = b"the previous version of the file\n"


def filled(kind: str) -> Any:
    """An evaluator of the registered kind ``kind`` holding a few cases."""
    y = np.array([True, False, True, False, True, False])
    s = np.array([0.9, 0.8, 0.7, 0.3, 0.2, 0.1])
    cls = _kinds.KINDS[kind].cls
    if kind == "multi":
        ev = cls()
        ev.add_cases("q1", y, s)
        return ev
    if kind == "multilabel":
        ev = cls(labels=["a", "b"])
        ev.add_cases(np.column_stack((y, ~y)), np.column_stack((s, s[::-1])))
        return ev
    if kind == "sliced":
        ev = cls("g")
        ev.add_cases(y, s, g=["a", "b", "a", "b", None, "a"])
        return ev
    ev = cls(size=10) if kind == "windowed" else cls(max_bins=8) if kind == "bounded" else cls()
    ev.add_cases(y, s)
    return ev


KINDS = sorted(_kinds.KINDS)


def writers() -> dict[str, Callable[[Path], None]]:
    """Every public way to write a file from Python: ``save`` and ``to_html`` of every kind."""
    out: dict[str, Callable[[Path], None]] = {}
    for kind in KINDS:
        out[f"{kind}.save"] = lambda p, kind=kind: filled(kind).save(p)
        out[f"{kind}.to_html"] = lambda p, kind=kind: filled(kind).to_html(p)
    return out


WRITERS = writers()


def test_every_kind_is_covered() -> None:
    assert {"exact", "windowed", "bounded", "multi", "multilabel"} <= set(KINDS)
    assert len(WRITERS) == 2 * len(KINDS)


@pytest.mark.parametrize("name", sorted(WRITERS))
def test_a_full_disk_at_any_writer_keeps_the_previous_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                            name: str) -> None:
    path = tmp_path / "out"
    path.write_bytes(PREVIOUS)

    def full_disk(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", full_disk)
    with pytest.raises(OSError, match="No space left"):
        WRITERS[name](path)
    assert path.read_bytes() == PREVIOUS
    assert os.listdir(tmp_path) == ["out"]  # no temporary file left


@pytest.mark.parametrize("name", sorted(WRITERS))
def test_an_exception_inside_the_writer_keeps_the_previous_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                 name: str) -> None:
    """The writer has written part of the file when it fails (an encoding error, a bug, an interrupt)."""
    path = tmp_path / "out"
    path.write_bytes(PREVIOUS)
    write_file = _atomic.write_file

    def half_then_fail(target: Any, write: Callable[[Any], None]) -> None:
        def partial(fh: Any) -> None:
            fh.write(b"half of a new file")
            raise KeyboardInterrupt

        write_file(target, partial)

    monkeypatch.setattr(_atomic, "write_file", half_then_fail)
    with pytest.raises(KeyboardInterrupt):
        WRITERS[name](path)
    assert path.read_bytes() == PREVIOUS
    assert os.listdir(tmp_path) == ["out"]


@pytest.mark.parametrize("name", sorted(WRITERS))
def test_every_writer_keeps_the_mode_and_follows_a_symlink(tmp_path: Path, name: str) -> None:
    (tmp_path / "real").mkdir()
    target = tmp_path / "real" / "file"
    target.write_bytes(PREVIOUS)
    os.chmod(target, 0o600)
    link = tmp_path / "link"
    link.symlink_to(target)
    WRITERS[name](link)
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert stat.S_IMODE(target.stat().st_mode) == 0o600
    written = target.read_bytes()
    assert written != PREVIOUS
    if name.endswith(".save"):
        kind = name.split(".")[0]
        ev = filled(kind)
        ev.save(link)  # the same evaluator written again: what it loads back is its state
        assert _kinds.KINDS[kind].cls.load(link).to_dict() == ev.to_dict()
    else:
        assert written.startswith(b"<!DOCTYPE html>")
    assert sorted(os.listdir(tmp_path / "real")) == ["file"]


@pytest.mark.parametrize("name", ["exact.save", "exact.to_html"])
def test_a_new_file_gets_the_umask_mode_and_an_existing_one_keeps_its_own(tmp_path: Path, name: str) -> None:
    old = os.umask(0o027)
    try:
        WRITERS[name](tmp_path / "new")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "new").stat().st_mode) == 0o640
    (tmp_path / "group").write_bytes(PREVIOUS)
    os.chmod(tmp_path / "group", 0o664)
    WRITERS[name](tmp_path / "group")
    assert stat.S_IMODE((tmp_path / "group").stat().st_mode) == 0o664


def test_a_dangling_symlink_creates_its_target(tmp_path: Path) -> None:
    link = tmp_path / "link.npz"
    link.symlink_to(tmp_path / "later.npz")
    ev = filled("exact")
    ev.save(link)
    assert link.is_symlink() and scored_pr.ScoredPrecisionRecallEvaluation.load(tmp_path / "later.npz") == ev


# ------------------------------------------------------------------ a real file-size limit, in a child process

_LIMITED = textwrap.dedent("""
    import resource, signal, sys
    import numpy as np
    import scored_pr
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails with EFBIG
    resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))
    ev = scored_pr.ScoredPrecisionRecallEvaluation()
    rng = np.random.default_rng(0)
    ev.add_cases(rng.random(5000) < 0.5, rng.random(5000))
    try:
        getattr(ev, sys.argv[1])(sys.argv[2])
    except OSError as exc:
        print(exc.errno)
""")


@pytest.mark.parametrize("method", ["save", "to_html"])
def test_a_file_size_limit_mid_write_keeps_the_previous_file(tmp_path: Path, method: str) -> None:
    path = tmp_path / "out"
    path.write_bytes(PREVIOUS)
    # no bytecode written: under the limit Python's own .pyc writes would be cut short
    done = subprocess.run([sys.executable, "-c", _LIMITED, method, str(path)], capture_output=True, text=True,
                          env=clean_env(PYTHONDONTWRITEBYTECODE="1"), timeout=120, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "27"  # EFBIG: the write did fail past the limit
    assert path.read_bytes() == PREVIOUS
    assert os.listdir(tmp_path) == ["out"]


def test_the_command_line_keeps_the_previous_html_report_and_plot_past_a_file_size_limit(tmp_path: Path) -> None:
    import resource
    import signal

    data = tmp_path / "in.csv"
    data.write_text("correct,score\n" + "".join(f"{i % 2},{i / 1000}\n" for i in range(1000)))
    for option, name in (("--html", "r.html"), ("--plot", "r.png")):
        (tmp_path / name).write_bytes(PREVIOUS)

        def limit() -> None:
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
            resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))

        done = subprocess.run([*CMD, "report", str(data), option, str(tmp_path / name)], capture_output=True,
                              text=True, env=clean_env(PYTHONDONTWRITEBYTECODE="1"), timeout=120, preexec_fn=limit)
        assert done.returncode == 1, (option, done.stderr)
        assert "File too large" in done.stderr, (option, done.stderr)
        assert (tmp_path / name).read_bytes() == PREVIOUS, option
    assert sorted(os.listdir(tmp_path)) == ["in.csv", "r.html", "r.png"]


# ------------------------------------------------------------------ the command line's checkpoints


def test_a_stream_checkpoint_keeps_its_mode_and_its_symlink(tmp_path: Path) -> None:
    data = tmp_path / "in.csv"
    data.write_text("correct,score\n" + "".join(f"{i % 2},{i / 1000}\n" for i in range(300)))
    (tmp_path / "keep").mkdir()
    target = tmp_path / "keep" / "cp.npz"
    target.write_bytes(PREVIOUS)
    os.chmod(target, 0o600)
    link = tmp_path / "cp.npz"
    link.symlink_to(target)
    done = subprocess.run([*CMD, "stream", str(data), "--checkpoint", str(link), "--checkpoint-every", "100"],
                          capture_output=True, text=True, env=clean_env(), timeout=120)
    assert done.returncode == 0, done.stderr
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert stat.S_IMODE(target.stat().st_mode) == 0o600
    assert scored_pr.ScoredPrecisionRecallEvaluation.load(target).num_cases == 300
    assert sorted(os.listdir(tmp_path / "keep")) == ["cp.npz"]
