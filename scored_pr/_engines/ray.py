"""The Ray adapter: a ``ray.data.Dataset``'s blocks as pandas, steps as Ray tasks over object references.

The flows are ``driver.py``'s, the steps ``tasks.py``'s; the prepared
partitions stay in Ray's object store between steps and the driver holds
references and small records only.
"""

from __future__ import annotations

from typing import Any, Callable, Sequence

from .._validation import check_frame
from . import tasks
from .backend import require as backend_require
from .backend import Frame

ENGINE = "ray"


def require() -> Any:
    """``ray.data``, or ImportError saying which extra to install."""
    return backend_require(ENGINE, "ray[data]", "ray.data")


class RayTasks:
    """``backend.Tasks`` over ``ray.remote``: a handle is an object reference, its value in the object store."""

    def __init__(self) -> None:
        self._remote: dict[Callable[..., Any], Any] = {}

    def _fn(self, fn: Callable[..., Any]) -> Any:
        import ray

        if fn not in self._remote:
            self._remote[fn] = ray.remote(fn)
        return self._remote[fn]

    def submit(self, fn: Callable[..., Any], *args: Any, returns: int | None = None) -> Any:
        if returns is None:
            return self._fn(fn).remote(*args)
        if returns == 1:  # one return is the whole sequence in Ray: take its element
            return [self._fn(tasks.pick).remote(self._fn(fn).remote(*args), 0)]
        return list(self._fn(fn).options(num_returns=returns).remote(*args))

    def persist(self, handles: list[Any]) -> list[Any]:
        return handles  # a task's result stays in the object store while referenced

    def gather(self, handles: list[Any]) -> list[Any]:
        import ray

        return list(ray.get(handles))


class RayFrame(tasks.TaskFrame):
    """A Ray Dataset as the driver's ``backend.Frame``."""

    engine = ENGINE

    def __init__(self, ds: Any) -> None:
        self._ds = ds
        self._tasks = RayTasks()
        self._schema: Any = None

    @classmethod
    def of(cls, func: str, ds: Any) -> Frame:
        """The frame of ``ds``; TypeError naming argument ``ds`` when it is no Ray Dataset."""
        data = require()
        check_frame(ds, isinstance(ds, data.Dataset), func, "ds", "a ray.data.Dataset")
        return cls(ds)

    def _types(self) -> tuple[list[str], list[Any]]:
        if self._schema is None:
            schema = self._ds.schema()
            self._schema = ([], []) if schema is None else (list(schema.names), list(schema.types))
        names, types = self._schema
        return names, types

    def columns(self) -> list[str]:
        return self._types()[0]

    def kind(self, column: str) -> tuple[str, str]:
        import pyarrow as pa

        names, types = self._types()
        t = types[names.index(column)]
        if not isinstance(t, pa.DataType):  # a column Arrow does not type (Python objects)
            return "O", str(t)
        kinds = ((pa.types.is_boolean, "b"), (pa.types.is_signed_integer, "i"), (pa.types.is_unsigned_integer, "u"),
                 (pa.types.is_floating, "f"), (pa.types.is_decimal, "f"), (pa.types.is_string, "U"),
                 (pa.types.is_large_string, "U"), (pa.types.is_null, "O"))
        return next((k for test, k in kinds if test(t)), "?"), str(t)

    def _partitions(self, columns: list[str]) -> list[Any]:
        return list(self._ds.select_columns(columns).to_pandas_refs())

    def pooled(self, pairs: Sequence[tuple[str, str, Any]], weight: str | None) -> Frame:
        pieces = [self._ds.map_batches(tasks.pair_frame, fn_args=(lc, sc, weight, pos), batch_format="pandas")
                  for lc, sc, pos in pairs]
        return RayFrame(pieces[0].union(*pieces[1:]))
