"""One SparkSession, one Dask LocalCluster and one Ray instance for the whole test session (each starts in seconds,
not per test)."""

from __future__ import annotations

import importlib.util
import logging
import os
import shutil
import sys
from pathlib import Path
from typing import Any, Iterator

import pytest

HAS_SPARK = all(importlib.util.find_spec(m) is not None for m in ("pyspark", "pyarrow")) and shutil.which("java") is not None
HAS_DASK = all(importlib.util.find_spec(m) is not None for m in ("dask", "distributed", "pandas"))
HAS_RAY = all(importlib.util.find_spec(m) is not None for m in ("ray", "pyarrow", "pandas"))


@pytest.fixture(scope="session")
def spark() -> Iterator[Any]:
    if not HAS_SPARK:
        pytest.skip("needs pyspark, pyarrow and a Java runtime")
    from pyspark.sql import SparkSession

    import scored_pr

    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)  # the workers run this interpreter
    # and import the scored_pr under test (a checkout need not be the installed copy)
    root = str(Path(scored_pr.__file__).resolve().parents[1])
    os.environ["PYTHONPATH"] = os.pathsep.join(p for p in (root, os.environ.get("PYTHONPATH", "")) if p)
    os.environ.setdefault("PYSPARK_DRIVER_PYTHON", sys.executable)
    session = (
        SparkSession.builder.master("local[2]").appName("scored_pr tests")
        .config("spark.ui.enabled", "false").config("spark.ui.showConsoleProgress", "false")
        .config("spark.sql.shuffle.partitions", "4").config("spark.default.parallelism", "2")
        .config("spark.driver.memory", "1g").getOrCreate()
    )  # fmt: skip
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()


@pytest.fixture(scope="session")
def dask_client() -> Iterator[Any]:
    if not HAS_DASK:
        pytest.skip("needs dask[dataframe] and distributed")
    from dask.distributed import Client, LocalCluster

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                      silence_logs=logging.ERROR) as cluster, Client(cluster) as client:
        yield client


@pytest.fixture(scope="session")
def ray_cluster() -> Iterator[Any]:
    """A local Ray instance of 2 CPUs whose workers import the scored_pr under test; no dashboard, no progress bars."""
    if not HAS_RAY:
        pytest.skip("needs ray[data]")
    import ray
    import ray.data

    import scored_pr

    root = str(Path(scored_pr.__file__).resolve().parents[1])
    path = os.pathsep.join(p for p in (root, os.environ.get("PYTHONPATH", "")) if p)
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, logging_level=logging.ERROR,
             object_store_memory=256 * 2**20, runtime_env={"env_vars": {"PYTHONPATH": path}})
    ray.data.DataContext.get_current().enable_progress_bars = False
    yield ray
    ray.shutdown()
