"""The test tiers: which tests the README's fast command leaves to .ci/run, and why.

The README's test command runs the fast tier: ``pytest -n auto -m "not heavy"``. What needs a JVM
or a cluster (``engine``), a browser (``browser``) or a network server (``server``), and the long
fault, kill and signal simulations (``soak``), is marked by ``conftest.py`` from this table and
from the fixtures a test takes, and run by .ci/run in its own steps (``-m heavy``); every such
test is also marked ``heavy``. tests/structure/test_tiers.py holds every entry to a test that exists.
"""

from __future__ import annotations

from typing import Any

#: Node id (a file, or a file and a test function) -> its tier, and why it is not in the fast tier.
TIERS: dict[str, tuple[str, str]] = {
    "tests/integrations/test_engines.py": ("engine", "Spark (a JVM), a Dask LocalCluster and a Ray instance"),
    "tests/integrations/test_engines_calibration.py": ("engine", "Spark (a JVM), a Dask LocalCluster and a Ray instance"),
    "tests/integrations/test_engines_decisions.py": ("engine", "Spark (a JVM), a Dask LocalCluster and a Ray instance"),
    "tests/integrations/test_engines_sliced.py": ("engine", "Spark (a JVM), a Dask LocalCluster and a Ray instance"),
    "tests/cli/test_cli_commands.py::test_example_runs[spark_bounded.py]": ("engine", "starts Spark"),
    "tests/cli/test_cli_commands.py::test_example_runs[distributed_dask.py]": ("engine", "starts a Dask cluster"),
    "tests/integrations/test_html_browser.py": ("browser", "drives Chromium"),
    "tests/cli/test_stream_wide.py::test_metrics_port_serves_every_label_and_every_average": (
        "server", "scrapes --metrics-port over HTTP"),
    "tests/integrations/test_integrations.py::test_stream_metrics_port_serves_the_gauges_while_streaming": (
        "server", "scrapes --metrics-port over HTTP"),
    "tests/cli/test_stream_by.py::test_metrics_port_serves_one_series_per_slice_with_a_label_per_key": (
        "server", "scrapes --metrics-port over HTTP"),
    "tests/integrations/test_sink_arguments.py::"
    "test_stream_with_a_failing_metrics_sink_says_it_once_and_keeps_report_and_checkpoint": (
        "server", "serves --metrics-port"),
    "tests/cli/test_stream_stop.py": ("soak", "signals and kill -9 at random moments of real streams"),
    "tests/cli/test_cli_fuzz.py": ("soak", "thousands of hostile files and signal timings through the CLI"),
    "tests/evaluators/test_fault_injection.py": ("soak", "a failure injected at every line of every mutator"),
    "tests/state/test_state_limits.py": ("soak", "state files at the loaders' size limits"),
    "tests/state/test_statefile.py::test_kill_9_during_saves_never_leaves_a_broken_file": (
        "soak", "kill -9 during hundreds of saves"),
    "tests/cli/test_cli_commands.py::test_benchmark_script_smoke_run": ("soak", "runs the benchmark scripts"),
    "tests/evaluators/test_calibration.py::test_debiased_ece_bias_from_100_to_100000_calibrated_cases": (
        "soak", "simulates hundreds of calibrated samples up to 100,000 cases"),
    "tests/evaluators/test_decisions_coverage.py": ("soak", "1,000 calibration draws per certified constraint"),
}

#: The fixtures that put a test in the engine tier, each with its xdist group (one JVM, one cluster).
ENGINE_FIXTURES = {"spark": "spark", "dask_client": "dask", "ray_cluster": "ray"}

HEAVY = ("engine", "browser", "server", "soak")


def tier_of(nodeid: str) -> str | None:
    """The tier TIERS gives ``nodeid`` (a file's entry covers its tests, a test's its parameters)."""
    for key, (tier, _) in TIERS.items():
        if nodeid == key or nodeid.startswith((key + "::", key + "[")):
            return tier
    return None


#: The fraction of each Hypothesis test's ``max_examples`` run when SCORED_PR_HYPOTHESIS_FRACTION is
#: set (tests/conftest.py reads it; .ci/run sets it for the floor and Python 3.13 steps, which look
#: for what differs between releases and Pythons: every test runs there, with fewer examples; the
#: newest step searches in full).
FRACTION_FLOOR = 10  # never fewer examples than this (nor more than the test asks for)


def fewer_examples(items: list[Any], fraction: float) -> int:
    """Scale every Hypothesis test's ``max_examples`` in ``items`` by ``fraction``; how many were scaled."""
    from hypothesis import settings

    scaled = 0
    for item in items:
        fn = getattr(getattr(item, "obj", None), "__func__", getattr(item, "obj", None))
        if getattr(fn, "hypothesis", None) is not None and hasattr(fn, "_hypothesis_internal_use_settings"):
            old = fn._hypothesis_internal_use_settings
            fn._hypothesis_internal_use_settings = settings(old, max_examples=_fewer(old.max_examples, fraction))
            scaled += 1
        elif isinstance(getattr(getattr(item, "cls", None), "settings", None), settings):  # a state machine
            old = item.cls.settings  # type: ignore[union-attr]
            item.cls.settings = settings(old, max_examples=_fewer(old.max_examples, fraction))  # type: ignore[union-attr]
            scaled += 1
    return scaled


def _fewer(n: int, fraction: float) -> int:
    return min(n, max(FRACTION_FLOOR, round(n * fraction)))
