#!/usr/bin/env python3
"""scored_pr input parsing and start-up against pandas, pytrec_eval and numpy's import.

Sections (``--only`` picks a subset):

csv
    ``scored-pr report`` on a 2,000,000-line CSV (``id,label,score``), run as
    a command (wall time of the process, interpreter start included), against
    ``pandas.read_csv`` + ``add_cases`` + the same report in a warm process
    (pandas imported beforehand, not timed). Two score formats: six decimals
    (``%.6f``) and Python's shortest round-trip ``repr`` (up to 17 significant
    digits). Target: <= 1.2x.
jsonl
    The same for a 1,000,000-line JSON Lines file against
    ``pandas.read_json(lines=True)``. Target: <= 1.2x.
trec
    ``MultiQueryEvaluation.from_trec`` + MAP, P@10 and MRR on 2,000 queries x
    1,000 retrieved documents (qrels: 100 judged documents per query) against
    pytrec_eval's ``parse_qrel`` + ``parse_run`` + ``RelevanceEvaluator``
    (map, P_10, recip_rank). Target: <= 0.6x.
coldstart
    ``scored-pr --help`` against ``python -c "import numpy"``, both as
    processes. Target: <= 1.7x.

pandas and pytrec_eval are benchmark-time anchors only (``pip install pandas
pytrec-eval-terrier``); a missing one makes its rows SKIP. The machine is shared
and noisy: every target is a ratio of two medians measured in the same run.

Usage::

    python benchmarks/bench_parse.py                 # everything (~3 minutes)
    python benchmarks/bench_parse.py --quick         # 10x smaller inputs, 3 repetitions
    python benchmarks/bench_parse.py --md out.md --json out.json
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable

import numpy as np

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))

from scored_pr import MultiQueryEvaluation, ScoredPrecisionRecallEvaluation  # noqa: E402

TARGETS = {"csv": 1.2, "jsonl": 1.2, "trec": 0.6, "coldstart": 1.7}


# ----------------------------------------------------------------- data


def _scores(n: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    labels = rng.random(n) < 0.3
    scores = 1.0 / (1.0 + np.exp(-(rng.normal(size=n) + labels)))
    return labels, scores


def make_csv(path: Path, n: int, fmt: str) -> None:
    labels, scores = _scores(n, 0)
    text = (f"{v:.6f}" for v in scores.tolist()) if fmt == "%.6f" else map(repr, scores.tolist())
    with open(path, "w", encoding="utf-8") as fh:
        fh.write("id,label,score\n")
        fh.writelines(f"doc{i:07d},{int(c)},{s}\n" for i, (c, s) in enumerate(zip(labels.tolist(), text)))


def make_jsonl(path: Path, n: int) -> None:
    labels, scores = _scores(n, 1)
    with open(path, "w", encoding="utf-8") as fh:
        fh.writelines(
            f'{{"id": "doc{i:07d}", "label": {int(c)}, "score": {s!r}}}\n'
            for i, (c, s) in enumerate(zip(labels.tolist(), scores.tolist()))
        )


def make_trec(qrels: Path, run: Path, queries: int, docs: int, judged: int) -> None:
    rng = np.random.default_rng(2)
    with open(qrels, "w") as qf, open(run, "w") as rf:
        for q in range(queries):
            ids = rng.permutation(docs * 2)[:docs].tolist()
            grades = ((rng.random(judged) < 0.2).astype(int) * rng.integers(1, 3, judged)).tolist()
            qf.writelines(f"q{q} 0 d{ids[j]} {grades[j]}\n" for j in range(judged))
            scores = np.sort(rng.random(docs))[::-1].tolist()
            rf.writelines(f"q{q} Q0 d{ids[(j * 7) % docs]} {j + 1} {scores[j]!r} run\n" for j in range(docs))


# -------------------------------------------------------------- timing


def interleaved(fns: dict[str, Callable[[], Any]], reps: int) -> dict[str, list[float]]:
    """Wall times of each function, ``reps`` rounds, every round running all of them in turn.

    On a shared machine the load changes from second to second; timing the
    contenders alternately (and rotating who goes first) exposes them to the
    same load, so their ratio means something even when the times do not.
    """
    for fn in fns.values():
        fn()  # warm: imports, caches, the page cache
    times: dict[str, list[float]] = {name: [] for name in fns}
    names = list(fns)
    for r in range(reps):
        for name in names[r % len(names) :] + names[: r % len(names)]:
            t0 = time.perf_counter()
            fns[name]()
            times[name].append(time.perf_counter() - t0)
    return times


def median_time(fn: Callable[[], Any], reps: int) -> tuple[float, list[float]]:
    times = interleaved({"fn": fn}, reps)["fn"]
    return statistics.median(times), times


def run_command(args: list[str]) -> Callable[[], None]:
    def call() -> None:
        subprocess.run(args, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    return call


def report(correct: np.ndarray, scores: np.ndarray) -> str:
    ev = ScoredPrecisionRecallEvaluation()
    ev.add_cases(correct, scores)
    return str(ev)  # the text report: every summary measure


def fmt_time(seconds: float) -> str:
    return f"{seconds * 1000:.0f} ms" if seconds < 10 else f"{seconds:.2f} s"


# ------------------------------------------------------------ sections


PANDAS_SCRIPT = """
import sys
import numpy as np
import pandas as pd
from scored_pr import ScoredPrecisionRecallEvaluation
df = pd.{reader}(sys.argv[1]{args})
ev = ScoredPrecisionRecallEvaluation()
ev.add_cases(df["label"].to_numpy(dtype=bool), df["score"].to_numpy(dtype=np.float64))
print(ev)
"""


def bench_reader(kind: str, path: Path, reps: int, anchor: Callable[[], Any] | None, anchor_name: str) -> dict[str, Any]:
    """The command and the pandas script as processes; ``main()`` and pandas in a warm process; interleaved."""
    from scored_pr._cli.main import main

    def in_process() -> None:
        import contextlib
        import io

        with contextlib.redirect_stdout(io.StringIO()):
            main(["report", str(path)])

    fns: dict[str, Callable[[], Any]] = {
        "command": run_command([sys.executable, "-m", "scored_pr", "report", str(path)]),
        "in_process": in_process,
    }
    if anchor is not None:
        reader, args = ("read_csv", "") if kind == "csv" else ("read_json", ", lines=True")
        fns["anchor_process"] = run_command([sys.executable, "-c", PANDAS_SCRIPT.format(reader=reader, args=args), str(path)])
        fns["anchor_time"] = anchor
    times = interleaved(fns, reps)
    row: dict[str, Any] = {"section": kind, "file": path.name, "anchor": anchor_name}
    for name, values in times.items():
        row[name] = statistics.median(values)
        row[name + "_all"] = values
    if anchor is not None:
        row.update(ratio_in_process=row["in_process"] / row["anchor_time"], ratio_process=row["command"] / row["anchor_process"],
                   ratio_command_vs_warm=row["command"] / row["anchor_time"])  # fmt: skip
        row["ratio"] = max(row["ratio_in_process"], row["ratio_process"])
    return row


def section_csv(workdir: Path, n: int, reps: int) -> list[dict[str, Any]]:
    rows = []
    try:
        import pandas as pd
    except ImportError:
        pd = None
    for fmt, name in (("%.6f", "fixed"), ("repr", "repr")):
        path = workdir / f"cases-{n}-{name}.csv"
        if not path.exists():
            make_csv(path, n, fmt)
        anchor = None
        if pd is not None:

            def anchor(path: Path = path) -> str:
                df = pd.read_csv(path)
                return report(df["label"].to_numpy(dtype=bool), df["score"].to_numpy(dtype=np.float64))

        rows.append(bench_reader("csv", path, reps, anchor, "pandas.read_csv + scored_pr"))
    return rows


def section_jsonl(workdir: Path, n: int, reps: int) -> list[dict[str, Any]]:
    path = workdir / f"cases-{n}.jsonl"
    if not path.exists():
        make_jsonl(path, n)
    try:
        import pandas as pd
    except ImportError:
        anchor = None
    else:

        def anchor() -> str:
            df = pd.read_json(path, lines=True)
            return report(df["label"].to_numpy(dtype=bool), df["score"].to_numpy(dtype=np.float64))

    return [bench_reader("jsonl", path, reps, anchor, "pandas.read_json(lines=True) + scored_pr")]


def section_trec(workdir: Path, queries: int, docs: int, reps: int) -> list[dict[str, Any]]:
    qrels, run = workdir / f"qrels-{queries}", workdir / f"run-{queries}x{docs}"
    if not run.exists():
        make_trec(qrels, run, queries, docs, judged=100)

    def ours() -> tuple[float, float, float]:
        multi = MultiQueryEvaluation.from_trec(qrels, run)
        return multi.mean_average_precision(), multi.mean_precision_at(10), multi.mean_reciprocal_rank()

    row: dict[str, Any] = {"section": "trec", "file": run.name, "anchor": "pytrec_eval parse_qrel + parse_run + evaluate"}
    try:
        import pytrec_eval
    except ImportError:
        row["command"], row["command_all"] = median_time(ours, reps)
        return [row]

    def theirs() -> tuple[float, float, float]:
        with open(qrels) as qf:
            q = pytrec_eval.parse_qrel(qf)
        with open(run) as rf:
            r = pytrec_eval.parse_run(rf)
        res = pytrec_eval.RelevanceEvaluator(q, {"map", "P_10", "recip_rank"}).evaluate(r)
        n = len(res)
        return (sum(v["map"] for v in res.values()) / n, sum(v["P_10"] for v in res.values()) / n,
                sum(v["recip_rank"] for v in res.values()) / n)  # fmt: skip

    mine, ref = ours(), theirs()
    # The same measures: pytrec_eval agrees to about 1e-8 (it ranks by scores it holds in lower
    # precision, so near-equal scores may tie there).
    assert all(abs(a - b) < 1e-6 for a, b in zip(mine, ref)), (mine, ref)
    row["values"], row["anchor_values"] = mine, ref
    times = interleaved({"command": ours, "anchor_time": theirs}, reps)
    for name, values in times.items():
        row[name], row[name + "_all"] = statistics.median(values), values
    row["ratio"] = row["command"] / row["anchor_time"]
    return [row]


def section_coldstart(reps: int) -> list[dict[str, Any]]:
    reps = max(reps, 15)  # a few tens of ms each: more repetitions
    times = interleaved({"command": run_command([sys.executable, "-m", "scored_pr", "--help"]),
                         "anchor_time": run_command([sys.executable, "-c", "import numpy"])}, reps)  # fmt: skip
    row: dict[str, Any] = {"section": "coldstart", "file": "scored-pr --help", "anchor": 'python -c "import numpy"'}
    for name, values in times.items():
        row[name], row[name + "_all"] = statistics.median(values), values
    row["ratio"] = row["command"] / row["anchor_time"]
    return [row]


# -------------------------------------------------------------- output


def markdown(rows: list[dict[str, Any]], meta: dict[str, Any]) -> str:
    out = [
        f"scored_pr parsing benchmark: {meta['machine']}; Python {meta['python']}, numpy {meta['numpy']}, "
        f"pandas {meta['pandas']}, pytrec_eval {meta['pytrec_eval']}; commit {meta['commit']}; medians of {meta['reps']}.",
        "",
    ]
    names = {"csv": "CSV", "jsonl": "JSON Lines"}
    readers = [r for r in rows if r["section"] in names]
    if readers:
        out += [
            "`scored-pr report` against pandas + scored_pr (the same report). Processes: the command against a "
            "script doing the pandas read and the report (interpreter start and imports in both); warm: "
            "`scored_pr._cli.main([...])` against the pandas read + report in one process, pandas already imported.",
            "",
            "| file | command | pandas script | ratio | warm: scored_pr | warm: pandas | ratio | target |",
            "|---|---:|---:|---:|---:|---:|---:|---|",
        ]
        for r in readers:
            if "ratio" not in r:
                out.append(f"| {r['file']} | {fmt_time(r['command'])} | - | - | {fmt_time(r['in_process'])} | - | - | SKIP |")
                continue
            verdict = "PASS" if r["ratio"] <= TARGETS[r["section"]] else "FAIL"
            out.append(
                f"| {r['file']} | {fmt_time(r['command'])} | {fmt_time(r['anchor_process'])} | {r['ratio_process']:.2f}x "
                f"| {fmt_time(r['in_process'])} | {fmt_time(r['anchor_time'])} | {r['ratio_in_process']:.2f}x "
                f"| both <= {TARGETS[r['section']]}x {verdict} |"
            )
        out += [""]
    others = [r for r in rows if r["section"] not in names]
    if others:
        out += ["| workload | scored_pr | anchor | anchor time | ratio (target) |", "|---|---:|---|---:|---|"]
        titles = {"trec": "`from_trec` + MAP, P@10, MRR", "coldstart": "cold start"}
        for r in others:
            target = TARGETS[r["section"]]
            if "ratio" in r:
                verdict = "PASS" if r["ratio"] <= target else "FAIL"
                ratio, anchor_time = f"{r['ratio']:.2f}x (<= {target}x) {verdict}", fmt_time(r["anchor_time"])
            else:
                ratio, anchor_time = "SKIP (anchor not installed)", "-"
            out.append(f"| {titles[r['section']]}: {r['file']} | {fmt_time(r['command'])} | {r['anchor']} | {anchor_time} | {ratio} |")
        out += [
            "",
            "`from_trec` and pytrec_eval run in a warm process (both imported); the cold start compares two processes.",
        ]
    return "\n".join(out)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="inputs 10x smaller, 3 repetitions")
    ap.add_argument("--only", default="csv,jsonl,trec,coldstart")
    ap.add_argument("--reps", type=int, default=None, help="repetitions per median (default 5, --quick 3)")
    ap.add_argument("--workdir", default=os.path.join(tempfile.gettempdir(), "scored_pr_bench_parse"),
                    help="where the generated inputs are kept between runs")  # fmt: skip
    ap.add_argument("--md", help="also write the markdown table here")
    ap.add_argument("--json", help="also write every number here")
    args = ap.parse_args()
    reps = args.reps or (3 if args.quick else 5)
    scale = 10 if args.quick else 1
    workdir = Path(args.workdir)
    workdir.mkdir(parents=True, exist_ok=True)
    only = set(args.only.split(","))
    rows: list[dict[str, Any]] = []
    if "csv" in only:
        rows += section_csv(workdir, 2_000_000 // scale, reps)
    if "jsonl" in only:
        rows += section_jsonl(workdir, 1_000_000 // scale, reps)
    if "trec" in only:
        rows += section_trec(workdir, 2_000 // scale, 1_000, reps)
    if "coldstart" in only:
        rows += section_coldstart(reps)

    def version(mod: str) -> str:
        try:
            from importlib.metadata import version as v

            return v(mod)
        except Exception:
            return "not installed"

    try:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout.strip()
    except OSError:
        commit = "?"
    cpu = next((line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo") if line.startswith("model name")), platform.processor()) \
        if os.path.exists("/proc/cpuinfo") else platform.processor()  # fmt: skip
    meta = {"machine": f"{cpu}, {os.cpu_count()} cores", "python": platform.python_version(), "numpy": np.__version__,
            "pandas": version("pandas"), "pytrec_eval": version("pytrec-eval-terrier"), "commit": commit, "reps": reps,
            "quick": args.quick}  # fmt: skip
    text = markdown(rows, meta)
    print(text)
    if args.md:
        Path(args.md).write_text(text + "\n")
    if args.json:
        Path(args.json).write_text(json.dumps({"meta": meta, "rows": rows}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
