"""``scored-pr trec`` under hostile grades and measure parameters: exit 0 or 2 with one message,
never a traceback, an abort or memory that grows with a number in the input.

The grades run in a child process with a clean environment (``env -i`` style) and its address space
capped at 1 GiB, so a regression shows as a failed child (MemoryError, abort), not as a machine out of
memory. The parameters run in-process (hundreds of them) and a few in a capped child as well.
For a longer run: SCORED_PR_FUZZ_EXAMPLES=5000 python -m pytest tests/cli/test_cli_fuzz.py
"""

from __future__ import annotations

import contextlib
import io
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from scored_pr._cli.main import main

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="resource limits are POSIX")

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = int(os.environ.get("SCORED_PR_FUZZ_EXAMPLES", "400"))
#: The child's address-space limit: numpy and the interpreter need about 400 MB of it.
LIMIT_BYTES = 1 << 30

CHILD = """
import resource, runpy, sys
resource.setrlimit(resource.RLIMIT_AS, ({limit}, {limit}))
sys.argv = ["scored-pr", *sys.argv[1:]]
runpy.run_module("scored_pr", run_name="__main__")
"""


def run_capped(args: list[str]) -> subprocess.CompletedProcess[str]:
    """``scored-pr ARGS`` in a child with a 1 GiB address space and a clean environment."""
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": os.environ.get("HOME", "/"), "LANG": "C.UTF-8",
           "PYTHONPATH": str(REPO), "OPENBLAS_NUM_THREADS": "1"}  # fmt: skip
    return subprocess.run(
        [sys.executable, "-c", CHILD.format(limit=LIMIT_BYTES), *args],
        capture_output=True, text=True, env=env, cwd=REPO, timeout=120,
    )  # fmt: skip


def clean(done: subprocess.CompletedProcess[str]) -> None:
    assert done.returncode in (0, 2), (done.returncode, done.stderr[-2000:])
    assert "Traceback" not in done.stderr, done.stderr
    if done.returncode == 2:
        lines = done.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("scored-pr: "), done.stderr


RUN = "1 Q0 d1 1 0.5 r\n1 Q0 d2 2 0.4 r\n1 Q0 d3 3 0.3 r\n2 Q0 e1 1 1 r\n"


@pytest.mark.parametrize(
    "grade, status",
    [
        ("9223372036854775807", 0), ("4611686018427387904", 0), ("3000000000", 0), ("-9223372036854775808", 0),
        ("9223372036854775808", 2), ("-9223372036854775809", 2), ("1" + "0" * 5000, 2), ("1.5", 2), ("1e3", 2),
        ("0x10", 2), ("abc", 2), ("\uff11", 2), ("1_0", 2), ("+7", 0), ("-0", 0),
    ],
)  # fmt: skip
def test_hostile_grades_exit_cleanly_in_bounded_memory(tmp_path: Path, grade: str, status: int) -> None:
    qp, rp = tmp_path / "qrels", tmp_path / "run"
    qp.write_text(f"1 0 d1 {grade}\n1 0 d2 1\n1 0 d3 0\n2 0 e1 {grade}\n", encoding="utf-8")
    rp.write_text(RUN)
    done = run_capped(["trec", "-q", "-c", "-m", "all_trec", "-m", "dcg", "-m", "ideal_dcg", str(qp), str(rp)])
    clean(done)
    assert done.returncode == status, done.stderr
    if status == 0:
        assert "num_rel               \tall\t" in done.stdout
    else:
        assert f"{qp}:1: grade " in done.stderr


@pytest.mark.parametrize(
    "spec",
    ["Rprec_mult.1e308", "iprec_at_recall.1e308", "ndcg.1=1e400", "11pt_avg.nan,inf", "relstring.1e308",
     "P.99999999999999999999", "rbp.p=1e400,1=-1e400", "G.9223372036854775807=1e308", "utility.inf,-inf,nan,1e400"],
)  # fmt: skip
def test_overflowing_parameters_exit_cleanly_in_a_clean_environment(tmp_path: Path, spec: str) -> None:
    qp, rp = tmp_path / "qrels", tmp_path / "run"
    qp.write_text("1 0 d1 2\n1 0 d2 1\n1 0 d3 0\n2 0 e1 1\n")
    rp.write_text(RUN)
    done = run_capped(["trec", "-q", "-m", spec, "-m", "all_trec", str(qp), str(rp)])
    clean(done)
    assert done.returncode == 0 and done.stdout.count("\n") > 100, done.stderr


TOKENS = ["1e308", "-1e308", "1e400", "-1e400", "nan", "-nan", "inf", "-inf", "0", "-0", "9223372036854775807",
          "9223372036854775808", "-9223372036854775809", "99999999999999999999", "1e-400", "0x10", "0x1p1024", "",
          "abc", "5e-324", "2.5", ".5", "1e19", "3", "1", "-2", "4294967297", "2147483648", "0.2", "=", ",", "."]  # fmt: skip
NAMES = ["P", "recall", "ndcg_cut", "map_cut", "relative_P", "success", "unj", "iprec_at_recall", "Rprec_mult",
         "11pt_avg", "utility", "relstring", "set_F", "ndcg", "G", "ndcg_rel", "Rndcg", "rbp", "rbp_resid", "dcg",
         "ideal_dcg", "map", "binG"]  # fmt: skip
PAIRS = {"ndcg", "G", "ndcg_rel", "Rndcg", "rbp", "rbp_resid", "dcg", "ideal_dcg"}


def hostile_specs(count: int, seed: int = 27) -> list[str]:
    rng = random.Random(seed)
    specs = []
    for _ in range(count):
        name = rng.choice(NAMES)
        k = rng.randint(1, 4)
        if name in PAIRS and rng.random() < 0.8:
            keys = ["p", "1", "2", "0", "-1", "", "x", "9223372036854775807", "99999999999999999999", "4294967297"]
            parts = [f"{rng.choice(keys)}={rng.choice(TOKENS)}" for _ in range(k)]
        else:
            parts = [rng.choice(TOKENS) for _ in range(k)]
        specs.append(f"{name}.{','.join(parts)}")
    return specs


def test_hostile_measure_parameters_never_raise(tmp_path: Path) -> None:
    """Every -m NAME.PARAMS: exit 0, or 2 with one 'scored-pr: -m: ...' line; nothing escapes main()."""
    qp, rp = tmp_path / "qrels", tmp_path / "run"
    qp.write_text("1 0 d1 2\n1 0 d2 1\n1 0 d3 0\n1 0 d4 -1\n2 0 e1 12\n3 0 z 1\n")
    rp.write_text(RUN + "1 Q0 d4 4 0.3 r\n1 Q0 u 5 0.2 r\n")
    options = [["-q"], ["-q", "-c"], ["-J", "-l", "2"], ["-M", "2", "-c"], ["-N", "9223372036854775807"]]
    outcomes = {0: 0, 2: 0}
    for i, spec in enumerate(hostile_specs(EXAMPLES)):
        err, out = io.StringIO(), io.StringIO()
        args = ["trec", *options[i % len(options)], "-m", spec, str(qp), str(rp)]
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(out):
            status = main(args)
        assert status in outcomes, (args, status, err.getvalue())
        outcomes[status] += 1
        if status == 2:
            lines = err.getvalue().strip().splitlines()
            assert len(lines) == 1 and lines[0].startswith("scored-pr: -m: "), (args, err.getvalue())
        else:
            assert not err.getvalue(), (args, err.getvalue())
    assert outcomes[0] > EXAMPLES // 4 and outcomes[2] > 0, outcomes  # the fuzz reaches both outcomes
