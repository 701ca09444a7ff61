"""Quickstart: evaluate a handful of scored predictions, then stream more in."""

from scored_pr import ScoredPrecisionRecallEvaluation

ev = ScoredPrecisionRecallEvaluation()
ev.add_cases([True, False, True, True, False], [0.95, 0.90, 0.72, 0.40, 0.33])
ev.add_misses(1)  # one relevant item the system never returned

print(f"average precision  {ev.average_precision():.4f}")
print(f"ROC area           {ev.area_under_roc_curve():.4f}")
print(f"max F1             {ev.maximum_f_measure():.4f}")
print(f"precision at 3     {ev.precision_at(3):.4f}")

for i in range(1000):  # streaming: one case at a time, cheap queries in between
    ev.add_case(i % 3 == 0, 1.0 - i / 1000)
    if (i + 1) % 250 == 0:
        s = ev.summary()
        print(f"after {s['num_cases']:5d} cases: AP={s['average_precision']:.4f} AUC={s['area_under_roc_curve']:.4f}")

print()
print(ev)
