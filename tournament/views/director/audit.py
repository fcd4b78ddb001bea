"""The audit log, newest first."""


from django.shortcuts import render

from tournament.permissions import Perm
from tournament.tables import AuditTable
from tournament.views.access import staff_view
from tournament.views.listing import show_table

AUDIT_PAGE_SIZE = 50


@staff_view(Perm.VIEW_AUDIT)
def audit_log(request, tournament):
    table = AuditTable(tournament.audit_entries.all())
    show_table(request, table, per_page=AUDIT_PAGE_SIZE)
    return render(request, "director/audit.html", {"tournament": tournament, "table": table})
