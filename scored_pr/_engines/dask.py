"""The Dask adapter: a ``dask.dataframe.DataFrame``'s partitions as pandas, steps as delayed tasks.

Runs on whatever scheduler is active (a ``distributed.Client``, or Dask's
local one). The flows are ``driver.py``'s, the steps ``tasks.py``'s.
"""

from __future__ import annotations

from typing import Any, Callable, Sequence

import numpy as np

from .._validation import check_frame
from . import tasks
from .backend import require as backend_require
from .backend import Frame

ENGINE = "dask"


def require() -> Any:
    """``dask.dataframe``, or ImportError saying which extra to install."""
    return backend_require(ENGINE, "dask[dataframe]", "dask.dataframe")


class DaskTasks:
    """``backend.Tasks`` over ``dask.delayed``: persisted values stay on the workers."""

    def submit(self, fn: Callable[..., Any], *args: Any, returns: int | None = None) -> Any:
        import dask

        out = dask.delayed(fn)(*args)
        return out if returns is None else [out[i] for i in range(returns)]

    def persist(self, handles: list[Any]) -> list[Any]:
        import dask

        return list(dask.persist(*handles))

    def gather(self, handles: list[Any]) -> list[Any]:
        import dask

        return list(dask.compute(*handles))


class DaskFrame(tasks.TaskFrame):
    """A Dask DataFrame as the driver's ``backend.Frame``."""

    engine = ENGINE

    def __init__(self, ddf: Any) -> None:
        self._ddf = ddf
        self._tasks = DaskTasks()

    @classmethod
    def of(cls, func: str, ddf: Any) -> Frame:
        """The frame of ``ddf``; TypeError naming argument ``ddf`` when it is no Dask DataFrame."""
        dd = require()
        check_frame(ddf, isinstance(ddf, dd.DataFrame), func, "ddf", "a dask.dataframe.DataFrame")
        return cls(ddf)

    def columns(self) -> list[str]:
        return list(self._ddf.columns)

    def kind(self, column: str) -> tuple[str, str]:
        dtype = self._ddf.dtypes[column]
        return dtype.kind, str(dtype)

    def _partitions(self, columns: list[str]) -> list[Any]:
        return list(self._ddf[columns].to_delayed())

    def pooled(self, pairs: Sequence[tuple[str, str, Any]], weight: str | None) -> Frame:
        import dask.dataframe as dd
        import pandas as pd

        meta = {"c": pd.Series(dtype=bool), "s": pd.Series(dtype=np.float64)}
        if weight is not None:
            meta["w"] = pd.Series(dtype=np.float64)
        pieces = [self._ddf.map_partitions(tasks.pair_frame, lc, sc, weight, pos, meta=pd.DataFrame(meta))
                  for lc, sc, pos in pairs]
        return DaskFrame(dd.concat(pieces))
