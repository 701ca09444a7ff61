"""The Python port of a LingPipe 3.9.2 evaluation report.

This is the "after" half of the worked example in
docs/porting-from-lingpipe.md: a line-by-line port of the Java program
shown there. Run it with no arguments; it prints exactly what the Java
program prints with LingPipe 3.9.2 on the classpath.

    python examples/port_from_lingpipe.py
"""

from __future__ import annotations

import sys

from scored_pr.lingpipe import ScoredPrecisionRecallEvaluation, double_to_string

# One query: the retrieved documents' scores and whether each was relevant.
SCORES = [0.91, 0.85, 0.85, 0.77, 0.62, 0.60, 0.58, 0.41, 0.33, 0.20, 0.12, 0.05]
CORRECT = [True, False, True, True, False, True, False, False, True, False, False, False]


def main() -> int:
    evaluation = ScoredPrecisionRecallEvaluation()
    for correct, score in zip(CORRECT, SCORES):
        evaluation.addCase(correct, score)
    evaluation.addMisses(1)  # one relevant document was never retrieved

    # Java's "text" + double uses Double.toString: double_to_string, not str().
    print("Cases=" + str(evaluation.numCases()))
    print("Average precision=" + double_to_string(evaluation.averagePrecision()))
    print("Precision at 5=" + double_to_string(evaluation.precisionAt(5)))
    print(evaluation)
    ScoredPrecisionRecallEvaluation.printPrecisionRecallCurve(evaluation.prCurve(True), sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
