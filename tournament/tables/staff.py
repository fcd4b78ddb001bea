"""The staff's list tables: tournaments, teams, staff roles and the audit log (querysets of
models, rendered by django-tables2 as it is)."""

import django_tables2 as tables
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.html import format_html
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from tournament import names
from tournament.models import AuditEntry, StaffRole, Team, Tournament


class TournamentTable(tables.Table):
    caption = _("Tournaments")
    caption_hidden = True
    stacked = True  # a card per row on a phone
    name = tables.LinkColumn("director:dashboard", args=[tables.A("slug")],
                             text=lambda record: record.shown_name)

    class Meta:
        model = Tournament
        fields = ("name", "starts_on", "ends_on", "venue", "status")
        orderable = False
        attrs = {"class": "stack"}


class TeamTable(tables.Table):
    caption = _("Teams")
    caption_hidden = True
    stacked = True
    seed = tables.Column(verbose_name=_("Seed"), default="")
    code = tables.Column(verbose_name=_("Code"))
    name = tables.Column(verbose_name=_("Team"))
    country = tables.Column(verbose_name=_("Country or club"))
    players = tables.Column(verbose_name=_("Players"), empty_values=(), orderable=False)

    class Meta:
        model = Team
        fields = ("seed", "code", "name", "country", "players")
        order_by = ("seed", "name")
        attrs = {"class": "stack"}

    def render_name(self, record):
        return names.both_names_html(record)

    def value_name(self, record):
        return record.shown_name

    def render_players(self, record):
        return ", ".join(
            f"{p.name} ({_('reserve')})" if p.is_reserve else p.name
            for p in record.players.all()
        )


class DirectorTeamTable(TeamTable):
    class Meta(TeamTable.Meta):
        pass

    def render_name(self, record):
        return format_html('<a href="{}">{}</a>', reverse(
            "director:team_edit", args=[record.tournament.slug, record.pk]),
            names.both_names_html(record))


class ActionsColumn(tables.TemplateColumn):
    """A column of buttons: its header is named for screen readers only (axe:
    empty-table-header); the buttons say what they do."""

    @property
    def header(self):
        return format_html('<span class="visually-hidden">{}</span>', gettext("Actions"))


class StaffTable(tables.Table):
    caption = _("Staff of the tournament")
    caption_hidden = True
    stacked = True
    user = tables.Column(verbose_name=_("User"), accessor="user__username")
    title = tables.Column(verbose_name=_("Role"), empty_values=(), orderable=False)
    remove = ActionsColumn(template_name="director/staff_remove_button.html",
                           orderable=False)

    class Meta:
        model = StaffRole
        fields = ("user", "title", "remove")
        orderable = False
        attrs = {"class": "stack"}


class AuditTable(tables.Table):
    caption = _("Audit log")
    caption_hidden = True
    stacked = True
    # The language's date (tournament/formats) and the time to the second.
    created_at = tables.DateTimeColumn(verbose_name=_("When"))
    actor_name = tables.Column(verbose_name=_("Who"))
    # Written now in the reader's language; an older entry as recorded, in English, marked.
    summary = tables.TemplateColumn(template_name="director/audit_summary.html",
                                    verbose_name=_("What"))
    ip_address = tables.Column(verbose_name=_("From"), default="")

    class Meta:
        model = AuditEntry
        fields = ("created_at", "actor_name", "summary", "ip_address")
        orderable = False
        attrs = {"class": "stack"}

    def render_created_at(self, value):
        moment = timezone.localtime(value)
        return f"{date_format(moment)} {moment:%H:%M:%S}"
