"""TREC files read as numpy columns against the line-by-line reader, and from_trec's column path against its general path.

The line-by-line readers (`_qrels_by_line`, `_run_by_line`) are the reference:
whatever the bytes, `read_qrels`/`read_run` must give the same mappings and
run id, or the same error, and `from_trec` the same evaluators.
"""

from __future__ import annotations

import math
import os
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scored_pr import MultiQueryEvaluation
from scored_pr._io.cases import InputError
from scored_pr.trec import _columns, read_qrels, read_run
from scored_pr.trec._parse import _qrels_by_line, _run_by_line

SETTINGS = settings(
    max_examples=int(os.environ.get("SCORED_PR_FUZZ_EXAMPLES", "80")), deadline=None, suppress_health_check=list(HealthCheck)
)

ids = st.sampled_from(["q1", "q2", "301", "a" * 32, "b" * 33, "q\u00e9", "#q", "d1", "d2", "D1", "doc-7", "clueweb12-0000tw-00-00000"])
numbers = st.one_of(
    st.floats(allow_nan=False, allow_infinity=False).map(repr),
    st.sampled_from(["1", "-2.5", "0", "1e-5", "nan", "inf", "1e400", "x", "9007199254740993", "1_0", "+3", "-0"]),
)
grades = st.sampled_from(["0", "1", "2", "-1", "+1", "1.5", "x", "007", "1_0", "99999999999999999999"])
seps = st.sampled_from([" ", " ", " ", "\t", "  ", "\x0b", "\x1c"])


regular_ids = st.one_of(
    st.sampled_from(["q1", "q2", "301", "a" * 32, "D1", "doc-7", "clueweb12-0000tw-00-00000"]),
    st.integers(0, 10**6).map(lambda k: f"d{k}"),
)
regular_numbers = st.one_of(st.floats(-1e6, 1e6).map(repr), st.sampled_from(["1", "-2.5", "0", "1e-5", "+3", "-0"]))
regular_grades = st.sampled_from(["0", "1", "2", "-1", "+1", "007"])


@st.composite
def trec_file(draw: st.DrawFn, width: int) -> bytes:
    """Mostly regular files (the column reader's), sometimes anything a line reader must judge."""
    messy = draw(st.integers(0, 3)) == 0
    lines = []
    for _ in range(draw(st.integers(0, 25))):
        kind = draw(st.integers(0, 12)) if messy else draw(st.integers(3, 30))
        if kind == 0 or kind == 30:
            lines.append(draw(st.sampled_from(["", "   ", "# a comment", "#x y z w v u"])))
            continue
        n = width if kind > 2 else draw(st.integers(1, width + 2))
        fields = []
        for i in range(n):
            if i == 0 and not messy:
                fields.append(draw(st.sampled_from(["q1", "q2", "301", "b" * 32])))
            elif i in (0, 2):
                fields.append(draw(ids if messy else regular_ids))
            elif width == 6 and i == 4:
                fields.append(draw(numbers if messy else regular_numbers))
            elif width == 4 and i == 3:
                fields.append(draw(grades if messy else regular_grades))
            else:
                fields.append(draw(st.sampled_from(["Q0", "0", "1", "run", "r2"])))
        sep = draw(seps) if kind == 3 else draw(st.sampled_from([" ", "\t"])) if kind == 4 else " "
        lines.append(sep.join(fields))
    end = draw(st.sampled_from(["\n", "\r\n"]))
    text = end.join(lines) + draw(st.sampled_from(["", end]))
    return text.encode("utf-8", "surrogatepass")


def _same(tmp_path: Path, data: bytes, fast, slow) -> None:
    path = tmp_path / "f"
    path.write_bytes(data)
    try:
        expected = slow(data, str(path))
    except InputError as exc:
        with pytest.raises(InputError) as got:
            fast(path)
        assert str(got.value) == str(exc)
        return
    result = fast(path)
    return expected, result


@SETTINGS
@given(data=trec_file(6))
def test_run_columns_read_what_lines_read(tmp_path_factory: pytest.TempPathFactory, data: bytes) -> None:
    got = _same(tmp_path_factory.mktemp("run"), data, read_run, _run_by_line)
    if got is not None:
        expected, result = got
        assert result.run_id == expected.run_id and result.source == expected.source
        assert list(result.rankings) == list(expected.rankings)
        for q in expected.rankings:
            assert [(d, math.copysign(1, s), s) for d, s in result.rankings[q]] == [
                (d, math.copysign(1, s), s) for d, s in expected.rankings[q]
            ]
        assert result.rankings == expected.rankings


@SETTINGS
@given(data=trec_file(4))
def test_qrels_columns_read_what_lines_read(tmp_path_factory: pytest.TempPathFactory, data: bytes) -> None:
    got = _same(tmp_path_factory.mktemp("qrels"), data, read_qrels, _qrels_by_line)
    if got is not None:
        expected, result = got
        assert list(result.judgements) == list(expected.judgements)
        for q in expected.judgements:
            assert list(result.judgements[q].items()) == list(expected.judgements[q].items())
        assert result.judgements == expected.judgements


def test_a_regular_file_is_read_as_columns(tmp_path: Path) -> None:
    (tmp_path / "r").write_text("# header\nq1 Q0 d1 1 2.5 run\n\nq1\tQ0\td2\t2\t-1e-3\trun\r\nq2 Q0 d1 1 7 last\n")
    run = read_run(tmp_path / "r")
    assert run._columns is not None
    assert run.rankings == {"q1": [("d1", 2.5), ("d2", -0.001)], "q2": [("d1", 7.0)]} and run.run_id == "last"
    (tmp_path / "r2").write_text("q1 Q0 d1 1 2.5 run extra\n")  # a seventh field: line by line
    assert read_run(tmp_path / "r2")._columns is None


# ------------------------------------------------------------------ from_trec


def _evaluators(multi: MultiQueryEvaluation) -> dict:
    out = {}
    for q in multi.queries():
        ev = multi[q]
        out[q] = (ev.num_cases, ev.num_positive_ref, ev.num_negative_ref, ev.num_misses,
                  repr(ev.pr_score_curve(False).tolist()), repr(ev.roc_curve(False).tolist()))  # fmt: skip  # NaN == NaN
    return out


@st.composite
def regular_pair(draw: st.DrawFn) -> tuple[str, str]:
    queries = [f"q{i}" for i in range(draw(st.integers(1, 5)))]
    docs = [f"d{i}" for i in range(12)]
    qrels, run = [], []
    for q in queries:
        for d in draw(st.lists(st.sampled_from(docs), unique=True, max_size=8)):
            qrels.append(f"{q} 0 {d} {draw(st.integers(-1, 3))}")
        if draw(st.integers(0, 5)):
            for rank, d in enumerate(draw(st.lists(st.sampled_from(docs), unique=True, max_size=10))):
                score = draw(st.sampled_from([1.0, 0.5, 2.25, -3.0])) if draw(st.booleans()) else draw(st.floats(-10, 10))
                run.append(f"{q} Q0 {d} {rank} {score!r} run")
    return "\n".join(qrels) + "\n", "\n".join(run) + "\n"


@SETTINGS
@given(files=regular_pair(), level=st.integers(-1, 2), complete=st.booleans(), ties=st.sampled_from(["stable", "grouped"]))
def test_from_trec_columns_equal_the_general_path(
    tmp_path_factory: pytest.TempPathFactory, files: tuple[str, str], level: int, complete: bool, ties: str
) -> None:
    tmp = tmp_path_factory.mktemp("pair")
    (tmp / "q").write_text(files[0])
    (tmp / "r").write_text(files[1])
    kw = dict(ties=ties, relevance_level=level, complete=complete)
    try:
        fast = MultiQueryEvaluation.from_trec(tmp / "q", tmp / "r", **kw)
    except (InputError, ValueError):
        return
    original = MultiQueryEvaluation._from_columns
    try:
        MultiQueryEvaluation._from_columns = lambda self, trec: False  # type: ignore[method-assign]
        general = MultiQueryEvaluation.from_trec(tmp / "q", tmp / "r", **kw)
    finally:
        MultiQueryEvaluation._from_columns = original  # type: ignore[method-assign]
    assert fast.trec.qrels._columns is not None and fast.trec.run._columns is not None
    assert fast.queries() == general.queries()
    assert _evaluators(fast) == _evaluators(general)


def test_hash_collisions_fall_back_to_the_general_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "q").write_text("q1 0 d1 1\nq1 0 d2 0\nq2 0 d1 1\n")
    (tmp_path / "r").write_text("q1 Q0 d1 1 0.5 run\nq1 Q0 d3 2 0.25 run\nq2 Q0 d2 1 0.1 run\n")
    reference = MultiQueryEvaluation.from_trec(tmp_path / "q", tmp_path / "r")
    monkeypatch.setattr(_columns, "_hash", lambda query, words, lengths: np.zeros(query.size, dtype=np.uint64))
    assert read_run(tmp_path / "r")._columns is None  # every key collides: read line by line
    collided = MultiQueryEvaluation.from_trec(tmp_path / "q", tmp_path / "r")
    assert _evaluators(collided) == _evaluators(reference)
    assert reference.mean_average_precision() == collided.mean_average_precision()
