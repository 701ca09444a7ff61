"""State files: bounded reads of hostile archives, and saves that survive kill -9."""

from __future__ import annotations

import io
import json
import os
import random
import signal
import time
import tracemalloc
import zipfile
from pathlib import Path

import numpy as np
import pytest

from scored_pr import ScoredPrecisionRecallEvaluation as E

FORMAT = "scored_pr.ScoredPrecisionRecallEvaluation"


def npy(array: np.ndarray | None = None, *, declare: tuple[tuple[int, ...], str] | None = None, data: bytes = b"") -> bytes:
    """A .npy member: a real array, or a header declaring any shape/dtype followed by ``data``."""
    buf = io.BytesIO()
    if array is not None:
        np.lib.format.write_array(buf, array, allow_pickle=False)
        return buf.getvalue()
    assert declare is not None
    shape, descr = declare
    np.lib.format.write_array_header_1_0(buf, {"descr": descr, "fortran_order": False, "shape": shape})
    return buf.getvalue() + data


def archive(path: Path, members: dict[str, bytes], compression: int = zipfile.ZIP_STORED) -> Path:
    with zipfile.ZipFile(path, "w", compression=compression) as zf:
        for name, payload in members.items():
            zf.writestr(name + ".npy", payload)
    return path


def meta(num_cases: int, version: int = 1) -> bytes:
    header = {"format": FORMAT, "version": version, "ties": "grouped", "num_cases": num_cases,
              "misses": 0, "negative_misses": 0}
    return npy(np.frombuffer(json.dumps(header).encode(), dtype=np.uint8))


def peak_of_load(path: Path) -> tuple[int, Exception | None]:
    tracemalloc.start()
    tracemalloc.reset_peak()
    error: Exception | None = None
    try:
        E.load(path)
    except Exception as exc:  # noqa: BLE001 - the test inspects it
        error = exc
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak, error


GIB = 1 << 30


def bombs(tmp_path: Path) -> dict[str, tuple[Path, str]]:
    """Small files that would make a naive loader allocate gigabytes."""
    small = npy(np.zeros(3))
    packed = npy(np.zeros(1, np.uint8))
    return {
        # a member whose header declares 2 GiB of float64, with 3 cases in the header
        "declared shape": (archive(tmp_path / "a.npz", {
            "meta": meta(3), "neg_scores": npy(declare=((GIB // 4,), "<f8"), data=bytes(24)), "correct": packed,
        }), "declares shape"),
        # the header itself declares 2**31 cases and the members agree, but the data is not there
        "declared count": (archive(tmp_path / "b.npz", {
            "meta": meta(1 << 31), "neg_scores": npy(declare=((1 << 31,), "<f8"), data=bytes(64)),
            "correct": npy(declare=((1 << 28,), "|u1"), data=bytes(8)),
        }), "more than the file's"),
        # a deflated member that inflates to 256 MiB of zeros (a classic zip bomb)
        "inflating member": (archive(tmp_path / "c.npz", {
            "meta": meta(3), "neg_scores": npy(declare=((1 << 25,), "<f8"), data=bytes(1 << 28)), "correct": packed,
        }, compression=zipfile.ZIP_DEFLATED), "compressed"),
        # a huge JSON header
        "huge meta": (archive(tmp_path / "d.npz", {
            "meta": npy(declare=((GIB,), "|u1"), data=b"{}"), "neg_scores": small, "correct": packed,
        }), "at most"),
        # a version 2.0 .npy header that declares itself 1 GiB long (scored_pr bounds it, on every numpy)
        "huge npy header": (archive(tmp_path / "f.npz", {
            "meta": meta(3), "neg_scores": b"\x93NUMPY\x02\x00" + (GIB).to_bytes(4, "little") + b"{" * 5000,
            "correct": packed,
        }), "malformed header"),
        # an object array would need pickle
        "object dtype": (archive(tmp_path / "e.npz", {
            "meta": meta(3), "neg_scores": npy(declare=((3,), "|O"), data=bytes(24)), "correct": packed,
        }), "Python objects"),
    }


def test_hostile_archives_are_rejected_without_allocating(tmp_path: Path) -> None:
    for name, (path, match) in bombs(tmp_path).items():
        assert path.stat().st_size < 2_000_000, name
        peak, error = peak_of_load(path)
        assert isinstance(error, ValueError), (name, error)
        assert match in str(error), (name, str(error))
        assert "pickle" not in str(error).replace("Python objects", "")
        assert peak < 4 << 20, f"{name}: load allocated {peak} bytes before rejecting the file"


def test_a_genuine_file_loads_with_memory_near_its_size(tmp_path: Path) -> None:
    rng = np.random.default_rng(3)
    ev = E(ties="grouped")
    ev.add_cases(rng.random(200_000) < 0.3, rng.normal(size=200_000))
    path = tmp_path / "ok.npz"
    ev.save(path)
    peak, error = peak_of_load(path)
    assert error is None
    # the scores (1.6 MB), the packed and unpacked labels and the evaluator's
    # own copy: a few times the file, never more
    assert peak < 6 * path.stat().st_size


def test_a_member_longer_than_its_header_says_is_rejected(tmp_path: Path) -> None:
    path = archive(tmp_path / "long.npz", {
        "meta": meta(3), "neg_scores": npy(np.zeros(3)) + bytes(8), "correct": npy(np.zeros(1, np.uint8)),
    })
    with pytest.raises(ValueError, match="header implies"):
        E.load(path)


def test_save_replaces_atomically_and_leaves_no_temporary(tmp_path: Path) -> None:
    path = tmp_path / "state.npz"
    path.write_bytes(b"previous")
    os.chmod(path, 0o640)
    ev = E(ties="stable")
    ev.add_cases([True, False], [0.5, 0.25])
    ev.save(path)
    assert E.load(path) == ev
    assert sorted(p.name for p in tmp_path.iterdir()) == ["state.npz"]


@pytest.mark.parametrize("kind", ["exact", "bounded", "weighted"])
def test_a_saved_state_holds_only_its_arrays_and_loads_on_every_numpy(tmp_path: Path, kind: str) -> None:
    """Before numpy 2.1, ``np.savez(f, allow_pickle=False)`` stored an array named 'allow_pickle'.

    ``load`` then refused every file ``save`` wrote (on numpy 1.23 to 2.0, which
    scored_pr supports); CI's dependency-floor run holds this on the oldest numpy.
    """
    from scored_pr import BoundedEvaluation

    path = tmp_path / "state.npz"
    if kind == "bounded":
        ev: E | BoundedEvaluation = BoundedEvaluation(max_bins=64)
        ev.add_cases([True, False, True, False], [0.9, 0.5, 0.5, 0.1])
    else:
        ev = E(ties="stable")
        weights = [1.0, 2.5, 1.0, 3.0] if kind == "weighted" else None
        ev.add_cases([True, False, True, False], [0.9, 0.5, 0.5, 0.1], sample_weight=weights)
    ev.save(path)
    with zipfile.ZipFile(path) as zf:
        members = zf.infolist()
    assert all(m.filename.endswith(".npy") and m.compress_type == zipfile.ZIP_STORED for m in members)
    assert "allow_pickle.npy" not in {m.filename for m in members}
    loaded = type(ev).load(path)
    assert loaded == ev
    with np.load(path, allow_pickle=False) as npz:  # still an ordinary .npz for numpy itself
        assert sorted(npz.files) == sorted(m.filename[:-4] for m in members)


def test_saving_an_object_array_is_refused_not_pickled(tmp_path: Path) -> None:
    from scored_pr._state import statefile as _statefile

    path = tmp_path / "state.npz"
    with pytest.raises(ValueError, match="pickle"):
        _statefile.write_npz(path, {"bad": np.array([{"a": 1}], dtype=object)})
    assert list(tmp_path.iterdir()) == []


def test_a_failed_save_keeps_the_previous_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "state.npz"
    old = E(ties="grouped")
    old.add_case(True, 1.0)
    old.save(path)
    new = E(ties="grouped")
    new.add_cases([True, False] * 1000, np.arange(2000.0))

    def full_disk(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", full_disk)
    with pytest.raises(OSError, match="No space"):
        new.save(path)
    monkeypatch.undo()
    assert E.load(path) == old
    assert sorted(p.name for p in tmp_path.iterdir()) == ["state.npz"]


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork")
def test_kill_9_during_saves_never_leaves_a_broken_file(tmp_path: Path) -> None:
    """A child saves two states in turn; the parent kills it at random moments (200 trials)."""
    rng = np.random.default_rng(7)
    states = []
    for n in (150_000, 90_000):
        ev = E(ties="stable")
        ev.add_cases(rng.random(n) < 0.4, rng.normal(size=n))
        states.append(ev)
    path = tmp_path / "checkpoint.npz"
    states[0].save(path)
    wanted = [s.to_dict() for s in states]
    delays = random.Random(11)
    trials = 200
    mid_write = 0
    for _ in range(trials):
        pid = os.fork()
        if pid == 0:  # child: save forever, alternating the two states
            try:
                i = 0
                while True:
                    states[i % 2].save(path)
                    i += 1
            finally:
                os._exit(0)
        time.sleep(delays.uniform(0.0, 0.03))
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        if any(p.name.endswith(".tmp") for p in tmp_path.iterdir()):
            mid_write += 1
        assert E.load(path).to_dict() in wanted
        for stray in tmp_path.glob(".checkpoint.npz.*.tmp"):
            stray.unlink()
    # the kills must actually have landed inside saves for the test to mean anything
    assert mid_write >= trials // 4, mid_write


# --------------------------------------------------------------------------- fuzzing state files

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

FUZZ = int(os.environ.get("SCORED_PR_FUZZ_EXAMPLES", "150"))


def _valid_file(tmp_path: Path) -> bytes:
    ev = E(ties="grouped")
    ev.add_cases([True, False, True, False, True], [0.9, 0.8, 0.8, float("inf"), -0.0])
    ev.add_misses(2)
    from scored_pr._state import exact as _exact_state

    _exact_state.save(ev, tmp_path / "valid.npz", extra={"line": 6, "source": "x"})
    return (tmp_path / "valid.npz").read_bytes()


@settings(max_examples=FUZZ, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(edits=st.lists(st.tuples(st.integers(0, 10_000), st.integers(0, 255)), max_size=6),
       cut=st.one_of(st.none(), st.integers(0, 10_000)), junk=st.binary(max_size=64))
def test_damaged_state_files_load_or_fail_cleanly(tmp_path: Path, edits: list[tuple[int, int]], cut: int | None,
                                                   junk: bytes) -> None:
    """Every loader (load, a stream's --resume) on a damaged file: a valid evaluator or one ValueError."""
    from scored_pr._state import exact as _exact_state

    raw = bytearray(_valid_file(tmp_path))
    for at, byte in edits:
        raw[at % len(raw)] = byte
    data = bytes(raw[:cut]) + junk if cut is not None else bytes(raw) + junk
    path = tmp_path / "damaged.npz"
    path.write_bytes(data)
    try:
        ev, _ = _exact_state.load_with_extra(E, path)
    except ValueError:
        return
    ev._store._check()
    assert ev.num_cases <= 5 and ev.num_positive_ref >= 0


def test_resume_from_damaged_checkpoints_never_tracebacks(tmp_path: Path) -> None:
    import subprocess
    import sys

    raw = _valid_file(tmp_path)
    rng = random.Random(3)
    for trial in range(12):
        damaged = bytearray(raw)
        for _ in range(rng.randint(1, 4)):
            damaged[rng.randrange(len(damaged))] = rng.randrange(256)
        path = tmp_path / f"cp{trial}.npz"
        path.write_bytes(bytes(damaged[: rng.randint(0, len(damaged))]) if trial % 3 == 0 else bytes(damaged))
        proc = subprocess.run([sys.executable, "-m", "scored_pr", "stream", "--resume", str(path), "--ties", "grouped"],
                              input=b"correct,score\n1,0.5\n", capture_output=True, timeout=60)
        assert proc.returncode in (0, 2), proc.stderr
        assert b"Traceback" not in proc.stderr


# ------------------------------------------------------------------ a header's structure is bounded before it is parsed


def header_member(text: bytes) -> bytes:
    return npy(np.frombuffer(text, dtype=np.uint8))


@pytest.mark.parametrize("body", [b"{}", b"[]"])
def test_a_header_of_millions_of_empty_objects_is_refused_unparsed(tmp_path: Path, body: bytes) -> None:
    """Three million empty objects took 24 bytes per byte of the file to parse; now they are refused first."""
    text = b"[" + b",".join([body] * 3_000_000) + b"]"
    path = archive(tmp_path / "h.npz", {"meta": header_member(text), "neg_scores": npy(np.zeros(0)),
                                        "correct": npy(np.zeros(0, np.uint8))})
    size = path.stat().st_size
    assert size > 9_000_000
    peak, error = peak_of_load(path)
    assert isinstance(error, ValueError), error
    assert str(error) == (f"load: {str(path)!r} has a corrupted 'meta' member (3000001 JSON objects and arrays; "
                          f"a state file's has at most 16).")
    assert peak < 5 * size, f"load allocated {peak} bytes for a {size}-byte file"


def test_a_header_of_more_values_than_save_writes_is_refused_unparsed(tmp_path: Path) -> None:
    from scored_pr._state.statefile import MAX_HEADER_ITEMS

    text = b"[" + b"1," * MAX_HEADER_ITEMS + b"1]"
    path = archive(tmp_path / "h.npz", {"meta": header_member(text), "neg_scores": npy(np.zeros(0)),
                                        "correct": npy(np.zeros(0, np.uint8))})
    peak, error = peak_of_load(path)
    assert isinstance(error, ValueError), error
    assert str(error) == (f"load: {str(path)!r} has a corrupted 'meta' member (about {MAX_HEADER_ITEMS + 1} JSON "
                          f"values; a state file's has at most {MAX_HEADER_ITEMS}).")
    assert peak < 5 * path.stat().st_size


def test_braces_inside_strings_are_text_not_structure(tmp_path: Path) -> None:
    """A positive label of any text, brackets and escaped quotes included, saves and loads (what save writes, load reads)."""
    label = "{[" * 40 + '\\"' + '"]}' * 40 + "," * 100
    ev = E(pos_label=label)
    ev.add_cases([label, "other"], [0.5, 0.25])
    ev.save(tmp_path / "s.npz")
    assert E.load(tmp_path / "s.npz") == ev


def test_the_largest_headers_save_writes_load_back(tmp_path: Path) -> None:
    """A multi-label stream checkpoint holds the most structure: labels, and a layout with two more lists of them."""
    from scored_pr import MultiLabelEvaluation
    from scored_pr._state import multilabel as _ml_state
    from scored_pr._state import statefile as _statefile
    from scored_pr._validation import MAX_LABELS

    k = 2000
    labels = [f"label {i}, {{with}} [brackets]" for i in range(k)]
    ev = MultiLabelEvaluation(labels=labels)
    ev.add_cases(np.eye(k, dtype=bool)[:3], np.ones((3, k)))
    layout = {"kind": "multilabel", "labels": labels, "score_columns": [f"s_{x}" for x in labels]}
    _ml_state.save(ev._state(), tmp_path / "cp.npz", extra={"line": 4, "source": "in.csv", "layout": layout})
    st, extra = _ml_state.load_with_extra(tmp_path / "cp.npz")
    assert st.labels == labels and extra["layout"] == layout
    # and the bounds cover what such a checkpoint holds at MAX_LABELS labels
    assert _statefile.MAX_HEADER_ITEMS >= 3 * MAX_LABELS + 20 and _statefile.MAX_HEADER_CONTAINERS >= 6


def test_query_ids_of_millions_of_objects_are_refused_unparsed(tmp_path: Path) -> None:
    from scored_pr import MultiQueryEvaluation

    ev = MultiQueryEvaluation()
    ev.add_cases("q", [True, False], [0.5, 0.25])
    ev.save(tmp_path / "ok.npz")
    with zipfile.ZipFile(tmp_path / "ok.npz") as zf:
        members = {n[:-4]: zf.read(n) for n in zf.namelist()}
    members["query_ids"] = header_member(b"[" + b"{}," * 2_000_000 + b"{}]")
    path = archive(tmp_path / "ids.npz", members)
    peak, error = peak_of_load_of(MultiQueryEvaluation, path)
    assert isinstance(error, ValueError) and "'query_ids' member (2000002 JSON objects and arrays" in str(error), error
    assert peak < 5 * path.stat().st_size


def peak_of_load_of(cls: type, path: Path) -> tuple[int, Exception | None]:
    tracemalloc.start()
    tracemalloc.reset_peak()
    error: Exception | None = None
    try:
        cls.load(path)  # type: ignore[attr-defined]
    except Exception as exc:  # noqa: BLE001 - the test inspects it
        error = exc
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak, error
