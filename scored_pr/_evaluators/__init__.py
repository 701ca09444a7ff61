"""The stateful evaluators: validate -> store -> cache -> delegate to :mod:`scored_pr._core`.
"""
