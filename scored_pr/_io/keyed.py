"""Reading keyed cases, ``(line, id, correct, score)``, for ``scored-pr compare``: CSV, TSV and JSON Lines.

Labels and scores follow the rules of every other reader (:func:`.values.parse_label`,
:func:`.values.parse_score`); ids are compared as text (JSON numbers by their
JSON text). The Parquet reader of keyed cases is :func:`.parquet.keyed_rows`.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Iterable, Iterator
from typing import Any

from .cases import sniff_format
from .values import DEFAULT_CORRECT_COLUMNS, InputError, parse_label, parse_score

#: A keyed case: the line (a Parquet file: the row) it was read from, its id, its label and its score.
KeyedCase = tuple[int, str, bool, float]


def keyed_rows(lines: Iterable[str], source: str, fmt: str | None, id_col: str, correct_col: str | None,
               score_col: str) -> Iterator[KeyedCase]:
    """``(line, id, correct, score)`` of every case of a CSV, TSV or JSON Lines text (``fmt`` None: sniffed).

    Raises
    ------
    InputError
        Naming ``source``, the line and the value: an empty input, a missing
        column or key, a ragged row, invalid JSON, a bad label or score.
    """
    it = iter(lines)
    first = ""
    number = 0
    for first in it:
        number += 1
        if first.strip():
            break
    else:
        raise InputError(source, None, "empty input (expected a header line or cases)")
    fmt = fmt or sniff_format(first)
    correct_names = DEFAULT_CORRECT_COLUMNS if correct_col is None else (correct_col,)

    def parse(line: int, key: Any, label: Any, label_col: str, score: Any) -> KeyedCase:
        try:
            return line, key, parse_label(label, label_col), parse_score(score, score_col)
        except ValueError as exc:
            raise InputError(source, line, str(exc)) from None

    if fmt == "jsonl":
        for line, text in enumerate(_chain(first, it), start=number):
            if not text.strip():
                continue
            try:
                obj = json.loads(text)
            except ValueError:
                raise InputError(source, line, "invalid JSON") from None
            except RecursionError:  # json's decoder recurses once per nesting level
                raise InputError(source, line, "invalid JSON (nested too deeply)") from None
            if not isinstance(obj, dict):
                raise InputError(source, line, "expected a JSON object")
            label_col = next((c for c in correct_names if c in obj), None)
            for need, have in ((id_col, id_col in obj), (" or ".join(correct_names), label_col), (score_col, score_col in obj)):
                if not have:
                    raise InputError(source, line, f"missing key {need!r}")
            key = obj[id_col]
            key = key if isinstance(key, str) else json.dumps(key)
            yield parse(line, key, obj[label_col], str(label_col), obj[score_col])
        return
    reader = csv.reader(_chain(first, it), delimiter="\t" if fmt == "tsv" else ",", strict=True)
    try:
        header = [h.strip().lstrip("\ufeff").strip() for h in next(reader)]
        folded = [h.lower() for h in header]

        def column(names: tuple[str, ...], option: str) -> tuple[int, str]:
            for n in names:
                if n.lower() in folded:
                    i = header.index(n) if n in header else folded.index(n.lower())
                    return i, header[i]
            raise InputError(source, number, f"no column {' or '.join(map(repr, names))} in the header; use {option}")

        ii, _ = column((id_col,), "--id-col")
        ci, cname = column(correct_names, "--correct-col")
        si, _ = column((score_col,), "--score-col")
        line = number
        for row in reader:
            start, line = line + 1, number + reader.line_num - 1
            if not row or (len(row) == 1 and not row[0].strip()):
                continue
            if len(row) != len(header):
                raise InputError(source, start, f"ragged row: {len(row)} fields where the header has {len(header)}")
            yield parse(start, row[ii].strip(), row[ci], cname, row[si])
    except csv.Error as exc:
        raise InputError(source, number + reader.line_num - 1, f"malformed line ({exc})") from None


def _chain(first: str, rest: Iterator[str]) -> Iterator[str]:
    yield first
    yield from rest
