"""``PlainRows``: the fast writer of a table of plain dict rows, its page body and its
downloads' values."""

import html
import re

import django_tables2 as tables
from django.conf import settings
from django.utils.encoding import force_str
from django.utils.formats import localize
from django.utils.functional import Promise
from django.utils.safestring import SafeString, mark_safe
from django_tables2.utils import AttributeDict, signature


def escaped(cell) -> str:
    """``conditional_escape`` without its check for lazy texts on every call (a tenth of
    the body's time): a cell is HTML already, or text escaped here; a lazy text is made a
    text first, as there."""
    if isinstance(cell, Promise):
        cell = str(cell)
    if hasattr(cell, "__html__"):
        return cell.__html__()
    return html.escape(str(cell))


class PlainRows:
    """For a table of hundreds of rows of plain dicts (a championship's standings): the body
    is written in one pass, with each column's cell attributes and its render method's
    arguments worked out once per column. django-tables2 works them out again for every
    cell (0.1 ms a cell: half a second for the 512 × 9 cells of 512 teams). The caption,
    the header and the downloads stay django-tables2's, and a cell is what it would have
    made of it: the column's ``render_<name>`` called with the ``record`` and ``value`` it
    asks for, else the value localized as a template shows it; an empty value shows the
    column's default."""

    def plain_body(self) -> SafeString:
        columns = []
        for column in self.columns:  # the visible ones, in order
            render = getattr(self, f"render_{column.name}", None)
            wanted = signature(render)[0] if render else ()
            fixed = {"table": self, "column": column.column, "bound_column": column}
            if not set(wanted) <= {"value", "record", *fixed}:
                raise TypeError(f"{type(self).__name__}.render_{column.name} asks for an "
                                "argument a plain row does not have (bound_row?)")
            fixed = {name: fixed[name] for name in wanted if name in fixed}
            columns.append((column.accessor, column.attrs["td"].as_html(), render, wanted,
                            fixed, column.default, column.column.empty_values))
        row_attrs = [(name, value, signature(value)[0] if callable(value) else ())
                     for name, value in self.row_attrs.items()]
        localized = {}  # the same few numbers come back in every row
        html = []
        for record in self.data.data:
            arguments = {"table": self, "record": record}
            attrs = AttributeDict({
                name: value(**{arg: arguments[arg] for arg in wanted}) if callable(value)
                else value for name, value, wanted in row_attrs})
            html.append(f"<tr {attrs.as_html()}>" if any(attrs.values()) else "<tr>")
            for accessor, td_attrs, render, wanted, fixed, default, empty_values in columns:
                value = record.get(accessor)
                if value in empty_values:
                    cell = default
                elif render is not None:
                    cell = render(**fixed, **{name: record if name == "record" else value
                                              for name in wanted if name not in fixed})
                elif isinstance(value, str):
                    cell = value
                elif type(value) is int and not settings.USE_THOUSAND_SEPARATOR:
                    cell = str(value)  # what localize makes of it, a tenth of the time
                else:
                    key = (type(value), value)
                    if key not in localized:
                        localized[key] = localize(value)
                    cell = localized[key]
                html.append(f"<td {td_attrs}>{escaped(cell)}</td>")
            html.append("</tr>")
        return mark_safe("".join(html))  # every value was escaped above

    def as_values(self, exclude_columns=None):
        """The downloads' rows (django-tables2's ``Table.as_values``: the header, then each
        record's cells by the column's ``value_<name>``, else ``render_<name>``, else the
        value; ``None`` for an empty one), with each column's method and arguments worked
        out once, not per cell (a download of 1,024 players spent half a second there)."""
        exclude_columns = exclude_columns or ()
        columns = [column for column in self.columns.iterall()
                   if not (column.column.exclude_from_export or column.name in exclude_columns)]
        plain = []
        for column in columns:
            value = getattr(self, f"value_{column.name}",
                            getattr(self, f"render_{column.name}", None))
            wanted = signature(value)[0] if value is not None else ()
            fixed = {"table": self, "column": column.column, "bound_column": column}
            if (not set(wanted) <= {"value", "record", *fixed}
                    or (value is None and type(column.column) is not tables.Column)
                    or re.search(r"[.]|__", column.accessor)):
                yield from super().as_values(exclude_columns)  # a cell of another kind
                return
            plain.append((column.accessor, value, wanted,
                          {name: fixed[name] for name in wanted if name in fixed},
                          column.column.empty_values))
        yield [force_str(column.header, strings_only=True) for column in columns]
        for record in self.data.data:
            row = []
            for accessor, method, wanted, fixed, empty_values in plain:
                value = record.get(accessor)
                if value in empty_values:
                    value = None
                elif method is not None:
                    value = method(**fixed, **{name: record if name == "record" else value
                                               for name in wanted if name not in fixed})
                row.append(force_str(value, strings_only=True))
            yield row
