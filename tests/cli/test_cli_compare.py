"""scored-pr report --ci and scored-pr compare: the numbers are the library's, the errors are one line."""

from __future__ import annotations

import gzip
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import scored_pr
from scored_pr import ScoredPrecisionRecallEvaluation
from scored_pr._cli.main import main
from cli_env import CMD, clean_env


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def _data(n: int = 300, seed: int = 0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    c = rng.random(n) < 0.4
    a = rng.normal(size=n) + 1.2 * c
    return c, a, a + rng.normal(size=n)


def _csv(path: Path, ids: list[str], c: np.ndarray, s: np.ndarray, header: str = "id,label,score") -> str:
    path.write_text(header + "\n" + "".join(f"{i},{int(x)},{float(y)!r}\n" for i, x, y in zip(ids, c, s)))
    return str(path)


@pytest.fixture
def files(tmp_path: Path) -> tuple[str, str, np.ndarray, np.ndarray, np.ndarray]:
    c, a, b = _data()
    ids = [f"case-{i}" for i in range(c.size)]
    perm = np.random.default_rng(1).permutation(c.size)  # B lists the cases in another order
    pa = _csv(tmp_path / "a.csv", ids, c, a)
    pb = _csv(tmp_path / "b.csv", [ids[i] for i in perm], c[perm], b[perm])
    return pa, pb, c, a, b


def test_report_ci_prints_the_library_intervals(files, capsys) -> None:  # type: ignore[no-untyped-def]
    pa, _, c, a, _ = files
    ev = ScoredPrecisionRecallEvaluation()
    ev.add_cases(c, a)
    status, out, _ = run(capsys, "report", pa, "--ci", "--format", "json", "--level", "0.9", "--seed", "3",
                         "--resamples", "300", "--bootstrap", "bca")
    assert status == 0
    got = json.loads(out)["confidence_intervals"]
    want = {"area_under_roc_curve": ev.confidence_interval(level=0.9),
            "average_precision": ev.confidence_interval("average_precision", 0.9, "bca", 300, 3)}
    for name, iv in want.items():
        assert got[name] == {"estimate": iv.estimate, "low": iv.low, "high": iv.high, "level": 0.9,
                             "method": iv.method, "std_error": iv.std_error}
    status, out, _ = run(capsys, "report", pa, "--ci", "--resamples", "300", "--seed", "3", "--level", "0.9",
                         "--bootstrap", "bca")
    assert "Confidence intervals (90%, 300 stratified resamples, seed 3):" in out
    iv = want["average_precision"]
    assert f"average_precision      {iv.estimate:.6f}  [{iv.low:.6f}, {iv.high:.6f}]  bca" in out
    status, out, _ = run(capsys, "report", pa, "--ci", "--format", "table", "--resamples", "300")
    assert "| area_under_roc_curve |" in out and out.rstrip().endswith("bootstrap |")
    # without --ci nothing changes
    status, out, _ = run(capsys, "report", pa, "--format", "json")
    assert "confidence_intervals" not in json.loads(out)


@pytest.mark.parametrize("level", ["0", "1", "1.5", "x"])
def test_bad_level_is_a_usage_error(files, capsys, level) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(SystemExit) as exc:
        main(["report", files[0], "--ci", "--level", level])
    assert exc.value.code == 2 and "--level" in capsys.readouterr().err


def test_report_ci_on_weighted_cases_is_one_error_line(capsys) -> None:  # type: ignore[no-untyped-def]
    from scored_pr._io import cases as _io

    from scored_pr._cli import output as _cli_output

    ev = ScoredPrecisionRecallEvaluation()
    ev.add_cases([True, False], [0.6, 0.4], sample_weight=[2.0, 1.0])
    with pytest.raises(_io.InputError, match="x.csv: --ci: confidence_interval: .*sample weights"):
        _cli_output.report_intervals(ev, "x.csv", 0.95, "percentile", 100, 0)


def test_compare_joins_on_ids_and_equals_the_library(files, capsys) -> None:  # type: ignore[no-untyped-def]
    pa, pb, c, a, b = files
    status, out, err = run(capsys, "compare", pa, pb, "--format", "json", "--resamples", "300", "--seed", "5")
    assert status == 0, err
    got = json.loads(out)
    assert got["num_cases"] == c.size and got["num_correct"] == int(c.sum()) and got["id_col"] == "id"
    for measure in ("area_under_roc_curve", "average_precision"):
        r = scored_pr.compare(c, a, b, measure=measure, n_resamples=300, seed=5)
        g = got["comparisons"][measure]
        assert (g["a"], g["b"], g["difference"], g["low"], g["high"], g["statistic"], g["p_value"], g["method"]) == (
            r.estimate_a, r.estimate_b, r.difference, r.interval.low, r.interval.high, r.statistic, r.p_value, r.method)
    status, out, _ = run(capsys, "compare", pa, pb, "--measure", "area_under_roc_curve")
    r = scored_pr.compare(c, a, b)
    assert status == 0 and f"| {r.estimate_a:.6f} | {r.estimate_b:.6f} | {r.difference:+.6f} |" in out
    assert "average_precision" not in out and "300 cases joined on 'id'" in out


def test_compare_reads_jsonl_gzip_and_two_columns_of_one_file(tmp_path, files, capsys) -> None:  # type: ignore[no-untyped-def]
    pa, _, c, a, b = files
    lines = [json.dumps({"key": i, "correct": bool(x), "score": float(y)}) for i, (x, y) in enumerate(zip(c, b))]
    with gzip.open(tmp_path / "b.jsonl.gz", "wt") as f:
        f.write("\n".join(lines[::-1]) + "\n")
    pa2 = _csv(tmp_path / "a2.csv", [str(i) for i in range(c.size)], c, a, header="key,label,score")
    status, out, err = run(capsys, "compare", pa2, str(tmp_path / "b.jsonl.gz"), "--id-col", "key", "--format", "json",
                           "--measure", "area_under_roc_curve")
    assert status == 0, err
    assert json.loads(out)["comparisons"]["area_under_roc_curve"]["statistic"] == scored_pr.compare(c, a, b).statistic
    both = tmp_path / "both.tsv"
    both.write_text("id\tcorrect\tm1\tm2\n" + "".join(f"{i}\t{int(x)}\t{float(y)!r}\t{float(z)!r}\n"
                                                      for i, (x, y, z) in enumerate(zip(c, a, b))))
    status, out, _ = run(capsys, "compare", str(both), str(both), "--score-col", "m1", "--score-col-b", "m2",
                         "--format", "json", "--measure", "area_under_roc_curve")
    assert json.loads(out)["comparisons"]["area_under_roc_curve"]["p_value"] == scored_pr.compare(c, a, b).p_value


def test_compare_errors_name_the_ids(tmp_path, files, capsys) -> None:  # type: ignore[no-untyped-def]
    pa, pb, c, a, b = files
    text = Path(pb).read_text().splitlines()
    missing = tmp_path / "missing.csv"
    missing.write_text("\n".join(text[:-1] + ["extra,1,0.5"]) + "\n")
    status, _, err = run(capsys, "compare", pa, str(missing))
    lost = text[-1].split(",")[0]
    assert status == 2
    assert err.strip() == f"scored-pr: {missing}: the ids do not match one to one: 1 only in {pa} ('{lost}'); " \
                          f"1 only in {missing} ('extra')"
    dup = tmp_path / "dup.csv"
    dup.write_text("\n".join(text + [text[5]]) + "\n")
    status, _, err = run(capsys, "compare", pa, str(dup))
    assert status == 2 and f"{dup}:{len(text) + 1}: id '{text[5].split(',')[0]}' appears twice (first on line 6)" in err
    flipped = tmp_path / "flipped.csv"
    row = text[3].split(",")
    row[1] = "0" if row[1] == "1" else "1"
    flipped.write_text("\n".join(text[:3] + [",".join(row)] + text[4:]) + "\n")
    status, _, err = run(capsys, "compare", pa, str(flipped))
    assert status == 2 and f"the labels disagree for 1 id(s), e.g. '{row[0]}'" in err
    status, _, err = run(capsys, "compare", pa, pb, "--id-col", "nope")
    assert status == 2 and "no column 'nope' in the header; use --id-col" in err
    bad = tmp_path / "bad.csv"
    bad.write_text("id,label,score\nx,1,0.5\ny,maybe,0.2\n")
    status, _, err = run(capsys, "compare", str(bad), str(bad))
    assert status == 2 and err.startswith(f"scored-pr: {bad}:3: invalid label 'maybe'")
    one = tmp_path / "one.csv"
    one.write_text("id,label,score\nx,1,0.5\ny,1,0.2\n")
    status, _, err = run(capsys, "compare", str(one), str(one))
    assert status == 2 and "a class is missing" in err
    status, _, err = run(capsys, "compare", "-", "-")
    assert status == 2 and "only one of A and B" in err


def test_compare_rejects_deeply_nested_json_as_report_does(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    # json's decoder recurses once per level: 100,000 levels used to escape as a RecursionError traceback
    deep = '{"id": 2, "label": 1, "score": ' + "[" * 100_000 + "]" * 100_000 + "}\n"
    path = tmp_path / "deep.jsonl"
    path.write_text('{"id": 1, "label": 1, "score": 0.5}\n' + deep + '{"id": 3, "label": 0, "score": 0.25}\n')
    status, out, err = run(capsys, "compare", str(path), str(path))
    assert status == 2 and out == ""
    assert err.strip() == f"scored-pr: {path}:2: invalid JSON (nested too deeply)"


def test_compare_a_model_with_itself_says_the_models_are_identical(tmp_path, files, capsys) -> None:  # type: ignore[no-untyped-def]
    """`compare A A` used to print `+nan +nan nan nan`; pROC's convention is Z = 0, p = 1, and we say why."""
    pa, pb, c, a, b = files
    status, out, err = run(capsys, "compare", pa, pa, "--resamples", "100")
    assert status == 0, err
    assert "nan" not in out.lower()
    for measure in ("area_under_roc_curve", "average_precision"):
        row = next(line for line in out.splitlines() if line.startswith(f"| {measure} "))
        cells = [x.strip() for x in row.strip("|").split("|")]
        assert cells[3:8] == ["+0.000000", "+0.000000", "+0.000000", "0.0000", "1"], row
    assert "A and B rank every case identically" in out and "each difference is 0" in out
    # a monotone transform of A's scores (two columns of one file) ranks the cases the same way
    both = tmp_path / "both.csv"
    both.write_text("id,label,m1,m2\n" + "".join(f"{i},{int(x)},{float(y)!r},{float(3 * y + 1)!r}\n"
                                                 for i, (x, y) in enumerate(zip(c, a))))
    status, out, _ = run(capsys, "compare", str(both), str(both), "--score-col", "m1", "--score-col-b", "m2",
                         "--format", "json", "--resamples", "100")
    got = json.loads(out)
    assert status == 0 and got["same_ranking"] is True
    for r in got["comparisons"].values():
        assert (r["difference"], r["low"], r["high"], r["statistic"], r["p_value"]) == (0.0, 0.0, 0.0, 0.0, 1.0)
    # different models: no note, and the flag says so
    status, out, _ = run(capsys, "compare", pa, pb, "--resamples", "100")
    assert status == 0 and "rank every case identically" not in out
    status, out, _ = run(capsys, "compare", pa, pb, "--resamples", "100", "--format", "json")
    assert json.loads(out)["same_ranking"] is False


def test_report_ci_explains_an_undefined_bca_interval(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    n = 20  # an inverted ranking: the 8 correct cases score lowest
    path = tmp_path / "inverted.csv"
    path.write_text("id,label,score\n" + "".join(f"{i},{int(i >= 12)},{n - i}\n" for i in range(n)))
    status, out, err = run(capsys, "report", str(path), "--ci", "--bootstrap", "bca", "--format", "json")
    assert status == 0, err
    ap = json.loads(out)["confidence_intervals"]["average_precision"]
    assert ap["low"] is None and ap["high"] is None and ap["note"].startswith("BCa is undefined here")
    assert "note" not in json.loads(out)["confidence_intervals"]["area_under_roc_curve"]
    status, out, _ = run(capsys, "report", str(path), "--ci", "--bootstrap", "bca")
    assert "  average_precision      0.258207  [nan, nan]  bca\n  note: average_precision: BCa is undefined" in out


class _Terminal:
    """A standard error that says it is a terminal and keeps what was written."""

    def __init__(self, tty: bool = True) -> None:
        self.text, self._tty = "", tty

    def write(self, s: str) -> int:
        self.text += s
        return len(s)

    def flush(self) -> None:
        pass

    def isatty(self) -> bool:
        return self._tty


@pytest.mark.parametrize("tty, no_progress", [(True, False), (False, False), (True, True)])
def test_report_ci_shows_the_bootstrap_progress_on_a_terminal(files, capsys, monkeypatch, tty, no_progress) -> None:  # type: ignore[no-untyped-def]
    """report --ci on 1.5M rows spent about a minute resampling with nothing on the screen."""
    import sys

    from scored_pr._cli import main as _cli

    from scored_pr._cli import output as _cli_output

    pa, _, c, a, _ = files
    ev = ScoredPrecisionRecallEvaluation()
    ev.add_cases(c, a)
    monkeypatch.setattr(_cli_output, "PROGRESS_DELAY", 0.0)
    monkeypatch.setattr(_cli_output, "PROGRESS_INTERVAL", 0.0)
    err = _Terminal(tty)
    monkeypatch.setattr(sys, "stderr", err)
    got = _cli_output.report_intervals(ev, "x.csv", 0.95, "percentile", 300, 0, progress=not no_progress)
    # the intervals are the library's, progress or not
    assert got["average_precision"] == ev.confidence_interval("average_precision", 0.95, "bootstrap", 300, 0)
    if not tty or no_progress:
        assert err.text == ""
        return
    lines = err.text.split("\r")
    drawn = [x for x in lines if x.strip()]
    assert drawn and all(x.startswith("--ci average_precision: [") for x in drawn)
    assert any("300 of 300 resamples" in x for x in drawn) and "100%" in drawn[-1]
    assert lines[-1] == "" and lines[-2].strip() == ""  # the line is erased at the end
    # the whole command: the bar goes to stderr only, stdout is the plain report
    monkeypatch.setattr(sys, "stderr", _Terminal(tty))
    status, out, _ = run(capsys, "report", pa, "--ci", "--resamples", "300")
    assert status == 0 and "\r" not in out and "resamples  " not in out
    assert "--ci average_precision: [" in sys.stderr.text  # type: ignore[attr-defined]


def test_file_names_that_are_not_utf8_are_read_and_written(tmp_path: Path) -> None:
    """Names from a file system that is not UTF-8 (surrogate-escaped, as os.fsdecode gives them) work for
    report --plot/--html and compare --html; the pages and the plot title show each stray byte as U+FFFD."""
    import os
    import shutil

    pytest.importorskip("matplotlib")
    if sys.platform == "win32":
        pytest.skip("file names are not bytes on Windows")
    name = os.fsdecode(b"caf\xe9")
    rows = "id,correct,score\n" + "".join(f"{i},{i % 2},{(i * 7 % 11) / 11}\n" for i in range(40))
    (tmp_path / f"{name}.csv").write_text(rows)
    (tmp_path / f"{name}-b.csv").write_text(rows.replace(",0.", ",0.1"))
    env_cmd = shutil.which("env")
    e = clean_env()
    prefixes = {"clean": [], **({"env -i": [env_cmd, "-i", f"PATH={e['PATH']}", f"HOME={e['HOME']}", "LANG=C.UTF-8",
                                              f"PYTHONPATH={e['PYTHONPATH']}"]} if env_cmd else {})}
    for how, prefix in prefixes.items():
        runs = [["report", f"{name}.csv", "--plot", f"{name}.png", "--html", f"{name}.html"],
                ["compare", f"{name}.csv", f"{name}-b.csv", "--html", f"{name}-cmp.html", "--resamples", "50"]]
        for args in runs:
            # the report names the input on standard output as its bytes were: not UTF-8
            done = subprocess.run([*prefix, *CMD, *args], capture_output=True, encoding="utf-8", errors="replace",
                                  env=clean_env(), timeout=180, cwd=tmp_path)
            assert done.returncode == 0, (how, args, done.stderr)
        listed = set(os.listdir(bytes(tmp_path)))
        assert {b"caf\xe9.png", b"caf\xe9.html", b"caf\xe9-cmp.html"} <= listed, (how, listed)
        assert (tmp_path / f"{name}.png").read_bytes().startswith(b"\x89PNG")
        page = (tmp_path / f"{name}.html").read_bytes().decode("utf-8")  # valid UTF-8
        assert "<title>scored_pr report: caf\ufffd.csv</title>" in page
        compared = (tmp_path / f"{name}-cmp.html").read_bytes().decode("utf-8")
        assert "caf\ufffd.csv vs caf\ufffd-b.csv" in compared
        for written in ("png", "html", "-cmp.html"):
            (tmp_path / (f"{name}.{written}" if written != "-cmp.html" else f"{name}-cmp.html")).unlink()
