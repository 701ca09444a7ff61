"""The engines: one driver (``driver.py``) and an adapter per engine (``spark.py``, ``dask.py``, ``ray.py``).

The driver holds every flow (exact, bounded, per query, multi-class and
multi-label), the argument checks and the decisions (buckets, plans, the
combination of the parts); an adapter only moves data through its engine
(``backend.py`` states what it provides). The public entry points are
:mod:`scored_pr.spark`, :mod:`scored_pr.dask` and :mod:`scored_pr.ray`.
"""
