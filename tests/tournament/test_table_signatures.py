"""django-tables2 asks which arguments a column method takes once per function, not once
per cell (``tournament.tables.signatures``): the same answers as the library's own, for
every kind of callable, and the same exports."""

import functools
import io

import django_tables2 as tables
from django_tables2 import utils
from openpyxl import load_workbook

from tournament.tables import SpreadsheetExport, signatures


def plain(record, value):
    return value


def with_catch_all(value, *args, **extra):
    return value


class Columns:
    def render(self, value, record, bound_column):
        return value

    @classmethod
    def made(cls, table):
        return table

    def __call__(self, value):
        return value


def test_the_answers_are_the_librarys_for_every_kind_of_callable():
    assert utils.signature is signatures.signature  # installed when the application starts
    callables = [plain, with_catch_all, lambda: 1, lambda value, **kw: value,
                 Columns().render, Columns.made, Columns(), functools.partial(plain, 1), len,
                 Columns.render]
    for fn in callables:
        for _ in range(2):  # asked, then kept
            assert signatures.signature(fn) == signatures._asked(fn), fn
    # A bound method's answer is its function's without the first parameter, whatever it
    # is bound to.
    assert signatures.signature(Columns().render) == (("value", "record", "bound_column"),
                                                      None)
    assert signatures.signature(Columns.render) == (("self", "value", "record",
                                                     "bound_column"), None)


class Rounded(tables.Table):
    team = tables.Column()
    points = tables.Column()
    note = tables.Column(empty_values=())

    def render_points(self, value):
        return f"{value:+d}"

    def value_points(self, value, record):
        return value * 10 + record["team"].count("A")

    def render_note(self, record, bound_column, **rest):
        return f"{bound_column.name}:{record['team']}"


ROWS = [{"team": f"A{n}B", "points": n - 20} for n in range(40)]


def xlsx_rows(content: bytes) -> list[tuple]:
    return list(load_workbook(io.BytesIO(content)).active.iter_rows(values_only=True))


def test_a_table_asks_once_per_function_and_exports_what_the_library_exports(monkeypatch):
    exports = {}
    for kept in (False, True):
        monkeypatch.setattr(utils, "signature",
                            signatures.signature if kept else signatures._asked)
        exports[kept] = (SpreadsheetExport("csv", Rounded(ROWS)).export(),
                         xlsx_rows(SpreadsheetExport("xlsx", Rounded(ROWS)).export()),
                         [list(row) for row in Rounded(ROWS).as_values()],
                         [[cell for cell in row] for row in Rounded(ROWS).rows])
    assert exports[True] == exports[False]
    assert exports[True][2][1] == ["A0B", -199, "note:A0B"]  # value_points
    assert exports[True][3][0] == ["A0B", "-20", "note:A0B"]  # render_points

    asked, librarys = [], signatures._asked

    def counting(fn):
        asked.append(fn)
        return librarys(fn)

    monkeypatch.setattr(utils, "signature", signatures.signature)
    monkeypatch.setattr(signatures, "_of_methods", type(signatures._of_methods)())
    monkeypatch.setattr(signatures, "_of_functions", type(signatures._of_functions)())
    monkeypatch.setattr(signatures, "_asked", counting)
    for _ in range(2):
        [list(row) for row in Rounded(ROWS).as_values()]
        [[cell for cell in row] for row in Rounded(ROWS).rows]
    # Two tables of 40 rows, each cell rendered and its value read: each method (the
    # table's and the columns' own) asked about once.
    names = sorted(fn.__qualname__ for fn in asked)
    assert names == sorted(set(names))
    assert {"Rounded.render_note", "Rounded.render_points", "Rounded.value_points"} <= set(names)
    assert len(names) <= 6
