"""A tournament's stages and rounds as the staff pages find them: the stages in order
(with their rounds, their teams), every round, those in play, each stage's latest round
(the dashboard's next steps), the round before another and whether one is its stage's
latest (a round's page), the teams in a round's draw, and the first round and stage a team
is in (what keeps it from being deleted).

The public's rounds are ``selectors.public.public_rounds``."""

from __future__ import annotations

from django.db.models import Count, QuerySet

from tournament.models import Round, RoundEntry, Stage, StageTeam, Team, Tournament


def stages_in_order(tournament: Tournament) -> QuerySet[Stage]:
    """The tournament's stages in their order (a stage's order is its own: no two share
    one): the stage menus of the standings, field and individual pages and the API's
    tournament. A query set, one query when read."""
    return tournament.stages.order_by("order")


def stages_with_rounds(tournament: Tournament) -> QuerySet[Stage]:
    """The stages in order, each with its rounds (the stages page: two queries)."""
    return stages_in_order(tournament).prefetch_related("rounds")


def stage_entries(stage: Stage) -> list[StageTeam]:
    """The teams entered in the stage with their teams and groups, by group and place in
    it (one query)."""
    return list(stage.entries.select_related("team", "group").order_by("group__order",
                                                                       "position"))


def stage_rounds(stage: Stage) -> QuerySet[Round]:
    """The stage's rounds by number, drafts included: a query set, one query when read."""
    return stage.rounds.order_by("number")


def has_deals(round_: Round) -> bool:
    """Whether the round has boxes dealt by this application (one query)."""
    return round_.deals.exists()


def tournament_rounds(tournament: Tournament) -> QuerySet[Round]:
    """Every round of the tournament, drafts included, with its stage, by stage and
    number: a query set, one query when read."""
    return (Round.objects.filter(stage__tournament=tournament)
            .select_related("stage").order_by("stage__order", "number"))


def rounds_in_play(tournament: Tournament) -> QuerySet[Round]:
    """The rounds being played, with their stages, by stage and number: where scorers and
    referees work. A query set, one query when read."""
    return tournament_rounds(tournament).filter(status=Round.Status.IN_PLAY)


def stages_with_latest_rounds(tournament: Tournament) -> tuple[list[Stage], dict[int, Round]]:
    """Every stage in order, each with its number of teams entered (``teams``), and stage
    pk → its latest round, a draft too; a stage without a round is not in it (two
    queries)."""
    stages = list(stages_in_order(tournament).annotate(teams=Count("entries")))
    latest: dict[int, Round] = {}
    for round_ in Round.objects.filter(stage__tournament=tournament).order_by("number"):
        latest[round_.stage_id] = round_  # ordered by number: the last one stays
    return stages, latest


def previous_round(round_: Round) -> Round | None:
    """The round of the stage before this one, or None for its first (one query)."""
    return round_.stage.rounds.filter(number=round_.number - 1).first()


def is_latest_round(round_: Round) -> bool:
    """No later round of the stage is drawn yet, not even as a draft (one query)."""
    return not round_.stage.rounds.filter(number__gt=round_.number).exists()


def round_teams(round_: Round) -> QuerySet[Team]:
    """The teams in the round's draw, with a match or a bye, by name: a query set, one
    query when read."""
    return round_.stage.tournament.teams.filter(round_entries__round=round_).order_by("name")


def first_round_entry(team: Team) -> RoundEntry | None:
    """The team's entry in the first round it has played (in play or closed), else in the
    first round it is drawn in, by stage and round, each with its round and stage; None
    when it is in no round (one query, two when it has played none)."""
    entries = (RoundEntry.objects.filter(team=team).select_related("round__stage")
               .order_by("round__stage__order", "round__number"))
    return (entries.filter(round__status__in=[Round.Status.IN_PLAY, Round.Status.CLOSED])
            .first() or entries.first())


def first_stage_name(team: Team) -> str | None:
    """The name of the first stage the team is entered in, or None (one query)."""
    return (team.stage_entries.select_related("stage").order_by("stage__order")
            .values_list("stage__name", flat=True).first())
