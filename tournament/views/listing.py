"""Ordering and pages for list views, whatever the query string says."""

from django.core.paginator import EmptyPage, PageNotAnInteger
from django_tables2 import RequestConfig


def show_table(request, table, *, per_page: int | None = None):
    """Order by the query string and show one page of ``per_page`` rows.

    The page size is ours, not the visitor's: ``?per_page=`` is ignored so nobody can ask
    for a million rows or a page size of -1.
    """
    RequestConfig(request, paginate=False).configure(table)
    if per_page:
        page = request.GET.get(table.prefixed_page_field, "1")
        try:
            table.paginate(page=int(page), per_page=per_page)
        except (ValueError, PageNotAnInteger):
            table.paginate(page=1, per_page=per_page)
        except EmptyPage:
            table.paginate(page=max(1, table.paginator.num_pages), per_page=per_page)
    return table
