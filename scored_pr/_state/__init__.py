"""Pickle-free state files: atomic ``.npz`` writes, bounded reads, per-kind encoding.

The modules here turn plain arrays and numbers into files and back; they never
import an evaluator class (the evaluators call them).
"""
