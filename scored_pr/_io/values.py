"""One field of an input file as a value: labels, scores, and the error that names where a value was bad.

Pure parsing, no printing, no numpy: :func:`parse_label` and :func:`parse_score`
turn one field (text, or a JSON value) into a bool or a float64 by the rules
every reader of ``scored-pr`` shares (CSV, TSV, JSON Lines, Parquet, the wide
files, ``compare``'s keyed files and ``trec``'s runs), and
:class:`InputError` names the source, the line and the offending value.
"""

from __future__ import annotations

import decimal
import math
from typing import Any

#: Default names of the correctness column, tried in this order.
DEFAULT_CORRECT_COLUMNS = ("correct", "label")
DEFAULT_SCORE_COLUMN = "score"

_LABELS = {
    "1": True, "0": False, "-1": False, "1.0": True, "0.0": False, "-1.0": False,
    "true": True, "false": False, "yes": True, "no": False,
}  # fmt: skip
_LABEL_EXPECTED = "expected 1/0, -1/1, true/false, yes/no, or a --positive-label"

#: Integers beyond this magnitude must be exactly representable as float64.
_EXACT_INT = 2**53
_INF_WORDS = frozenset({"inf", "infinity", "+inf", "+infinity", "-inf", "-infinity"})


class InputError(ValueError):
    """Malformed input: ``str()`` is ``"<source>:<line>: <message>"``.

    Attributes
    ----------
    source : str
        The file name as the user gave it, or ``<stdin>``.
    line : int or None
        1-based physical line number, or None when the whole input is at fault.
    message : str
        What is wrong, naming the offending value.

    Examples
    --------
    >>> str(InputError("data.csv", 17, "invalid label 'maybe' in column 'correct'"))
    "data.csv:17: invalid label 'maybe' in column 'correct'"
    >>> str(InputError("<stdin>", None, "empty input"))
    '<stdin>: empty input'
    """

    def __init__(self, source: str, line: int | None, message: str) -> None:
        super().__init__(source, line, message)
        self.source = source
        self.line = line
        self.message = message

    def __str__(self) -> str:
        where = self.source if self.line is None else f"{self.source}:{self.line}"
        return f"{where}: {self.message}"


def _show(value: Any, limit: int = 60) -> str:
    """``repr`` of an offending value, shortened to one readable line."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 4] + "...'"


#: What JSON calls the values ``json.loads`` returns, for messages.
_JSON_TYPES = {bool: "boolean", int: "number", float: "number", list: "array", dict: "object", type(None): "null"}


def _twice(names: list[str], name: str, rule: str) -> str:
    """Why a header that names ``name`` more than once cannot be read: which copy is meant is unknown."""
    at = [str(i + 1) for i, n in enumerate(names) if n == name]
    return f"column {name!r} appears {len(at)} times in the header (fields {', '.join(at)}); {rule}: rename or remove the copies"


def _separator_hint(names: list[str], delimiter: str | None) -> str:
    """What to say when a header split on ``delimiter`` lacks a column and looks split on another character."""
    if delimiter != ",":
        return ""
    joined = ",".join(names)
    if "\t" in joined:
        return "; the file looks tab-separated: pass --input-format tsv"
    if ";" in joined:
        return ("; the file looks ;-separated, and scored-pr reads comma- or tab-separated text: convert it first, "
                "e.g. pandas.read_csv(path, sep=';').to_csv(new_path, index=False)")
    return ""


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object's ``object_pairs_hook`` that refuses a key given twice (``json`` keeps the last silently)."""
    obj = dict(pairs)
    if len(obj) != len(pairs):
        keys = [k for k, _ in pairs]
        repeated = next(k for i, k in enumerate(keys) if k in keys[:i])
        raise ValueError(f"key {repeated!r} appears {keys.count(repeated)} times in one object; a wide file "
                         "must name each column once")
    return obj


def parse_label(value: Any, column: str = "correct", positive: str | None = None) -> bool:
    """Parse one correctness value: 1/0, -1/1, true/false or yes/no, any case.

    Parameters
    ----------
    value : str, bool or number
        The field as read. Surrounding whitespace is ignored; JSON booleans
        and the numbers 1, 0 and -1 are accepted as such (``1.0`` too), as
        the API accepts them.
    column : str
        The column name, for the error message.
    positive : str, optional
        The positive class's label (``--positive-label``): the value is
        correct when it equals ``positive`` (after stripping whitespace;
        a JSON number or boolean is compared by its JSON text, so
        ``--positive-label 2`` matches ``2`` and ``"2"``), and every other
        non-empty value is a negative.

    Returns
    -------
    bool

    Raises
    ------
    ValueError
        Naming the value and the column, e.g. ``invalid label 'maybe' in
        column 'correct' (expected 1/0, -1/1, true/false, yes/no, or a --positive-label)``.

    Examples
    --------
    >>> parse_label("Yes"), parse_label(" 0 "), parse_label(True), parse_label("-1"), parse_label(1.0)
    (True, False, True, False, True)
    >>> parse_label("spam", positive="spam"), parse_label("ham", positive="spam"), parse_label(2, positive="2")
    (True, False, True)
    >>> parse_label("maybe")
    Traceback (most recent call last):
    ...
    ValueError: invalid label 'maybe' in column 'correct' (expected 1/0, -1/1, true/false, yes/no, or a --positive-label)
    """
    if positive is not None:
        if isinstance(value, str):
            text = value.strip()
        elif isinstance(value, bool):
            text = "true" if value else "false"
        elif isinstance(value, (int, float)) and value == value:
            text = repr(value)
            if text != positive and isinstance(value, float) and value.is_integer():
                text = str(int(value))
        else:
            text = ""
        if not text:
            raise ValueError(f"missing label in column {column!r}")
        return text == positive
    if isinstance(value, str):
        try:
            return _LABELS[value]
        except KeyError:
            result = _LABELS.get(value.strip().lower())
            if result is not None:
                return result
    elif isinstance(value, bool):
        return value
    elif type(value) in (int, float) and value in (0, 1, -1):
        return value == 1
    if value is None or (isinstance(value, str) and not value.strip()):
        raise ValueError(f"missing label in column {column!r}")
    raise ValueError(f"invalid label {_show(value)} in column {column!r} ({_LABEL_EXPECTED})")


def parse_score(value: Any, column: str = "score") -> float:
    """Parse one score: a decimal number, ``inf`` and ``-inf`` allowed, NaN not.

    Parameters
    ----------
    value : str, int or float
        The field as read; surrounding whitespace is ignored. JSON numbers are
        accepted as such (JSON booleans are not numbers).
    column : str
        The column name, for the error message.

    Returns
    -------
    float

    Raises
    ------
    ValueError
        Naming the value and the column.

    Examples
    --------
    >>> parse_score("0.25"), parse_score(" 1e3"), parse_score("-inf")
    (0.25, 1000.0, -inf)
    >>> parse_score("NaN")
    Traceback (most recent call last):
    ...
    ValueError: invalid score 'NaN' in column 'score' (NaN is not a score)
    >>> parse_score("1_0")
    Traceback (most recent call last):
    ...
    ValueError: invalid score '1_0' in column 'score' (a number has no underscores)
    """
    if isinstance(value, str):
        if "_" in value:  # float() reads "1_0" as 10; CSV readers, JSON and trec_eval do not
            raise ValueError(f"invalid score {_show(value)} in column {column!r} (a number has no underscores)")
        try:
            result = float(value)
        except ValueError:
            if not value.strip():
                raise ValueError(f"missing score in column {column!r}") from None
            raise ValueError(f"invalid score {_show(value)} in column {column!r} (expected a number)") from None
    elif isinstance(value, (int, float)) and not isinstance(value, bool):
        try:
            result = float(value)
        except OverflowError:
            raise ValueError(f"invalid score {_show(value)} in column {column!r} (too large for a float)") from None
    elif isinstance(value, decimal.Decimal):  # a Parquet decimal column: the nearest float64, as its text would be
        result = float(value)
        if math.isinf(result) and value.is_finite():
            raise ValueError(f"invalid score {_show(value)} in column {column!r} (beyond float64's range)")
    elif value is None:
        raise ValueError(f"missing score in column {column!r}")
    else:
        raise ValueError(f"invalid score {_show(value)} in column {column!r} (expected a number)")
    if result != result:
        raise ValueError(f"invalid score {_show(value)} in column {column!r} (NaN is not a score)")
    if not -_EXACT_INT < result < _EXACT_INT:
        _check_range(value, result, column)
    return result


def _json_float(text: str) -> float | str:
    """A JSON number as a float; one beyond float64's range stays text, for parse_score to reject."""
    value = float(text)
    return text if math.isinf(value) else value


def _check_range(value: Any, result: float, column: str) -> None:
    """Reject a score that overflowed to infinity or an integer float64 cannot hold exactly.

    The same rule as the Python API: ``1e400`` is not infinity, and
    ``9007199254740993`` is not silently rounded into a tie with its neighbour.
    """
    text = value.strip().lower() if isinstance(value, str) else None
    if math.isinf(result) and text is not None and text not in _INF_WORDS:
        raise ValueError(f"invalid score {_show(value)} in column {column!r} (beyond float64's range)")
    if isinstance(value, int) or (text is not None and text.lstrip("+-").isdigit()):
        if not math.isinf(result) and int(result) != int(value):
            raise ValueError(f"invalid score {_show(value)} in column {column!r} (not exactly representable as a float64)")


def finite_or_none(value: Any) -> Any:
    """NaN and infinities as None (JSON has no NaN): :func:`scored_pr._core.jsonsafe.json_ready`.

    Examples
    --------
    >>> finite_or_none(float("nan")), finite_or_none(0.5), finite_or_none(3)
    (None, 0.5, 3)
    """
    from .._core.jsonsafe import json_ready  # imports numpy: not at module import (scored-pr --help)

    return json_ready(value)

