"""The command line's argparse value types: each parses one option's text or says what it expected."""

from __future__ import annotations

import argparse

#: The largest count accepted by --misses (the evaluator's limit: counts stay
#: exact in float64); ``_validation.MAX_COUNT``, which imports numpy.
MAX_COUNT = 2**53


def _integer(text: str, expected: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected {expected}, got {text[:40]!r}") from None


def _number(text: str, expected: str) -> float:
    try:
        return float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected {expected}, got {text[:40]!r}") from None


def non_negative(text: str) -> int:
    """An integer from 0 to 2**53 (counts: --misses)."""
    value = _integer(text, "a non-negative integer")
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected a non-negative integer, got {text!r}")
    if value > MAX_COUNT:
        raise argparse.ArgumentTypeError(f"expected an integer of at most 2**53, got {text[:40]!r}")
    return value


def positive(text: str) -> int:
    """An integer from 1 to 2**53 (--every, --window, --checkpoint-every)."""
    value = non_negative(text)
    if value == 0:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {text!r}")
    return value


def port(text: str) -> int:
    """A TCP port, 0 to 65535 (--metrics-port)."""
    value = non_negative(text)
    if value > 65535:
        raise argparse.ArgumentTypeError(f"expected a TCP port (0 to 65535), got {text[:40]!r}")
    return value


def positive_seconds(text: str) -> float:
    """A finite number of seconds > 0 (--window-seconds)."""
    value = _number(text, "a number of seconds > 0")
    if not (value > 0 and value != float("inf")):
        raise argparse.ArgumentTypeError(f"expected a number of seconds > 0, got {text!r}")
    return value


def level(text: str) -> float:
    """A confidence level strictly between 0 and 1 (--level)."""
    value = _number(text, "a number between 0 and 1")
    if not 0.0 < value < 1.0:
        raise argparse.ArgumentTypeError(f"expected a number strictly between 0 and 1, got {text!r}")
    return value


def resamples(text: str) -> int:
    """A number of bootstrap resamples, 10 to 10,000,000 (--resamples)."""
    value = _integer(text, "an integer >= 10")
    if not 10 <= value <= 10_000_000:
        raise argparse.ArgumentTypeError(f"expected an integer from 10 to 10,000,000, got {text!r}")
    return value


def seed(text: str) -> int:
    """A non-negative random seed, any size (--seed)."""
    value = _integer(text, "a non-negative integer")
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected a non-negative integer, got {text!r}")
    return value
