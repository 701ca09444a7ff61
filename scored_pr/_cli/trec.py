"""``scored-pr trec [options] QRELS RUN``: trec_eval's command line, printing what trec_eval prints."""

from __future__ import annotations

import argparse
import sys

from .options import TrecOptions

__all__ = ["add_parser", "run"]


#: trec_eval reads -l, -M and -N into a C long.
_LONG_MIN, _LONG_MAX = -(2**63), 2**63 - 1


def _int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer; got {text!r}") from None
    if not _LONG_MIN <= value <= _LONG_MAX:
        raise argparse.ArgumentTypeError(
            f"expected an integer from {_LONG_MIN} to {_LONG_MAX} (a C long, as trec_eval reads it); got {text!r}"
        )
    return value


def _count(text: str) -> int:
    value = _int(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected an integer >= 0; got {text!r}")
    return value


def add_parser(commands: argparse._SubParsersAction) -> argparse.ArgumentParser:  # type: ignore[type-arg]
    """Add the ``trec`` subcommand to ``scored-pr``'s subparsers."""
    p = commands.add_parser(
        "trec",
        help="evaluate a TREC run against qrels, printing what trec_eval 10 prints",
        description="Evaluate a TREC run file against a qrels file with trec_eval 10's measures, options and "
        "output format (diff-able against trec_eval's). Without -m, the 'official' measures.",
        epilog="Measures: -m NAME, -m NAME.PARAMS (P.5,10  ndcg_cut.10  iprec_at_recall..10,.25  ndcg.1=3,2=9  "
        "utility.2,-1,0,0  relstring.20  rbp.p=0.8) or a nickname: official, all_trec, set. "
        "Malformed input stops with status 2 and a file:line message.",
    )
    p.add_argument("qrels_path", metavar="QRELS", help="qrels file: query iteration docno grade")
    p.add_argument("run_path", metavar="RUN", help="run file: query Q0 docno rank score run_id (- for standard input)")
    p.add_argument("-q", "--query_eval_wanted", dest="per_query", action="store_true",
                   help="also print every measure for each query")  # fmt: skip
    p.add_argument("-m", "--measure", dest="measures", action="append", metavar="MEASURE",
                   help="a measure, measure.params or nickname to print (repeatable; default: official)")  # fmt: skip
    p.add_argument("-c", "--complete_rel_info_wanted", dest="complete", action="store_true",
                   help="average over every query of the qrels; a query without a run scores as an empty run")  # fmt: skip
    p.add_argument("-l", "--level_for_rel", dest="level", type=_int, default=1, metavar="N",
                   help="least grade that counts as relevant (default: 1)")  # fmt: skip
    p.add_argument("-n", "--nosummary", dest="summary", action="store_false", help="omit the 'all' lines")
    p.add_argument("-M", "--Max_retrieved_per_topic", dest="max_docs", type=_count, metavar="N",
                   help="evaluate only the first N documents of each ranking")  # fmt: skip
    p.add_argument("-J", "--Judged_docs_only", dest="judged_only", action="store_true",
                   help="drop unjudged documents from the rankings first (trec_eval: 'do not use' unless you mean it)")  # fmt: skip
    p.add_argument("-N", "--Number_docs_in_coll", dest="num_docs", type=_count, default=0, metavar="N",
                   help="collection size, for utility's fourth coefficient (default: 0)")  # fmt: skip
    return p


def run(opts: TrecOptions) -> int:
    """Evaluate and print; malformed files raise InputError (status 2), bad measures too."""
    from .._io.values import InputError
    from ..trec import TrecEval, read_qrels, read_run

    path = opts.qrels_path
    try:
        qrels = read_qrels(path)
        path = opts.run_path
        results = read_run(path)
    except OSError as exc:  # the file's own name, once, not "input: ...: [Errno 2] ...: 'path'"
        raise InputError("<stdin>" if path == "-" else path, None, f"cannot read: {exc.strerror or exc}") from None
    te = TrecEval(
        qrels,
        results,
        relevance_level=opts.level,
        complete=opts.complete,
        max_docs=opts.max_docs,
        judged_only=opts.judged_only,
        num_docs_in_coll=opts.num_docs,
    )
    try:
        out = te.evaluate(opts.measures or ["official"])
    except ValueError as exc:
        raise InputError(opts.run_path if "query" in str(exc) else "-m", None, str(exc)) from None
    sys.stdout.write(out.format(per_query=opts.per_query, summary=opts.summary))
    return 0
