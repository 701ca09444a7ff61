"""Pickle-free persistence of every evaluator kind: state files, dicts and pickled states."""
