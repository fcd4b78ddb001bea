"""Queries of the scorers' commands whose SQL Django builds once per connection.

Building a query's SQL (its joins, ninety columns, its lookups) costs Django several times
what running it costs when it reads a row or two by key, and a save, an approval and a
signature run the same few shapes again and again: the row locks (``services.locking``),
the table a command names, the hand an approval approves. For those the SQL is built by
Django once per connection and thread, and kept with what turns its rows into models as a
QuerySet would (the rows it brings, its annotations); only the parameters change from one
call to the next (docs/benchmarks.md, "Entry under 16 writers").

A shape is kept only when its SQL is known to depend on its parameters by position alone:
it is built twice with integer stand-ins that no real value can equal, and must give the
same text, with each parameter where the stand-ins put it and every other value the same
both times. Anything else (a value written into the text, a parameter Django transforms,
another database than the connection's) runs as the plain QuerySet every time.
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Callable, Hashable, Sequence

from django.db import models, transaction
from django.db.models.query import ModelIterable, ValuesListIterable, get_related_populators

_kept = threading.local()  # .by_connection: connection → {shape: _Prepared | None}
# Values every integer column takes (Django refuses to query a small column with a value
# out of its range): distinct, and checked twice, so a value of the query that happens to
# equal one is told apart from a parameter.
_FIRST_STAND_IN = 32_001
# Larger values, or negative ones, go through the plain QuerySet (Django answers a value out
# of a column's range without asking the database).
_LARGEST = 2 ** 31 - 1


def _stand_ins(count: int, offset: int) -> list[int]:
    return [_FIRST_STAND_IN + offset + n for n in range(count)]


class _Prepared:
    """One shape's SQL, where each of its parameters comes from (the caller's argument of
    that index, or a fixed value) and the recipe ``ModelIterable`` follows for its rows
    (for a ``values_list()``, the rows are the tuples)."""

    def __init__(self, queryset: models.QuerySet, sources: list[tuple[bool, object]]):
        compiler = queryset.query.get_compiler(using=queryset.db)
        self.sql = compiler.as_sql()[0]
        self.sources = sources
        self.db, self.compiler = queryset.db, compiler
        self.col_count = compiler.col_count
        select, klass_info = compiler.select, compiler.klass_info
        self.converters = compiler.get_converters(
            [column[0] for column in select[:compiler.col_count]])
        self.tuples = queryset._iterable_class is ValuesListIterable  # the rows as they come
        if self.tuples:
            return
        self.model = klass_info["model"]
        fields = klass_info["select_fields"]
        self.start, self.end = fields[0], fields[-1] + 1
        self.init_list = [column[0].target.attname for column in select[self.start:self.end]]
        self.populators = get_related_populators(klass_info, select, self.db)
        self.annotations = list(compiler.annotation_col_map.items())

    def rows(self, connection, arguments: Sequence) -> list[models.Model] | list[tuple]:
        params = [arguments[value] if is_argument else value
                  for is_argument, value in self.sources]
        with connection.cursor() as cursor:
            cursor.execute(self.sql, params)
            rows = [row[:self.col_count] for row in cursor.fetchall()]
        if self.converters:
            rows = self.compiler.apply_converters(rows, self.converters)
        if self.tuples:
            return [tuple(row) for row in rows]
        found = []
        for row in rows:
            obj = self.model.from_db(self.db, self.init_list, row[self.start:self.end])
            for populator in self.populators:
                populator.populate(row, obj)
            for name, position in self.annotations:
                setattr(obj, name, row[position])
            found.append(obj)
        return found


def _prepare(make: Callable[..., models.QuerySet], count: int,
             alias: str) -> _Prepared | None:
    """The shape ``make`` builds, or None when its SQL does not take its parameters by
    position alone (see the module's docstring)."""
    built = []
    for offset in (0, count):
        stand_ins = _stand_ins(count, offset)
        queryset = make(*stand_ins)
        if queryset.db != alias:
            return None
        sql, params = queryset.query.get_compiler(using=queryset.db).as_sql()
        index = {value: n for n, value in enumerate(stand_ins)}
        built.append((queryset, sql, [(True, index[p]) if _is_int(p) and p in index
                                      else (False, p) for p in params]))
    (queryset, sql, sources), (_q, again_sql, again_sources) = built
    if queryset._iterable_class not in (ModelIterable, ValuesListIterable) or (
            queryset._iterable_class is ValuesListIterable
            and (queryset.query.annotation_select or queryset.query.extra_select)):
        return None  # flat, named or reordered values, dictionaries: not kept
    if sql != again_sql or sources != again_sources:
        return None
    if sorted({n for is_argument, n in sources if is_argument}) != list(range(count)):
        return None  # a parameter the SQL does not take as given
    return _Prepared(queryset, sources)


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def prepared_rows(shape: Hashable, make: Callable[..., models.QuerySet],
                  arguments: Sequence[int]) -> list[models.Model] | list[tuple]:
    """The models ``make(*arguments)`` gives (the tuples, for a ``values_list()``), through
    SQL Django built once for ``shape`` on this connection. ``make`` must build the same
    query whatever integers it is given (each argument used as a value, never to choose
    what to build); ``shape`` names what it builds, with anything that changes the query
    (how many keys, what is joined)."""
    if not all(_is_int(value) and 0 <= value <= _LARGEST for value in arguments):
        return list(make(*arguments))
    connection = transaction.get_connection()
    if not hasattr(_kept, "by_connection"):
        _kept.by_connection = weakref.WeakKeyDictionary()
    kept = _kept.by_connection.setdefault(connection, {})
    key = (shape, len(arguments))
    if key not in kept:
        kept[key] = _prepare(make, len(arguments), connection.alias)
    prepared = kept[key]
    if prepared is None:
        return list(make(*arguments))
    return prepared.rows(connection, arguments)
