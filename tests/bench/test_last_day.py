"""bench/last_day.py asks for every GET address of the project: a URL name added to
``tournament/urls.py`` (or the API) and missing from its list fails here, so no new page
escapes the last day's targets (issue 28)."""

import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "bench"


def test_every_url_name_is_measured_or_said_to_be_no_get_address():
    sys.path.insert(0, str(BENCH))
    try:
        import last_day
    finally:
        sys.path.remove(str(BENCH))
    names = set(last_day.url_names())
    listed = set(last_day.ROUTES) | set(last_day.NOT_GET)
    assert not names - listed, f"not in bench/last_day.py: {sorted(names - listed)}"
    assert not listed - names, f"no such URL name any more: {sorted(listed - names)}"
    assert not set(last_day.ROUTES) & set(last_day.NOT_GET)
