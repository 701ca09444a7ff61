"""How scored_pr's names are imported: public names on first use, and 0.1.0's private paths.

:func:`lazy_names` gives a package the PEP 562 ``__getattr__`` and
``__dir__`` that import each public name on first access (so ``import
scored_pr`` and ``scored-pr --help`` load neither numpy nor the evaluators)
and list only the public names; ``scored_pr`` and ``scored_pr.trec`` use it.

The private module paths of scored_pr 0.1.0 are kept importable for old pickles.

Pickles written by 0.1.0 name the classes and restore functions by the
private module that defined them then (``scored_pr._evaluation``,
``scored_pr._serialization``, ...). Those modules now live in role
subpackages; this finder, installed by ``scored_pr/__init__.py``, makes each
old path import as the module that holds its contents now, so those pickles
load unchanged. Nothing in scored_pr imports an old path itself, and new
pickles name only public, stable names (``scored_pr.<Class>``).

The finder costs nothing until an old path is imported: it answers only for
the names below and defers every other import to the normal machinery.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable
from typing import Any

#: Old private module path -> the module that holds its contents now.
MOVED = {
    "scored_pr._kernel": "scored_pr._core.thresholds",  # 0.1.0 pickled OperatingPoint from there
    "scored_pr._sortedblocks": "scored_pr._core.sortedblocks",
    "scored_pr._bounded": "scored_pr._core.bins",
    "scored_pr._stats": "scored_pr._core.stats",
    "scored_pr._store": "scored_pr._evaluators.store",
    "scored_pr._evaluation": "scored_pr._evaluators.exact",
    "scored_pr._windows": "scored_pr._evaluators.windowed",
    "scored_pr._bounded_evaluation": "scored_pr._evaluators.bounded",
    "scored_pr._multi": "scored_pr._evaluators.multi",
    "scored_pr._concurrency": "scored_pr._evaluators.synchronized",
    "scored_pr._serialization": "scored_pr._state.exact",
    "scored_pr._bounded_state": "scored_pr._state.bounded",
    "scored_pr._statefile": "scored_pr._state.statefile",
}


class _OldPaths:
    """A meta path finder and loader that aliases each :data:`MOVED` path to its new module."""

    def __init__(self) -> None:
        self._specs: dict[str, Any] = {}

    def find_spec(self, fullname: str, path: Any = None, target: Any = None) -> Any:
        if fullname not in MOVED:
            return None
        import importlib.util

        return importlib.util.spec_from_loader(fullname, self)  # type: ignore[arg-type]  # a loader by duck typing

    def create_module(self, spec: Any) -> Any:
        module = importlib.import_module(MOVED[spec.name])
        self._specs[spec.name] = module.__spec__  # the import machinery overwrites it
        return module

    def exec_module(self, module: Any) -> None:
        """Nothing to run (the module was imported under its new name); give it back its own spec."""
        old = next((k for k, v in MOVED.items() if v == module.__name__), None)
        if old in self._specs:
            module.__spec__ = self._specs.pop(old)


def install() -> None:
    """Put the finder on ``sys.meta_path`` once (idempotent)."""
    if not any(isinstance(f, _OldPaths) for f in sys.meta_path):
        sys.meta_path.append(_OldPaths())


def lazy_names(
    package: str, namespace: dict[str, Any], lazy: dict[str, str], public: list[str]
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """The module ``__getattr__`` and ``__dir__`` of ``package`` (PEP 562).

    ``lazy`` maps each public name to the module (relative to ``package``)
    that defines it; the first access imports it and keeps it in
    ``namespace`` (the package's globals), so later accesses skip the hook.
    ``__dir__`` lists ``public`` and the dunder names only: helpers of the
    package file and private submodules loaded as a side effect of a lazy
    import are not part of the API, so tab completion does not offer them.
    """

    def __getattr__(name: str) -> Any:
        module = lazy.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(module, package), name)
        namespace[name] = value
        return value

    def __dir__() -> list[str]:
        dunder = (name for name in namespace if name.startswith("__") and name.endswith("__"))
        return sorted(set(public).union(dunder))

    return __getattr__, __dir__
