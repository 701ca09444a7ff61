"""The stateful evaluators: validate -> store -> cache -> delegate to :mod:`scored_pr._core`.

Importing any of them imports every kind, so that each has registered itself
(``scored_pr._kinds.register``) before a consumer asks what kind an object or
a state file is.
"""

from . import bounded, exact, multi, multilabel, synchronized, windowed  # noqa: F401 - each registers its kind
from . import sliced  # noqa: F401 - after the kinds a slice may hold
from . import sliced_multilabel  # noqa: F401 - SlicedEvaluation(kind="multilabel")
