"""The public standings (team and individual): closed rounds, and of a round in play what
the public's view of it allows (``selectors.public``, ``selectors.visibility``)."""

from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils.html import format_html
from django.utils.translation import gettext as _

from tournament.models import Stage
from tournament.selectors.bracket import read_bracket
from tournament.selectors.event_ranking import event_ranking, knockout_of
from tournament.selectors.public import tournament_views
from tournament.selectors.public_standings import public_individual, public_standings, stage_groups
from tournament.selectors.standings import last_stage_played, stages_played
from tournament.tables import (
    IndividualTable,
    RankingTable,
    StandingsTable,
    empty_standings_columns,
    individual_rows,
    ranking_rows,
    standings_rows,
    team_cell,
)
from tournament.templatetags.links import url_around
from tournament.views.public.base import int_param, public_page, render_public
from tournament.wording import ranking_order


class Captioned:
    """A public table shows its caption (the staff's pages hide theirs under a heading that
    names the table), given per table."""

    caption_hidden = False

    def __init__(self, *args, caption="", **kwargs):
        super().__init__(*args, **kwargs)
        self.caption = caption


class PublicStandingsTable(Captioned, StandingsTable):
    """The staff's standings table, each team linked to its public page, with a caption."""

    class Meta(StandingsTable.Meta):
        pass

    def render_team(self, record):
        return format_html('<a href="{}">{}</a>', record["url"],
                           team_cell(record["code"], record["name"], record["other_name"]))


class PublicIndividualTable(Captioned, IndividualTable):
    """The staff's individual table, each player linked to his public page, with a
    caption."""

    class Meta(IndividualTable.Meta):
        pass

    def render_player(self, record, value):
        return format_html('<a href="{}">{}</a>', record["url"], value)


def _team_rows(tournament, table) -> list[dict]:
    url = _url_of_key("public:team", tournament.slug)
    return [{**row, "url": url(line.team.pk)}
            for row, line in zip(standings_rows(table), table.lines, strict=True)]


def _player_rows(tournament, standings) -> list[dict]:
    url = _url_of_key("public:player", tournament.slug)
    return [{**row, "url": url(line.player.pk)}
            for row, line in zip(individual_rows(standings), standings.rows, strict=True)]


def _url_of_key(name: str, slug: str):
    """``reverse(name, args=[slug, key])`` for each row's key, reversed once
    (``templatetags.links.url_around``): every player of a 512-team event was reversed
    1,024 times."""
    before, after = url_around(name, slug)
    return lambda key: f"{before}{int(key)}{after}"


def _knockout_page(request, tournament, stage, views, ranking=None, *, overall=False):
    """A knockout never shows as a match-point table: its bracket, and the event's ranking
    when it is the knockout that ends the event."""
    bracket = ranking.bracket if ranking is not None else read_bracket(stage, views)
    if bracket is not None and not bracket.begun:
        bracket = None  # its seeds are not public before its first round is
    table = None
    if ranking is not None and ranking.rows and bracket is not None:
        url = _url_of_key("public:team", tournament.slug)
        table = RankingTable(ranking_rows(ranking, lambda team: url(team.pk)),
            caption=_("Final ranking") if ranking.is_final else _("Ranking so far"))
    return render_public(request, tournament, "public/knockout.html", {
        "stage": stage, "stages": stages_played(tournament), "overall": overall,
        "ranking": ranking, "bracket": bracket, "table": table,
    }, active="standings")


def _page(request, tournament, stage, group=None, *, overall=False, views=None):
    stages = stages_played(tournament)
    context = {"stage": stage, "group": group, "overall": overall, "stages": stages}
    if stage is not None:
        if views is None:
            _rounds, views = tournament_views(tournament)
        standings = public_standings(stage, views, group=group,
                                     after=int_param(request, "after"))
        exclude = empty_standings_columns(standings.tables)
        context.update(
            standings=standings, groups=stage_groups(standings),
            tables=[(table, PublicStandingsTable(_team_rows(tournament, table),
                                                 exclude=exclude, caption=table.title))
                    for table in standings.tables],
            query=f"?after={standings.after}" if standings.after is not None else "",
            ranking_order=ranking_order(standings.data.tiebreaks))
    return render_public(request, tournament, "public/standings.html", context,
                         active="standings")


def begun_knockout(tournament, rounds) -> Stage | None:
    """The knockout that ends the event, once a round of it is public (``rounds``: the
    public rounds): from then on the event's ranking is the standings' first page."""
    if not any(r.stage.kind == Stage.Kind.KNOCKOUT for r in rounds):
        return None  # no query for an event without a knockout under way
    knockout = knockout_of(tournament)
    if knockout is not None and any(r.stage_id == knockout.pk for r in rounds):
        return knockout
    return None


@public_page("public_standings")
def standings(request, tournament):
    """The overall standings: those of the last stage played (stages are never added up);
    once the knockout that ends the event has begun, the event's ranking and the
    bracket."""
    rounds, views = tournament_views(tournament)
    knockout = begun_knockout(tournament, rounds)
    if knockout is not None:
        return _knockout_page(request, tournament, knockout, views,
                              event_ranking(tournament, views), overall=True)
    stage = last_stage_played(tournament)
    if stage is not None:
        stage.tournament = tournament
    return _page(request, tournament, stage, overall=True, views=views)


@public_page("public_standings")
def stage_standings(request, tournament, pk, group_pk=None):
    stage = get_object_or_404(tournament.stages, pk=pk)
    stage.tournament = tournament
    if stage.kind == Stage.Kind.KNOCKOUT:
        if group_pk is not None:
            raise Http404("a knockout has no groups")
        _rounds, views = tournament_views(tournament)
        last = knockout_of(tournament)
        ranking = event_ranking(tournament, views) if last and last.pk == stage.pk else None
        return _knockout_page(request, tournament, stage, views, ranking)
    group = get_object_or_404(stage.groups, pk=group_pk) if group_pk is not None else None
    return _page(request, tournament, stage, group)


@public_page("public_players")
def individual_standings(request, tournament, pk=None):
    """Every player's points, hands and figures over the hands the public may see."""
    stage = get_object_or_404(tournament.stages, pk=pk) if pk is not None else None
    minimum = int_param(request, "min") or 0
    _rounds, views = tournament_views(tournament)
    standings = public_individual(tournament, views, stage=stage, minimum_hands=minimum)
    return render_public(request, tournament, "public/individual.html", {
        "stage": stage, "standings": standings,
        "table": PublicIndividualTable(
            _player_rows(tournament, standings),
            exclude=() if standings.provisional else ("provisional",),
            caption=_("Individual standings: %(where)s") % {
                "where": stage.shown_name if stage else _("every stage")}),
        "stages": stages_played(tournament),
        "query": f"?min={minimum}" if minimum else "",
    }, active="players")
