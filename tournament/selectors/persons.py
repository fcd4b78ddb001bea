"""The persons' public pages (issue 55): the rating list, the master points list and each
person's profile across events (views/public/persons.py, the API, the downloads).

What the public sees of a person:

- nothing of a person a superuser hid (``Person.hidden``): absent from every list, their
  profile a 404; their results stay in their events;
- of an event, only what that event's own public pages show: an event in set-up, or with
  its players' pages switched off (``public_players``), is left out altogether (no row,
  no point of rating history); its place only with the standings public; the player's
  figures over the hands the event's live-results setting shows (``selectors.visibility``);
- on the lists, only the persons with at least one event shown.

The rating itself (``PersonRating``) counts every closed round of every rated event
(services.ratings): that is what makes it a rating, and it says nothing of a hand's cards.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Hashable
from dataclasses import dataclass, field
from decimal import Decimal

from django.db.models import (
    Exists,
    ExpressionWrapper,
    IntegerField,
    OuterRef,
    Q,
    QuerySet,
    Sum,
)

from scoring import seating
from scoring.field import DEALER, NON_DEALER, FieldLine, field_lines
from scoring.individual import PlayerLine, Tally, tally_lines
from tournament.models import (
    MasterPointAward,
    Person,
    PersonRating,
    Player,
    RatingPoint,
    Round,
    SeatTally,
    TableSeat,
    TeamResult,
    Tournament,
)
from tournament.selectors.event_ranking import event_ranking
from tournament.selectors.field_kept import field_totals
from tournament.selectors.field_results import deal_key, deals_per_match, two_places
from tournament.selectors.field_sums import _field_rows, _field_seats, _left_out_matches
from tournament.selectors.individual import IndividualRow, _add_hands_shown, _summed
from tournament.selectors.penalties import withdrawn_teams
from tournament.selectors.public import tournament_views
from tournament.selectors.visibility import PublicViews

# The events the public may see of a person: out of set-up, with public players' pages.
SHOWN_EVENT = Q(status__in=[Tournament.Status.RUNNING, Tournament.Status.FINISHED],
                public_players=True)


def shown_persons() -> QuerySet[Person]:
    """The persons the public lists may name: not hidden, with an event shown."""
    shown_player = Player.objects.filter(
        person=OuterRef("pk"), team__tournament__in=Tournament.objects.filter(SHOWN_EVENT))
    return Person.objects.filter(hidden=False).filter(Exists(shown_player))


@dataclass(frozen=True)
class ListRow:
    rank: int
    person: Person
    rating: PersonRating | None
    master_points: Decimal


def rating_list(*, country: str = "", federation: str = "") -> list[ListRow]:
    """The rated persons the public may see, best rating first (two queries)."""
    persons = _filtered(country, federation).filter(rating__isnull=False)
    rows = list(persons.select_related("rating").annotate(points=Sum("master_points__points"))
                .order_by("-rating__rating", "name", "pk"))
    return [ListRow(n, p, p.rating, p.points or Decimal(0)) for n, p in enumerate(rows, 1)]


def master_points_list(*, country: str = "", federation: str = "") -> list[ListRow]:
    """The persons with master points the public may see, most first (one query)."""
    persons = (_filtered(country, federation).annotate(points=Sum("master_points__points"))
               .filter(points__gt=0).select_related("rating").order_by("-points", "name", "pk"))
    return [ListRow(n, p, getattr(p, "rating", None), p.points)
            for n, p in enumerate(persons, 1)]


def _filtered(country: str, federation: str) -> QuerySet[Person]:
    persons = shown_persons()
    if country:
        persons = persons.filter(country__iexact=country)
    if federation:
        persons = persons.filter(federation__iexact=federation)
    return persons


def list_choices() -> dict[str, list[str]]:
    """The countries and federations the filters offer (those of listed persons)."""
    persons = shown_persons()
    return {
        "countries": sorted(set(persons.exclude(country="").values_list("country", flat=True))),
        "federations": sorted(set(persons.exclude(federation="")
                                  .values_list("federation", flat=True))),
    }


@dataclass
class EventLine:
    """One event of a person's profile, as that event's public pages show it."""

    tournament: Tournament
    player: Player
    place: int | None = None  # None: not public, or not decided
    places: int = 0  # teams ranked
    hands: int = 0
    points: int | None = None
    per_hand: Decimal | None = None
    against_field: Decimal | None = None  # a hand, on average
    rating: RatingPoint | None = None
    master_points: Decimal | None = None


@dataclass
class Profile:
    person: Person
    rating: PersonRating | None
    events: list[EventLine] = field(default_factory=list)
    master_points: Decimal = Decimal(0)

    @property
    def history(self) -> list[RatingPoint]:
        """The rating after each shown event, in date order (the chart)."""
        return [line.rating for line in sorted(self.events, key=lambda e: (
            e.tournament.ends_on, e.tournament.pk)) if line.rating is not None]


def person_profile(person: Person) -> Profile | None:
    """A person's profile, or None when the public may not see it (hidden, or no event
    shown). Reads each shown event's public figures through the event's own selectors."""
    if person.hidden:
        return None
    players = list(Player.objects.filter(
        person=person, team__tournament__in=Tournament.objects.filter(SHOWN_EVENT))
        .select_related("team__tournament").order_by("-team__tournament__ends_on",
                                                     "-team__tournament__pk"))
    if not players:
        return None
    points = {p.tournament_id: p for p in RatingPoint.objects.filter(person=person)}
    awards = {a.tournament_id: a.points for a in MasterPointAward.objects.filter(person=person)}
    profile = Profile(person, PersonRating.objects.filter(person=person).first())
    for player in players:
        tournament = player.team.tournament
        line = EventLine(tournament, player, rating=points.get(tournament.pk),
                         master_points=awards.get(tournament.pk))
        _event_figures(line)
        profile.events.append(line)
    profile.master_points = sum(
        (line.master_points for line in profile.events if line.master_points), Decimal(0))
    return profile


def _event_figures(line: EventLine) -> None:
    """The player's figures at one event, as the event's own public pages show them: the
    individual standings' line (``selectors.individual``), the line against the field
    (``selectors.field``) and the team's place (``selectors.event_ranking``). The first two
    are read for this player alone, with the event's own queries and counting narrowed to
    the player (issue 59): the whole event's two standings of a 512-team event (1,024
    lines each, every player and team read twice) were four fifths of the page."""
    tournament, player = line.tournament, line.player
    _rounds, views = tournament_views(tournament)
    own = _individual_line(tournament, player, views)
    if own is not None:
        row = IndividualRow(own.rank, player, player.team, own)  # its rounding of per_hand
        line.hands, line.points, line.per_hand = own.hands, own.points, row.per_hand
    field_line = _field_line(tournament, player, views)
    if field_line is not None:
        line.against_field = two_places(field_line.per_hand)
    if tournament.public_standings:
        ranking = event_ranking(tournament, views)
        line.places = len(ranking.rows)
        line.place = next((r.place for r in ranking.rows if r.team.pk == player.team_id),
                          None)


def _individual_line(tournament: Tournament, player: Player,
                     views: PublicViews) -> PlayerLine | None:
    """The player's line of ``public_individual`` (every stage, no minimum): what
    ``selectors.individual.individual`` adds up for the player, reading the tallies of the
    player's own seats only (a player's line is made of their seats' hands alone). None
    without a counted hand, as the player has no row then. One query, two more while a
    round is seen in part (the seats of the player's tables, their hands)."""
    where = {"round__stage__tournament": tournament}
    void = TeamResult.objects.filter(void=True, match__isnull=False, **where).values("match_id")
    official = ExpressionWrapper(Q(table__match__signed_off_at__isnull=False),
                                 output_field=IntegerField())
    shown_whole = [r for r, view in views.by_round.items() if view.everything]
    shown_in_part = [r for r, view in views.by_round.items() if not view.everything]
    own_seat = TableSeat.objects.filter(table_id=OuterRef("table_id"), seat=OuterRef("seat"),
                                        player=player)
    tallies = (SeatTally.objects
               .filter(table__match__forfeited_by__isnull=True,
                       **{f"table__{key}": value for key, value in where.items()})
               .exclude(table__match_id__in=void).annotate(official=official).order_by()
               .filter(table__round_id__in=shown_whole).filter(Exists(own_seat)))
    lines = tally_lines((pk, Tally(*figures), not official_)
                        for pk, official_, *figures in _summed(tallies))
    if shown_in_part:
        own_tables = TableSeat.objects.filter(player=player, round_id__in=shown_in_part,
                                              **where).values("table_id")
        seats: dict[int, dict[int, int]] = {}
        for table, seat, pk in (TableSeat.objects.filter(table_id__in=own_tables)
                                .order_by().values_list("table_id", "seat", "player_id")):
            seats.setdefault(table, {})[seat] = pk
        _add_hands_shown(lines, {table: (pair[1], pair[2]) for table, pair in seats.items()
                                 if len(pair) == 2},
                         views, {**where, "pk__in": own_tables}, void, False, shown_in_part)
    return lines.get(player.pk)  # a line counts a hand at least (``tally_lines``)


def _field_line(tournament: Tournament, player: Player, views: PublicViews
                ) -> FieldLine | None:
    """The player's line of ``field_standings(tournament, views=views)``, None when the
    player has no row there (no compared hand, or fewer than the minimum). The same reads
    as ``selectors.field.field_standings`` (the sums of the rounds shown whole kept between
    reads, ``selectors.field_kept``; a round seen in part read hand by hand, the whole field
    of it, for its deals' datums), without a line for every other player."""
    rounds = list(Round.objects.filter(status__in=[Round.Status.IN_PLAY, Round.Status.CLOSED],
                                       stage__tournament=tournament)
                  .select_related("stage").order_by("stage__order", "number"))
    if not rounds:
        return None
    minimum = rounds[-1].rules.field_minimum_hands
    per_match = {r.pk: deals_per_match(r) for r in rounds}
    shown_whole = [r for r in rounds if views.of(r.pk).everything]
    shown_in_part = [r.pk for r in rounds if not views.of(r.pk).everything]
    stages = {r.stage_id: r.stage for r in rounds}
    out_by_stage = {pk: withdrawn_teams(stage) for pk, stage in stages.items()}
    more = {}
    if shown_whole:
        left_out_matches = _left_out_matches(shown_whole, out_by_stage, False, set())
        summed = field_totals([r.pk for r in shown_whole],
                              [r.pk for r in shown_whole if per_match[r.pk]],
                              False, left_out_matches).sums
        if player.pk in summed:
            more = {player.pk: summed[player.pk]}
    deals: dict[Hashable, list[int]] = defaultdict(list)  # the dealer cards' points
    hands: list[tuple[int, Hashable, str, int]] = []  # the player's (player, deal, seat, …)
    if shown_in_part:
        seated = _field_seats(shown_in_part)[0]
        stage_of = {r.pk: r.stage_id for r in rounds}
        for (round_id, table_id, hand, _match, match_number, deal_id, seat1, home,
             away) in _field_rows(shown_in_part, False):
            if not views.shows(round_id, table_id, hand):
                continue
            out = out_by_stage[stage_of[round_id]]
            if (out and (home in out or away in out)) or table_id not in seated:
                continue
            key = deal_key(deal_id, round_id, match_number, hand, per_match[round_id])
            seat1_deals = seating.dealer_seat(hand) == 1
            deals[key].append(seat1 if seat1_deals else -seat1)
            one, two = seated[table_id]
            if one == player.pk:
                hands.append((one, key, DEALER if seat1_deals else NON_DEALER, seat1))
            if two == player.pk:
                hands.append((two, key, NON_DEALER if seat1_deals else DEALER, -seat1))
    return next(iter(field_lines(hands, deals, minimum_hands=minimum, more=more)), None)
