"""The stateful evaluator kinds and what they share: validate, store, cache, delegate to the core."""
