"""The person behind each player (issue 52; models/person.py, docs/roles.md).

A tournament's director never edits, merges or lists persons: the team services call
``person_for`` when a player is saved. A player with a federation id, in a tournament with
a federation, is the person of that federation and id: linked to them when they exist (the
link is audited in the tournament by the caller), made otherwise. Any other player gets a
person of their own. A person made for one player and linked to no other follows that
player's name and id as the director edits them, and goes with them; a person who also
plays elsewhere is never changed from a tournament.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils.translation import gettext

from tournament.models import Person, Player, Tournament
from tournament.services.base import Actor, ServiceError, audit
from tournament.services.events import announce_change
from tournament.services.text import clean_text


@dataclass(frozen=True)
class Link:
    """A player linked to a person who already existed (by federation and id)."""

    player: Player
    person: Person


def person_for(tournament: Tournament, name: str, federation_id: str) -> tuple[Person, bool]:
    """The person of a player of this tournament called ``name`` with ``federation_id``,
    and whether they existed before."""
    if tournament.federation and federation_id:
        # get_or_create: two directors saving the same id at once get the same person (the
        # database's unique constraint settles the race).
        person, made = Person.objects.get_or_create(
            federation=tournament.federation, federation_id=federation_id,
            defaults={"name": name})
        return person, not made
    return Person.objects.create(name=name, federation_id=federation_id), False


def _own(person_id: int, player: Player) -> bool:
    """Whether the person is this player's alone (linked to no other player)."""
    return not Player.objects.filter(person_id=person_id).exclude(pk=player.pk).exists()


def settle_person(player: Player, tournament: Tournament, *, id_changed: bool) -> Link | None:
    """Give a player being saved (new, or with a new name or id) the person behind them;
    the link made to an existing person, if any. The caller saves the player."""
    if player.person_id is not None and not id_changed:
        if _own(player.person_id, player):
            Person.objects.filter(pk=player.person_id).update(name=player.name)
        return None
    before = player.person_id
    person, existed = person_for(tournament, player.name, player.federation_id)
    player.person = person
    if before is not None and before != person.pk and _own(before, player):
        player.save(update_fields=["person"])  # before the old person goes (PROTECT)
        Person.objects.filter(pk=before).delete()
    return Link(player, person) if existed else None


def drop_if_alone(*person_ids: int | None) -> None:
    """The persons a deletion left with no player and no federation id: made for a player
    of this tournament alone, they go with them. A person registered with a federation
    stays for the next event they play."""
    ids = [pk for pk in person_ids if pk is not None]
    if ids:
        Person.objects.filter(pk__in=ids, players=None, federation="").delete()


def audit_links(actor: Actor, tournament: Tournament, links: list[Link]) -> None:
    """Each player linked to a person who existed already, in the tournament's log (and so
    on the person's record: docs/roles.md)."""
    for link in links:
        audit(actor, tournament, "player.person_link", player=link.player.pk,
              player_name=link.player.name, team_code=link.player.team.code,
              person=link.person.pk, federation=link.person.federation,
              federation_id=link.person.federation_id, announce=False)


# A superuser's work on persons (docs/roles.md): no tournament's director does any of it.

PERSON_FIELDS = ("name", "other_name", "federation", "federation_id", "country")
_LENGTHS = {"name": 100, "other_name": 100, "federation": 20, "federation_id": 30,
            "country": 100}


def _superuser(actor: Actor) -> None:
    user = actor.user
    if user is None or not user.is_authenticated or not user.is_superuser:
        raise PermissionDenied(gettext("only a superuser changes persons"))


def edit_person(actor: Actor, person: Person, **values: str) -> Person:
    """Change a person's names, federation, id or country (a superuser). The same
    federation and id as another person's is refused: merge them instead."""
    _superuser(actor)
    unknown = set(values) - set(PERSON_FIELDS)
    if unknown:
        raise ServiceError(f"unknown person fields: {', '.join(sorted(unknown))}")
    try:
        cleaned = {name: clean_text(value, label=name.replace("_", " "),
                                    max_length=_LENGTHS[name], required=name == "name")
                   for name, value in values.items()}
    except ValueError as error:
        raise ServiceError(str(error)) from None
    with transaction.atomic():
        person = Person.objects.select_for_update().get(pk=person.pk)
        for name, value in cleaned.items():
            setattr(person, name, value)
        clash = (person.federation and person.federation_id and Person.objects.filter(
            federation=person.federation, federation_id=person.federation_id)
            .exclude(pk=person.pk).first())
        if clash:
            raise ServiceError(
                gettext("%(federation)s id %(id)s is %(name)s's already: merge the two "
                        "instead") % {"federation": person.federation,
                                      "id": person.federation_id, "name": clash.name})
        person.save()
        audit(actor, None, "person.edit", person=person.pk, person_name=person.name,
              fields=sorted(cleaned), announce=False)
    return person


def merge_persons(actor: Actor, keep: Person, others: list[Person]) -> Person:
    """The players of ``others`` become ``keep``'s, and ``others`` go (a superuser): the
    same human entered twice."""
    _superuser(actor)
    others = [other for other in others if other.pk != keep.pk]
    with transaction.atomic():
        moved = Player.objects.filter(person__in=others)
        tournaments = set(moved.values_list("team__tournament__slug", flat=True))
        count = moved.update(person=keep)
        names = [other.name for other in others]
        Person.objects.filter(pk__in=[other.pk for other in others]).delete()
        audit(actor, None, "person.merge", person=keep.pk, person_name=keep.name,
              merged=names, players=count, announce=False)
        for slug in tournaments:  # their public pages name the person (issue 55)
            announce_change(slug)
    return keep


def unlink_player(actor: Actor, player: Player) -> Person:
    """Give a player linked to the wrong person a person of their own (a superuser)."""
    _superuser(actor)
    with transaction.atomic():
        player = Player.objects.select_for_update().select_related("team__tournament").get(
            pk=player.pk)
        before = player.person
        player.person = Person.objects.create(name=player.name)
        player.save(update_fields=["person"])
        audit(actor, player.team.tournament, "player.person_unlink", player=player.pk,
              player_name=player.name, team_code=player.team.code, person=before.pk,
              federation=before.federation, federation_id=before.federation_id,
              announce=False)
        drop_if_alone(before.pk)
    return player.person


def set_hidden(actor: Actor, person: Person, hidden: bool) -> Person:
    """Keep a person off the public lists and profiles, or show them again (a superuser);
    their results stay in their events."""
    _superuser(actor)
    with transaction.atomic():
        person = Person.objects.select_for_update().get(pk=person.pk)
        if person.hidden != hidden:
            person.hidden = hidden
            person.save(update_fields=["hidden"])
            audit(actor, None, "person.hide", person=person.pk, person_name=person.name,
                  hidden=hidden)
    return person
