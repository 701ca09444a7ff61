"""Pure numpy: operating points, curves, measures, ranking blocks, bounded bins and statistics.

Nothing here imports anything else from scored_pr; every function takes and
returns arrays and numbers, so the layers above can be tested against it.
"""
