"""No module of scored_pr over 1,000 lines: a file that grows past it is split by role, not by count."""

from __future__ import annotations

from pathlib import Path

import scored_pr

PACKAGE = Path(scored_pr.__file__).resolve().parent
MAX_LINES = 1_000


def line_counts(root: Path) -> dict[str, int]:
    """Each ``.py`` file under ``root`` (relative path) with its number of lines."""
    return {str(p.relative_to(root)): len(p.read_text(encoding="utf-8").splitlines()) for p in sorted(root.rglob("*.py"))}


def test_no_module_is_over_a_thousand_lines() -> None:
    counts = line_counts(PACKAGE)
    assert len(counts) > 100  # the whole package was read
    over = {path: n for path, n in counts.items() if n > MAX_LINES}
    assert not over, f"modules over {MAX_LINES} lines (split them by role): {over}"


def test_the_counter_sees_a_long_module(tmp_path: Path) -> None:
    (tmp_path / "short.py").write_text("x = 1\n")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "long.py").write_text("x = 1\n" * (MAX_LINES + 1))
    assert line_counts(tmp_path) == {"short.py": 1, "sub/long.py": MAX_LINES + 1}
