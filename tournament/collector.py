"""Python's cycle collector set for a long-running server process (docs/deploy.md): the
production server's workers (``tournament/wsgi.py``) and the benches that time what they do."""

import gc
import os


def tune_garbage_collection() -> None:
    """Python's cycle collector, set for a server process (docs/deploy.md): every module,
    route and view loaded now is moved out of its sight (``gc.freeze``), and it runs after
    50,000 new objects instead of 700. With the defaults a page of a 512-team event (tens of
    thousands of objects) set off a full collection nearly every request, 50 to 100 ms each
    over the whole process; ``GC_THRESHOLDS`` (three numbers, ``gc.set_threshold``) sets
    others."""
    from django.core.exceptions import ImproperlyConfigured
    from django.urls import get_resolver

    text = os.environ.get("GC_THRESHOLDS", "50000,20,10")
    try:
        thresholds = [int(value) for value in text.split(",")]
    except ValueError:
        thresholds = []
    if len(thresholds) != 3 or min(thresholds) < 1:
        raise ImproperlyConfigured(
            f"GC_THRESHOLDS is three whole numbers above 0, such as 50000,20,10, not {text!r}")
    get_resolver().url_patterns  # noqa: B018  (imports every view before the freeze)
    gc.set_threshold(*thresholds)
    gc.freeze()
