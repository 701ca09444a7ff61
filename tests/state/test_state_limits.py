"""Save -> load always, and bounded reads of hostile state files.

Whatever an evaluator of any kind accepts, its ``save`` writes a file its
``load`` reads back equal (a property over every kind at its limits: many
labels, long label names, a long ``pos_label``, many queries with long ids,
extreme ints and floats); what a state file cannot hold is refused by the
constructor, naming the argument, or by ``save`` before the old file is
replaced. A hostile file is refused with a message of bounded length before
memory proportional to what it declares is allocated.
"""

from __future__ import annotations

import io
import json
import tracemalloc
import zipfile
from pathlib import Path
from typing import Any, Callable

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scored_pr import (
    BoundedEvaluation,
    MultiLabelEvaluation,
    MultiQueryEvaluation,
    ScoredPrecisionRecallEvaluation,
    SynchronizedEvaluation,
    WindowedEvaluation,
)
from scored_pr._state import multilabel as ml_state
from scored_pr._state import statefile
from scored_pr._validation import MAX_LABELS, MAX_SAVED_INT, MIN_SAVED_INT

# ------------------------------------------------------------------ save -> load always

#: Positive labels at the limits of what a state file holds: long strings (past the 64 KiB a
#: header was once limited to) of characters JSON escapes, the int64/uint64 ends, extreme floats.
POS_LABELS = st.one_of(
    st.none(),
    st.booleans(),
    st.sampled_from([MIN_SAVED_INT, MAX_SAVED_INT, 2**63 - 1, 0, -1, 5e-324, -1.7976931348623157e308, -0.0, 0.5]),
    st.builds(lambda n, c: c * n, st.sampled_from([0, 1, 70_000]), st.sampled_from(["x", "é", "\U0001F600", '"\\', "\x00"])),
)


def other_than(pos: Any) -> Any:
    """A label of ``pos``'s type that is not ``pos`` (the negative class)."""
    if isinstance(pos, bool):
        return not pos
    if isinstance(pos, str):
        return pos + "!"
    if isinstance(pos, int):
        return pos - 1 if pos > MIN_SAVED_INT else pos + 1
    return 1.0 if pos != 1.0 else 2.0


def labels_of(flags: list[bool], pos: Any) -> list[Any]:
    """``flags`` as labels read with ``pos_label=pos`` (the flags themselves when pos is None)."""
    return list(flags) if pos is None else [pos if f else other_than(pos) for f in flags]


CASES = st.lists(st.tuples(st.booleans(), st.sampled_from([0.0, 0.5, 1.0, -np.inf, np.inf, 1e-300])), max_size=12)


def roundtrip(ev: Any, path: Path, load: Callable[[Path], Any]) -> Any:
    ev.save(path)
    back = load(path)
    assert back.to_dict() == ev.to_dict()
    return back


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(kind=st.sampled_from(["exact", "synchronized", "windowed", "bounded"]), pos=POS_LABELS, cases=CASES)
def test_every_single_ranking_kind_loads_what_it_saves(tmp_path: Path, kind: str, pos: Any, cases: list[Any]) -> None:
    flags = [c for c, _ in cases]
    scores = [s for _, s in cases]
    ev: Any
    if kind == "exact":
        ev, load = ScoredPrecisionRecallEvaluation(pos_label=pos), ScoredPrecisionRecallEvaluation.load
    elif kind == "synchronized":
        ev, load = SynchronizedEvaluation(pos_label=pos), ScoredPrecisionRecallEvaluation.load
    elif kind == "windowed":
        ev, load = WindowedEvaluation(8, pos_label=pos), WindowedEvaluation.load
    else:
        ev, load = BoundedEvaluation(4, pos_label=pos), BoundedEvaluation.load
    if cases:
        ev.add_cases(labels_of(flags, pos), scores)
    back = roundtrip(ev, tmp_path / f"{kind}.npz", load)
    assert back.pos_label == ev.pos_label and type(back.pos_label) is type(ev.pos_label)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(
    shape=st.sampled_from([(1, 70_000), (300, 400), (2000, 0)]),
    char=st.sampled_from(["q", "é", "\U0001F600"]),
    ints=st.booleans(),
    pos=POS_LABELS,
)
def test_many_queries_with_long_ids_load_as_saved(tmp_path: Path, shape: tuple[int, int], char: str, ints: bool,
                                                 pos: Any) -> None:
    count, length = shape
    ids = [MAX_SAVED_INT - i if ints else f"{i}-" + char * length for i in range(count)]
    ev = MultiQueryEvaluation(pos_label=pos)
    for i, q in enumerate(ids):
        ev.add_cases(q, labels_of([True, i % 2 == 0], pos), [0.5, float(i)])
    back = roundtrip(ev, tmp_path / "multi.npz", MultiQueryEvaluation.load)
    assert list(back.queries()) == ids


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(
    names=st.sampled_from(["count", "long", "ints", "many"]),
    kind=st.sampled_from([{}, {"window": 3}, {"max_bins": 4}]),
    pos=POS_LABELS,
    rows=st.integers(0, 4),
)
def test_multilabel_loads_what_it_saves_at_its_limits(tmp_path: Path, names: str, kind: dict[str, int], pos: Any,
                                                      rows: int) -> None:
    labels: Any = {
        "count": 12_000,                                             # the case of the issue: 73 KB of header
        "long": ["a" * 70_000, "é" * 70_000, "\U0001F600" * 20_000],  # names longer than 64 KiB
        "ints": [MIN_SAVED_INT, MAX_SAVED_INT, 0],
        "many": [f"tag-{i}-é" for i in range(10_000)],                # 10,000 named labels
    }[names]
    ev = MultiLabelEvaluation(labels, pos_label=pos, **kind)
    k = len(ev.labels)
    rng = np.random.default_rng(rows)
    for r in range(rows):
        flags = (rng.random(k) < 0.5).tolist()
        ev.add_cases([labels_of(flags, pos)], [rng.random(k).tolist()])
    back = roundtrip(ev, tmp_path / "labels.npz", MultiLabelEvaluation.load)
    assert back.labels == ev.labels


def test_the_largest_label_count_saves_and_loads(tmp_path: Path) -> None:
    ev = MultiLabelEvaluation(MAX_LABELS)
    ev.add_cases(np.eye(1, MAX_LABELS, dtype=bool), np.zeros((1, MAX_LABELS)))
    ev.save(tmp_path / "max.npz")
    back = MultiLabelEvaluation.load(tmp_path / "max.npz")
    assert back.labels == list(range(MAX_LABELS))
    assert back.to_dict() == ev.to_dict()


@pytest.mark.parametrize("labels", [MAX_LABELS + 1, 10**7, 10**12, range(MAX_LABELS + 1), iter(int, 1)])
def test_more_labels_than_a_state_file_holds_are_refused_before_allocating(labels: Any) -> None:
    tracemalloc.start()
    try:
        with pytest.raises(ValueError) as info:
            MultiLabelEvaluation(labels)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    message = str(info.value)
    assert message.startswith("MultiLabelEvaluation: argument 'labels' must be an int k between 1 and 1048576")
    assert "got " in message and len(message) < 400
    # a list of 2**20 names is at most ~9 MB of pointers; 10**12 labels would have been terabytes
    assert peak < 64 << 20


@pytest.mark.parametrize("value", [float("inf"), float("-inf"), 2**64, -(2**63) - 1, 10**5000],
                         ids=["inf", "-inf", "2**64", "-2**63-1", "10**5000"])
def test_a_pos_label_no_state_file_holds_is_refused_by_the_constructor(value: Any) -> None:
    for cls in (ScoredPrecisionRecallEvaluation, BoundedEvaluation, MultiQueryEvaluation):
        with pytest.raises(ValueError, match=rf"^{cls.__name__}: argument 'pos_label' must be None, a str, or a finite"):
            cls(pos_label=value)
    with pytest.raises(ValueError, match="argument 'pos_label'"):
        MultiLabelEvaluation(2, pos_label=value)
    with pytest.raises(ValueError, match=r"argument 'labels' .* got .* at index 1"):
        MultiLabelEvaluation([0, value]) if isinstance(value, int) else MultiLabelEvaluation([0, 2**64])


def test_a_state_json_cannot_hold_is_refused_by_save_and_the_old_file_is_kept(tmp_path: Path) -> None:
    path = tmp_path / "multi.npz"
    good = MultiQueryEvaluation()
    good.add_cases("q", [True, False], [0.5, 0.2])
    good.save(path)
    before = path.read_bytes()
    ev = MultiQueryEvaluation()
    ev.add_cases(10**5000, [True], [0.5])  # a query id of 5001 digits: Python writes no JSON for it
    with pytest.raises(ValueError, match=r"^save: the state's query ids cannot be written as JSON .*nothing was written"):
        ev.save(path)
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["multi.npz"]  # no temporary file left


# ------------------------------------------------------------------ hostile files


def npy(array: np.ndarray | None = None, *, declare: tuple[tuple[int, ...], str] | None = None) -> bytes:
    buf = io.BytesIO()
    if array is not None:
        np.lib.format.write_array(buf, array, allow_pickle=False)
    else:
        assert declare is not None
        np.lib.format.write_array_header_1_0(buf, {"descr": declare[1], "fortran_order": False, "shape": declare[0]})
    return buf.getvalue()


def meta_member(meta: dict[str, Any]) -> bytes:
    return npy(np.frombuffer(json.dumps(meta).encode(), dtype=np.uint8))


EXACT_META = {"format": "scored_pr.ScoredPrecisionRecallEvaluation", "kind": "exact", "version": 1,
              "ties": "grouped", "misses": 0, "negative_misses": 0}


def load_measured(load: Callable[[Path], Any], path: Path) -> tuple[int, Exception | None]:
    """The peak of memory traced while ``load(path)`` runs, and what it raised."""
    tracemalloc.start()
    error: Exception | None = None
    try:
        load(path)
    except Exception as exc:  # noqa: BLE001 - the test inspects it
        error = exc
    finally:
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    return peak, error


def declared_cases_file(path: Path, n: int = 10**10) -> Path:
    """A ~900-byte state file whose header, array headers and zip directory all declare ``n`` cases.

    Every count agrees with every other, only the data is missing: a reader
    that trusts the zip directory's member sizes asks the OS for 8 * n bytes.
    """
    members = {
        "meta.npy": meta_member({**EXACT_META, "num_cases": n}),
        "neg_scores.npy": npy(declare=((n,), "<f8")),
        "correct.npy": npy(declare=(((n + 7) // 8,), "|u1")),
    }
    declared = {"neg_scores.npy": 8 * n, "correct.npy": (n + 7) // 8}
    with zipfile.ZipFile(path, "w") as zf:
        for name, payload in members.items():
            zf.writestr(name, payload)
        for info in zf.filelist:  # the central directory (what readers trust) declares the full sizes
            if info.filename in declared:
                info.file_size = info.compress_size = len(members[info.filename]) + declared[info.filename]
    return path


def test_a_small_file_declaring_ten_billion_cases_is_refused_without_allocating(tmp_path: Path) -> None:
    path = declared_cases_file(tmp_path / "big.npz")
    assert path.stat().st_size < 1200
    peak, error = load_measured(ScoredPrecisionRecallEvaluation.load, path)
    assert isinstance(error, ValueError), error
    assert "more than the file's" in str(error)
    assert peak < 1 << 20


def many_members(path: Path, count: int, payload: bytes = b"") -> Path:
    with zipfile.ZipFile(path, "w") as zf:
        for i in range(count):
            zf.writestr(f"m{i}.npy", payload)
    return path


@pytest.mark.parametrize("count", [statefile.MAX_MEMBERS + 1, 100_000])
def test_an_archive_of_many_members_is_refused_early_with_a_short_message(tmp_path: Path, count: int) -> None:
    path = many_members(tmp_path / "many.npz", count)
    for load in (ScoredPrecisionRecallEvaluation.load, MultiLabelEvaluation.load, statefile_kind):
        peak, error = load_measured(load, path)
        assert isinstance(error, ValueError), error
        assert "is not a scored_pr state file" in str(error)
        assert len(str(error)) < 400, len(str(error))
        # before: 1,000,000 members took 640 MB and a 9.9 MB message listing every name
        assert peak < 4 << 20, peak


def statefile_kind(path: Path) -> Any:
    return statefile.kind_of(path, "report")


def test_duplicate_member_names_are_refused(tmp_path: Path) -> None:
    ev = ScoredPrecisionRecallEvaluation()
    ev.add_cases([True, False], [0.9, 0.1])
    ev.save(tmp_path / "good.npz")
    with zipfile.ZipFile(tmp_path / "good.npz") as zf:
        members = [(i.filename, zf.read(i)) for i in zf.infolist()]
    other = ScoredPrecisionRecallEvaluation()
    other.add_cases([False, False, True], [0.9, 0.8, 0.1])
    other.save(tmp_path / "other.npz")
    with zipfile.ZipFile(tmp_path / "other.npz") as zf:
        second = zf.read("neg_scores.npy")
    with pytest.warns(UserWarning, match="Duplicate name"), zipfile.ZipFile(tmp_path / "dup.npz", "w") as zf:
        for name, payload in members:
            zf.writestr(name, payload)
        zf.writestr("neg_scores.npy", second)  # would win over the first, silently
    with pytest.raises(ValueError, match=r"member 'neg_scores.npy' twice"):
        ScoredPrecisionRecallEvaluation.load(tmp_path / "dup.npz")


def test_a_member_that_is_not_an_array_is_refused(tmp_path: Path) -> None:
    ScoredPrecisionRecallEvaluation().save(tmp_path / "s.npz")
    with zipfile.ZipFile(tmp_path / "s.npz", "a") as zf:
        zf.writestr("README", b"x" * 100)
    with pytest.raises(ValueError, match=r"member 'README' \(not a \.npy array\)"):
        ScoredPrecisionRecallEvaluation.load(tmp_path / "s.npz")


def bounded_multilabel(path: Path, k: int = 3, max_bins: int = 4) -> Path:
    ev = MultiLabelEvaluation(k, max_bins=max_bins)
    ev.add_cases(np.eye(k, dtype=bool), np.linspace(0, 1, k * k).reshape(k, k))
    ev.save(path)
    return path


def test_a_json_member_larger_than_its_header_allows_is_refused_before_parsing(tmp_path: Path) -> None:
    path = bounded_multilabel(tmp_path / "ml.npz")
    with zipfile.ZipFile(path) as zf:
        members = {i.filename: zf.read(i) for i in zf.infolist()}
    bound = ml_state.max_bins_bytes(3, 4, None)
    # 40 MB of JSON: an array of empty lists, about 25 bytes of Python objects per byte of text
    blob = b'{"per_label": [' + b"[]," * (40_000_000 // 3) + b'[]], "pooled": {}}'
    members["bins.npy"] = npy(np.frombuffer(blob, dtype=np.uint8))
    with zipfile.ZipFile(tmp_path / "huge.npz", "w") as zf:
        for name, payload in members.items():
            zf.writestr(name, payload)
    peak, error = load_measured(MultiLabelEvaluation.load, tmp_path / "huge.npz")
    assert isinstance(error, ValueError), error
    assert f"array 'bins' declares shape ({len(blob)},), expected at most ({bound},)" in str(error)
    # reading the member itself is allowed (it is in the file); parsing it (~1 GB) is not
    assert peak < len(blob) + (8 << 20), peak


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(k=st.integers(1, 5), max_bins=st.integers(1, 6), weighted=st.booleans(), pos=POS_LABELS)
def test_the_bins_bound_holds_for_the_largest_bins_save_writes(tmp_path: Path, k: int, max_bins: int, weighted: bool,
                                                               pos: Any) -> None:
    """Every bin at its longest JSON (extreme floats, huge counts or weights): within the bound."""
    ev = MultiLabelEvaluation(k, max_bins=max_bins, pos_label=pos)
    extremes = [-1.7976931348623157e308, -2.2250738585072014e-308, 1.2345678901234567e-300, 1.7976931348623157e308,
                -np.inf, np.inf, -5e-324, 0.30000000000000004]
    rows = len(extremes) * 3
    rng = np.random.default_rng(k * 7 + max_bins)
    y = labels_of([bool(b) for b in rng.integers(0, 2, rows * k)], pos)
    s = np.resize(np.array(extremes), rows * k) * (1 - 1e-16 * rng.random(rows * k))
    w = (rng.random(rows) * 1e12 + 1.2345678901234567e-5) if weighted else None
    ev.add_cases(np.array(y, dtype=object).reshape(rows, k).tolist(), s.reshape(rows, k), sample_weight=w)
    ev.save(tmp_path / "b.npz")
    with zipfile.ZipFile(tmp_path / "b.npz") as zf:
        size = len(np.lib.format.read_array(io.BytesIO(zf.read("bins.npy"))))
    assert size <= ml_state.max_bins_bytes(k, max_bins, pos)
    assert MultiLabelEvaluation.load(tmp_path / "b.npz").to_dict() == ev.to_dict()
