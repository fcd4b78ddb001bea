"""Modules with one job stay short: none of ``scoring/`` or ``tournament/`` over 450 lines,
except the migrations (written by Django) and the card engine's hot path
(``scoring/melds.py``, kept whole on purpose)."""

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LIMIT = 450
EXCEPTIONS = {Path("scoring/melds.py")}


def test_no_module_is_longer_than_the_limit():
    long = {}
    for package in ("scoring", "tournament"):
        for path in sorted((ROOT / package).rglob("*.py")):
            relative = path.relative_to(ROOT)
            if "migrations" in relative.parts or relative in EXCEPTIONS:
                continue
            lines = len(path.read_text(encoding="utf-8").splitlines())
            if lines > LIMIT:
                long[str(relative)] = lines
    assert not long, f"split these along their jobs (at most {LIMIT} lines): {long}"
