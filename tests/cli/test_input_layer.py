"""The registry of input formats and the one input layer every command opens its input through."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from scored_pr._io import formats

CLI = Path(__file__).resolve().parents[2] / "scored_pr" / "_cli"

#: The modules of ``_io`` that read or open an input: only the input layer and the registry reach them.
READERS = {"scored_pr._io.cases", "scored_pr._io.wide", "scored_pr._io.parquet", "scored_pr._io.keyed",
           "scored_pr._io.opening"}


def _opening_imports(source: str) -> set[str]:
    """The reader modules a ``_cli`` module's source imports (``from .._io import parquet``, ``from .._io.cases import X``)."""
    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.level == 2 and node.module is not None:
            module = "scored_pr." + node.module
            found |= {module} & READERS
            found |= {f"{module}.{a.name}" for a in node.names} & READERS
    return found


def test_only_the_input_layer_opens_inputs() -> None:
    offenders = {p.name: sorted(_opening_imports(p.read_text(encoding="utf-8")))
                 for p in CLI.glob("*.py") if p.name not in ("inputs.py", "demo.py")}
    assert {name: mods for name, mods in offenders.items() if mods} == {}


def test_the_import_reader_sees_a_command_that_opens_its_own_input() -> None:
    # what the three pasted Parquet branches looked like: each would be caught
    assert _opening_imports("from .._io import parquet as _parquet\n") == {"scored_pr._io.parquet"}
    assert _opening_imports("from .._io.cases import open_input\n") == {"scored_pr._io.cases"}
    assert _opening_imports("from .._io.values import InputError\n") == set()


@pytest.mark.parametrize(("path", "given", "name"), [
    ("a.csv", None, "csv"), ("A.CSV.GZ", None, "csv"), ("a.tsv", None, "tsv"), ("a.tab.gz", None, "tsv"),
    ("a.jsonl", None, "jsonl"), ("a.ndjson", None, "jsonl"), ("a.json", None, "jsonl"), ("a.parquet", None, "parquet"),
    ("a.PQ", None, "parquet"), ("a.txt", None, "text"), ("-", None, "text"), ("a.csv", "parquet", "parquet"),
    ("-", "tsv", "tsv"),
])  # fmt: skip
def test_detect_by_name_and_option(path: str, given: str | None, name: str) -> None:
    assert formats.detect(path, given).name == name


def test_detect_by_first_bytes(tmp_path: Path) -> None:
    plain = tmp_path / "predictions.csv"
    plain.write_bytes(b"PAR1" + b"\0" * 8)  # Parquet's magic bytes win over the name, as before the registry
    assert formats.detect(str(plain)).name == "parquet"
    plain.write_bytes(b"correct,score\n")
    assert formats.detect(str(plain)).name == "csv"
    assert formats.detect(str(tmp_path / "missing")).name == "text"  # the reader says it is missing


def test_the_registry_lists_what_input_format_offers_and_refuses_a_second_entry() -> None:
    from scored_pr._cli.options import INPUT_FORMATS

    assert INPUT_FORMATS == tuple(formats.FORMATS) == ("csv", "tsv", "jsonl", "parquet")
    with pytest.raises(ValueError, match="input format 'csv' is registered twice"):
        formats.register(formats.FORMATS["csv"])
    assert list(formats.FORMATS) == ["csv", "tsv", "jsonl", "parquet"]  # the refused call changed nothing


def test_a_registered_format_reaches_every_command(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """A new format: one Format entry; report, stream and compare read it with no other edit."""
    import dataclasses

    from scored_pr._cli.main import main

    csv = formats.FORMATS["csv"]
    semi = dataclasses.replace(csv, name="semi", suffixes=(".semi",))
    monkeypatch.setitem(formats.FORMATS, "semi", semi)
    path = tmp_path / "x.semi"
    path.write_text("id,correct,score\na,1,0.9\nb,0,0.4\nc,1,0.3\nd,0,0.2\n")
    want = tmp_path / "x.csv"
    want.write_text(path.read_text())
    for argv in (["report", "{}", "--format", "json"], ["stream", "{}", "--format", "json"],
                 ["compare", "{}", "{}", "--resamples", "20", "--format", "json"]):
        outs = []
        for p in (path, want):
            assert main([a.format(p) for a in argv]) == 0
            outs.append(capsys.readouterr().out.replace(str(p), "SRC"))
        lines = [[ln for ln in o.splitlines() if '"time"' not in ln] for o in outs]  # stream's summary lines carry the time
        assert lines[0] == lines[1] and lines[0]
