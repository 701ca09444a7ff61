"""``scored-pr report`` on wide files (multi-class and multi-label), held to scikit-learn.

Every value the command prints (Markdown table) or writes (``--format json``)
is compared with scikit-learn's ``average_precision_score`` / ``roc_auc_score``
(and the label-ranking measures, ``top_k_accuracy_score``) and with
:mod:`scored_pr.functional`, on generated files full of ties (scores in steps
of 0.1). The command runs as a user runs it: a subprocess in a clean
environment, once under ``env -i``.
"""

from __future__ import annotations

import json
import math
import shutil
import subprocess
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest

sk = pytest.importorskip("sklearn.metrics")

from cli_env import CMD, ROOT, clean_env  # noqa: E402

import scored_pr.functional as F  # noqa: E402

CLASSES = ["cat", "dog", "bird", "fish"]
LABELS = ["a", "b", "c"]


def run(*args: str, stdin: str | None = None, env: dict[str, str] | None = None, cmd: list[str] | None = None
        ) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*(cmd or CMD), "report", *args], input=stdin, capture_output=True, text=True,
                          timeout=60, cwd=ROOT, env=env or clean_env())


def quietly(f: Any, *args: Any, **kwargs: Any) -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return f(*args, **kwargs)


def close(got: Any, want: Any) -> bool:
    got = np.nan if got is None else got
    return bool(np.allclose(float(got), float(want), rtol=1e-12, atol=1e-12, equal_nan=True))


def multiclass_data(seed: int, n: int = 60) -> tuple[np.ndarray, np.ndarray]:
    """Class indices and probability rows in steps of 0.1 (many ties), every class present."""
    rng = np.random.default_rng(seed)
    k = len(CLASSES)
    parts = np.array([np.bincount(rng.integers(0, k, 10), minlength=k) for _ in range(n)])
    y = np.concatenate([np.arange(k), rng.integers(0, k, n - k)])
    # make the truth depend on the scores a little, so the figures are not all 0.5
    y = np.where(rng.random(n) < 0.5, parts.argmax(axis=1), y)
    y[:k] = np.arange(k)
    return y, parts / 10.0


def multilabel_data(seed: int, n: int = 50) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    s = rng.integers(0, 6, (n, len(LABELS))) / 5.0
    y = rng.random((n, len(LABELS))) < 0.3 + 0.5 * s
    y[:2] = [[True, False, True], [False, True, False]]  # every column has both classes
    y[2] = False  # a row without a positive label (scikit-learn's "samples" counts it 0)
    return y, s


def write_multiclass(path: Path, y: np.ndarray, s: np.ndarray, sep: str = ",") -> None:
    lines = [sep.join(["id", "y", *(f"p_{c}" for c in CLASSES)])]
    lines += [sep.join([str(i), CLASSES[t], *(repr(float(v)) for v in row)]) for i, (t, row) in enumerate(zip(y, s))]
    path.write_text("\n".join(lines) + "\n")


def multilabel_jsonl(y: np.ndarray, s: np.ndarray) -> str:
    rows = []
    for t, row in zip(y, s):
        obj: dict[str, Any] = {c: int(v) for c, v in zip(LABELS, t)}
        obj.update({f"s_{c}": float(v) for c, v in zip(LABELS, row)})
        rows.append(json.dumps(obj))
    return "\n".join(rows) + "\n"


def sklearn_multiclass(y: np.ndarray, s: np.ndarray) -> dict[str, Any]:
    labels = np.arange(len(CLASSES))
    onehot = np.eye(len(CLASSES), dtype=int)[y]
    return {
        "ap": [sk.average_precision_score(onehot[:, j], s[:, j]) for j in labels],
        "auc": [sk.roc_auc_score(onehot[:, j], s[:, j]) for j in labels],
        "average_precision": {a: sk.average_precision_score(y, s, average=a) for a in ("macro", "weighted", "micro")},
        "roc_auc": {
            **{f"ovr_{a}": sk.roc_auc_score(y, s, multi_class="ovr", average=a) for a in ("macro", "weighted", "micro")},
            **{f"ovo_{a}": sk.roc_auc_score(y, s, multi_class="ovo", average=a) for a in ("macro", "weighted")},
        },
        "top_1_accuracy": sk.top_k_accuracy_score(y, s, k=1, labels=labels),
    }


def test_multiclass_json_equals_scikit_learn_and_functional(tmp_path: Path) -> None:
    y, s = multiclass_data(1)
    path = tmp_path / "pred.csv"
    write_multiclass(path, y, s)
    res = run(str(path), "--label-col", "y", "--score-prefix", "p_", "--format", "json")
    assert res.returncode == 0, res.stderr
    out = json.loads(res.stdout)
    want = sklearn_multiclass(y, s)
    assert out["kind"] == "multiclass" and out["num_cases"] == len(y) and out["skipped_lines"] == 0
    assert [e["label"] for e in out["labels"]] == CLASSES
    assert [e["score_column"] for e in out["labels"]] == [f"p_{c}" for c in CLASSES]
    assert [e["positives"] for e in out["labels"]] == np.bincount(y, minlength=len(CLASSES)).tolist()
    assert [e["negatives"] for e in out["labels"]] == (len(y) - np.bincount(y, minlength=len(CLASSES))).tolist()
    for j, entry in enumerate(out["labels"]):
        assert close(entry["average_precision"], want["ap"][j]) and close(entry["roc_auc"], want["auc"][j])
    avg = out["averages"]
    for mode, value in want["average_precision"].items():
        assert close(avg["average_precision"][mode], value), mode
        assert close(avg["average_precision"][mode], F.average_precision(y, s, average=mode))
    for mode, value in want["roc_auc"].items():
        assert close(avg["roc_auc"][mode], value), mode
        mc, a = mode.split("_")
        assert close(avg["roc_auc"][mode], F.area_under_roc_curve(y, s, multi_class=mc, average=a))
    assert close(avg["top_1_accuracy"], want["top_1_accuracy"])


def test_multiclass_markdown_table_tsv_score_cols(tmp_path: Path) -> None:
    """The table prints the same values; --score-cols names the classes by the columns' own names."""
    y, s = multiclass_data(2)
    path = tmp_path / "pred.tsv"
    write_multiclass(path, y, s, sep="\t")
    cols = ",".join(f"p_{c}" for c in CLASSES)
    res = run(str(path), "--label-col", "y", "--score-cols", cols, "--format", "table")
    assert res.returncode == 2 and "class 'cat' in column 'y' is not one of the classes" in res.stderr
    path.write_text(path.read_text().replace("\tcat\t", "\tp_cat\t").replace("\tdog\t", "\tp_dog\t")
                    .replace("\tbird\t", "\tp_bird\t").replace("\tfish\t", "\tp_fish\t"))
    res = run(str(path), "--label-col", "y", "--score-cols", cols, "--format", "table")
    assert res.returncode == 0, res.stderr
    want = sklearn_multiclass(y, s)
    cells = {}
    for line in res.stdout.splitlines():
        parts = [p.strip() for p in line.strip("|").split("|")]
        if line.startswith("| p_"):
            cells.setdefault(parts[0], parts[1:])  # the per-class table comes first (then the top-class tables)
        elif line.startswith("| average_precision") or line.startswith("| roc_auc"):
            cells[(parts[0], parts[1])] = parts[2:]
    for j, c in enumerate(CLASSES):
        positives, negatives, ap, auc = cells[f"p_{c}"]
        assert int(positives) == int(np.sum(y == j)) and int(negatives) == int(np.sum(y != j))
        assert close(float(ap), want["ap"][j]) and close(float(auc), want["auc"][j])
    for mode, value in want["average_precision"].items():
        assert close(float(cells[("average_precision", mode)][0]), value)
    for mode, value in want["roc_auc"].items():
        assert close(float(cells[("roc_auc", mode)][0]), value)


def test_multilabel_jsonl_stdin_equals_scikit_learn(tmp_path: Path) -> None:
    y, s = multilabel_data(3)
    res = run("-", "--label-cols", "a,b,c", "--score-prefix", "s_", "--format", "json", stdin=multilabel_jsonl(y, s))
    assert res.returncode == 0, res.stderr
    out = json.loads(res.stdout)
    assert out["kind"] == "multilabel" and out["source"] == "<stdin>" and out["num_cases"] == len(y)
    for j, entry in enumerate(out["labels"]):
        assert entry["label"] == LABELS[j] and entry["score_column"] == f"s_{LABELS[j]}"
        assert entry["positives"] == int(y[:, j].sum())
        assert close(entry["average_precision"], sk.average_precision_score(y[:, j], s[:, j]))
        assert close(entry["roc_auc"], sk.roc_auc_score(y[:, j], s[:, j]))
    avg = out["averages"]
    for mode in ("macro", "weighted", "micro", "samples"):
        assert close(avg["average_precision"][mode], quietly(sk.average_precision_score, y, s, average=mode)), mode
        try:
            want = quietly(sk.roc_auc_score, y, s, average=mode)  # samples: NaN (rows of one class), null
        except ValueError:  # scikit-learn < 1.6 (the floor) raised on rows of one class; 1.6+ gives NaN there
            want = math.nan if mode == "samples" else None
        assert want is not None and close(avg["roc_auc"][mode], want), mode
        assert close(avg["roc_auc"][mode], quietly(F.area_under_roc_curve, y, s, average=mode)), mode
        assert close(avg["average_precision"][mode], quietly(F.average_precision, y, s, average=mode))
    assert close(avg["label_ranking_average_precision"], sk.label_ranking_average_precision_score(y, s))
    assert close(avg["coverage_error"], sk.coverage_error(y, s))
    assert close(avg["label_ranking_loss"], sk.label_ranking_loss(y, s))


def test_multilabel_one_class_column_is_null_in_json(tmp_path: Path) -> None:
    """A label with no positive: AP 0.0 and ROC AUC NaN (null) as the functional API and scikit-learn say."""
    y, s = multilabel_data(4)
    y[:, 1] = False
    path = tmp_path / "ml.csv"
    lines = ["a,b,c,sa,sb,sc"] + [",".join([*(str(int(v)) for v in t), *(repr(float(v)) for v in r)]) for t, r in zip(y, s)]
    path.write_text("\n".join(lines) + "\n")
    res = run(str(path), "--label-cols", "a,b,c", "--score-cols", "sa,sb,sc", "--format", "json")
    assert res.returncode == 0, res.stderr
    out = json.loads(res.stdout)
    b = out["labels"][1]
    assert b["positives"] == 0 and b["average_precision"] == 0.0 and b["roc_auc"] is None
    assert "note:" in res.stderr  # the functional API's warning, said once on stderr
    assert close(out["averages"]["average_precision"]["macro"], quietly(sk.average_precision_score, y, s))
    assert close(out["averages"]["roc_auc"]["weighted"], quietly(F.area_under_roc_curve, y, s, average="weighted"))


def test_bad_rows_stop_or_are_skipped_like_report(tmp_path: Path) -> None:
    y, s = multiclass_data(5, n=12)
    path = tmp_path / "pred.csv"
    write_multiclass(path, y, s)
    lines = path.read_text().splitlines()
    lines.insert(3, "99,cat,0.5,nope,0.2,0.3")
    lines.insert(5, "98,cow,0.5,0.1,0.2,0.2")
    path.write_text("\n".join(lines) + "\n")
    res = run(str(path), "--label-col", "y", "--score-prefix", "p_", "--format", "json")
    assert res.returncode == 2 and res.stdout == ""
    assert res.stderr.strip() == f"scored-pr: {path}:4: invalid score 'nope' in column 'p_dog' (expected a number)"
    res = run(str(path), "--label-col", "y", "--score-prefix", "p_", "--format", "json", "--skip-invalid")
    assert res.returncode == 0, res.stderr
    assert f"{path}:6: class 'cow' in column 'y' is not one of the classes" in res.stderr
    out = json.loads(res.stdout)
    assert out["skipped_lines"] == 2 and out["num_cases"] == len(y)
    assert close(out["averages"]["roc_auc"]["ovo_macro"], sk.roc_auc_score(y, s, multi_class="ovo"))


@pytest.mark.parametrize(("args", "message"), [
    (["--label-col", "y", "--score-cols", "p_cat,p_cow"], "--score-cols: no column 'p_cow' among the columns found ("),
    (["--label-col", "z", "--score-prefix", "p_"], "--label-col: no column 'z' among the columns found ('id', 'y', "),
    (["--label-col", "y", "--score-prefix", "q_"], "--score-prefix 'q_': 0 columns start with it; need at least 2"),
    (["--label-cols", "a,b", "--score-cols", "x,y,z"], "--label-cols names 2 columns (a, b) and --score-cols 3"),
    (["--label-cols", "p_cat,p_dog", "--score-prefix", "s_"], "--score-prefix 's_' (the score of label column 'p_cat'): no column 's_p_cat'"),
    (["--label-col", "y"], "--label-col needs --score-cols or --score-prefix"),
    (["--score-prefix", "p_"], "--score-cols and --score-prefix go with --label-col"),
    (["--label-col", "y", "--score-prefix", "p_", "--misses", "3"], "--misses: not for a wide file"),
    (["--label-col", "y", "--score-prefix", "p_", "--curve", "pr"], "--curve: not for a wide file"),
    (["--label-col", "y", "--label-cols", "a,b", "--score-prefix", "p_"], "--label-cols: not allowed with argument --label-col"),
    (["--label-cols", "a", "--score-prefix", "p_"], "--label-cols: expected at least two comma-separated column names"),
])
def test_mismatched_options_exit_2_naming_the_option(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                      args: list[str], message: str) -> None:
    """In process (fast): status 2, one line naming the option and the columns found; no output."""
    from scored_pr._cli.main import main

    y, s = multiclass_data(6, n=8)
    path = tmp_path / "pred.csv"
    write_multiclass(path, y, s)
    try:
        status = main(["report", str(path), *args])
    except SystemExit as exc:  # argparse's own usage errors
        status = int(exc.code or 0)
    captured = capsys.readouterr()
    assert status == 2 and captured.out == ""
    assert message in captured.err


def test_multiclass_rows_not_summing_to_one_exit_2(tmp_path: Path) -> None:
    """scikit-learn's rule for multi-class ROC AUC (probabilities), as the functional API applies it."""
    path = tmp_path / "logits.csv"
    path.write_text("y,p_a,p_b,p_c\na,2.0,1.0,0.5\nb,0.1,3.0,0.2\nc,0.3,0.2,1.5\n")
    res = run(str(path), "--label-col", "y", "--score-prefix", "p_")
    assert res.returncode == 2 and res.stdout == ""
    assert res.stderr.startswith(f"scored-pr: {path}: ") and "sum" in res.stderr


def test_clean_env_i_and_help(tmp_path: Path) -> None:
    """Under `env -i` (no variable but PATH, HOME, LANG, PYTHONPATH) the command gives the same JSON; --help lists the options."""
    env_cmd = shutil.which("env")
    if env_cmd is None:
        pytest.skip("no env(1)")
    y, s = multilabel_data(7)
    path = tmp_path / "ml.jsonl"
    path.write_text(multilabel_jsonl(y, s))
    e = clean_env()
    cmd = [env_cmd, "-i", f"PATH={e['PATH']}", f"HOME={e['HOME']}", "LANG=C.UTF-8", f"PYTHONPATH={e['PYTHONPATH']}", *CMD]
    res = run(str(path), "--label-cols", "a,b,c", "--score-prefix", "s_", "--format", "json", cmd=cmd, env={})
    assert res.returncode == 0, res.stderr
    out = json.loads(res.stdout)
    assert close(out["averages"]["average_precision"]["micro"], sk.average_precision_score(y, s, average="micro"))
    help_text = subprocess.run([*CMD, "report", "--help"], capture_output=True, text=True, timeout=60, cwd=ROOT,
                               env=clean_env()).stdout
    for option in ("--label-col ", "--label-cols", "--score-cols", "--score-prefix"):
        assert option in help_text


def test_multiclass_with_one_class_present(tmp_path: Path) -> None:
    """Every row of one class: per-class values and one-vs-rest as the functional API; one-vs-one null (no pair)."""
    path = tmp_path / "one.csv"
    path.write_text("y,p_a,p_b,p_c\na,0.5,0.3,0.2\na,0.2,0.4,0.4\na,0.6,0.2,0.2\n")
    res = run(str(path), "--label-col", "y", "--score-prefix", "p_", "--format", "json")
    assert res.returncode == 0, res.stderr
    out = json.loads(res.stdout)
    y = np.zeros(3, dtype=int)
    s = np.array([[0.5, 0.3, 0.2], [0.2, 0.4, 0.4], [0.6, 0.2, 0.2]])
    assert out["averages"]["roc_auc"]["ovo_macro"] is None and out["averages"]["roc_auc"]["ovo_weighted"] is None
    for mode in ("macro", "weighted", "micro"):
        want = quietly(F.area_under_roc_curve, y, s, multi_class="ovr", average=mode, labels=[0, 1, 2])
        assert close(out["averages"]["roc_auc"][f"ovr_{mode}"], want)
        assert close(out["averages"]["average_precision"][mode],
                     quietly(F.average_precision, y, s, average=mode, labels=[0, 1, 2]))
    assert [e["positives"] for e in out["labels"]] == [3, 0, 0]


@pytest.mark.parametrize("max_bins", [None, 4096])
def test_report_of_a_multilabel_state_file_gives_each_label_and_every_average(tmp_path: Path, max_bins: int | None) -> None:
    """`scored-pr report ml.npz`: a saved MultiLabelEvaluation (exact, or bounded with room for every score)."""
    from sklearn.metrics import average_precision_score, roc_auc_score

    from scored_pr import MultiLabelEvaluation

    y, s = multilabel_data(11)
    ev = MultiLabelEvaluation(LABELS, max_bins=max_bins)
    ev.add_cases(y, s)
    path = tmp_path / "ml.npz"
    ev.save(path)
    out = run(str(path), "--format", "json")
    assert out.returncode == 0, out.stderr
    got = json.loads(out.stdout)
    assert got["kind"] == "multilabel" and got["num_rows"] == len(y)
    for j, label in enumerate(LABELS):
        assert close(got[f"{label}: average_precision"], average_precision_score(y[:, j], s[:, j]))
        assert close(got[f"{label}: area_under_roc_curve"], roc_auc_score(y[:, j], s[:, j]))
    for average in ("macro", "micro", "weighted") + (("samples",) if max_bins is None else ()):
        assert close(got[f"average_precision ({average})"], quietly(average_precision_score, y, s, average=average))
        assert close(got[f"area_under_roc_curve ({average})"], F.area_under_roc_curve(y, s, average=average))
    refused = run(str(path), "--curve", "pr")
    assert refused.returncode == 2 and "not available for a multilabel state file" in refused.stderr


def _write_multilabel(path: Path, y: np.ndarray, s: np.ndarray) -> None:
    lines = ["a,b,c,sa,sb,sc"] + [",".join([*(str(int(v)) for v in t), *(repr(float(v)) for v in r)]) for t, r in zip(y, s)]
    path.write_text("\n".join(lines) + "\n")


def test_text_report_says_why_a_value_is_nan(tmp_path: Path) -> None:
    """Rows with no positive label make the samples ROC AUC NaN: a footnote under the table says so, with the count."""
    rng = np.random.default_rng(21)
    y = rng.random((40, 3)) < 0.3
    y[:, 1] = False  # label b: no positive row, so its ROC AUC (and the macro average) is NaN too
    s = rng.random((40, 3))
    path = tmp_path / "ml.csv"
    _write_multilabel(path, y, s)
    res = run(str(path), "--label-cols", "a,b,c", "--score-cols", "sa,sb,sc")
    assert res.returncode == 0, res.stderr
    no_pos, all_pos = int((y.sum(axis=1) == 0).sum()), int((y.sum(axis=1) == 3).sum())
    assert no_pos > 1 and all_pos == 0
    lines = res.stdout.splitlines()
    per_label = lines.index("note: roc_auc of label b is nan, undefined: no positive row")
    assert lines[per_label - 1].startswith("| c ") and lines[per_label + 1] == ""  # under the per-label table
    assert lines[-2:] == [
        "note: roc_auc (macro) is nan, undefined: 1 of 3 labels has no positive row (b)",
        f"note: roc_auc (samples) is nan, undefined: {no_pos} of 40 rows have no positive label "
        "(a row's ROC AUC needs a positive and a negative label)",
    ]
    assert lines[-3].startswith("| label_ranking_loss ")  # right under the averages table
    # the table itself is unchanged: the rows print nan as before, and JSON keeps null with no note
    assert "| roc_auc                         |  samples |" in res.stdout
    out = json.loads(run(str(path), "--label-cols", "a,b,c", "--score-cols", "sa,sb,sc", "--format", "json").stdout)
    assert out["averages"]["roc_auc"]["samples"] is None and "note" not in json.dumps(out)


def test_text_report_without_nan_has_no_footnote(tmp_path: Path) -> None:
    y, s = multilabel_data(4)
    y[0] = [True, False, False]
    y[y.sum(axis=1) == 0, 0] = True  # every row has a positive and (below) a negative label
    y[y.sum(axis=1) == 3, 2] = False
    path = tmp_path / "ml.csv"
    _write_multilabel(path, y, s)
    res = run(str(path), "--label-cols", "a,b,c", "--score-cols", "sa,sb,sc")
    assert res.returncode == 0, res.stderr
    assert " nan |" not in res.stdout and "note:" not in res.stdout
    assert res.stdout.splitlines()[-1].startswith("| label_ranking_loss ")


def test_multiclass_text_report_says_why_one_vs_one_is_nan(tmp_path: Path) -> None:
    path = tmp_path / "mc.csv"
    path.write_text("y,p_x,p_y,p_z\nx,0.5,0.3,0.2\nx,0.2,0.5,0.3\n")
    res = run(str(path), "--label-col", "y", "--score-prefix", "p_")
    assert res.returncode == 0, res.stderr
    assert ("note: roc_auc (ovo_macro) is nan, undefined: 1 of 3 classes has rows (one-vs-one needs a pair of classes)"
            in res.stdout.splitlines())
    assert "note: roc_auc of class x is nan, undefined: no negative row" in res.stdout.splitlines()
    assert ("note: roc_auc (ovr_macro) is nan, undefined: 2 of 3 classes have no positive row (y, z) and 1 of 3 "
            "classes has no negative row (x)") in res.stdout.splitlines()


def _whitespace_file(tmp_path: Path, fmt: str, header: list[str], rows: list[list[Any]]) -> Path:
    """A multi-class wide file in ``fmt`` (csv, jsonl or parquet) with these columns and rows."""
    path = tmp_path / f"pred.{fmt}"
    if fmt == "csv":
        path.write_text("\n".join(",".join(str(v) for v in row) for row in [header, *rows]) + "\n")
    elif fmt == "jsonl":
        path.write_text("".join(json.dumps(dict(zip(header, row))) + "\n" for row in rows))
    else:
        pa = pytest.importorskip("pyarrow")
        pq = pytest.importorskip("pyarrow.parquet")
        pq.write_table(pa.table({name: [row[j] for row in rows] for j, name in enumerate(header)}), path)
    return path


@pytest.mark.parametrize("command", ["report", "stream"])
@pytest.mark.parametrize("fmt", ["csv", "jsonl", "parquet"])
def test_class_of_a_prefixed_column_is_stripped_as_each_rows_class(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str, fmt: str) -> None:
    """Column 'p_ x' is class 'x', as a row's ' x' is: the figures are those of the same file with 'p_x'."""
    from scored_pr._cli.main import main

    rows = [[" x", 0.9, 0.1], ["z", 0.2, 0.8], ["x ", 0.6, 0.4], ["z", 0.7, 0.3]]
    (tmp_path / "spaced").mkdir()
    (tmp_path / "plain").mkdir()
    spaced = _whitespace_file(tmp_path / "spaced", fmt, ["y", "p_ x", "p_z"], rows)
    plain = _whitespace_file(tmp_path / "plain", fmt, ["y", "p_x", "p_z"], [[r[0].strip(), *r[1:]] for r in rows])
    got = []
    for path in (spaced, plain):
        status = main([command, str(path), "--label-col", "y", "--score-prefix", "p_", "--format", "json"])
        captured = capsys.readouterr()
        assert status == 0, captured.err
        obj = json.loads(captured.out.splitlines()[-1])
        assert [label["label"] for label in obj["labels"]] == ["x", "z"]
        assert obj["num_cases"] == 4
        got.append({k: v for k, v in obj.items() if k != "source"})
    assert got[0]["labels"][0]["score_column"] == "p_ x"
    got[0]["labels"][0]["score_column"] = "p_x"
    assert got[0] == got[1]
    # class x: ranked 0.9 (x), 0.7 (z), 0.6 (x), 0.1 (z), so AP = (1/1 + 2/3) / 2
    assert got[0]["labels"][0]["positives"] == 2 and close(got[0]["labels"][0]["average_precision"], 5 / 6)


@pytest.mark.parametrize("command", ["report", "stream"])
@pytest.mark.parametrize("fmt", ["csv", "jsonl", "parquet"])
def test_two_score_columns_of_one_class_after_stripping_are_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str, fmt: str) -> None:
    """'p_x' and 'p_ x' would both be class 'x': refused naming both headers (repr), no rows counted."""
    from scored_pr._cli.main import main

    path = _whitespace_file(tmp_path, fmt, ["y", "p_x", "p_ x"], [["x", 0.9, 0.1], [" x", 0.2, 0.8]])
    status = main([command, str(path), "--label-col", "y", "--score-prefix", "p_", "--format", "json"])
    captured = capsys.readouterr()
    assert status == 2
    assert "score columns 'p_x' and 'p_ x' both name class 'x'" in captured.err
    assert '"num_cases"' not in captured.out
