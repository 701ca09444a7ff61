"""Pure numpy computations: curves, measures and rankings over arrays, with no state and no input checks."""
