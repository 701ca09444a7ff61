"""``scored-pr trec`` held byte for byte to the trec_eval 10.0 binary, built from its C source.

The source is ``shared/reference/trec_eval-10.0-src.tar.gz`` beside the repository (``../shared``
from the repository root; the directory above it too, for a git worktree; or the directory named
by ``SCORED_PR_REFERENCE``). It is built once per test session into a temporary directory; the
tests skip, saying why, when the source, ``make`` or a C compiler is absent.

Inputs are generated: graded qrels (negative grades: pooled but unjudged; grades above 9 for
relstring's ``>``), runs with tied and distinct scores (ties broken by docno, compared as bytes),
retrieved documents the qrels do not list, queries judged but not run and run but not judged,
queries with nothing relevant, lines in shuffled order. Every option docs/trec-eval.md lists
(``-q -m -c -l -M -J -n -N``) and every measure of ``all_trec``, with and without parameters, plus
the measures outside it (``dcg``, ``ideal_dcg``) is compared on stdout and exit status.

The binary is built with ``-ftrivial-auto-var-init=zero``: trec_eval's ``rbp`` reads two
uninitialised variables, and zero makes its output determinate (and what scored_pr computes).

trec_eval 10.0 exits with status 4 ("result qid ... not found in qrels") when, without ``-c``, a
query of the qrels has no results; scored-pr evaluates the queries it has (as trec_eval 9 and
pytrec_eval do). Inputs compared without ``-c`` therefore give every judged query a ranking.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tarfile
from pathlib import Path

import numpy as np
import pytest

from scored_pr._cli.main import main

REPO = Path(__file__).resolve().parents[2]
TARBALL = "trec_eval-10.0-src.tar.gz"


def _reference_dir() -> Path | None:
    env = os.environ.get("SCORED_PR_REFERENCE")
    if env:
        return Path(env) if (Path(env) / TARBALL).is_file() else None
    for base in (REPO.parent, REPO.parent.parent):
        candidate = base / "shared" / "reference"
        if (candidate / TARBALL).is_file():
            return candidate
    return None


@pytest.fixture(scope="session")
def trec_eval(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The trec_eval 10.0 binary, built from the reference source into a temporary directory."""
    ref = _reference_dir()
    if ref is None:
        searched = (str(base / "shared" / "reference") for base in (REPO.parent, REPO.parent.parent))
        where = os.environ.get("SCORED_PR_REFERENCE") or " or ".join(searched)
        pytest.skip(f"needs the trec_eval 10.0 source, {TARBALL}, in ../shared/reference beside the checkout "
                    f"or in the directory $SCORED_PR_REFERENCE names; not found in {where}")
    if shutil.which("make") is None:
        pytest.skip("make is not installed: cannot build trec_eval")
    if not any(shutil.which(cc) for cc in ("cc", "gcc", "clang")):
        pytest.skip("no C compiler (cc, gcc, clang): cannot build trec_eval")
    build = tmp_path_factory.mktemp("trec_eval")
    with tarfile.open(ref / TARBALL) as tar:
        try:
            tar.extractall(build, filter="data")
        except TypeError:  # a Python without extraction filters (before 3.10.12 / 3.11.4)
            tar.extractall(build)
    src = next((p.parent for p in build.rglob("Makefile")), None)
    if src is None:
        pytest.fail(f"{TARBALL} holds no Makefile")
    # rbp reads two uninitialised doubles (m_rbp.c: min, max); zero-initialised locals make the binary
    # deterministic and give the values scored_pr documents (both start at 0).
    cc = next(c for c in ("cc", "gcc", "clang") if shutil.which(c))
    made = subprocess.run(
        ["make", "-s", "-C", str(src), f"CC={cc} -ftrivial-auto-var-init=zero"], capture_output=True, text=True, timeout=300
    )
    binary = src / "trec_eval"
    if made.returncode != 0 or not binary.is_file():
        pytest.skip(
            f"building trec_eval with {cc} -ftrivial-auto-var-init=zero (gcc >= 12, clang >= 16) failed "
            f"(exit {made.returncode}): {made.stderr[-500:]}"
        )
    return binary


def collection(seed: int, every_judged_query_run: bool) -> tuple[str, str]:
    """Qrels and run text of a random collection (see the module notes for what it holds)."""
    rng = np.random.default_rng(seed)
    qrels: list[str] = []
    run: list[str] = []
    run_id = f"run{seed}"
    n_queries = int(rng.integers(3, 9))
    qids = rng.permutation([f"{i + 1}" for i in range(n_queries - 2)] + ["q10", "q2"]).tolist()
    for q, qid in enumerate(qids):
        docs = [f"D{q}-{i}" if i % 3 else f"d{q}_{i:02d}" for i in range(int(rng.integers(1, 70)))]
        judged = [d for d in docs if rng.random() < 0.7] or docs[:1]
        nothing_relevant = rng.random() < 0.15
        for d in judged:
            g = int(rng.choice([-1, 0, 0, 0, 1, 1, 2, 3, 4, 12]))
            qrels.append(f"{qid} 0 {d} {min(g, 0) if nothing_relevant else g}\n")
        if every_judged_query_run or rng.random() < 0.8:
            retrieved = [d for d in docs if rng.random() < 0.6] + [f"u{q}.{i}" for i in range(int(rng.integers(0, 6)))]
            if not retrieved:
                retrieved = docs[:1]
            kind = rng.integers(0, 3)
            if kind == 0:  # many ties: broken by docno
                scores = [repr(float(s)) for s in rng.integers(0, 5, size=len(retrieved))]
            elif kind == 1:
                scores = [repr(float(s)) for s in rng.random(len(retrieved))]
            else:  # integers and exponents, as some systems write them
                scores = [f"{int(s)}" if i % 2 else f"{s:.3e}" for i, s in enumerate(rng.integers(-50, 50, size=len(retrieved)))]
            for rank, (d, s) in enumerate(zip(retrieved, scores), 1):
                run.append(f"{qid}\tQ0 {d} {rank} {s} {run_id}\n")
    run.append(f"999 Q0 nobody 1 1.0 {run_id}\n")  # a query the qrels do not judge
    order = rng.permutation(len(run))
    return "".join(qrels), "".join(run[i] for i in order)


PARAMS = [
    "-m", "P.1,3,7", "-m", "recall.2,50", "-m", "ndcg_cut.3,8", "-m", "map_cut.4,40", "-m", "relative_P.2",
    "-m", "success.2,4", "-m", "iprec_at_recall.0.05,.33,.5", "-m", "Rprec_mult.0.5,1.5,3",
    "-m", "11pt_avg.0.25,0.5,0.75", "-m", "utility.2,-1,0.5,0.25", "-m", "relstring.20", "-m", "set_F.0.5",
    "-m", "ndcg.1=3,2=9,4=0.5", "-m", "G.1=2", "-m", "ndcg_rel.2=0.5",
    "-m", "Rndcg.0=1", "-m", "rbp.p=0.8,0=4,2=-1", "-m", "rbp_resid.p=0.95", "-m", "unj.3,30", "-m", "binG",
]  # fmt: skip

#: (options, whether the options include -c): every option of the README, alone and combined.
OPTIONS = [
    ([], False),
    (["-q", "-m", "all_trec"], False),
    (["-c", "-q", "-m", "all_trec"], True),
    (["-n", "-q", "-m", "all_trec"], False),
    (["-J", "-q", "-m", "all_trec"], False),
    (["-M", "5", "-q", "-m", "all_trec"], False),
    (["-l", "2", "-q", "-m", "all_trec"], False),
    (["-l", "3", "-c", "-J", "-M", "20", "-m", "all_trec"], True),
    (["-N", "1000", "-q", "-m", "utility.0,0,0,1", "-m", "set"], False),
    (["-q", "-m", "official", "-m", "11pt_avg", "-m", "11pt_avg.0.8,0.2"], False),
    (["-c", "-q", *PARAMS], True),
    (["-J", "-l", "2", "-M", "12", "-q", *PARAMS], False),
    # dcg and ideal_dcg with default gains only: trec_eval 10.0 frees their parameters twice (abort or
    # segmentation fault) when they are given parameters or share the command line with ndcg.PARAMS.
    (["-c", "-q", "-m", "dcg", "-m", "ideal_dcg", "-m", "ndcg", "-m", "G", "-m", "ndcg_rel", "-m", "Rndcg"], True),
]


def scored_pr_trec(capsys: pytest.CaptureFixture[str], args: list[str]) -> tuple[int, str]:
    capsys.readouterr()
    status = main(["trec", *args])
    return status, capsys.readouterr().out


def reference(binary: Path, args: list[str]) -> tuple[int, str]:
    done = subprocess.run([str(binary), *args], capture_output=True, timeout=60)
    return done.returncode, done.stdout.decode("utf-8", "replace")


@pytest.mark.parametrize("seed", range(6))
def test_scored_pr_trec_prints_what_the_trec_eval_10_binary_prints(
    trec_eval: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], seed: int
) -> None:
    files = {}
    for complete in (False, True):
        qrels, run = collection(100 * seed + complete, every_judged_query_run=not complete)
        qp, rp = tmp_path / f"qrels{int(complete)}", tmp_path / f"run{int(complete)}"
        qp.write_text(qrels)
        rp.write_text(run)
        files[complete] = [str(qp), str(rp)]
    for options, complete in OPTIONS:
        args = [*options, *files[complete]]
        want = reference(trec_eval, args)
        assert want[0] == 0, args
        assert scored_pr_trec(capsys, args) == want, args


def test_11pt_avg_matches_the_binary_where_trec_eval_9_rounding_differs(
    trec_eval: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """R = 4: lround(x * 4) and (long)(x * 4 + 0.9) differ at x = 0.1, 0.3, 0.6, 0.8 (see test_trec_cases)."""
    qp, rp = tmp_path / "qrels", tmp_path / "run"
    qp.write_text("".join(f"1 0 {d} 1\n" for d in "abcd"))
    rp.write_text("".join(f"1 Q0 {d} {i} {6 - i} r\n" for i, d in enumerate(["a", "b", "x", "y", "z", "c"])))
    for spec in ("11pt_avg", "11pt_avg.0.1,0.3,0.6", "11pt_avg.0.8,0.2", "11pt_avg.0.2,0.8", "11pt_avg.0.5,-1,3"):
        args = ["-m", spec, str(qp), str(rp)]
        assert scored_pr_trec(capsys, args) == reference(trec_eval, args), spec


@pytest.mark.parametrize("seed", range(2))
def test_grades_past_the_dense_gain_table_match_the_binary(
    trec_eval: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], seed: int
) -> None:
    """Grades up to 6,001: scored_pr keeps a gain level per grade present past 4,096 grades
    (scored_pr.trec._graded.DENSE_GRADES), trec_eval one per grade up to the highest; the same output."""
    qrels, run = collection(500 + seed, every_judged_query_run=True)
    rng = np.random.default_rng(seed)
    big = {"3": "5000", "4": "6001", "12": "4097"}
    lines = []
    for line in qrels.splitlines(keepends=True):
        q, it, d, g = line.split()
        lines.append(f"{q} {it} {d} {big.get(g, g) if rng.random() < 0.5 else g}\n")
    qp, rp = tmp_path / "qrels", tmp_path / "run"
    qp.write_text("".join(lines))
    rp.write_text(run)
    for options in (["-q", "-m", "all_trec"], ["-c", "-l", "5000", "-m", "all_trec"],
                    ["-q", "-m", "ndcg.1=3,6001=2", "-m", "G.5000=7", "-m", "rbp.p=0.5,0=2", "-m", "Rndcg.4097=1",
                     "-m", "ndcg_rel.2=9000", "-m", "ndcg_cut.3,7", "-m", "relstring.30"]):  # fmt: skip
        args = [*options, str(qp), str(rp)]
        assert scored_pr_trec(capsys, args) == reference(trec_eval, args), args


#: Measure parameters C reads with atof/atol into values it cannot convert or sort sanely: a level of
#: 1e308 or NaN whose count (long)(x * R) is out of range (x86-64 gives LONG_MIN), infinite gains,
#: hexadecimal numbers (glibc's atof reads them), cutoffs clamped by atol.
HOSTILE = [
    "Rprec_mult.1e308", "Rprec_mult.-1e308", "Rprec_mult.1.5e2,1e400,nan", "Rprec_mult..5,2147483648,9223372036854775807",
    "iprec_at_recall.1e308", "iprec_at_recall.-1e308,inf", "iprec_at_recall.3,inf", "iprec_at_recall.nan,0.5",
    "iprec_at_recall.1e-400,7,0x10", "11pt_avg.1e308", "11pt_avg.nan,inf", "11pt_avg.0x1p-1,1e400",
    "ndcg.1=1e400", "ndcg.1=-1e400,2=1e308", "ndcg.1=nan", "G.1=1e400", "G.1=-1e400", "ndcg_rel.1=1e400",
    "Rndcg.1=1e400", "ideal_dcg.1=2147483648,0=nan", "ndcg.99999999999999999999=5", "rbp.p=1e400", "rbp.p=nan",
    "rbp.1=1e400", "rbp_resid.p=1e400", "P.99999999999999999999", "P.9223372036854775807", "success.16x",
    "relstring.1e308", "relstring.9223372036854775807", "relstring.nan", "relstring.-5", "set_F.1e400", "set_F.0x10",
    "utility.1e308,-1e308,1e308,1e308", "utility.inf,0,0,0", "Rprec_mult.0x10",
]  # fmt: skip


@pytest.mark.parametrize("options", [["-q"], ["-c", "-q", "-J"]])
def test_hostile_measure_parameters_print_what_the_binary_prints(
    trec_eval: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], options: list[str]
) -> None:
    qrels, run = collection(7, every_judged_query_run="-c" not in options)
    qp, rp = tmp_path / "qrels", tmp_path / "run"
    qp.write_text(qrels)
    rp.write_text(run)
    for spec in HOSTILE:
        args = [*options, "-m", spec, str(qp), str(rp)]
        want = reference(trec_eval, args)
        assert want[0] == 0, spec
        assert scored_pr_trec(capsys, args) == want, spec


def test_ids_with_unicode_and_control_separators_match_the_binary(
    trec_eval: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Fields split on C's isspace only: U+2003, U+00A0, U+0085, \\x1c-\\x1f stay inside ids."""
    qrels, run = collection(11, every_judged_query_run=True)
    odd = ["\u2003", "\x1c", "\xa0", "\x85", "\x1f", "\u3000"]

    def odd_in(text: str) -> str:  # the same odd character for the same id, in both files
        return text[:1] + odd[sum(map(ord, text)) % len(odd)] + text[1:]

    def twist(text: str, docno_field: int, separators: str) -> str:
        out = []
        for line in text.splitlines():
            fields = line.split()
            fields[0], fields[docno_field] = odd_in(fields[0]), odd_in(fields[docno_field])
            out.append(fields[0] + "".join(sep + f for sep, f in zip(separators, fields[1:])) + "\n")
        return "".join(out)

    qp, rp = tmp_path / "qrels", tmp_path / "run"
    qp.write_text(twist(qrels, 2, "   "), encoding="utf-8")
    rp.write_text(twist(run, 2, "\t\x0b \f  \r"), encoding="utf-8")
    args = ["-q", "-c", "-m", "all_trec", str(qp), str(rp)]
    assert scored_pr_trec(capsys, args) == reference(trec_eval, args)
