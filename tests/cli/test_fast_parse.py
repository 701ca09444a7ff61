"""The block parser (numpy fast path) against the per-line reader, and its parts against the builtins.

`scored-pr report` reads bytes in blocks (`CaseReader.chunks` over a binary
stream); `scored-pr stream` and text streams read one line at a time. Both must
give the same cases in the same order, the same skipped lines and the same
messages, whatever the bytes: the per-line reader over a `TextIOWrapper` is the
reference here.
"""

from __future__ import annotations

import io
import os
import math
import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scored_pr._io import fastparse as fp
from scored_pr._io import linefeed as _linefeed
from scored_pr._io.cases import CaseReader, InputError, parse_label

SETTINGS = settings(max_examples=int(os.environ.get("SCORED_PR_FUZZ_EXAMPLES", "60")), deadline=None, suppress_health_check=list(HealthCheck))


# ------------------------------------------------------------------ helpers


def _reference(data: bytes, **kw) -> tuple[list[tuple[bool, float]], list[str], str | None]:
    """Cases, skip messages and the fatal error of the per-line reader over text."""
    skips: list[str] = []
    text = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8-sig", errors="replace", newline="")
    reader = CaseReader(text, source="f", on_skip=lambda e: skips.append(str(e)), **kw)
    cases: list[tuple[bool, float]] = []
    try:
        for _, c, s in reader:
            cases.append((c, s))
    except InputError as exc:
        return cases, skips, str(exc)
    return cases, skips, None


def _fast(data: bytes, size: int = 7, **kw) -> tuple[list[tuple[bool, float]], list[str], str | None]:
    skips: list[str] = []
    reader = CaseReader(io.BytesIO(data), source="f", on_skip=lambda e: skips.append(str(e)), **kw)
    cases: list[tuple[bool, float]] = []
    try:
        for c, s in reader.chunks(size):
            assert 0 < len(c) <= size and c.dtype == bool and s.dtype == np.float64
            cases.extend(zip(c.tolist(), s.tolist()))
    except InputError as exc:
        return cases, skips, str(exc)
    return cases, skips, None


def _same(data: bytes, **kw) -> None:
    ref_cases, ref_skips, ref_error = _reference(data, **kw)
    cases, skips, error = _fast(data, **kw)
    assert error == ref_error
    assert skips == ref_skips
    if ref_error is None or kw.get("skip_invalid"):
        # bit for bit: -0.0 stays -0.0
        assert [(c, math.copysign(1, s), s) for c, s in cases] == [(c, math.copysign(1, s), s) for c, s in ref_cases]


@pytest.fixture(params=[7, 1 << 20], ids=["block7", "block1M"])
def block_bytes(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> int:
    """Small blocks put block boundaries everywhere (a block never exceeds the line limit either way)."""
    monkeypatch.setattr(_linefeed, "BLOCK_BYTES", request.param)
    return int(request.param)


# ----------------------------------------------------------- whole readers

label_words = ["1", "0", "true", "FALSE", "Yes", "no", " yes", "maybe", "", "2", "1.0", "é", "TRUE "]
score_words = [
    "0.5", "-0.0", "1e-3", "1E+05", ".5", "5.", "-.25e-2", "0.30000000000000004", "9007199254740993",
    "9007199254740992", "1e400", "-1e400", "inf", "-Infinity", "nan", "1_0", " 0.5", "0.5 ", "", "x", "1e",
    "0x10", "+3", "00012", "123456789012345678901234567890", "1" * 40, "0." + "0" * 30 + "1", "2.5e-308",
]  # fmt: skip
cell = st.one_of(st.sampled_from(label_words + score_words + ['"q"', '"a\nb"', '"open', "\x00", "\ufffd"]), st.text(max_size=6))


@st.composite
def csv_bytes(draw: st.DrawFn) -> bytes:
    sep = draw(st.sampled_from([",", "\t"]))
    header = draw(st.sampled_from([["id", "label", "score"], ["score", "correct"], ["label", "score"], ["x", "score", "y", "label"]]))
    width = len(header)
    rows = []
    for _ in range(draw(st.integers(0, 40))):
        kind = draw(st.integers(0, 9))
        if kind < 6:  # a row of the header's width, mostly valid
            row = []
            for name in header:
                if name in ("label", "correct"):
                    row.append(draw(st.sampled_from(label_words)) if draw(st.integers(0, 4)) == 0 else draw(st.sampled_from(["0", "1"])))
                elif name == "score":
                    row.append(draw(st.sampled_from(score_words)) if draw(st.integers(0, 4)) == 0 else repr(draw(st.floats(allow_nan=False, allow_infinity=False))))
                else:
                    row.append(draw(cell))
            rows.append(sep.join(row))
        elif kind == 6:
            rows.append("")
        else:
            rows.append(sep.join(draw(st.lists(cell, min_size=0, max_size=width + 1))))
    ends = draw(st.sampled_from(["\n", "\r\n", "\r", "mixed"]))
    out = []
    for r in [sep.join(header), *rows]:
        out.append(r + (draw(st.sampled_from(["\n", "\r\n", "\r"])) if ends == "mixed" else ends))
    text = "".join(out)
    if not draw(st.integers(0, 5)):
        text = text.rstrip("\r\n")  # no final newline
    data = text.encode("utf-8", "surrogatepass")
    if not draw(st.integers(0, 5)):
        data = b"\xef\xbb\xbf" + data
    if not draw(st.integers(0, 5)) and data:
        at = draw(st.integers(0, len(data) - 1))
        data = data[:at] + draw(st.sampled_from([b"\xff", b"\xc3", b"\x00", b"\r", b'"'])) + data[at:]
    return data


@SETTINGS
@given(data=csv_bytes(), skip=st.booleans())
def test_csv_blocks_read_what_lines_read(block_bytes: int, data: bytes, skip: bool) -> None:
    _same(data, skip_invalid=skip)


@SETTINGS
@given(data=csv_bytes())
def test_csv_with_explicit_columns(block_bytes: int, data: bytes) -> None:
    _same(data, skip_invalid=True, correct_col="label", score_col="score", input_format="csv")


json_values = st.sampled_from(
    ["true", "false", "0", "1", "2", '"yes"', '"No"', '" yes"', '"maybe"', "null", "1.0", "0.5", "-0.0", "1e400",
     "-1e400", "NaN", "Infinity", "9007199254740993", "9007199254740992", "1" * 30, '"0.5"', '"x"', "[]", "{}",
     '{"score": 2}', "1E-5", '"\\u0031"']
)  # fmt: skip


@st.composite
def jsonl_bytes(draw: st.DrawFn) -> bytes:
    lines = []
    for _ in range(draw(st.integers(0, 40))):
        kind = draw(st.integers(0, 9))
        if kind < 6:
            keys = draw(st.permutations(["label", "score", "id"]))
            parts = []
            for k in keys:
                if k == "label":
                    v = draw(json_values) if draw(st.integers(0, 3)) == 0 else draw(st.sampled_from(["0", "1", "true", "false"]))
                elif k == "score":
                    v = draw(json_values) if draw(st.integers(0, 3)) == 0 else repr(draw(st.floats(allow_nan=False, allow_infinity=False)))
                else:
                    v = '"doc"'
                if draw(st.integers(0, 9)) or k == "id":
                    parts.append(f'"{k}": {v}')
            if draw(st.integers(0, 9)) == 0:
                parts.append('"correct": ' + draw(json_values))
            lines.append(draw(st.sampled_from(["", " "])) + "{" + ", ".join(parts) + "}" + draw(st.sampled_from(["", " ", "\r"])))
        elif kind == 6:
            lines.append(draw(st.sampled_from(["", "  ", "\t"])))
        elif kind == 7:
            lines.append(draw(st.sampled_from(['{"label": 1, "score": [', "1]}", '{"label": 1, "score": 0.5} {}', "[1, 2]", '"s"', "{", '{"label": 1, "score": "0.5\\u0000"}'])))
        else:
            lines.append(draw(st.text(max_size=12)).replace("\n", ""))
    text = "\n".join(lines) + draw(st.sampled_from(["", "\n"]))
    data = text.encode("utf-8", "surrogatepass")
    if not draw(st.integers(0, 5)) and data:
        at = draw(st.integers(0, len(data) - 1))
        data = data[:at] + draw(st.sampled_from([b"\xff", b"\r", b"\x00"])) + data[at:]
    return data


@SETTINGS
@given(data=jsonl_bytes(), skip=st.booleans())
def test_jsonl_blocks_read_what_lines_read(block_bytes: int, data: bytes, skip: bool) -> None:
    _same(data, skip_invalid=skip, input_format="jsonl")


@SETTINGS
@given(data=st.binary(max_size=300), fmt=st.sampled_from([None, "csv", "tsv", "jsonl"]))
def test_arbitrary_bytes(block_bytes: int, data: bytes, fmt: str | None) -> None:
    _same(b"label,score\n" + data, skip_invalid=True, input_format=fmt)
    _same(data, skip_invalid=False, input_format=fmt)


def test_a_large_file_with_sparse_errors(block_bytes: int) -> None:
    if block_bytes == 7:
        pytest.skip("the large file is for realistic blocks")
    rng = np.random.default_rng(3)
    n = 30_000
    labels = rng.integers(0, 2, n)
    scores = rng.normal(size=n)
    lines = [f"doc{i},{lab},{s!r}" if i % 997 else f"doc{i},maybe,{s!r}" for i, (lab, s) in enumerate(zip(labels, scores))]
    lines[123] = 'doc,1,"0.5"'  # a quote: that line goes line by line
    lines[5000] = "doc,1,1e400"
    lines[7000] = "doc,1, 0.25 "
    data = ("id,label,score\r\n" + "\r\n".join(lines) + "\r\n").encode()
    _same(data, skip_invalid=True)
    cases, skips, _ = _fast(data, size=4096, skip_invalid=True)
    assert len(cases) == n - len(skips) and skips[0].startswith("f:2: invalid label 'maybe'")


def test_errors_name_the_physical_line(block_bytes: int) -> None:
    data = b"label,score\n1,0.5\r0,0.25\r\n\n1,oops\n"
    cases, _, error = _fast(data)
    assert error == "f:5: invalid score 'oops' in column 'score' (expected a number)"
    assert _reference(data)[2] == error


# --------------------------------------------------------------- the parts


def _float_fields(fields: list[bytes]) -> tuple[np.ndarray, np.ndarray]:
    data = b",".join(fields)
    starts = np.cumsum([0] + [len(f) + 1 for f in fields[:-1]]).astype(np.int64)
    lengths = np.array([len(f) for f in fields], dtype=np.int64)
    a = np.frombuffer(data + bytes(fp.PADDING), np.uint8)
    return fp.parse_floats(a, starts, lengths, data)


def _bits(x: float) -> int:
    return int(np.float64(x).view(np.int64))


number_text = st.one_of(
    st.floats(allow_nan=False).map(repr),
    st.floats(allow_nan=False).map(lambda x: f"{x:.6f}"),
    st.floats(allow_nan=False).map(lambda x: f"{x:.12e}"),
    st.from_regex(r"[+-]?[0-9]{0,25}(\.[0-9]{0,25})?([eE][+-]?[0-9]{1,4})?", fullmatch=True),
    st.text(alphabet="0123456789.eE+-_ ", max_size=12),
)


@settings(max_examples=500, deadline=None)
@given(st.lists(number_text, min_size=1, max_size=20))
def test_parse_floats_is_float(texts: list[str]) -> None:
    fields = [t.encode() for t in texts]
    values, proved = _float_fields(fields)
    for f, v, ok in zip(fields, values.tolist(), proved.tolist()):
        try:
            ref = float(f)
        except ValueError:
            ref = None
        if ok:
            assert ref is not None and _bits(v) == _bits(ref), (f, v, ref)
        elif ref is not None:  # not proved: only forms the grammar leaves to float()
            assert b"_" in f or b" " in f or len(f) > fp.MAX_NUMBER_CHARS or not any(c in f for c in b"0123456789") or len(f.split(b"e")[-1].split(b"E")[-1].lstrip(b"+-")) > 4, f


def test_parse_floats_on_hard_cases() -> None:
    """Midpoints between doubles, long significands, extremes: bit-identical to float()."""
    from decimal import Decimal

    rng = random.Random(7)
    fields = []
    for _ in range(20_000):
        x = rng.random() * 10 ** rng.randint(-25, 25)
        y = float(np.nextafter(x, math.inf))
        mid = (Decimal(x) + Decimal(y)) / 2  # exactly halfway: round half to even
        fields.append(str(mid)[: rng.randint(3, 32)].encode())
        fields.append(repr(x).encode())
        fields.append(f"{x:.{rng.randint(15, 19)}e}".encode())
    fields += [b"9007199254740993", b"18446744073709551615", b"18446744073709551616", b"1e22", b"1e23", b"4.9e-324",
               b"2.2250738585072014e-308", b"1.7976931348623157e308", b"1.7976931348623159e308", b"-0", b"0e999"]  # fmt: skip
    fields = [f for f in fields if not f.endswith((b"E", b"E-", b"E+"))]  # cut inside the exponent
    values, proved = _float_fields(fields)
    assert proved.all()
    assert [_bits(v) for v in values.tolist()] == [_bits(float(f)) for f in fields]


def test_parse_labels_is_parse_label() -> None:
    words = ["1", "0", "true", "TRUE", "False", "yes", "YeS", "no", "NO", "", "2", "t", " 1", "1 ", "truee", "nö", "yes\x00", "falsE"]
    data = ",".join(words).encode()
    starts = np.cumsum([0] + [len(w.encode()) + 1 for w in words[:-1]]).astype(np.int64)
    lengths = np.array([len(w.encode()) for w in words], dtype=np.int64)
    values, proved = fp.parse_labels(np.frombuffer(data + bytes(fp.PADDING), np.uint8), starts, lengths)
    for w, v, ok in zip(words, values.tolist(), proved.tolist()):
        if ok:
            assert parse_label(w) is v and w == w.strip()
        elif w == w.strip():
            with pytest.raises(ValueError):
                parse_label(w)


@SETTINGS
@given(data=st.binary(max_size=200).map(lambda b: b.replace(b"x", b"\r").replace(b"y", b"\n")), block=st.sampled_from([1, 3, 16, 1 << 20]))
def test_byte_feed_lines_are_text_io_lines(monkeypatch: pytest.MonkeyPatch, data: bytes, block: int) -> None:
    monkeypatch.setattr(_linefeed, "BLOCK_BYTES", block)
    for prefix in (b"", b"\xef\xbb\xbf"):
        raw = prefix + data
        expected = list(io.TextIOWrapper(io.BytesIO(raw), encoding="utf-8-sig", errors="replace", newline=""))
        feed = _linefeed.ByteFeed(io.BytesIO(raw), lambda n: None, 1 << 20)
        got = []
        while (item := feed.next_line()) is not None:
            got.append(item[1])
        assert got == expected
        assert feed.consumed == len(raw)
        # blocks, then lines, give the same lines again
        feed = _linefeed.ByteFeed(io.BytesIO(raw), lambda n: None, 1 << 20)
        got = []
        while True:
            block = feed.take_block(b"")
            if block is not None:
                first, chunk = block
                assert first == len(got) + 1 and chunk.endswith(b"\n")
                got.extend(line + "\n" for line in chunk.decode("utf-8", "replace").split("\n")[:-1])
                continue
            item = feed.next_line()
            if item is None:
                break
            got.append(item[1])
        assert got == expected
