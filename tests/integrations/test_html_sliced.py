"""The sliced HTML page's data: each slice's overlay curves and the gaps table, against the evaluator's answers.

A slice beyond the page's full entries carries an overlay: a subset of its own PR and ROC
operating points (``pr_curve()``, ``roc_curve()``), ends kept, rounded to 4 decimals; the
page's base is the overall slice's entry. The gaps table is ``SlicedEvaluation.gaps`` of
average precision against the rest of each crossing, Holm-adjusted, as ``report --by --ci
--html`` computes it. The browser side (a click draws the overlay) is in test_html_browser.py.
"""

from __future__ import annotations

import json
import math
import re
import subprocess
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from cli_env import CMD, ROOT, clean_env
from scored_pr import SlicedEvaluation
from scored_pr import _html
from scored_pr._html import data as _data
from scored_pr._html import slices as _slices


def main(argv: list[str]) -> int:
    """``scored-pr ARGV`` as a user runs it (a clean environment); its exit status."""
    return subprocess.run([*CMD, *argv], capture_output=True, text=True, timeout=120, cwd=ROOT, env=clean_env()).returncode


def page_json(document: str) -> dict[str, Any]:
    m = re.search(r'<script type="application/json" id="scored-pr-data">(.*?)</script>', document, re.S)
    assert m is not None
    return json.loads(m.group(1))


def sliced(n: int, groups: int, seed: int = 0) -> SlicedEvaluation:
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.35
    s = np.round(rng.normal(y * 1.0, 1.0), 3)
    ev = SlicedEvaluation("g")
    ev.add_cases(y, s, g=np.array([f"g{i:02d}" for i in rng.integers(0, groups, n)]))
    return ev


def rows_of(curve: Any) -> set[tuple[float, float]]:
    return {(float(a), float(b)) for a, b in np.round(np.asarray(curve, dtype=np.float64).reshape(-1, 2), 4)}


def test_each_slice_beyond_the_full_entries_carries_its_own_operating_points(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_data, "MAX_ITEMS_WITH_CURVES", 3)
    monkeypatch.setattr(_slices, "MAX_OVERLAYS", 4)
    ev = sliced(3000, 9)
    d = page_json(_html.render(ev))
    names = [str(p) for p in ev.slices()]
    assert [r["name"] for r in d["items"]] == names and names[0] == "overall"
    assert d["base"] == 0 and d["rankings"][0]["name"] == "overall" and d["items_with_overlays"] == 7
    assert [("overlay" in r, r["curve"] is not None) for r in d["items"]] == [(False, True)] * 3 + [(True, False)] * 4 + [(False, False)] * 3
    for pairs, row in zip(ev.slices(), d["items"]):
        if "overlay" not in row:
            continue
        one = ev[pairs]
        pr, roc = row["overlay"]["pr"], row["overlay"]["roc"]
        full_pr = np.round(one.pr_curve(), 4)
        full_roc = np.round(np.column_stack((1.0 - one.roc_curve()[:, 1], one.roc_curve()[:, 0])), 4)
        assert len(full_pr) > _slices.OVERLAY_POINTS  # downsampled, so the subset is a real choice
        assert 2 <= len(pr) <= _slices.OVERLAY_POINTS and len(roc) <= _slices.OVERLAY_POINTS + 1
        assert {tuple(p) for p in pr} <= rows_of(full_pr) and pr[0] == list(full_pr[0]) and pr[-1] == list(full_pr[-1])
        assert roc[0] == [0.0, 0.0] and {tuple(p) for p in roc[1:]} <= rows_of(full_roc) and roc[-1] == list(full_roc[-1])
        # in rank order: recall never falls along the PR points, nor fpr/tpr along the ROC points
        assert all(a[0] <= b[0] for a, b in zip(pr, pr[1:])) and all(a[0] <= b[0] and a[1] <= b[1] for a, b in zip(roc, roc[1:]))


def test_an_overlay_holds_about_a_kilobyte_so_1000_slices_add_about_a_megabyte() -> None:
    ev = sliced(20_000, 1)
    one = ev.slice(g="g00")
    size = len(json.dumps(_data.clean(_slices.overlay(one)), separators=(",", ":")))
    assert 600 < size <= 1100  # 32 + 33 points of two 4-decimal numbers: 1,000 slices add at most 1.1 MB
    assert _slices.MAX_OVERLAYS == 1000


def test_a_page_without_the_overall_slice_has_no_base() -> None:
    ev = SlicedEvaluation("g", slices=[("g",)])
    ev.add_cases([1, 0, 1, 0], [0.9, 0.8, 0.7, 0.1], g=["a", "a", "b", "b"])
    d = page_json(_html.render(ev))
    assert d["base"] is None and d["gaps"] is None and [r["name"] for r in d["items"]] == ["g=a", "g=b"]


def test_report_by_ci_html_carries_the_gaps_of_average_precision(tmp_path: Path) -> None:
    rng = np.random.default_rng(3)
    n = 600
    region = rng.choice(["eu", "us", "asia"], size=n)
    device = rng.choice(["m", "d"], size=n)
    y = rng.random(n) < 0.4
    s = np.round(rng.normal(y * np.where(region == "us", 0.3, 1.2), 1.0), 2)
    path = tmp_path / "p.csv"
    path.write_text("correct,score,region,device\n" + "".join(
        f"{int(c)},{v!r},{r},{d}\n" for c, v, r, d in zip(y, s.tolist(), region, device)))
    page = tmp_path / "r.html"
    assert main(["report", str(path), "--by", "region", "--by", "device", "--ci", "--resamples", "200",
                 "--html", str(page)]) == 0
    gaps = page_json(page.read_text())["gaps"]
    ev = SlicedEvaluation(("region", "device"), slices=[(), ("region",), ("device",)])
    ev.add_cases(y, s, region=region, device=device)
    want = ev.gaps("average_precision", reference="overall", confidence=0.95, correction="holm", n_resamples=200)
    assert (gaps["measure"], gaps["level"], gaps["correction"]) == ("average_precision", 0.95, "holm")
    by_name = {g["name"]: g for g in gaps["rows"]}
    assert len(by_name) == len(gaps["rows"]) == len(want) == 5
    for w in want:
        got = by_name[str(SliceKeyText(w.slice))]
        for field in ("estimate", "reference", "difference", "low", "high", "p_value", "p_adjusted", "num_cases"):
            value = getattr(w, field)
            assert got[field] == (None if isinstance(value, float) and math.isnan(value) else value), (got["name"], field)
        assert got["method"] == w.method
    assert min(g["p_adjusted"] for g in gaps["rows"]) < 0.05  # us is weaker than the rest
    # without --ci: no gaps table
    assert main(["report", str(path), "--by", "region", "--html", str(page)]) == 0
    assert page_json(page.read_text())["gaps"] is None


class SliceKeyText(tuple):  # type: ignore[type-arg]
    """A slice's pairs printed as the page names them (``region=eu``, ``overall``)."""

    def __str__(self) -> str:
        return ", ".join(f"{k}={'(missing)' if v is None else v}" for k, v in self) or "overall"
