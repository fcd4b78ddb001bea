"""Which arguments a column's ``render_…`` and ``value_…`` methods take, worked out once
per function rather than once per cell.

django-tables2 asks ``inspect.signature`` about the method for every cell it renders or
exports (``django_tables2.utils.signature``, through ``call_with_appropriate``): the
traveller's spreadsheet of a box played at 512 tables asked 11,156 times, half of the
download's time (docs/benchmarks.md). A function's parameters do not change, so the answer
is kept per function (weakly: a function made at run time goes when nobody holds it). For a
bound method the answer is the function's without its first parameter, whatever it is bound
to. Any other callable (a partial, an object with ``__call__``) is asked each time, as the
library does.
"""

from __future__ import annotations

import types
import weakref

from django_tables2 import utils

_asked = utils.signature  # the library's own
_of_functions: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_of_methods: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def signature(fn) -> tuple[tuple[str, ...], str | None]:
    """``django_tables2.utils.signature``: (the arguments, the name of ``**kwargs`` or
    None)."""
    if isinstance(fn, types.MethodType) and isinstance(fn.__func__, types.FunctionType):
        known, key = _of_methods, fn.__func__
    elif isinstance(fn, types.FunctionType):
        known, key = _of_functions, fn
    else:
        return _asked(fn)
    found = known.get(key)
    if found is None:
        found = known[key] = _asked(fn)
    return found


def install() -> None:
    """Put ``signature`` in the library's place (``call_with_appropriate`` looks it up in
    ``django_tables2.utils`` at each call); done once, when the application starts."""
    utils.signature = signature
