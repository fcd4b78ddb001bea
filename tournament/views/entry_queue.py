"""What a table screen's queue of commands not sent yet (entry_queue.js) asks the server
besides the commands themselves (issue 51; docs/results.md, "When the network drops").

- ``queue_status``: when a kept command is not taken (a log-in page instead of an answer,
  a 403, a 404), whose session this browser holds now and which table that account may
  send a table's commands to, so that the screen says why in words: logged out, another
  account logged in, moved to table 7 by a referee, or refused and why.
- ``queue_discard``: a kept command the scorer discarded, recorded in the audit log
  (``services.discards``).
- ``refused_for_another_account``: the commands carry the name of the queue they come
  from (``queue_keys.queue_name``); one sent while another account holds the browser's
  session is refused before anything is read or bound, never done as that account.
"""

from __future__ import annotations

from django.http import HttpResponseForbidden, JsonResponse
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from tournament.forms import HandResultForm
from tournament.models import Round, Table, Tournament
from tournament.permissions import Perm, has_perm
from tournament.queue_keys import queue_name
from tournament.selectors.visibility import sees_every_result
from tournament.services import ServiceError
from tournament.services.base import Actor
from tournament.services.devices import bound_table
from tournament.services.discards import record_discarded
from tournament.services.text import parse_whole_number
from tournament.views.access import staff_view


def refused_for_another_account(request):
    """A 403 when the request names a queue that is not this account's; None otherwise (a
    form posted by the page itself names none)."""
    posted = request.POST.get("queue")
    if posted is not None and posted != queue_name(request.user):
        return HttpResponseForbidden("this command was kept for another account")
    return None


@never_cache
@require_GET
def queue_status(request, slug, pk):
    """JSON: ``account``, the name of the queue of the account logged in (null when none);
    ``table``, the table this account may send the commands kept for table ``pk`` to
    (that one, or the one a referee moved it to), with its number and entry page; or
    ``refused``, why it may send them nowhere. Says nothing to a visitor not logged in."""
    if not request.user.is_authenticated:
        return JsonResponse({"account": None})
    answer = {"account": queue_name(request.user), "table": None, "refused": ""}
    tournament = Tournament.objects.filter(slug=slug).first()
    if tournament is None or not has_perm(request.user, tournament, Perm.ENTER_RESULTS):
        answer["refused"] = _("this account may not enter results in this tournament")
        return JsonResponse(answer)
    table = (Table.objects.select_related("match__round__stage__tournament")
             .filter(pk=pk, round__stage__tournament=tournament).first())
    if table is None or (table.match.round.status == Round.Status.DRAFT and not has_perm(
            request.user, tournament, Perm.MANAGE_ROUNDS)):
        answer["refused"] = _("there is no table %(id)s") % {"id": pk}
        return JsonResponse(answer)
    target = table
    if not sees_every_result(request.user, table.match.round):
        target = bound_table(request.user, table.match.round) or table
    answer["table"] = {"pk": target.pk, "number": target.number,
                       "entry": reverse("director:table_entry", args=[slug, target.pk])}
    return JsonResponse(answer)


@staff_view(Perm.ENTER_RESULTS)
@require_POST
def queue_discard(request, tournament):
    """JSON ``{"ok": true, "done": false}`` once recorded (``done``: the command had reached
    the server after all, and stays saved), or ``{"ok": false, "error": …}``."""
    refused = refused_for_another_account(request)
    if refused is not None:
        return refused
    post = request.POST
    hand = parse_whole_number(post.get("hand"))
    entry = None
    if hand is not None and post.get("command") == "enter" and not post.get("cards"):
        form = HandResultForm(post, prefix=f"h{hand}")
        if form.is_valid() and not form.cards_mode:
            entry = form.entry()
    try:
        discarded = record_discarded(
            Actor.from_request(request), parse_whole_number(post.get("table")) or 0,
            command=post.get("command", ""), hand=hand or 0,
            seat=parse_whole_number(post.get("seat")), request_token=post.get("request_token"),
            entry=entry, cards=bool(post.get("cards")), why=post.get("why", "other"),
            approvals=parse_whole_number(post.get("approvals")) or 0)
    except ServiceError as error:
        return JsonResponse({"ok": False, "error": error.message})
    return JsonResponse({"ok": True, "done": discarded.done})
