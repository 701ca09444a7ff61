"""The command line's shape, read from the source, and the one validation of a parsed row.

``scored_pr._cli.main`` is the parser and the dispatch only; every command
takes a typed options object built there, so argparse's namespace goes no
further. Rows that ``scored_pr._io`` parsed arrive validated and reach the
evaluator through its trusted batch entry point: the messages a user sees for
bad rows are those the parser gives, and what the parser yields is exactly
what ``add_cases``' check would have let through.
"""

from __future__ import annotations

import ast
import io
import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import scored_pr
from scored_pr._cli.main import main
from scored_pr._io import cases as _io
from scored_pr._validation import check_batch

PACKAGE = Path(scored_pr.__file__).resolve().parent
CLI = PACKAGE / "_cli"

#: The most lines main.py may have: a parser and a dispatch, no command.
MAX_MAIN_LINES = 200


def _namespace_parameters(path: Path) -> list[str]:
    """``function(parameter)`` for every parameter (or return) of ``path`` annotated with argparse.Namespace."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        a = node.args
        params = [*a.posonlyargs, *a.args, *a.kwonlyargs, *(x for x in (a.vararg, a.kwarg) if x is not None)]
        named = [(p.arg, p.annotation) for p in params] + [("return", node.returns)]
        for name, annotation in named:
            if annotation is not None and "Namespace" in ast.unparse(annotation):
                found.append(f"{node.name}({name})")
    return found


def test_main_is_the_parser_and_the_dispatch_only() -> None:
    lines = (CLI / "main.py").read_text(encoding="utf-8").count("\n")
    assert lines <= MAX_MAIN_LINES, f"scored_pr/_cli/main.py has {lines} lines (at most {MAX_MAIN_LINES})"


def test_no_module_below_main_takes_argparse_namespace() -> None:
    offenders = {
        str(path.relative_to(PACKAGE)): found
        for path in sorted(PACKAGE.rglob("*.py"))
        if path != CLI / "main.py" and (found := _namespace_parameters(path))
    }
    assert offenders == {}


def test_the_namespace_check_sees_an_annotation() -> None:
    assert _namespace_parameters(CLI / "main.py"), "main.py builds the options from the namespace: seen here"


def test_the_entry_points_stay_importable() -> None:
    from scored_pr._cli import main as cli

    assert callable(cli.main) and callable(cli.build_parser)


# ------------------------------------------------------------ one validation of a parsed row

#: (file name, contents) -> (exit status, standard error) with and without --skip-invalid, as the
#: command printed them when every parsed batch went through add_cases' check as well.
BAD_ROWS: dict[str, tuple[str, str, str]] = {
    "nan.csv": ("label,score\n1,0.5\n0,nan\n",
                "scored-pr: nan.csv:3: invalid score 'nan' in column 'score' (NaN is not a score)\n",
                "scored-pr: skipped nan.csv:3: invalid score 'nan' in column 'score' (NaN is not a score)\n"
                "scored-pr: skipped 1 invalid line in nan.csv\n"),
    "badlabel.csv": ("label,score\n1,0.5\n2,0.4\n",
                     "scored-pr: badlabel.csv:3: invalid label '2' in column 'label' (expected 1/0, -1/1, "
                     "true/false, yes/no, or a --positive-label)\n",
                     "scored-pr: skipped badlabel.csv:3: invalid label '2' in column 'label' (expected 1/0, -1/1, "
                     "true/false, yes/no, or a --positive-label)\nscored-pr: skipped 1 invalid line in badlabel.csv\n"),
    "badscore.csv": ("label,score\n1,0.5\n0,abc\n",
                     "scored-pr: badscore.csv:3: invalid score 'abc' in column 'score' (expected a number)\n",
                     "scored-pr: skipped badscore.csv:3: invalid score 'abc' in column 'score' (expected a number)\n"
                     "scored-pr: skipped 1 invalid line in badscore.csv\n"),
    "ragged.csv": ("label,score\n1,0.5,3\n",
                   "scored-pr: ragged.csv:2: ragged row: 3 fields where the header has 2: '1,0.5,3'\n",
                   "scored-pr: skipped ragged.csv:2: ragged row: 3 fields where the header has 2: '1,0.5,3'\n"
                   "scored-pr: skipped 1 invalid line in ragged.csv\n"),
    "huge.csv": ("label,score\n1,1e400\n0,0.1\n",
                 "scored-pr: huge.csv:2: invalid score '1e400' in column 'score' (beyond float64's range)\n",
                 "scored-pr: skipped huge.csv:2: invalid score '1e400' in column 'score' (beyond float64's range)\n"
                 "scored-pr: skipped 1 invalid line in huge.csv\n"),
    "null.jsonl": ('{"label": 1, "score": 0.5}\n{"label": 0, "score": null}\n',
                   "scored-pr: null.jsonl:2: missing score in column 'score'\n",
                   "scored-pr: skipped null.jsonl:2: missing score in column 'score'\n"
                   "scored-pr: skipped 1 invalid line in null.jsonl\n"),
    "bool.jsonl": ('{"label": 1, "score": true}\n',
                   "scored-pr: bool.jsonl:1: invalid score True in column 'score' (expected a number)\n",
                   "scored-pr: skipped bool.jsonl:1: invalid score True in column 'score' (expected a number)\n"
                   "scored-pr: skipped 1 invalid line in bool.jsonl\n"),
}  # fmt: skip


@pytest.mark.parametrize("name", sorted(BAD_ROWS))
def test_a_bad_row_gives_the_message_it_gave_before(tmp_path, monkeypatch, capsys, name) -> None:  # type: ignore[no-untyped-def]
    text, stopped, skipped = BAD_ROWS[name]
    monkeypatch.chdir(tmp_path)
    Path(name).write_text(text, encoding="utf-8")
    assert main(["report", name]) == 2
    assert capsys.readouterr().err == stopped
    assert main(["report", name, "--skip-invalid", "--format", "json"]) == 0
    captured = capsys.readouterr()
    assert captured.err == skipped and json.loads(captured.out)["skipped_lines"] == 1


@pytest.mark.parametrize("name, text, positives", [("x.csv", "label,score\n1,0.5\n0,0.4\n-1,0.3\n", 1),
                                                    ("x.tsv", "label\tscore\n-1\t0.5\n0\t0.2\n", 0)])
def test_mixed_negative_labels_in_a_file_are_accepted_as_before(tmp_path, monkeypatch, capsys, name, text, positives) -> None:  # type: ignore[no-untyped-def]
    """0 and -1 in one file are both negatives (add_cases refuses them in one batch: the file's labels are parsed)."""
    monkeypatch.chdir(tmp_path)
    Path(name).write_text(text, encoding="utf-8")
    assert main(["report", name, "--format", "json"]) == 0
    got = json.loads(capsys.readouterr().out)
    assert got["num_positive_ref"] == positives and got["num_cases"] == text.count("\n") - 1


_cell = st.one_of(
    st.sampled_from(["1", "0", "-1", "true", "no", "2", "", "x", "nan", "inf", "-inf", "1e400", "1e-320"]),
    st.floats(allow_nan=True, allow_infinity=True).map(repr),
    st.integers(-(2**70), 2**70).map(str),
)


@settings(max_examples=200, deadline=None)
@given(rows=st.lists(st.tuples(_cell, _cell), max_size=30), size=st.integers(1, 8), binary=st.booleans())
def test_what_the_parser_yields_is_what_add_cases_would_accept_unchanged(rows, size, binary) -> None:  # type: ignore[no-untyped-def]
    """The trusted entry point skips add_cases' check only because the check is a no-op on parsed batches."""
    text = "label,score\n" + "".join(f"{a},{b}\n" for a, b in rows)
    stream = io.BytesIO(text.encode()) if binary else io.StringIO(text)
    reader = _io.CaseReader(stream, source="x.csv", input_format="csv", skip_invalid=True)
    for correct, scores in reader.chunks(size):
        assert correct.dtype == np.bool_ and scores.dtype == np.float64 and correct.shape == scores.shape
        c, s = check_batch(correct, scores)
        assert np.array_equal(c, correct) and np.array_equal(s, scores)
