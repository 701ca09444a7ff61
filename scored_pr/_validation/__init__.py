"""Validation at the public boundary.

Every check here either returns a normalised value or raises before the
caller has changed any state. Messages follow one pattern::

    <function>: argument '<name>' must be <expectation>; got <repr> instead.

with the index inside a batch where there is one. Nothing else in the package
validates user input; the functional core trusts what it is given. A raise of
an argument error anywhere outside this package fails
``tests/structure/test_one_place_for_checks.py``.

The checks live in one module per domain, and every one is importable from
here (``from .._validation import check_score``), the same function object,
so a hot path pays no extra call:

- :mod:`.errors`: :func:`fail` (the message pattern), :func:`describe` (its
  ``<repr> (<type>)``), :class:`UnsupportedQuery`;
- :mod:`.options`: constructors' and measures' arguments (ties, ``pos_label``,
  k, beta, fractions, choices, flags, averages, intervals, curves passed in);
- :mod:`.cases`: labels, scores, weights, counts and times, one case or a
  batch (the hot paths of ``add_case`` and ``add_cases``);
- :mod:`.matrices`: multi-output input, (n, k) scores with class labels or a
  label matrix;
- :mod:`.kinds`: evaluators handed to consumers, evaluators combined, each
  kind's own setup (windows, bounded summaries, queries);
- :mod:`.sinks`, :mod:`.assertions`, :mod:`.trec`, :mod:`.lingpipe`: the
  arguments of the logger and sinks, of ``scored_pr.testing``, of trec_eval
  and of the LingPipe port.

The modules import each other only downwards in that list (``errors`` first).
A new check goes in the module of its domain and in the imports below.
"""

from __future__ import annotations

from .errors import UnsupportedQuery, describe, fail
from .options import (
    MAX_SAVED_INT, MIN_SAVED_INT, TIE_POLICIES, check_average, check_beta, check_binary_only, check_choice,
    check_curve_rows, check_flag, check_fraction, check_html_args, check_level, check_multiclass_roc, check_not_both,
    check_optional_callable, check_partial_auc, check_pos_label, check_positive_int, check_resamples, check_seed,
    check_shape, check_ties, check_top_k, measure_arguments_error, renamed_keyword,
)
from .cases import (
    MAX_COUNT, MAX_WEIGHT, MIN_WEIGHT, WEIGHTS_EXPECTED, check_batch, check_correct, check_count, check_score, check_time,
    check_times, check_weight, check_weights, exact_float, exact_floats, missing_time, time_off_clock,
)
from .matrices import (
    MAX_LABELS, as_array, check_classes, check_indicator, check_label_matrix, check_label_names, check_no_labels,
    check_not_binary_proba, check_one_vs_one_rows, check_probability_rows, check_same_length, check_score_matrix, dense_labels, multi_output,
)
from .kinds import (
    EVERY_KIND_EXPECTED, check_clock, check_curve_average, check_evaluation, check_grouped_for_bins, check_instance,
    check_measure_method, check_no_relevant, check_query_id, check_same_pos_label, check_same_setup,
    check_same_ties, check_type_named, check_window_extent, evaluation_kind, read_only_evaluation,
)
from .sinks import (
    SUMMARY_LABEL_NAMES, check_cadence, check_callbacks, check_logger_window, check_max_points, check_metric_labels,
    check_metric_namespace, check_mlflow_options, check_no_label_clash, check_sink_options, check_summary_writer,
    check_tensorboard_options, summary_name_clash, summary_value_error,
)
from .assertions import (
    check_bounds_given, check_comparison_form, check_confidence, check_margin, check_metric_bound, check_resamplable,
)
from .trec import check_c_long, check_grades, check_max_docs, check_measure_spec, check_trec_source
from .lingpipe import check_arity, check_count_matrix, check_known_categories, check_ranked_scores, check_whole_counts
from .engines import (
    QUERIES_EXPECTED, SCORES_EXPECTED, bad_rows, check_bin_counts, check_column_names, check_column_type,
    check_decision_requests, check_engine_options, check_engine_slices,
    check_frame, check_label_column, check_misses_count, check_query_setup, check_weight_total, check_wide_columns,
    check_wide_setup, classes_not_found, exact_scores, label_classes, mixed_negatives,
)
from .calibration import (
    check_calibration_bins, check_ece_options, check_probability_scores, check_reliability_options,
)
from .decisions import (
    check_cost, check_costs, check_decision_confidence, check_integer_counts, check_maximize, check_prevalence,
    check_prevalence_setup, check_probability_range, check_probability_ranking, check_probability_thresholds,
    check_subject_to, check_point_bounds, check_operating_point,
)

__all__ = [
    "check_calibration_bins", "check_ece_options", "check_probability_scores", "check_reliability_options",
    "EVERY_KIND_EXPECTED", "MAX_COUNT", "MAX_LABELS", "MAX_WEIGHT", "MIN_WEIGHT", "WEIGHTS_EXPECTED", "MAX_SAVED_INT", "MIN_SAVED_INT", "SUMMARY_LABEL_NAMES", "TIE_POLICIES",
    "QUERIES_EXPECTED", "SCORES_EXPECTED", "UnsupportedQuery", "as_array", "bad_rows", "check_column_names",
    "check_bin_counts", "check_column_type", "check_decision_requests", "check_engine_options",
    "check_engine_slices", "check_frame", "check_label_column", "check_misses_count",
    "check_query_setup", "check_weight_total", "check_wide_columns", "check_wide_setup", "classes_not_found",
    "exact_scores", "label_classes", "mixed_negatives",
    "check_arity", "check_average", "check_batch", "check_beta",
    "check_binary_only", "check_bounds_given", "check_c_long", "check_cadence", "check_callbacks", "check_logger_window",
    "check_choice",
    "check_classes", "check_not_binary_proba", "check_clock", "check_comparison_form", "check_confidence", "check_correct", "check_count",
    "check_count_matrix", "check_curve_average", "check_curve_rows", "check_evaluation", "check_flag",
    "check_fraction", "check_grades", "check_grouped_for_bins", "check_indicator", "check_instance",
    "check_known_categories", "check_label_matrix", "check_label_names", "check_level", "check_margin",
    "check_max_docs", "check_max_points", "check_measure_method", "check_measure_spec", "check_metric_bound",
    "check_metric_labels", "check_metric_namespace", "check_mlflow_options", "check_multiclass_roc",
    "check_no_label_clash", "check_no_labels", "check_no_relevant", "check_not_both", "check_one_vs_one_rows",
    "check_optional_callable", "check_partial_auc",
    "check_pos_label", "check_positive_int", "check_probability_rows", "check_query_id", "check_ranked_scores",
    "check_resamplable", "check_resamples", "check_same_length", "check_same_pos_label", "check_same_setup",
    "check_same_ties", "check_score", "check_score_matrix", "check_seed", "check_shape", "check_sink_options",
    "check_summary_writer", "check_tensorboard_options", "check_ties", "check_time", "check_times", "check_top_k",
    "check_trec_source", "check_type_named", "check_weight", "check_weights", "check_whole_counts", "check_window_extent",
    "dense_labels", "describe", "exact_float", "exact_floats",
    "evaluation_kind", "fail", "measure_arguments_error", "missing_time", "multi_output", "read_only_evaluation",
    "renamed_keyword", "summary_name_clash", "summary_value_error", "time_off_clock",
    "check_cost", "check_decision_confidence", "check_integer_counts", "check_maximize", "check_prevalence",
    "check_prevalence_setup", "check_probability_range", "check_costs", "check_operating_point",
    "check_probability_ranking", "check_probability_thresholds", "check_subject_to",
    "check_point_bounds",
]
