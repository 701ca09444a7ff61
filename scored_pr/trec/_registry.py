"""The table of trec_eval measures: names, parameters, defaults, how values are averaged and printed.

The order of :data:`MEASURES` is trec_eval 10's ``te_trec_measures``: trec_eval
prints the measures in this order whatever the order of the ``-m`` options.
Measure specifications (``-m``) are parsed here, with trec_eval's rules:
``name`` or ``name.params``, a nickname (``official``, ``all_trec``,
``set``) for a list of measures, and parameters by kind:

- cutoffs (``P.5,10``): integers, sorted, positive, no duplicates;
- fractions (``iprec_at_recall..10,.25``): numbers, sorted, no duplicates;
- numbers (``utility.2,-1,0,0``, ``relstring.20``): in the order given;
- pairs (``ndcg.1=3,2=9``, ``rbp.p=0.8``): ``name=number`` separated by commas.

A measure given with parameters is printed under ``name_params`` (cutoffs
under ``name_cutoff`` each, fractions as ``name_%3.2f``).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from . import _counts, _graded, _judged, _precision, _set
from ._cnum import atof, atol, msort
from ._ranking import RankedRels

__all__ = ["MEASURES", "NICKNAMES", "MeasureDef", "Selection", "parse_measures"]

_INT_MAX = 2**31 - 1
_DEFAULT_CUTOFFS = (5, 10, 15, 20, 30, 100, 200, 500, 1000)
_RECALL_LEVELS = (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)


@dataclass(frozen=True)
class Env:
    """Options every measure may read: trec_eval's ``-N``."""

    num_docs_in_coll: int = 0


@dataclass(frozen=True)
class MeasureDef:
    """One trec_eval measure (or family of measures sharing parameters).

    Attributes
    ----------
    name : str
        trec_eval's name (``P``, ``ndcg_cut``, ``map``).
    params : {"none", "cutoffs", "fractions", "numbers", "pairs"}
        The kind of parameters ``-m name.params`` takes.
    default : tuple
        The default parameters.
    compute : callable
        ``compute(ranked_rels, params, env) -> list`` of one value per
        printed name.
    value : {"float", "long", "string"}
        How a value prints: ``%6.4f``, ``%ld`` or ``'%s'``.
    average : {"mean", "sum", "gm", "num_q", "runid", "none"}
        How the ``all`` line is formed: arithmetic mean, sum, geometric mean
        (exp of the mean of the per-query logs), the number of queries, the
        run id, or not printed.
    per_query : bool
        Whether ``-q`` prints a line per query.
    """

    name: str
    params: str
    default: tuple[Any, ...]
    compute: Callable[[RankedRels, tuple[Any, ...], Env], list[Any]]
    value: str = "float"
    average: str = "mean"
    per_query: bool = True


def _one(f: Callable[[RankedRels], Any]) -> Callable[[RankedRels, tuple[Any, ...], Env], list[Any]]:
    return lambda r, p, env: [f(r)]


def _with(f: Callable[[RankedRels, Any], Any]) -> Callable[[RankedRels, tuple[Any, ...], Env], list[Any]]:
    return lambda r, p, env: [f(r, p)]


def _many(f: Callable[[RankedRels, Any], list[Any]]) -> Callable[[RankedRels, tuple[Any, ...], Env], list[Any]]:
    return lambda r, p, env: f(r, p)


def _nothing(r: RankedRels, p: tuple[Any, ...], env: Env) -> list[Any]:
    return [None]


M = MeasureDef
#: Every measure trec_eval 10 computes from qrels and a run, in its printing order.
MEASURES: tuple[MeasureDef, ...] = (
    M("runid", "none", (), _nothing, value="string", average="runid", per_query=False),
    M("num_q", "none", (), lambda r, p, env: [1], value="long", average="num_q", per_query=False),
    M("num_ret", "none", (), _one(_counts.num_ret), value="long", average="sum"),
    M("num_rel", "none", (), _one(_counts.num_rel), value="long", average="sum"),
    M("num_rel_ret", "none", (), _one(_counts.num_rel_ret), value="long", average="sum"),
    M("map", "none", (), _one(_precision.average_precision)),
    M("gm_map", "none", (), _one(_precision.log_average_precision), average="gm", per_query=False),
    M("Rprec", "none", (), _one(_precision.r_precision)),
    M("bpref", "none", (), _one(_judged.bpref)),
    M("recip_rank", "none", (), _one(_precision.reciprocal_rank)),
    M("iprec_at_recall", "fractions", _RECALL_LEVELS, _many(_precision.interpolated_precision_at_recall)),
    M("P", "cutoffs", _DEFAULT_CUTOFFS, _many(_precision.precision_at)),
    M("relstring", "numbers", (10.0,), _with(_counts.relevance_string), value="string", average="none"),
    M("recall", "cutoffs", _DEFAULT_CUTOFFS, _many(_precision.recall_at)),
    M("infAP", "none", (), _one(_judged.inferred_average_precision)),
    M("gm_bpref", "none", (), _one(_judged.log_bpref), average="gm", per_query=False),
    M(
        "Rprec_mult",
        "fractions",
        (0.2, 0.4, 0.6, 0.8, 1.0, 1.2, 1.4, 1.6, 1.8, 2.0),
        _many(_precision.precision_at_r_multiple),
    ),
    M("utility", "numbers", (1.0, -1.0, 0.0, 0.0), lambda r, p, env: [_set.utility(r, p, env.num_docs_in_coll)]),
    M("11pt_avg", "numbers", _RECALL_LEVELS, _with(_precision.eleven_point_average)),
    M("binG", "none", (), _one(_graded.binary_gain)),
    M("G", "pairs", (), _with(_graded.normalized_gain)),
    M("dcg", "pairs", (), _with(_graded.dcg)),
    M("ideal_dcg", "pairs", (), _with(_graded.ideal_dcg)),
    M("ndcg", "pairs", (), _with(_graded.ndcg)),
    M("ndcg_rel", "pairs", (), _with(_graded.ndcg_rel)),
    M("Rndcg", "pairs", (), _with(_graded.r_ndcg)),
    M("ndcg_cut", "cutoffs", _DEFAULT_CUTOFFS, _many(_graded.ndcg_cut)),
    M("map_cut", "cutoffs", _DEFAULT_CUTOFFS, _many(_precision.average_precision_cut)),
    M("relative_P", "cutoffs", _DEFAULT_CUTOFFS, _many(_precision.relative_precision_at)),
    M("success", "cutoffs", (1, 5, 10), _many(_precision.success_at)),
    M("set_P", "none", (), _one(_set.set_precision)),
    M("set_relative_P", "none", (), _one(_set.set_relative_precision)),
    M("set_recall", "none", (), _one(_set.set_recall)),
    M("set_map", "none", (), _one(_set.set_average_precision)),
    M("set_F", "numbers", (1.0,), _with(_set.set_f)),
    M("num_nonrel_judged_ret", "none", (), _one(_counts.num_nonrel_judged_ret), value="long", average="sum"),
    M("rbp", "pairs", (), _with(_graded.rank_biased_precision)),
    M("rbp_resid", "pairs", (), _with(_judged.rbp_residual)),
    M("unj", "cutoffs", (5, 10, 20), _many(_judged.unjudged_at)),
)
del M

_BY_NAME = {m.name: m for m in MEASURES}

_OFFICIAL = ("runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec", "bpref",
             "recip_rank", "iprec_at_recall", "P")  # fmt: skip
#: trec_eval 10's nicknames for lists of measures (those of qrels and trec_results files).
NICKNAMES: dict[str, tuple[str, ...]] = {
    "official": _OFFICIAL,
    "all_trec": _OFFICIAL
    + ("relstring", "recall", "unj", "rbp", "rbp_resid", "infAP", "gm_bpref", "utility", "11pt_avg", "ndcg",
       "relative_P", "Rprec_mult", "success", "map_cut", "ndcg_cut", "ndcg_rel", "Rndcg", "binG", "G", "set_P",
       "set_recall", "set_relative_P", "set_map", "set_F", "num_nonrel_judged_ret"),
    "set": ("runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "utility", "set_P", "set_recall",
            "set_relative_P", "set_map", "set_F"),
}  # fmt: skip

#: Measures of trec_eval that need other input formats (preferences, judgement groups); not provided.
UNSUPPORTED = frozenset(
    {"prefs", "all_prefs", "qrels_jg", "yaap", "map_avgjg", "P_avgjg", "Rprec_mult_avgjg"}
    | {f"prefs_{s}" for s in ("num_prefs_poss", "num_prefs_ful", "num_prefs_ful_ret", "simp", "pair", "avgjg",
                               "avgjg_Rnonrel", "simp_ret", "pair_ret", "avgjg_ret", "avgjg_Rnonrel_ret",
                               "simp_imp", "pair_imp", "avgjg_imp")}
)  # fmt: skip


@dataclass(frozen=True)
class Selected:
    """A measure to compute, with its parameters and the names its values print under."""

    measure: MeasureDef
    params: tuple[Any, ...]
    names: tuple[str, ...]


class Selection(tuple):  # type: ignore[type-arg]
    """The measures selected by ``-m`` options, in trec_eval's printing order (a tuple of :class:`Selected`)."""


def _parse_params(m: MeasureDef, text: str, spec: str) -> tuple[Any, ...]:
    parts = text.split(",")
    if m.params == "cutoffs":
        cutoffs = sorted(atol(p) for p in parts)
        if cutoffs[-1] - cutoffs[0] > _INT_MAX:
            # trec_eval sorts cutoffs by (int)(a - b): values this far apart come out in a wrong order and
            # its measures then walk the ranking past them; refuse rather than print its arbitrary numbers
            raise ValueError(f"measure {spec!r}: cutoffs more than {_INT_MAX} apart, which trec_eval 10 "
                             f"sorts wrongly (it compares them by a 32-bit difference); got {text!r}")  # fmt: skip
        if cutoffs[0] <= 0:
            raise ValueError(f"measure {spec!r}: cutoffs must be positive integers; got {text!r}")
        if len(set(cutoffs)) != len(cutoffs):
            raise ValueError(f"measure {spec!r}: duplicate cutoffs in {text!r}")
        return tuple(cutoffs)
    if m.params == "fractions":
        # glibc's qsort with trec_eval's comp_double (a NaN compares equal to everything)
        levels = msort([atof(p) for p in parts], lambda a, b: -1 if a < b else (1 if a > b else 0))
        if len(set(levels)) != len(levels):
            raise ValueError(f"measure {spec!r}: duplicate cutoffs in {text!r}")
        return tuple(levels)
    if m.params == "numbers":
        values = tuple(atof(p) for p in parts)
        if m.name == "utility" and len(values) != 4:
            raise ValueError(f"measure {spec!r}: utility takes 4 coefficients; got {len(values)}")
        return values
    if m.params == "pairs":
        pairs = []
        for p in parts:
            name, eq, value = p.partition("=")
            if not eq or "=" in value:
                raise ValueError(f"measure {spec!r}: parameters must be name=number pairs separated by commas; got {text!r}")
            pairs.append((name, atof(value)))
        return tuple(pairs)
    raise ValueError(f"measure {spec!r}: {m.name} takes no parameters")


def _fraction_name(name: str, value: float) -> str:
    """trec_eval's ``append_double``: ``name_%3.2f`` in a buffer of len(name) + 10 bytes, so cut there.

    (``iprec_at_recall.1e308`` prints as ``iprec_at_recall_10000000``.)
    """
    text = ("-nan" if math.copysign(1.0, value) < 0 else "nan") if math.isnan(value) else f"{value:3.2f}"
    return f"{name}_{text}"[: len(name) + 9]


def _names(m: MeasureDef, params: tuple[Any, ...], printable: str | None) -> tuple[str, ...]:
    if m.params == "cutoffs":
        return tuple(f"{m.name}_{c}" for c in params)
    if m.params == "fractions":
        return tuple(_fraction_name(m.name, c) for c in params)
    return (m.name if printable is None else f"{m.name}_{printable}",)


def parse_measures(specs: Iterable[str] = ("official",)) -> Selection:
    """Parse ``-m`` specifications into the measures to compute.

    Parameters
    ----------
    specs : iterable of str
        Each a measure name, ``name.params`` or a nickname (``official``,
        ``all_trec``, ``set``). As in trec_eval, the first parameters given
        for a measure win, and a measure named twice is computed once.

    Returns
    -------
    Selection
        The measures in trec_eval's printing order.

    Raises
    ------
    ValueError
        An unknown measure, a measure of another input format (preferences,
        judgement groups), or malformed parameters.

    Examples
    --------
    >>> [s.names for s in parse_measures(["P.10,5", "map", "ndcg.1=3,2=9"])]
    [('map',), ('P_5', 'P_10'), ('ndcg_1=3,2=9',)]
    """
    marked: set[str] = set()
    params: dict[str, str] = {}
    for spec in specs:
        if not isinstance(spec, str):
            raise TypeError(f"parse_measures: each measure must be a str; got {spec!r}")
        name, dot, param_text = spec.partition(".")
        if dot:
            if not param_text:
                raise ValueError(f"measure {spec!r}: empty parameters after '.'")
            params.setdefault(name, param_text)
        if name in NICKNAMES:
            marked.update(NICKNAMES[name])
        elif name in _BY_NAME:
            marked.add(name)
        elif name in UNSUPPORTED:
            raise ValueError(f"measure {spec!r}: needs preference or judgement-group input, which scored_pr does not read")
        else:
            raise ValueError(f"unknown trec_eval measure {spec!r}")
    selected = []
    for m in MEASURES:
        if m.name not in marked:
            continue
        text = params.get(m.name)
        p = m.default if text is None else _parse_params(m, text, f"{m.name}.{text}")
        selected.append(Selected(m, p, _names(m, p, text)))
    return Selection(selected)
