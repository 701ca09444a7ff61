"""Reading wide files (one score column per class or label) from CSV, TSV and JSON Lines: :class:`WideReader`."""

from __future__ import annotations

import csv
import functools
import json
from collections.abc import Iterable, Iterator
from typing import IO, TYPE_CHECKING, Any, Callable

from .cases import CaseReader, _Piece
from .linefeed import ByteFeed, TextFeed
from .values import (_JSON_TYPES, InputError, _json_float, _separator_hint, _show, _twice, _unique_keys, parse_label,
                     parse_score)

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

class WideReader(CaseReader):
    """Rows of a wide file: k score columns and the truth of each row, for ``scored-pr report``.

    Two layouts, chosen by the options (checked by the command line):

    - **multi-class** (``label_col``): one column holding each row's class
      name, and one score column per class. With ``score_cols`` the classes
      are those columns' names; with ``score_prefix`` every column whose
      name starts with the prefix is a score column (header order, or the
      first JSON object's key order) and its class is the rest of its name.
      A row whose class is not among them is invalid.
    - **multi-label** (``label_cols``): one indicator column per label
      (1/0, -1/1, true/false, yes/no, as :func:`parse_label`) and its score
      column: the one at the same position of ``score_cols``, or with
      ``score_prefix`` the column named prefix + label column.

    Each row is read line by line (no numpy fast path); a malformed row is
    reported (``file:line: message``) and stops the reading, or is skipped
    with ``skip_invalid``, exactly as :class:`CaseReader` does. Columns
    the options name but the header (or first JSON object) lacks stop the
    reading with a message naming the option and the columns found.

    Attributes
    ----------
    names : list of str
        The class or label of each score column, known once the header
        (or first JSON object) was read.
    score_names : list of str
        The score columns, in the same order.

    Examples
    --------
    >>> r = WideReader(["y,p_a,p_b", "b,0.2,0.8", "a,0.6,0.4"], source="x.csv", label_col="y", score_prefix="p_")
    >>> [(line, t, s) for line, t, s in r], r.names
    ([(2, 1, (0.2, 0.8)), (3, 0, (0.6, 0.4))], ['a', 'b'])
    >>> r = WideReader(['{"a": 1, "b": 0, "sa": 0.5, "sb": 0.1}'], source="x.jsonl", label_cols=["a", "b"],
    ...                score_cols=["sa", "sb"])
    >>> list(r)
    [(1, (True, False), (0.5, 0.1))]
    """

    def __init__(
        self,
        stream: Iterable[str] | IO[bytes],
        *,
        source: str = "<stdin>",
        input_format: str | None = None,
        label_col: str | None = None,
        label_cols: list[str] | None = None,
        score_cols: list[str] | None = None,
        score_prefix: str | None = None,
        skip_invalid: bool = False,
        on_skip: Callable[[InputError], None] | None = None,
    ) -> None:
        super().__init__(stream, source=source, input_format=input_format, skip_invalid=skip_invalid, on_skip=on_skip)
        if (label_col is None) == (label_cols is None) or (score_cols is None) == (score_prefix is None):
            raise ValueError("WideReader needs one of label_col and label_cols, and one of score_cols and score_prefix")
        self._label_col = label_col
        self._label_cols = label_cols
        self._score_cols = score_cols
        self._score_prefix = score_prefix
        self.names: list[str] = []
        self.score_names: list[str] = []
        self._truth_keys: list[Any] = []  # field index (CSV/TSV) or key (JSON) of the class or indicator columns
        self._score_keys: list[Any] = []
        self._truth_names: list[str] = []
        self._class_index: dict[str, int] = {}

    @property
    def multiclass(self) -> bool:
        """Whether the rows carry a class name (``label_col``) rather than k indicators."""
        return self._label_col is not None

    def _resolve(self, names: list[str], line: int | None) -> None:
        """Find the option's columns among ``names`` (a header, or a JSON object's keys)."""
        listed = ", ".join(repr(n) for n in names)
        if len(listed) > 200:
            listed = listed[:197] + "..."
        repeated = next((n for i, n in enumerate(names) if n in names[:i]), None)
        if repeated is not None:  # one row would feed a class (or label) twice, or from the wrong copy
            raise InputError(self.source, line, _twice(names, repeated, "a wide file must name each column once"))

        def find(name: str, option: str) -> int:
            if name in names:
                return names.index(name)
            raise InputError(self.source, line, f"{option}: no column {name!r} among the columns found ({listed})"
                             f"{_separator_hint(names, self._delimiter)}")

        prefix = self._score_prefix
        if self._label_col is not None:
            truth = [find(self._label_col, "--label-col")]
            if self._score_cols is not None:
                scores = [find(c, "--score-cols") for c in self._score_cols]
                classes = list(self._score_cols)
            else:
                assert prefix is not None
                scores = [i for i, n in enumerate(names) if n.startswith(prefix) and i != truth[0]]
                # a class name is compared stripped of surrounding whitespace, as each row's class is
                classes = [names[i][len(prefix):].strip() for i in scores]
                if len(scores) < 2 or "" in classes:
                    why = "a column named only the prefix has no class" if "" in classes else (
                        f"{len(scores)} column{'' if len(scores) == 1 else 's'} start with it; need at least 2")
                    raise InputError(self.source, line, f"--score-prefix {prefix!r}: {why} (columns found: {listed})")
            if truth[0] in scores:
                raise InputError(self.source, line, f"--label-col {self._label_col!r} is also a score column")
            classes = [c.strip() for c in classes]
            seen: dict[str, int] = {}
            for i, c in zip(scores, classes):
                if c in seen:  # e.g. 'p_x' and 'p_ x': a row's class ' x' is read as 'x', so one would take both
                    raise InputError(self.source, line, (
                        f"score columns {names[seen[c]]!r} and {names[i]!r} both name class {c!r} (class names "
                        "are compared without surrounding whitespace); rename one of them"))
                seen[c] = i
            self._class_index = {c: i for i, c in enumerate(classes)}
            self.names = classes
        else:
            assert self._label_cols is not None
            truth = [find(c, "--label-cols") for c in self._label_cols]
            if self._score_cols is not None:
                scores = [find(c, "--score-cols") for c in self._score_cols]
            else:
                scores = [find(f"{prefix}{c}", f"--score-prefix {prefix!r} (the score of label column {c!r})")
                          for c in self._label_cols]
            both = sorted(set(truth) & set(scores))
            if both:
                raise InputError(self.source, line, f"--label-cols and the score columns share {names[both[0]]!r}")
            self.names = list(self._label_cols)
        self._truth_names = [names[i] for i in truth]
        self.score_names = [names[i] for i in scores]
        self._truth_keys, self._score_keys = truth, scores

    def _case(self, number: int, get: Callable[[Any], Any]) -> tuple[int, Any, tuple[float, ...]] | None:
        """The row's (line, truth, scores), or None (reported or skipped) when a field is invalid."""
        try:
            if self._label_col is not None:
                value = get(self._truth_keys[0])
                text = value.strip() if isinstance(value, str) else json.dumps(value)
                index = self._class_index.get(text)
                if index is None:
                    if value is None or text == "":
                        raise ValueError(f"missing class in column {self._truth_names[0]!r}")
                    # a JSON true or 1 is matched by its JSON text: say so, or "True" looks like one of them
                    shown = _show(value) if isinstance(value, str) else (
                        f"{_show(text)} (the JSON {_JSON_TYPES.get(type(value), 'value')} {_show(text)[1:-1]}, matched as text)")
                    raise ValueError(f"class {shown} in column {self._truth_names[0]!r} is not one of the "
                                     f"classes of the score columns ({', '.join(_show(c) for c in self.names)})")
                truth: Any = index
            else:
                truth = tuple(parse_label(get(k), c) for k, c in zip(self._truth_keys, self._truth_names))
            scores = tuple(parse_score(get(k), c) for k, c in zip(self._score_keys, self.score_names))
        except ValueError as exc:
            self._bad(number, str(exc))
            return None
        return number, truth, scores

    def _iter_delimited(self, feed: TextFeed | ByteFeed, delimiter: str, fast: bool) -> Iterator[_Piece]:
        header: list[str] = []
        header_line = 0
        while True:
            item = feed.next_line()
            if item is None:
                break
            header_line, text = item
            header = self._row(text, delimiter, header_line, None, feed) or []
            if header and not (len(header) == 1 and not header[0].strip()):
                break
        self._delimiter = delimiter
        self._resolve([h.strip().lstrip("\ufeff").strip() for h in header], header_line)
        width = len(header)
        while True:
            item = feed.next_line()
            if item is None:
                return
            number, text = item
            row = self._row(text, delimiter, number, width, feed)
            if row is None:
                continue
            if len(row) != width:
                if len(row) == 1 and not row[0].strip():  # blank line
                    continue
                self._bad(number, f"ragged row: {len(row)} fields where the header has {width}: {_show(delimiter.join(row))}")
                continue
            case = self._case(number, row.__getitem__)
            if case is not None:
                yield case  # type: ignore[misc]

    def _iter_jsonl(self, feed: TextFeed | ByteFeed, fast: bool) -> Iterator[_Piece]:
        decode = functools.partial(json.loads, parse_float=_json_float, object_pairs_hook=_unique_keys)
        resolved = False
        while True:
            item = feed.next_line()
            if item is None:
                return
            number, line = item
            if not line.strip():
                continue
            try:
                obj = decode(line)
            except ValueError as exc:
                msg = exc.msg if isinstance(exc, json.JSONDecodeError) else str(exc)
                self._bad(number, f"invalid JSON ({msg}): {_show(line.strip())}")
                continue
            except RecursionError:
                self._bad(number, f"invalid JSON (nested too deeply): {_show(line.strip())}")
                continue
            if not isinstance(obj, dict):
                self._bad(number, f"expected a JSON object, got {_show(obj)}")
                continue
            if not resolved:  # the first object names the columns, as a header would
                self._resolve(list(obj), number)
                self._truth_keys, self._score_keys = self._truth_names, self.score_names
                resolved = True
            case = self._case(number, lambda key: obj.get(key))
            if case is not None:
                yield case  # type: ignore[misc]

    def read(self) -> tuple[npt.NDArray[Any], npt.NDArray[np.float64]]:
        """All rows as ``(truth, scores)``: class indices (n,) or an indicator matrix (n, k), and (n, k) scores."""
        import numpy as np

        truths: list[Any] = []
        scores: list[Any] = []
        for _, truth, row in self._pieces(fast=False):  # type: ignore[misc]
            truths.append(truth)
            scores.append(row)
        k = len(self.names)
        if self.multiclass:
            return np.array(truths, dtype=np.intp), np.array(scores, dtype=np.float64).reshape(-1, k)
        return np.array(truths, dtype=bool).reshape(-1, k), np.array(scores, dtype=np.float64).reshape(-1, k)
