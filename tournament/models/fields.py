"""A time the software stamps on a row, which an import may give instead.

``StampedTime`` is Django's ``DateTimeField(auto_now…)`` except inside
``keeping_given_times()``: there the row keeps the time already on it (the one read from
the tournament file). The switch is a context variable, so it holds for the importing
thread alone: a scorer saving a hand in another thread of the same process still gets the
time of now (switching ``auto_now`` off on the field itself, as the command line once did,
would have switched it off for every thread).
"""

import contextlib
import contextvars

from django.db import models

_given_times = contextvars.ContextVar("given_times", default=False)


@contextlib.contextmanager
def keeping_given_times():
    token = _given_times.set(True)
    try:
        yield
    finally:
        _given_times.reset(token)


class StampedTime(models.DateTimeField):
    def pre_save(self, model_instance, add):
        if _given_times.get():
            return getattr(model_instance, self.attname)
        return super().pre_save(model_instance, add)

    def deconstruct(self):
        # Stored exactly as a DateTimeField: no migration, and none when this class moves.
        name, _path, args, kwargs = super().deconstruct()
        return name, "django.db.models.DateTimeField", args, kwargs
