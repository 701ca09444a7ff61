"""The documentation site builds from the docstrings with warnings as errors."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("sphinx")
pytest.importorskip("numpydoc")
pytest.importorskip("myst_parser")

ROOT = Path(__file__).resolve().parents[2]
PAGES = ["index", "usage", "definitions", "cli", "streaming", "testing", "plots", "html", "scale", "reliability",
         "performance", "development", "architecture", "ir-measures", "trec-eval", "uncertainty", "porting-from-lingpipe", "api/index", "api/interface", "api/evaluation", "api/bounded", "api/functional",
         "api/multi", "api/multilabel", "api/trec", "api/concurrency", "api/streaming", "api/integrations", "api/testing", "api/plot", "api/lingpipe"]


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("html")
    proc = subprocess.run(
        [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-b", "html", "-q", str(ROOT / "docs"), str(out)],
        capture_output=True, text=True, cwd=ROOT,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return out


def test_every_page_is_built(site: Path) -> None:
    missing = [p for p in PAGES if not (site / f"{p}.html").is_file()]
    assert not missing


def test_api_pages_carry_the_docstrings(site: Path) -> None:
    page = (site / "api" / "evaluation.html").read_text(encoding="utf-8")
    for method in ("add_case", "average_precision", "area_under_roc_curve", "pr_breakeven_point", "to_dict"):
        assert f'id="scored_pr.ScoredPrecisionRecallEvaluation.{method}"' in page, method
    # numpydoc turned the sections into fields, not literal "Parameters" underlines.
    assert "----------" not in page


def test_the_interface_page_documents_the_protocol_and_every_kind_links_to_it(site: Path) -> None:
    page = (site / "api" / "interface.html").read_text(encoding="utf-8")
    for name in ("Evaluation", "UnsupportedQuery", "Confusion", "OperatingPoint"):
        assert f'id="scored_pr.{name}"' in page, name
    for method in ("confusion_at_threshold", "precision_at_threshold", "summary", "to_dict"):
        assert f'id="scored_pr.Evaluation.{method}"' in page, method
    index = (site / "api" / "index.html").read_text(encoding="utf-8")
    for caption in ("One interface", "Evaluator kinds", "Compatibility"):
        assert caption in index, caption


def test_lingpipe_page_documents_both_versions(site: Path) -> None:
    page = (site / "api" / "lingpipe.html").read_text(encoding="utf-8")
    for method in ("addCase", "addNegativeMisses", "rPrecision", "elevenPtInterpPrecision", "printScorePrecisionRecallCurve", "version"):
        assert f'id="scored_pr.lingpipe.ScoredPrecisionRecallEvaluation.{method}"' in page, method
    assert 'id="scored_pr.lingpipe.double_to_string"' in page
