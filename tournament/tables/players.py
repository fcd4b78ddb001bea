"""The players' tables: individual standings and players against the field, and the rows
they are made of."""

import django_tables2 as tables
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from tournament.tables.cells import minus_signs, team_cell
from tournament.tables.plain import PlainRows
from tournament.templatetags.comparison import versus
from tournament.templatetags.scores import signed


def _number(name, label, extra=""):
    """A number column: its full name heads the column, ``label`` precedes the value on a
    phone."""
    return tables.Column(verbose_name=name, attrs={"td": {
        "class": f"num detail {extra}".strip(), "data-label": label}})


class IndividualTable(PlainRows, tables.Table):
    """Individual standings (``selectors.individual``): rows from ``individual_rows``. On a
    phone each row folds into a card (site.css), each number after its short label."""

    caption = _("Individual standings")
    caption_hidden = True

    rank = tables.Column(verbose_name="#", attrs={"td": {"class": "num rank"}})
    player = tables.Column(verbose_name=_("Player"), attrs={"td": {"class": "team player"}})
    federation_id = tables.Column(verbose_name=_("Federation id"), visible=False, default="")
    team = tables.Column(verbose_name=_("Team"), accessor="team_name",
                         exclude_from_export=True, attrs={"td": {"class": "detail club"}})
    team_code = tables.Column(verbose_name=_("Team code"), visible=False)
    team_name = tables.Column(verbose_name=_("Team"), visible=False)
    hands = _number(_("Hands"), _("H"))
    points = tables.Column(verbose_name=_("Points"),
                           attrs={"td": {"class": "num strong mp", "data-label": _("Pts")}})
    per_hand = _number(_("Per hand"), _("per hand"))
    gins = _number(_("Gins"), _("G"))
    big_gins = _number(_("Big Gins"), _("BG"))
    knocks = _number(_("Knocks won"), _("K"))
    undercuts_won = _number(_("Undercuts won"), _("U won"))
    undercuts_suffered = _number(_("Undercuts suffered"), _("U lost"))
    false_knocks = _number(_("False knocks"), _("FK"))
    dealer_hands = _number(_("Dealer: hands"), _("dealer H"), "side")
    dealer_points = _number(_("Dealer: points"), _("pts"), "side")
    non_dealer_hands = _number(_("Non-dealer: hands"), _("non-dealer H"), "side")
    non_dealer_points = _number(_("Non-dealer: points"), _("pts"), "side")
    provisional = tables.Column(verbose_name=_("Provisional"), default="",
                                attrs={"td": {"class": "detail"}})

    class Meta:
        orderable = False
        template_name = "includes/plain_table.html"
        attrs = {"class": "standings individual"}
        row_attrs = {"class": lambda record: "provisional" if record["provisional"] else ""}

    def render_team(self, record):
        return team_cell(record["team_code"], record["team_name"])

    def render_points(self, value):
        return signed(value)

    def value_points(self, value):
        return value

    def render_dealer_points(self, value):
        return signed(value)

    def value_dealer_points(self, value):
        return value

    def render_non_dealer_points(self, value):
        return signed(value)

    def value_non_dealer_points(self, value):
        return value

    def render_per_hand(self, value):
        return minus_signs(f"{value:+.2f}" if value else "0.00")

    def value_per_hand(self, value):
        return value

    def render_provisional(self, value):
        if not value:
            return ""
        return format_html('<span class="badge badge-provisional" title="{}">{}</span>',
                           _("includes a hand of a match not signed off yet"),
                           _("provisional"))

    def value_provisional(self, value):
        return str(_("yes")) if value else ""


def individual_rows(standings) -> list[dict]:
    """The rows of a ``selectors.individual.IndividualStandings`` for ``IndividualTable``."""
    return [{
        "rank": row.rank, "player": row.player.name,
        "federation_id": row.player.federation_id, "team_code": row.team.code,
        "team_name": row.team.shown_name, "hands": row.line.hands, "points": row.line.points,
        "per_hand": row.per_hand, "gins": row.line.gins, "big_gins": row.line.big_gins,
        "knocks": row.line.knocks, "undercuts_won": row.line.undercuts_won,
        "undercuts_suffered": row.line.undercuts_suffered,
        "false_knocks": row.line.false_knocks,
        "dealer_hands": row.line.as_dealer.hands, "dealer_points": row.line.as_dealer.points,
        "non_dealer_hands": row.line.as_non_dealer.hands,
        "non_dealer_points": row.line.as_non_dealer.points,
        "provisional": row.line.provisional,
    } for row in standings.rows]


def _field_column(name, label, extra="", default=""):
    """A number of the field's table: ``name`` heads the column, ``label`` precedes the
    value on a phone."""
    return tables.Column(verbose_name=name, default=default, attrs={
        "th": {"class": "num"}, "td": {"class": f"num detail {extra}".strip(),
                                       "data-label": label}})


class FieldTable(PlainRows, tables.Table):
    """Players against the field (``selectors.field.field_standings``): rows from
    ``field_rows``; the public's page and the staff's. On a phone each row folds into a
    card, each number after its short label. A side's figure is a dash when the player
    never held those cards."""

    caption = _("Players against the field")
    caption_hidden = True

    rank = tables.Column(verbose_name="#", attrs={"td": {"class": "num rank"}})
    player = tables.Column(verbose_name=_("Player"), attrs={"td": {"class": "team player"}})
    team = tables.Column(verbose_name=_("Team"), accessor="team_name",
                         attrs={"td": {"class": "detail club"}})
    hands = _field_column(_("Hands"), _("H"))
    per_hand = tables.Column(verbose_name=_("Against the field, per hand"), attrs={
        "th": {"class": "num"}, "td": {"class": "num strong mp", "data-label": _("per hand")}})
    against_field = _field_column(_("Against the field, total"), _("total"))
    dealer_hands = _field_column(_("Dealer: hands"), _("dealer H"), "side")
    dealer_against_field = _field_column(_("Dealer: against the field"), _("dealer vs field"),
                                          "side", default="—")
    non_dealer_hands = _field_column(_("Non-dealer: hands"), _("non-dealer H"), "side")
    non_dealer_against_field = _field_column(
        _("Non-dealer: against the field"), _("non-dealer vs field"), "side", default="—")
    points = _field_column(_("Points"), _("Pts"))
    points_per_hand = _field_column(_("Points per hand"), _("pts per hand"))

    class Meta:
        orderable = False
        template_name = "includes/plain_table.html"
        attrs = {"class": "standings individual field"}
        row_attrs = {"class": lambda record: "provisional" if record["provisional"] else ""}

    def render_player(self, record):
        if not record["provisional"]:
            return record["player"]
        return format_html('{} <span class="badge badge-provisional">{}</span>',
                           record["player"], _("provisional"))

    def render_team(self, record):
        return team_cell(record["team_code"], record["team_name"])

    def render_points(self, value):
        return signed(value)

    def render_per_hand(self, value):
        return versus(value)

    def render_against_field(self, value):
        return versus(value)

    def render_dealer_against_field(self, value):
        return versus(value)

    def render_non_dealer_against_field(self, value):
        return versus(value)

    def render_points_per_hand(self, value):
        return versus(value)


def field_rows(standings) -> list[dict]:
    """The rows of a ``selectors.field.FieldStandings`` for ``FieldTable``."""
    return [{
        "rank": row.rank, "player": row.player.name, "team_code": row.team.code,
        "team_name": row.team.shown_name, "hands": row.line.hands, "per_hand": row.per_hand,
        "against_field": row.against_field, "dealer_hands": row.line.dealer_hands,
        "dealer_against_field": row.dealer_against_field if row.line.dealer_hands else None,
        "non_dealer_hands": row.line.non_dealer_hands,
        "non_dealer_against_field": (row.non_dealer_against_field
                                     if row.line.non_dealer_hands else None),
        "points": row.points, "points_per_hand": row.points_per_hand,
        "provisional": row.provisional,
    } for row in standings.rows]
