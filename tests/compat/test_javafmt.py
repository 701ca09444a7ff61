"""scored_pr.lingpipe._javafmt: Java's Double.toString and %f, character for character.

The expected strings follow from the Java SE specification of
``Double.toString(double)`` (Java 19+) and of ``java.util.Formatter``'s
``'f'`` conversion, as the comment on each case explains; every one was also
confirmed on OpenJDK 25. ``test_against_a_local_jdk`` repeats the comparison
on thousands of random doubles when a Java 19+ ``java``/``javac`` is on the
PATH (or in ``$JAVA_HOME/bin``), and is skipped otherwise.
"""

from __future__ import annotations

import math
import os
import random
import re
import shutil
import struct
import subprocess
import sys
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from scored_pr.lingpipe._javafmt import double_to_string, format_fixed

INF = float("inf")
NAN = float("nan")
MIN_SUBNORMAL = 5e-324
MAX_DOUBLE = sys.float_info.max

TO_STRING = [
    # literal special values
    (NAN, "NaN"),
    (INF, "Infinity"),
    (-INF, "-Infinity"),
    (0.0, "0.0"),
    (-0.0, "-0.0"),
    # plain notation for 1e-3 <= |x| < 1e7, at least one fraction digit
    (0.5, "0.5"),
    (1.0, "1.0"),
    (-1.0, "-1.0"),
    (100.0, "100.0"),
    (0.001, "0.001"),
    (9999999.0, "9999999.0"),
    (1234567.125, "1234567.125"),
    (0.1 + 0.2, "0.30000000000000004"),  # 17 digits are needed to read back
    (2.0 / 3.0, "0.6666666666666666"),
    (0.1, "0.1"),  # the shortest decimal that reads back, not the binary value
    # computerized scientific notation otherwise: d.ddd E exponent, no '+'
    (1e-4, "1.0E-4"),
    (0.0009999999999999998, "9.999999999999998E-4"),  # the double just below 0.001
    (1e7, "1.0E7"),
    (12345678.0, "1.2345678E7"),
    (-12345678.0, "-1.2345678E7"),
    (1e23, "1.0E23"),  # Java 18 and earlier printed 9.999999999999999E22
    (MAX_DOUBLE, "1.7976931348623157E308"),
    (2.2250738585072014e-308, "2.2250738585072014E-308"),  # smallest normal
    # one digit would do, but the closest decimal of at most two digits wins
    (MIN_SUBNORMAL, "4.9E-324"),  # exact value 4.940656...E-324
    (2 * MIN_SUBNORMAL, "9.9E-324"),  # 9.881...E-324; Python's repr: 1e-323
    (3 * MIN_SUBNORMAL, "1.5E-323"),  # 1.482...E-323
]


@pytest.mark.parametrize(("x", "text"), TO_STRING, ids=[t for _, t in TO_STRING])
def test_double_to_string_known_values(x: float, text: str) -> None:
    assert double_to_string(x) == text


FIXED = [
    # (x, width, precision, Java's String.format)
    (0.6666666666666666, 8, 6, "0.666667"),
    (1.0, 8, 6, "1.000000"),
    (100.0, 8, 6, "100.000000"),  # wider than the field: never truncated
    (NAN, 8, 6, "     NaN"),
    (INF, 8, 6, "Infinity"),
    (-INF, 8, 6, "-Infinity"),
    (-0.0, 8, 6, "-0.000000"),
    # half up on the Double.toString decimal, not half-even on the binary value
    (5e-7, 8, 6, "0.000001"),  # the double is 4.99999999999999977E-7
    (2.5e-6, 8, 6, "0.000003"),
    (0.1234565, 8, 6, "0.123457"),
    (0.125, 4, 2, "0.13"),
    (0.15, 4, 1, " 0.2"),
    (-0.125, 0, 2, "-0.13"),  # half up is away from zero
    (MIN_SUBNORMAL, 8, 6, "0.000000"),
    # large values: the decimal digits padded with zeros, not the binary value
    (1e23, 0, 6, "100000000000000000000000.000000"),
    (MAX_DOUBLE, 0, 0, "17976931348623157" + "0" * 292),
]


@pytest.mark.parametrize(("x", "width", "precision", "text"), FIXED, ids=[t.strip()[:20] for *_, t in FIXED])
def test_format_fixed_known_values(x: float, width: int, precision: int, text: str) -> None:
    assert format_fixed(x, width, precision) == text


def test_format_fixed_differs_from_python_percent_f() -> None:
    assert "%8.6f" % 5e-7 == "0.000000" and format_fixed(5e-7) == "0.000001"
    assert "%8.6f" % NAN == "     nan" and format_fixed(NAN) == "     NaN"
    assert "%8.6f" % INF == "     inf" and format_fixed(INF) == "Infinity"


def test_numpy_scalars_render_like_floats() -> None:
    np = pytest.importorskip("numpy")
    assert double_to_string(np.float64(0.25)) == "0.25"
    assert double_to_string(np.float32(0.1)) == double_to_string(float(np.float32(0.1)))
    assert format_fixed(np.float64(0.5)) == "0.500000"


# ------------------------------------------------------------------ properties

JAVA_SYNTAX = re.compile(r"-?(\d+\.\d+|\d\.\d+E-?\d+)")
FINITE = st.floats(allow_nan=False, allow_infinity=False, width=64)


def significant_digits(text: str) -> str:
    mantissa = text.lstrip("-").split("E")[0].replace(".", "")
    return mantissa.lstrip("0").rstrip("0") or "0"


@settings(max_examples=2000)
@given(x=FINITE)
@example(MIN_SUBNORMAL)
@example(MAX_DOUBLE)
@example(-0.0)
@example(0.001)
@example(9999999.999999998)
def test_double_to_string_round_trips(x: float) -> None:
    text = double_to_string(x)
    assert float(text) == x
    assert math.copysign(1.0, float(text)) == math.copysign(1.0, x)


@settings(max_examples=2000)
@given(x=FINITE.filter(lambda v: v != 0.0))
def test_double_to_string_notation_and_length(x: float) -> None:
    text = double_to_string(x)
    assert JAVA_SYNTAX.fullmatch(text), text
    assert ("E" in text) == (not 1e-3 <= abs(x) < 1e7)
    # Shortest digits: as many as Python's shortest repr, except that one
    # digit may become two (Java's rule when a single digit suffices).
    shortest = significant_digits(repr(abs(x)).replace("e", "E"))
    ours = significant_digits(text)
    assert len(ours) == len(shortest) or (len(shortest) == 1 and len(ours) == 2)


@settings(max_examples=1000)
@given(x=st.floats(min_value=-1e9, max_value=1e9, allow_nan=False), precision=st.integers(0, 8))
def test_format_fixed_rounds_the_java_decimal_half_up(x: float, precision: int) -> None:
    text = format_fixed(x, 0, precision)
    expected = Decimal(double_to_string(x)).quantize(Decimal(1).scaleb(-precision), rounding=ROUND_HALF_UP)
    assert Decimal(text) == expected
    assert len(text.partition(".")[2]) == precision
    half_unit = Decimal(1).scaleb(-precision) / 2
    assert abs(Decimal(text) - Decimal(x)) <= half_unit + Decimal("1e-15") * max(1, Decimal(abs(x)))


@given(x=FINITE, width=st.integers(0, 40))
def test_format_fixed_pads_on_the_left(x: float, width: int) -> None:
    text = format_fixed(x, width, 3)
    assert text == format_fixed(x, 0, 3).rjust(width)


# ------------------------------------------------------- optional JDK cross-check

ORACLE = """
import java.io.*;
public class Oracle {
    public static void main(String[] args) throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        StringBuilder out = new StringBuilder();
        for (String line; (line = in.readLine()) != null; ) {
            double d = Double.longBitsToDouble(Long.parseUnsignedLong(line, 16));
            out.append(Double.toString(d)).append('\\t').append(String.format("%8.6f", d)).append('\\n');
        }
        System.out.print(out);
    }
}
"""


def _jdk() -> tuple[str, str] | None:
    """(java, javac) of a Java 19+ JDK, or None."""
    home = os.environ.get("JAVA_HOME")
    for java, javac in (
        (str(Path(home, "bin", "java")), str(Path(home, "bin", "javac"))) if home else (None, None),
        (shutil.which("java"), shutil.which("javac")),
    ):
        if not (java and javac and Path(java).exists() and Path(javac).exists()):
            continue
        try:
            version = subprocess.run([java, "-version"], capture_output=True, text=True, timeout=60).stderr
        except (OSError, subprocess.SubprocessError):
            continue
        match = re.search(r'version "(\d+)', version)
        if match and int(match.group(1)) >= 19:
            return java, javac
    return None


def test_against_a_local_jdk(tmp_path: Path) -> None:
    jdk = _jdk()
    if jdk is None:
        pytest.skip("no Java 19+ JDK on the PATH or in JAVA_HOME")
    java, javac = jdk
    (tmp_path / "Oracle.java").write_text(ORACLE)
    subprocess.run([javac, "-d", str(tmp_path), str(tmp_path / "Oracle.java")], check=True, timeout=300)
    rng = random.Random(20240607)
    values = [x for x, _ in TO_STRING] + [x for x, *_ in FIXED]
    values += [2.0**k for k in range(-1074, 1024)]
    values += [struct.unpack("<d", rng.getrandbits(64).to_bytes(8, "little"))[0] for _ in range(5000)]
    values += [rng.random() for _ in range(2000)]
    values += [rng.randint(1, 10**6) / rng.choice([10, 1000, 7, 3, 10**7]) for _ in range(2000)]
    values += [struct.unpack("<d", rng.randint(0, 4096).to_bytes(8, "little"))[0] for _ in range(500)]
    lines = "".join(struct.pack(">d", x).hex() + "\n" for x in values)
    run = subprocess.run(
        [java, "-cp", str(tmp_path), "Oracle"],
        input=lines,
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    )
    java_out = run.stdout.splitlines()
    assert len(java_out) == len(values)
    for x, line in zip(values, java_out):
        to_string, fixed = line.split("\t")
        assert double_to_string(x) == to_string, (x.hex(), to_string)
        assert format_fixed(x) == fixed, (x.hex(), fixed)
