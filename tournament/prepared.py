"""Queries and writes of the scorers' commands whose SQL Django builds once per connection.

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

The rows a save writes (the hand's new version, both teams' results, both seats' tallies,
the audit entry) go the same way (``insert``, ``upsert``, ``update``, ``delete``): the
statement of a model, its columns and a number of rows is built once per connection from
Django's own pieces (its quoting, its ON CONFLICT and RETURNING clauses), and each value is
turned into its parameter as Django's save does (``Field.pre_save`` then
``get_db_prep_save``: the time stamps, the JSON). A field Django would write otherwise (a
placeholder of its own, a database default, a value that is an expression), or a delete
that Django would follow to other rows (a cascade, a signal), is left to Django.
"""

from __future__ import annotations

import threading
import uuid
import weakref
from collections.abc import Callable, Hashable, Sequence
from contextlib import contextmanager

from django.db import DatabaseError, models, transaction
from django.db.backends.utils import CursorDebugWrapper, CursorWrapper
from django.db.models import signals
from django.db.models.constants import OnConflict
from django.db.models.deletion import Collector
from django.db.models.query import ModelIterable, ValuesListIterable, get_related_populators

_kept = threading.local()  # .by_connection: connection → {shape: _Prepared | None}
# Values every integer column takes (Django refuses to query a small column with a value
# out of its range): distinct, and checked twice, so a value of the query that happens to
# equal one is told apart from a parameter.
_FIRST_STAND_IN = 32_001
# Larger values, or negative ones, go through the plain QuerySet (Django answers a value out
# of a column's range without asking the database).
_LARGEST = 2 ** 31 - 1


@contextmanager
def _cursor(connection):
    """A cursor for the kept statements. On PostgreSQL it sends the parameters apart from
    the SQL, so that the server prepares a statement once the connection has run it
    ``prepare_threshold`` times (settings: ``PG_PREPARE_THRESHOLD``) and skips planning it
    from then on. Django's other queries keep its own cursor, which sends them as text,
    planned each time for their values: a statement prepared once may run under a plan
    made for any values (a generic plan), which suits the scorers' statements, each about
    a row or two found by key, and not every report's. One such cursor is kept for each
    connection (each use reads all its rows)."""
    if connection.vendor != "postgresql":
        with connection.cursor() as cursor:
            yield cursor
        return
    connection.close_if_health_check_failed()
    connection.ensure_connection()
    if not hasattr(_kept, "cursors"):
        _kept.cursors = weakref.WeakKeyDictionary()
    cursor = _kept.cursors.get(connection.connection)
    if cursor is None or cursor.closed:
        cursor = _kept.cursors[connection.connection] = _server_binding_cursor(connection)
    if connection.queries_logged:
        connection.validate_thread_sharing()
        yield _LoggedCursor(cursor, connection)
    else:
        yield connection._prepare_cursor(cursor)


class _LoggedCursor(CursorDebugWrapper):
    """Django's logging cursor, naming each statement by its own text: Django reads it
    back from psycopg, which forgets it when it runs a statement prepared (the query logs,
    ``assertNumQueries`` and the debug toolbar would show None)."""

    def execute(self, sql, params=None):
        with self.debug_sql(self.db.ops.compose_sql(sql, params)):
            return CursorWrapper.execute(self, sql, params)


def _server_binding_cursor(connection):
    from django.db.backends.postgresql.base import TIMESTAMPTZ_OID, ServerBindingCursor
    from django.db.backends.postgresql.psycopg_any import register_tzloader
    from psycopg.pq import Format

    with connection.wrap_database_errors:
        cursor = ServerBindingCursor(connection.connection)
        # As Django's own cursors: times read in the connection's time zone.
        loader = connection.connection.adapters.get_loader(TIMESTAMPTZ_OID, Format.TEXT)
        if connection.timezone != loader.timezone:
            register_tzloader(connection.timezone, cursor)
    return cursor


def _stand_ins(kinds: tuple[type, ...], offset: int) -> list[int | uuid.UUID]:
    """Integers, or UUIDs made of them where the caller passes a UUID (a request token)."""
    return [kind(int=_FIRST_STAND_IN + offset + n) if kind is uuid.UUID
            else _FIRST_STAND_IN + offset + n for n, kind in enumerate(kinds)]


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
        with _cursor(connection) as cursor:
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


def _prepare(make: Callable[..., models.QuerySet], kinds: tuple[type, ...],
             alias: str) -> _Prepared | None:
    """The shape ``make`` builds, or None when its SQL does not take its parameters by
    position alone (see the module's docstring). A UUID is kept only where the database
    takes it as it is (PostgreSQL's uuid); SQLite's text of it runs as the plain query."""
    built = []
    count = len(kinds)
    for offset in (0, count):
        stand_ins = _stand_ins(kinds, offset)
        queryset = make(*stand_ins)
        if queryset.db != alias:
            return None
        sql, params = queryset.query.get_compiler(using=queryset.db).as_sql()
        index = {value: n for n, value in enumerate(stand_ins)}
        built.append((queryset, sql, [(True, index[p]) if _is_argument(p) and p in index
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


def _is_argument(value) -> bool:
    return _is_int(value) or isinstance(value, uuid.UUID)


def prepared_rows(shape: Hashable, make: Callable[..., models.QuerySet],
                  arguments: Sequence[int | uuid.UUID]) -> list[models.Model] | list[tuple]:
    """The models ``make(*arguments)`` gives (the tuples, for a ``values_list()``), through
    SQL Django built once for ``shape`` on this connection. ``make`` must build the same
    query whatever integers (or UUIDs) it is given (each argument used as a value, never to
    choose what to build); ``shape`` names what it builds, with anything that changes the
    query (how many keys, what is joined)."""
    if not all(isinstance(value, uuid.UUID) or (_is_int(value) and 0 <= value <= _LARGEST)
               for value in arguments):
        return list(make(*arguments))
    connection = transaction.get_connection()
    if not hasattr(_kept, "by_connection"):
        _kept.by_connection = weakref.WeakKeyDictionary()
    kept = _kept.by_connection.setdefault(connection, {})
    kinds = tuple(uuid.UUID if isinstance(value, uuid.UUID) else int for value in arguments)
    key = (shape, kinds)
    if key not in kept:
        kept[key] = _prepare(make, kinds, connection.alias)
    prepared = kept[key]
    if prepared is None:
        return list(make(*arguments))
    return prepared.rows(connection, arguments)


def kept_sql_rows(key: Hashable, build: Callable[..., str],
                  params: Sequence) -> list[tuple]:
    """The rows of a statement written by hand, for a look-up no QuerySet says in one
    statement (a UNION of columns and constants): ``build(connection)`` gives its SQL,
    with ``%s`` for each parameter, once per connection; it runs through the same cursor
    as the kept queries (prepared by PostgreSQL's server once it has run a few times). The
    caller turns each value into its parameter as Django would (``get_db_prep_value``)."""
    connection = transaction.get_connection()
    sql = _kept_statement(("sql", key), lambda: build(connection))
    with _cursor(connection) as cursor:
        cursor.execute(sql, list(params))
        return [tuple(row) for row in cursor.fetchall()]


# Writes ----------------------------------------------------------------------------------
# More rows than this in one write go through Django's bulk_create (an import's thousands):
# one kept statement for each count would be no saving.
_PREPARED_WRITE_ROWS = 4


class _Write:
    """One kept INSERT: its SQL and the fields whose values it takes, row after row."""

    def __init__(self, sql: str, fields: list[models.Field], returns_pk: bool):
        self.sql, self.fields, self.returns_pk = sql, fields, returns_pk


def _insert_fields(model: type[models.Model], with_pk: bool) -> list[models.Field] | None:
    """The columns Django's insert would write (every concrete field, the automatic primary
    key only when given), or None when one of them is not a plain parameter."""
    meta = model._meta
    fields = [field for field in meta.local_concrete_fields
              if with_pk or field is not meta.auto_field]
    for field in fields:
        if (getattr(field, "generated", False) or hasattr(field, "get_placeholder")
                or field.has_db_default() or (field.db_returning and not field.primary_key)):
            return None
    return fields


def _build_write(connection, model, fields, rows: int, returns_pk: bool,
                 unique_fields: tuple[str, ...], update_fields: tuple[str, ...]) -> _Write:
    ops, meta = connection.ops, model._meta
    columns = ", ".join(ops.quote_name(field.column) for field in fields)
    one_row = "(" + ", ".join(["%s"] * len(fields)) + ")"
    on_conflict = OnConflict.UPDATE if update_fields else None
    sql = [ops.insert_statement(on_conflict=on_conflict),
           f"{ops.quote_name(meta.db_table)} ({columns})",
           "VALUES " + ", ".join([one_row] * rows)]
    if on_conflict:
        sql.append(ops.on_conflict_suffix_sql(
            fields, on_conflict, [meta.get_field(name).column for name in update_fields],
            [meta.get_field(name).column for name in unique_fields]))
    if returns_pk:
        returning, _params = ops.return_insert_columns([meta.pk])
        sql.append(returning)
    return _Write(" ".join(part for part in sql if part), fields, returns_pk)


def _write(objs: Sequence[models.Model], *, returns_pk: bool,
           unique_fields: tuple[str, ...] = (), update_fields: tuple[str, ...] = ()) -> bool:
    """Write these new rows of one model through a kept INSERT; False (nothing written)
    when Django must write them."""
    model = type(objs[0])
    connection = transaction.get_connection()
    if (len(objs) > _PREPARED_WRITE_ROWS or any(type(obj) is not model for obj in objs)
            or (returns_pk and not connection.features.can_return_columns_from_insert)):
        return False
    with_pk = objs[0].pk is not None
    if any((obj.pk is not None) != with_pk for obj in objs):
        return False
    if not hasattr(_kept, "writes"):
        _kept.writes = weakref.WeakKeyDictionary()
    kept = _kept.writes.setdefault(connection, {})
    key = (model, len(objs), with_pk, returns_pk, unique_fields, update_fields)
    if key not in kept:
        fields = _insert_fields(model, with_pk)
        kept[key] = fields and _build_write(connection, model, fields, len(objs), returns_pk,
                                            unique_fields, update_fields)
    write = kept[key]
    if not write:
        return False
    values = [field.pre_save(obj, add=True) for obj in objs for field in write.fields]
    if any(hasattr(value, "resolve_expression") for value in values):
        return False
    fields = write.fields * len(objs)
    params = [field.get_db_prep_save(value, connection=connection)
              for field, value in zip(fields, values, strict=True)]
    with _cursor(connection) as cursor:
        cursor.execute(write.sql, params)
        returned = cursor.fetchall() if write.returns_pk else ()
    pk = model._meta.pk
    for obj, row in zip(objs, returned, strict=False):
        converters = pk.get_db_converters(connection)
        value = row[0]
        for converter in converters:
            value = converter(value, pk, connection)
        obj.pk = value
    for obj in objs:
        obj._state.adding, obj._state.db = False, connection.alias
    return True


def _has_save_listeners(model: type[models.Model]) -> bool:
    """A model whose saves someone listens to (a history of its rows, say) is saved by
    Django, which sends the signals; bulk_create sends none, and neither does an upsert."""
    return signals.pre_save.has_listeners(model) or signals.post_save.has_listeners(model)


def insert(obj: models.Model) -> models.Model:
    """``obj`` saved as a new row (as ``Model.objects.create`` would), with its primary
    key; through a kept INSERT on this connection, unless someone listens to the model's
    saves."""
    if _has_save_listeners(type(obj)) or not _write([obj], returns_pk=obj.pk is None):
        obj.save(force_insert=True)
    return obj


def upsert(objs: Sequence[models.Model], *, unique_fields: Sequence[str],
           update_fields: Sequence[str]) -> None:
    """Insert these rows, or update ``update_fields`` of the rows already there with the
    same ``unique_fields`` (as ``bulk_create(update_conflicts=True)``); their primary keys
    are not read back."""
    if not objs:
        return
    if not _write(objs, returns_pk=False, unique_fields=tuple(unique_fields),
                  update_fields=tuple(update_fields)):
        type(objs[0]).objects.bulk_create(objs, batch_size=1000, update_conflicts=True,
                                          unique_fields=list(unique_fields),
                                          update_fields=list(update_fields))


def _kept_statement(key: tuple, build: Callable[[], str | None]) -> str | None:
    connection = transaction.get_connection()
    if not hasattr(_kept, "statements"):
        _kept.statements = weakref.WeakKeyDictionary()
    kept = _kept.statements.setdefault(connection, {})
    if key not in kept:
        kept[key] = build()
    return kept[key]


def _plain(fields: Sequence[models.Field]) -> bool:
    return all(field.concrete and not hasattr(field, "get_placeholder")
               and not getattr(field, "generated", False) for field in fields)


def update(obj: models.Model, fields: Sequence[str]) -> None:
    """Write these fields of a saved row, as ``obj.save(update_fields=fields)`` would,
    through an UPDATE kept per connection, unless someone listens to the model's saves."""
    model, meta = type(obj), obj._meta
    connection = transaction.get_connection()

    def build() -> str | None:
        chosen = [meta.get_field(name) for name in fields]
        if not _plain(chosen) or any(field.primary_key for field in chosen):
            return None
        qn = connection.ops.quote_name
        assignments = ", ".join(f"{qn(field.column)} = %s" for field in chosen)
        return f"UPDATE {qn(meta.db_table)} SET {assignments} WHERE {qn(meta.pk.column)} = %s"

    sql = _kept_statement(("update", model, tuple(fields)), build)
    values = [field.pre_save(obj, add=False) for field in (meta.get_field(n) for n in fields)]
    if (sql is None or obj.pk is None or _has_save_listeners(model)
            or any(hasattr(value, "resolve_expression") for value in values)):
        obj.save(update_fields=list(fields))
        return
    params = [meta.get_field(name).get_db_prep_save(value, connection=connection)
              for name, value in zip(fields, values, strict=True)]
    params.append(meta.pk.get_db_prep_value(obj.pk, connection))
    with _cursor(connection) as cursor:
        cursor.execute(sql, params)
        if cursor.rowcount == 0:  # as Model.save(update_fields=…) says it
            raise DatabaseError("Save with update_fields did not affect any rows.")


def delete(model: type[models.Model], **equal: int) -> int:
    """Delete the rows whose columns (by attribute name: ``table_id=…``) equal these
    integers, as ``model.objects.filter(**equal).delete()`` would; how many were."""
    meta = model._meta
    connection = transaction.get_connection()
    names = tuple(sorted(equal))

    def build() -> str | None:
        by_attname = {field.attname: field for field in meta.concrete_fields}
        chosen = [by_attname.get(name) for name in names]
        if (None in chosen or not _plain(chosen)
                or not Collector(using=connection.alias, origin=None).can_fast_delete(model)):
            return None
        qn = connection.ops.quote_name
        where = " AND ".join(f"{qn(field.column)} = %s" for field in chosen)
        return f"DELETE FROM {qn(meta.db_table)} WHERE {where}"

    sql = _kept_statement(("delete", model, names), build)
    if (sql is None or signals.pre_delete.has_listeners(model)
            or signals.post_delete.has_listeners(model)
            or not all(_is_int(equal[name]) for name in names)):
        return model.objects.filter(**equal).delete()[0]
    with _cursor(connection) as cursor:
        cursor.execute(sql, [equal[name] for name in names])
        return cursor.rowcount
