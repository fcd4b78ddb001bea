"""Teams and their players: one validation for the form and the CSV import alike."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.db.models import ProtectedError
from django.utils.translation import gettext

from tournament.models import Player, Round, RoundEntry, Team, Tournament
from tournament.models.team import FIELD_LABELS, TEAM_CODE_PATTERN
from tournament.permissions import Perm, require
from tournament.services.base import Actor, ServiceError, audit
from tournament.services.persons import Link, audit_links, drop_if_alone, settle_person
from tournament.services.pins import hash_pin
from tournament.services.text import clean_text, parse_whole_number

# The fields of one team as a form or a CSV row gives them (docs/formats.md).
TEAM_FIELDS = (
    "code", "name", "other_name", "country", "seed",
    "player1", "player1_id", "player2", "player2_id", "reserve", "reserve_id",
)
REQUIRED_TEAM_FIELDS = ("code", "name", "player1", "player2")
_MAX_LENGTH = {
    "code": 10, "name": 100, "other_name": 100, "country": 100, "seed": 6,
    "player1": 100, "player2": 100, "reserve": 100,
    "player1_id": 30, "player2_id": 30, "reserve_id": 30,
}


@dataclass(frozen=True)
class PlayerEntry:
    name: str
    federation_id: str = ""


@dataclass(frozen=True)
class TeamEntry:
    code: str
    name: str
    country: str
    seed: int | None
    players: tuple[PlayerEntry, PlayerEntry]
    reserve: PlayerEntry | None
    other_name: str = ""  # the name in the other script (tournament.names)

    @property
    def everyone(self) -> list[PlayerEntry]:
        return [*self.players, *([self.reserve] if self.reserve else [])]


class TeamEntryError(ServiceError):
    pass


def parse_team_entry(raw: Mapping[str, str | None]) -> TeamEntry:
    """Check one team's fields; raise TeamEntryError listing every field that is wrong."""
    errors: dict[str, list[str]] = {}
    values: dict[str, str] = {}
    for field in TEAM_FIELDS:
        try:
            values[field] = clean_text(
                raw.get(field), label=FIELD_LABELS[field], max_length=_MAX_LENGTH[field],
                required=field in REQUIRED_TEAM_FIELDS,
            )
        except ValueError as error:
            errors.setdefault(field, []).append(str(error))

    code = values.get("code", "").upper()
    if code and not re.fullmatch(TEAM_CODE_PATTERN, code):
        errors.setdefault("code", []).append(
            gettext("team code %(code)s must be 1 to 10 letters, digits or hyphens")
            % {"code": repr(code)}
        )
    seed = None
    if values.get("seed"):
        seed = parse_whole_number(values["seed"])
        if seed is None or seed < 1:
            seed = None
            errors.setdefault("seed", []).append(
                gettext("seed %(seed)s is not a whole number of 1 or more written with the "
                        "digits 0-9") % {"seed": repr(values["seed"])}
            )
    if values.get("reserve_id") and not values.get("reserve"):
        errors.setdefault("reserve", []).append(
            gettext("a reserve federation id needs the reserve's name"))

    if not errors:
        names = [values["player1"], values["player2"], values["reserve"]]
        if len({n.casefold() for n in names if n}) < len([n for n in names if n]):
            errors.setdefault("player2", []).append(
                gettext("the same player is named twice in the team"))
        ids = [values[f] for f in ("player1_id", "player2_id", "reserve_id") if values[f]]
        if len(set(ids)) < len(ids):
            errors.setdefault("player2_id", []).append(
                gettext("the same federation id is given twice in the team")
            )
    if errors:
        message = "; ".join(m for ms in errors.values() for m in ms)
        raise TeamEntryError(message, field_errors=errors)

    reserve = PlayerEntry(values["reserve"], values["reserve_id"]) if values["reserve"] else None
    return TeamEntry(
        code=code, name=values["name"], country=values["country"], seed=seed,
        players=(
            PlayerEntry(values["player1"], values["player1_id"]),
            PlayerEntry(values["player2"], values["player2_id"]),
        ),
        reserve=reserve, other_name=values["other_name"],
    )


def team_entry_fields(team: Team) -> dict[str, str]:
    """A stored team as the raw fields ``parse_team_entry`` reads (for edit forms)."""
    by_number = {p.number: p for p in team.players.all()}
    fields = {"code": team.code, "name": team.name, "other_name": team.other_name,
              "country": team.country,
              "seed": "" if team.seed is None else str(team.seed)}
    for number, key in ((1, "player1"), (2, "player2"), (3, "reserve")):
        player = by_number.get(number)
        fields[key] = player.name if player else ""
        fields[f"{key}_id"] = player.federation_id if player else ""
    return fields


def find_conflicts(
    tournament: Tournament, entries: Iterable[TeamEntry], *, exclude: Team | None = None
) -> list[list[str]]:
    """For each entry, what clashes with the other entries or the teams already stored."""
    teams = tournament.teams.all()
    players = Player.objects.filter(team__tournament=tournament).exclude(federation_id="")
    if exclude is not None:
        teams = teams.exclude(pk=exclude.pk)
        players = players.exclude(team=exclude)
    taken_codes = set(teams.values_list("code", flat=True))
    taken_names = {name.casefold() for name in teams.values_list("name", flat=True)}
    taken_seeds = set(teams.exclude(seed=None).values_list("seed", flat=True))
    taken_ids = set(players.values_list("federation_id", flat=True))

    problems: list[list[str]] = []
    for entry in entries:
        found = []
        if entry.code in taken_codes:
            found.append(gettext("team code %(code)s is already used") % {"code": entry.code})
        if entry.name.casefold() in taken_names:
            found.append(gettext("team name %(name)s is already used")
                         % {"name": repr(entry.name)})
        if entry.seed is not None and entry.seed in taken_seeds:
            found.append(gettext("seed %(seed)d is already given to another team")
                         % {"seed": entry.seed})
        for player in entry.everyone:
            if player.federation_id and player.federation_id in taken_ids:
                found.append(gettext("federation id %(id)s is already registered")
                             % {"id": player.federation_id})
        problems.append(found)
        taken_codes.add(entry.code)
        taken_names.add(entry.name.casefold())
        if entry.seed is not None:
            taken_seeds.add(entry.seed)
        taken_ids.update(p.federation_id for p in entry.everyone if p.federation_id)
    return problems


def _save_players(team: Team, entry: TeamEntry) -> list[Link]:
    """Store the entry's players, each with the person behind them (``services.persons``);
    the links made to persons who existed already, for the caller to audit."""
    wanted = {1: entry.players[0], 2: entry.players[1], Player.RESERVE_NUMBER: entry.reserve}
    stored = {p.number: p for p in team.players.all()}
    links = []
    for number, player_entry in wanted.items():
        player = stored.get(number)
        if player_entry is None:
            if player is not None:
                person = player.person_id
                try:
                    player.delete()
                except ProtectedError as error:
                    raise _player_in_use(player, error.protected_objects) from None
                drop_if_alone(person)
            continue
        if player is None:
            player = Player(team=team, number=number, is_reserve=number == Player.RESERVE_NUMBER)
        id_changed = player.pk is None or player.federation_id != player_entry.federation_id
        if id_changed or player.name != player_entry.name:
            player.name = player_entry.name
            player.federation_id = player_entry.federation_id
            link = settle_person(player, team.tournament, id_changed=id_changed)
            player.save()
            if link is not None:
                links.append(link)
    return links


def _player_in_use(player: Player, protected: Iterable[object]) -> ServiceError:
    """Why the reserve, still in a line-up, cannot be removed (the rounds, in words)."""
    rounds = sorted({entry.round for entry in protected if isinstance(entry, RoundEntry)},
                    key=lambda r: (r.stage.order, r.number))
    if rounds:
        values = {"player": player.name, "rounds": "; ".join(str(r) for r in rounds)}
        if all(r.status in (Round.Status.DRAFT, Round.Status.PUBLISHED) for r in rounds):
            message = gettext("the reserve %(player)s plays in a line-up of %(rounds)s and "
                              "cannot be removed; change that line-up first") % values
        else:
            message = gettext("the reserve %(player)s plays in a line-up of %(rounds)s and "
                              "cannot be removed") % values
    else:
        message = (gettext("the reserve %(player)s is still referenced and cannot be removed")
                   % {"player": player.name})
    return ServiceError(message, field_errors={"reserve": [message]})


def _check_no_conflicts(tournament: Tournament, entry: TeamEntry, exclude: Team | None) -> None:
    (problems,) = find_conflicts(tournament, [entry], exclude=exclude)
    if problems:
        raise ServiceError("; ".join(problems))


def create_team(actor: Actor, tournament: Tournament, entry: TeamEntry) -> Team:
    require(actor.user, tournament, Perm.MANAGE_TEAMS)
    with transaction.atomic():
        _check_no_conflicts(tournament, entry, exclude=None)
        links: list[Link] = []
        team = insert_team(tournament, entry, links)
        audit(actor, tournament, "team.create", team=team.pk, team_name=team.name,
              team_code=team.code)
        audit_links(actor, tournament, links)
    return team


def insert_team(tournament: Tournament, entry: TeamEntry,
                links: list[Link] | None = None) -> Team:
    """Store a checked entry; its players' links to existing persons go into ``links``, for
    the caller to audit. The caller holds the permission and the transaction."""
    try:
        with transaction.atomic():
            team = Team.objects.create(
                tournament=tournament, code=entry.code, name=entry.name,
                other_name=entry.other_name, country=entry.country, seed=entry.seed,
            )
            linked = _save_players(team, entry)
    except IntegrityError:
        # Another director saved the same code, name or seed a moment ago.
        raise ServiceError(
            gettext("team %(code)s clashes with a team saved at the same time; reload and check")
            % {"code": entry.code}) from None
    if links is not None:
        links.extend(linked)
    return team


def update_team(actor: Actor, team: Team, entry: TeamEntry) -> Team:
    tournament = team.tournament
    require(actor.user, tournament, Perm.MANAGE_TEAMS)
    with transaction.atomic():
        team = Team.objects.select_for_update().get(pk=team.pk)
        _check_no_conflicts(tournament, entry, exclude=team)
        before = team_entry_fields(team)
        try:
            with transaction.atomic():
                team.code, team.name = entry.code, entry.name
                team.other_name = entry.other_name
                team.country, team.seed = entry.country, entry.seed
                team.save()
                links = _save_players(team, entry)
        except IntegrityError:
            raise ServiceError(
                gettext("team %(code)s clashes with a team saved at the same time; reload and "
                        "check") % {"code": entry.code}) from None
        after = team_entry_fields(team)
        changes = {k: [before[k], after[k]] for k in TEAM_FIELDS if before[k] != after[k]}
        if changes:
            audit(actor, tournament, "team.update", team=team.pk, team_code=team.code,
                  changes=changes)
        audit_links(actor, tournament, links)
    return team


def delete_team(actor: Actor, team: Team) -> None:
    tournament = team.tournament
    require(actor.user, tournament, Perm.MANAGE_TEAMS)
    with transaction.atomic():
        name, code = team.name, team.code
        label = f"{name} ({code})"
        persons = list(team.players.values_list("person_id", flat=True))
        try:
            team.delete()
        except ProtectedError:
            raise ServiceError(
                gettext("team %(label)s has played or been drawn and cannot be deleted")
                % {"label": label}) from None
        drop_if_alone(*persons)
        audit(actor, tournament, "team.delete", team_name=name, team_code=code)


def set_player_pin(actor: Actor, player: Player, pin: str) -> None:
    """The PIN a player types to approve hands and sign (when the tournament asks for it).

    Only its hash is kept; an empty PIN removes it.
    """
    require(actor.user, player.team.tournament, Perm.MANAGE_TEAMS)
    pin = (pin or "").strip()
    if pin and not (pin.isascii() and pin.isdigit() and 4 <= len(pin) <= 8):
        raise ServiceError(
            gettext("a PIN is 4 to 8 digits 0-9"),
            field_errors={"pin": [gettext("4 to 8 digits 0-9")]})
    with transaction.atomic():
        player.pin_hash = hash_pin(pin) if pin else ""
        player.save(update_fields=["pin_hash"])
        audit(actor, player.team.tournament, "player.pin", player=player.pk, set=bool(pin),
              player_name=player.name, team_code=player.team.code)
