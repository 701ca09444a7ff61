"""What the README and the docs pages it links say holds: their code blocks run and print what they
say, their claims are true, their links lead somewhere, and the README stays short.

The ``>>>`` blocks run as doctests (``--doctest-glob='*.md'`` in pyproject.toml). The other Python
blocks are code to copy (they use the reader's ``requests``, ``model``, ``batches``); here they
run, the README's first and then the pages' in ``PAGES`` order, in one namespace, with small
stand-ins for those names, and what they print or log is checked against what the text says.
"""

from __future__ import annotations

import ast
import importlib
import math
import os
import re
import subprocess
import sys
import textwrap
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from scored_pr import ScoredPrecisionRecallEvaluation

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
DOCS = ROOT / "docs"
#: The README, then the docs pages that hold what it used to say at length.
PAGES = [README, *(DOCS / f"{name}.md" for name in (
    "usage", "definitions", "cli", "streaming", "testing", "plots", "scale", "reliability", "performance", "development"))]


def readme() -> str:
    return README.read_text(encoding="utf-8")


def page(name: str) -> str:
    """The text of docs/<name>.md."""
    return (DOCS / f"{name}.md").read_text(encoding="utf-8")


def flat(text: str) -> str:
    return " ".join(text.split())


def python_blocks() -> list[tuple[str, str]]:
    """(section heading, code) of every ```python block that is not a doctest, in ``PAGES`` order."""
    blocks = []
    for path in PAGES:
        heading = ""
        lines = path.read_text(encoding="utf-8").splitlines()
        i = 0
        while i < len(lines):
            if lines[i].startswith("#"):
                heading = lines[i].lstrip("#").strip()
            if lines[i].strip() == "```python":
                j = lines.index("```", i + 1)
                code = "\n".join(lines[i + 1 : j]) + "\n"
                if not code.lstrip().startswith(">>>"):
                    blocks.append((heading, code))
                i = j
            i += 1
    return blocks


#: The names the README's blocks leave to the reader: a stream of labelled requests whose
#: model scores rank well (so the window example pages nobody once the window fills), and
#: batches of (labels, scores).
STAND_INS = textwrap.dedent(
    """
    import numpy as _np
    _rng = _np.random.default_rng(7)

    class _Request:
        def __init__(self, label, score):
            self.label, self.score = label, score

    _labels = _rng.random(25_000) < 0.3
    requests = [_Request(bool(y), float(s)) for y, s in zip(_labels, _rng.normal(size=_labels.size) + 2.5 * _labels)]

    def model(request):
        return request.score

    pages = []
    def page_oncall(snapshot):
        pages.append(snapshot.num_cases)

    batches = [(_rng.random(1000) < 0.3, _rng.random(1000)) for _ in range(3)]

    import dask.dataframe as _dd
    import pandas as _pd
    df = _dd.from_pandas(_pd.DataFrame({"label": _np.concatenate([b[0] for b in batches]),
                                        "score": _np.round(_np.concatenate([b[1] for b in batches]), 2)}), npartitions=3)
    """
)


@pytest.fixture(scope="module")
def blocks_output(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """Run every block in order in one fresh interpreter; return what each wrote (stdout + stderr)."""
    pytest.importorskip("matplotlib")
    blocks = python_blocks()
    parts = [STAND_INS]
    for n, (heading, code) in enumerate(blocks):
        marker = f"@@block {n}: {heading}@@"
        parts.append(f"import sys as _sys\nprint({marker!r}, flush=True)\nprint({marker!r}, file=_sys.stderr, flush=True)\n")
        parts.append(code)
    parts.append("import sys as _sys\nprint('@@end@@', flush=True)\nprint('@@end@@', file=_sys.stderr, flush=True)\n")
    workdir = tmp_path_factory.mktemp("readme")  # the plot block writes pr_roc.png here
    # a user's environment: no PYTHONUNBUFFERED, a non-interactive matplotlib backend, no MLflow
    # settings (the MLflow block sets up its own store, ./mlruns, as a reader runs it)
    env = {"PATH": os.environ.get("PATH", ""), "HOME": str(workdir), "LANG": "C.UTF-8", "MPLBACKEND": "Agg",
           "PYTHONPATH": str(ROOT)}
    run = subprocess.run([sys.executable, "-c", "\n".join(parts)], capture_output=True, text=True, timeout=600,
                         cwd=workdir, env=env)
    assert run.returncode == 0, run.stderr[-3000:]
    out: dict[str, str] = {}
    for stream in (run.stdout, run.stderr):
        pieces = re.split(r"@@(block \d+: [^@]*|end)@@\n", stream)
        for name, text in zip(pieces[1::2], pieces[2::2]):
            out[name.split(": ", 1)[1] if ": " in name else name] = out.get(name.split(": ", 1)[-1], "") + text
    assert "end" in out  # every block ran
    out["@workdir"] = str(workdir)  # where the blocks wrote their files
    return out


def test_the_readme_has_the_blocks_this_module_checks() -> None:
    headings = [h for h, _ in python_blocks()]
    for heading in ("Quickstart", "Streaming inference: log, watch a window, export", "Test assertions",
                    "Past one machine", "Plots", "Testing helpers", "Logging during streaming inference",
                    "Monitoring: sliding windows", "Sending the numbers somewhere",
                    "Scale: bounded memory with certified bounds"):
        assert heading in headings, heading


def test_every_block_imports_what_it_uses() -> None:
    """A reader copies one block, not the page: a block that reads a name scored_pr exports, or a
    name another block imports (``mlflow``, ``os``, ``np``...), imports or binds it itself. Running the
    blocks in one namespace (above) would hide an import only an earlier block makes."""
    importable = set()
    for module in ("scored_pr", "scored_pr.functional", "scored_pr.integrations", "scored_pr.lingpipe",
                   "scored_pr.plot", "scored_pr.streaming", "scored_pr.testing", "scored_pr.trec"):
        importable.update(getattr(importlib.import_module(module), "__all__", ()))
    blocks = python_blocks()
    bound_by: list[set[str]] = [set() for _ in blocks]
    read_by: list[set[str]] = [set() for _ in blocks]
    for (heading, code), bound, read in zip(blocks, bound_by, read_by):
        for node in ast.walk(ast.parse(code)):
            if isinstance(node, ast.Name):
                (read if isinstance(node.ctx, ast.Load) else bound).add(node.id)
            elif isinstance(node, (ast.Import, ast.ImportFrom)):
                names = {(alias.asname or alias.name).split(".")[0] for alias in node.names}
                bound.update(names)
                importable.update(names)
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                bound.add(node.name)
            elif isinstance(node, ast.arg):
                bound.add(node.arg)
    for (heading, code), bound, read in zip(blocks, bound_by, read_by):
        missing = (read & importable) - bound
        assert not missing, f"the block under {heading!r} uses {sorted(missing)} without importing them:\n{code}"


def summary_lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if "cases=" in line]


def test_the_readme_streaming_example_logs_the_window_and_fills_the_prometheus_gauges(
    blocks_output: dict[str, str]
) -> None:
    """"a summary every 10,000 cases, and one on exit" (25,000 requests), each with the window beside it;
    the Prometheus sink in the same list gets the same summaries."""
    lines = summary_lines(blocks_output["Streaming inference: log, watch a window, export"])
    assert [re.search(r"cases=(\d+)", line).group(1) for line in lines] == ["10000", "20000", "25000"], lines
    assert all(line.startswith("INFO:eval:cases=") and re.search(r"\| window: cases=10000 .*AP=\S+ AUC=\S+", line)
               for line in lines), lines
    assert 'scored_pr_area_under_roc_curve{model="v2",scope="window"}' in readme()


def test_the_readme_scale_example_evaluates_the_dataframe_exactly_and_bounds_it(blocks_output: dict[str, str]) -> None:
    """"Every measure equals ScoredPrecisionRecallEvaluation(ties="grouped") fed the same rows": the
    README's Dask block on the stand-in DataFrame, against the exact evaluator of its rows."""
    pytest.importorskip("dask.dataframe")
    names: dict[str, object] = {}
    exec(STAND_INS, names)  # the same rows the block evaluated
    frame = names["df"].compute()  # type: ignore[attr-defined]
    exact = ScoredPrecisionRecallEvaluation("grouped")
    exact.add_cases(frame["label"].to_numpy(), frame["score"].to_numpy())
    (ap, auc), (estimate, lower, upper) = (line.split() for line in blocks_output["Past one machine"].splitlines())
    assert math.isclose(float(ap), exact.average_precision(), rel_tol=1e-12)
    assert float(auc) == exact.area_under_roc_curve()
    assert float(lower) <= exact.area_under_roc_curve() <= float(upper) and float(lower) <= float(estimate) <= float(upper)


def test_the_logging_example_logs_a_summary_every_10000_cases_and_at_exit(blocks_output: dict[str, str]) -> None:
    """"logs a summary every 10,000 cases or 60 s" and "on exit: a final summary" (25,000 requests)."""
    lines = summary_lines(blocks_output["Logging during streaming inference"])
    assert [re.search(r"cases=(\d+)", line).group(1) for line in lines] == ["10000", "20000", "25000"], lines
    assert all(line.startswith("INFO:eval:cases=") and " AP=" in line and " AUC=" in line for line in lines)


def test_the_window_example_logs_the_window_beside_the_cumulative_summary(blocks_output: dict[str, str]) -> None:
    """"each log line: cases=... AP=... AUC=... | window: cases=10000 AP=... AUC=...\""""
    lines = summary_lines(blocks_output["Monitoring: sliding windows"])
    assert len(lines) == 25  # every 1,000 of 25,000 cases; the final summary falls on the last one
    full = [line for line in lines if int(re.search(r"cases=(\d+)", line).group(1)) >= 10_000]
    assert full and all(re.search(r"\| window: cases=10000 .*AP=\S+ AUC=\S+", line) for line in full), full[:2]


def test_the_sinks_example_writes_the_exact_curve_to_tensorboard_and_the_run_to_mlflow(
    blocks_output: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """"the exact curve in the PR Curves tab at every step" and "MLflow logs scored_pr/curves.json and curves.png"."""
    assert "Sending the numbers somewhere" in [h for h, _ in python_blocks()]
    pytest.importorskip("tensorboard")
    mlflow = pytest.importorskip("mlflow")
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    workdir = Path(blocks_output["@workdir"])
    acc = EventAccumulator(str(workdir / "runs" / "eval"), size_guidance={"scalars": 0, "tensors": 0})
    acc.Reload()
    steps = [5_000, 10_000, 15_000, 20_000, 25_000]  # every 5,000 of the 25,000 requests
    assert [t.step for t in acc.Tensors("scored_pr/pr_curve/pr_curves")] == steps
    assert [e.step for e in acc.Scalars("scored_pr/average_precision")] == steps
    monkeypatch.setenv("MLFLOW_ALLOW_FILE_STORE", "true")
    client = mlflow.MlflowClient(tracking_uri=(workdir / "mlruns").as_uri())
    (run,) = client.search_runs(experiment_ids=["0"])
    assert [m.step for m in client.get_metric_history(run.info.run_id, "average_precision")] == steps
    assert sorted(a.path for a in client.list_artifacts(run.info.run_id, "scored_pr")) == [
        "scored_pr/curves.json", "scored_pr/curves.png"
    ]


def test_the_bounded_example_prints_an_interval_that_holds_the_estimate(blocks_output: dict[str, str]) -> None:
    estimate, lower, upper, exact = blocks_output["Scale: bounded memory with certified bounds"].split()
    assert float(lower) <= float(estimate) <= float(upper) and exact in ("True", "False")


def test_the_plot_example_writes_the_figure(blocks_output: dict[str, str], tmp_path_factory: pytest.TempPathFactory) -> None:
    pngs = list(tmp_path_factory.getbasetemp().glob("readme*/pr_roc.png"))
    assert pngs and pngs[0].read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


# ----------------------------------------------------------- average precision and the PR area


def exact_average_precision(correct: list[bool], scores: list[float], weights: list[int], misses: int,
                            ties: str) -> Fraction | None:
    """A literal reference: (1 / P) * sum over correct cases of the precision at its cut-off."""
    order = sorted(range(len(scores)), key=lambda i: -scores[i])  # stable: insertion order among ties
    positives = sum(w for c, w in zip(correct, weights) if c) + misses
    if positives == 0:
        return None
    total = Fraction(0)
    for pos, i in enumerate(order):
        if not correct[i] or weights[i] == 0:
            continue
        end = pos
        if ties == "grouped":  # the end of the tie group
            while end + 1 < len(order) and scores[order[end + 1]] == scores[i]:
                end += 1
        above = order[: end + 1]
        tp = sum(weights[j] for j in above if correct[j])
        retrieved = sum(weights[j] for j in above)
        total += weights[i] * Fraction(tp, retrieved)
    return total / positives


def test_average_precision_equals_the_pr_area_up_to_the_rounding_the_readme_states() -> None:
    """docs/definitions.md: equal to ``area_under_pr_curve(False)`` in exact arithmetic, within (m + 1) * 2**-51
    in floating point (m precisions summed); and they do differ, so "equals" alone would be false."""
    text = flat(page("definitions"))
    assert "equals `area_under_pr_curve(False)` up to floating-point rounding" in text
    assert "can differ in the last digits (by at most (*m* + 1) · 2⁻⁵¹;" in text
    rng = np.random.default_rng(30)
    differ = 0
    for trial in range(300):
        n = int(rng.integers(1, 200))
        correct = (rng.random(n) < rng.random()).tolist()
        scores = np.round(rng.normal(size=n), int(rng.integers(0, 3))).tolist()  # ties at 0-2 decimals
        weights = rng.integers(0, 4, n).tolist() if trial % 2 else [1] * n
        misses = int(rng.integers(0, 3))
        for ties in ("grouped", "stable"):
            ev = ScoredPrecisionRecallEvaluation(ties=ties)
            ev.add_cases(correct, scores, sample_weight=[float(w) for w in weights])
            ev.add_misses(misses)
            exact = exact_average_precision(correct, scores, weights, misses, ties)
            ap, area = ev.average_precision(), ev.area_under_pr_curve(False)
            if exact is None:
                assert math.isnan(ap)
                continue
            m = len(ev.pr_curve(False))
            assert abs(Fraction(ap) - exact) <= (m + 2) * Fraction(1, 2**53)
            assert abs(Fraction(area) - exact) <= (3 * m + 2) * Fraction(1, 2**53)
            assert abs(Fraction(ap) - Fraction(area)) <= (m + 1) * Fraction(1, 2**51)
            differ += ap != area
    assert differ > 0


def test_the_definitions_example_of_average_precision_against_the_area() -> None:
    """"e.g. 0.6064814814814814 against 0.6064814814814815 on the porting guide's example"."""
    assert "0.6064814814814814 against 0.6064814814814815" in flat(page("definitions"))
    ev = ScoredPrecisionRecallEvaluation()
    ev.add_cases([True, False, True, True, False, True, False, False, True, False, False, False],
                 [0.91, 0.85, 0.85, 0.77, 0.62, 0.60, 0.58, 0.41, 0.33, 0.20, 0.12, 0.05])
    ev.add_misses(1)
    assert (repr(ev.average_precision()), repr(ev.area_under_pr_curve(False))) == ("0.6064814814814814", "0.6064814814814815")


# ----------------------------------------------------------------------- install hints


def declared_extras() -> dict[str, str]:
    """[project.optional-dependencies] of pyproject.toml: extra name -> its requirement list (as text)."""
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    section = text.split("[project.optional-dependencies]", 1)[1].split("\n[", 1)[0]
    return dict(re.findall(r"^(\w+) = (\[[^\]]*\])", section, flags=re.M))


def hint_texts() -> dict[str, str]:
    files = [README, *sorted(DOCS.glob("*.md")), *sorted((ROOT / "scored_pr").rglob("*.py")),
             *sorted((ROOT / "examples").glob("*.py"))]
    return {str(p.relative_to(ROOT)): p.read_text(encoding="utf-8") for p in files}


def test_every_install_hint_works_from_a_checkout() -> None:
    """A hint `pip install 'scored-pr[x]'` fails in a checkout (the package is not on an index); each
    file that names an extra must say `pip install '.[x]'`, and x must be a declared extra."""
    extras = declared_extras()
    assert "matplotlib" in extras["plot"] and "dask" in extras["dask"]
    for name, text in hint_texts().items():
        for extra in re.findall(r"pip install '\.\[(\w+)\]'", text):
            assert extra in extras, f"{name}: pip install '.[{extra}]' names no declared extra"
        for extra in re.findall(r"pip install 'scored-pr\[(\w+)\]'", text):
            assert f"pip install '.[{extra}]'" in text, f"{name}: 'scored-pr[{extra}]' without the checkout form"


# ----------------------------------------------------------------------- claims in the prose


def test_the_bad_input_example_is_the_message_users_get() -> None:
    text = page("reliability")
    block = text.split("## Bad input", 1)[1].split("```\n", 1)[1].split("```", 1)[0].strip()
    ev = ScoredPrecisionRecallEvaluation()
    ev.add_cases([True, False], [0.9, 0.1])
    before = repr(ev.summary())
    with pytest.raises(ValueError) as info:
        ev.add_cases([True, False, True, False], [0.8, 0.7, 0.6, float("nan")])
    assert str(info.value) == block
    # "A rejected call changes nothing."
    assert "A rejected call changes nothing." in text and repr(ev.summary()) == before
    # "a string such as "False" is a TypeError, never silently truthy"
    assert 'a string such as `"False"` is a\n`TypeError`' in text
    with pytest.raises(TypeError):
        ev.add_case("False", 0.3)
    assert repr(ev.summary()) == before


def test_curves_are_read_only_float64_arrays() -> None:
    assert "Curves are read-only float64 arrays shared with the cache (`.copy()` for a writable one)." in page("usage")
    ev = ScoredPrecisionRecallEvaluation()
    ev.add_cases([True, False, True], [0.9, 0.5, 0.1])
    for curve in (ev.pr_curve(False), ev.pr_curve(True), ev.roc_curve(False), ev.pr_score_curve(False)):
        assert curve.dtype == np.float64 and not curve.flags.writeable
        assert curve.copy().flags.writeable
    assert ev.pr_curve(False) is ev.pr_curve(False)  # shared with the cache


def test_windows_pickle_but_do_not_merge() -> None:
    import pickle

    from scored_pr import WindowedEvaluation

    assert (
        "Windows pickle but have no `merge` or `+` (a window is a span of one stream; "
        "`a.snapshot() + b.snapshot()` merges what two windows hold)."
    ) in flat(page("streaming"))
    a, b = WindowedEvaluation(size=3), WindowedEvaluation(size=3)
    a.add_cases([True, False, True, False], [0.9, 0.8, 0.7, 0.95])
    b.add_cases([False, True], [0.2, 0.6])
    assert repr(pickle.loads(pickle.dumps(a)).summary()) == repr(a.summary())  # repr: NaN entries compare
    assert not hasattr(a, "merge")
    with pytest.raises(TypeError):
        a + b  # noqa: B018
    both = a.snapshot() + b.snapshot()
    assert both.num_cases == 5


def test_a_saved_state_takes_about_8_1_bytes_per_case(tmp_path: Path) -> None:
    assert "about 8.1 bytes per case" in flat(page("scale"))
    rng = np.random.default_rng(81)
    n = 200_000
    ev = ScoredPrecisionRecallEvaluation()
    ev.add_cases(rng.random(n) < 0.3, rng.random(n))
    ev.save(tmp_path / "state.npz")
    assert round((tmp_path / "state.npz").stat().st_size / n, 1) == 8.1


def test_a_bounded_summary_is_about_100_kb_whatever_the_number_of_cases(tmp_path: Path) -> None:
    """"about 100 KB serialised at 4,096 bins whatever the number of cases" (docs/scale.md; the README:
    "about 100 KB at 4,096") and "the serialised summary stays at about 105 KB from 100,000 to
    10,000,000 cases" (docs/performance.md; measured here to 1,000,000)."""
    from scored_pr import BoundedEvaluation

    assert "about 100 KB at 4,096" in flat(readme())
    assert "about 100 KB serialised at 4,096 bins whatever the number of cases" in flat(page("scale"))
    assert "the serialised summary stays at about 105 KB from 100,000 to 10,000,000 cases" in flat(page("performance"))
    rng = np.random.default_rng(105)
    for n in (100_000, 1_000_000):
        summary = BoundedEvaluation(max_bins=4096)
        summary.add_cases(rng.random(n) < 0.3, rng.normal(size=n))
        summary.save(tmp_path / f"{n}.npz")
        size = (tmp_path / f"{n}.npz").stat().st_size
        assert 100_000 <= size <= 110_000, (n, size)


# ----------------------------------------------------------------------- the README stays short


def test_the_readme_is_at_most_300_lines() -> None:
    """The first screen is for users; the rest lives in docs/ (the pages this module reads)."""
    assert len(readme().splitlines()) <= 300


def heading_anchors(path: Path) -> set[str]:
    """The anchors GitHub and MyST give the headings of a Markdown file (outside code blocks)."""
    anchors, fenced = set(), False
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            fenced = not fenced
        elif not fenced and re.match(r"#{1,6} ", line):
            text = line.lstrip("#").strip().lower()
            anchors.add(re.sub(r"[^\w\- ]", "", text).replace(" ", "-"))
    return anchors


@pytest.mark.parametrize("path", PAGES + [DOCS / "index.md"], ids=lambda p: str(p.relative_to(ROOT)))
def test_every_local_link_reaches_a_file_and_its_heading(path: Path) -> None:
    """What moved out of the README is one link away: every relative link of the README and of the
    pages it moved to names a file that exists, and an anchor names one of that file's headings."""
    text = re.sub(r"```.*?```", "", path.read_text(encoding="utf-8"), flags=re.S)
    for target in re.findall(r"\]\(([^)\s]+)\)", text):
        if re.match(r"[a-z]+:", target):
            continue
        file, _, anchor = target.partition("#")
        resolved = (path.parent / file).resolve() if file else path
        assert resolved.exists(), f"{path.name}: link to {target} (no such file)"
        if anchor and resolved.suffix == ".md":
            assert anchor in heading_anchors(resolved), f"{path.name}: link to {target} (no such heading)"


def test_the_readme_links_every_page_that_holds_its_old_sections() -> None:
    """Nothing left the README without a way back: it links each page in ``PAGES``, and the docs
    site's table of contents lists each of them."""
    index = (DOCS / "index.md").read_text(encoding="utf-8")
    for path in PAGES[1:]:
        assert f"](docs/{path.name}" in readme(), path.name
        assert f"\n{path.stem}\n" in index, path.stem
