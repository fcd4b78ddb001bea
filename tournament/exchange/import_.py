"""A tournament file read back into the database (docs/formats.md, "Tournament file").

Everything is checked first: the file's form against the JSON Schema, then what the schema
cannot say (every reference between parts, uniqueness, each hand's points against the
engine's score under its round's rules), each problem named by its path in the file. Only a
file without a single problem is written, in one transaction, all or nothing, in the order
the database's triggers accept (matches before their round entries and tables, deals before
the results played on them, a result version before its approvals), and audited as one
entry. The times in the file are kept: the rows' automatic times are switched off while it
is written. So is the rows' history: a version 2 file carries it and it is written as it is
(``history.py``); a version 1 file, written before, gives each row one "created" version.

People are named by their user name. A file never takes over an account of this database
by its name: a person of the file becomes a new inactive account without a usable password
(an administrator activates it and sets a password), unless the import maps that name
explicitly to an account (``map_users``: ``--map-user NAME_IN_FILE=ACCOUNT``); a name this
database already has (whatever its case) is refused until it is mapped.

Every text is checked with the rules of the pages (``services.text``): no NUL, no control
character, and in what people type (names, reasons) no line break or invisible character,
within the services' lengths. The file is at most ``IMPORT_MAX_BYTES`` (100 MB), nests
at most ``IMPORT_MAX_DEPTH`` (64) levels, and holds no number longer than
``read.MAX_NUMBER_LENGTH`` (20) characters, nor NaN or Infinity.

A secret of the file is taken only in this software's own form: a player's PIN hash that is
not ``PinHasher``'s at its iterations is dropped (that player has no PIN), and the import
says so in its notes (``ImportPlan.notes``: the preview shows them, the command prints them).

This module is the entry point that ties the steps together; each step has its module:
``read.read_document`` (the bytes to a document), ``validator.validate`` against
``schema.SCHEMA``, ``check_texts.check_texts``, ``check.ImportPlan`` (what the schema cannot
say, with ``check_rounds`` and ``history``), ``write.TournamentWriter`` (the rows and their
history), and ``problems`` (how a refusal is worded).
"""

from __future__ import annotations

from django.db import DatabaseError, transaction

from tournament.exchange.check import ImportPlan
from tournament.exchange.check_texts import check_texts
from tournament.exchange.common import IMPORT_ACTION
from tournament.exchange.problems import COMMAND_LINE, MAX_MESSAGES, Door, ImportRefused
from tournament.exchange.schema import SCHEMA
from tournament.exchange.schema_versions import SCHEMAS
from tournament.exchange.upgrade import as_current
from tournament.exchange.validator import validate
from tournament.exchange.write import TournamentWriter
from tournament.models import StaffRole, Tournament
from tournament.models.fields import keeping_given_times
from tournament.models.staff import Role
from tournament.models.tournament import slug_taken
from tournament.permissions import forget_cached_roles
from tournament.services.backups import want_backup
from tournament.services.base import Actor, audit
from tournament.services.persons import Link, audit_links


def review_import(document: dict, *, slug: str | None = None,
                  map_users: dict[str, str] | None = None,
                  door: Door = COMMAND_LINE) -> tuple[ImportPlan | None, list[str]]:
    """Everything an import checks, without writing a row: the plan (``accounts``: the
    account each person of the file becomes; None when the file breaks the schema or the
    rules of texts) and every problem found (none: it can be imported). The import page
    shows both as its preview."""
    errors: list[str] = []
    validate(document, SCHEMAS.get(document.get("version"), SCHEMA), [], errors, MAX_MESSAGES)
    if errors:
        return None, errors
    document = as_current(document)  # an older version read as the current one
    check_texts(document, errors)
    if errors:
        return None, errors
    plan = ImportPlan(document, slug, map_users or {}, door)
    plan.check()
    errors = plan.errors[:MAX_MESSAGES] + (
        [f"… and {len(plan.errors) - MAX_MESSAGES} more"]
        if len(plan.errors) > MAX_MESSAGES else [])
    return plan, errors


def check_import(document: dict, *, slug: str | None = None,
                 map_users: dict[str, str] | None = None,
                 door: Door = COMMAND_LINE) -> ImportPlan:
    """The plan of an import that can be made; ImportRefused with every problem."""
    plan, errors = review_import(document, slug=slug, map_users=map_users, door=door)
    if errors:
        raise ImportRefused(errors)
    return plan


def import_tournament(document: dict, *, slug: str | None = None,
                      actor: Actor | None = None,
                      map_users: dict[str, str] | None = None,
                      door: Door = COMMAND_LINE,
                      notes: list[str] | None = None) -> Tournament:
    """Check the whole document, then write it in one transaction (ImportRefused, with
    every problem, when anything is wrong; nothing is written then). ``map_users`` maps a
    user name of the file to an account of this database (or to the name of a new one).
    ``notes``, when given, receives what the import changed of the file (the plan's notes).

    The importing account (``actor.user``, when there is one and it is not a superuser,
    who directs every tournament anyway) becomes the tournament's director: whoever
    brings a tournament in can manage it, as whoever creates one."""
    plan = check_import(document, slug=slug, map_users=map_users, door=door)
    actor = actor or Actor(user=None, device="manage.py import_tournament")
    try:
        with transaction.atomic():
            if slug_taken(plan.slug):
                raise ImportRefused([plan.slug_taken()])
            with keeping_given_times():
                writer = TournamentWriter(plan.d, plan)  # the file as the current version
                tournament = writer.write()
            made_director = _importer_directs(actor, tournament)
            audit(actor, tournament, IMPORT_ACTION, version=document["version"],
                  teams=len(document["teams"]), rounds=len(document["rounds"]),
                  hands=plan.hand_count, secrets=document["secrets"],
                  original_slug=document["tournament"]["slug"],
                  made_director=made_director, pins_dropped=len(plan.dropped_pins))
            audit_links(actor, tournament, [Link(player, person)
                                            for player, person in writer.linked])
            # A tournament arrived: backed up at once (services.backups).
            want_backup(f"{tournament.slug}: imported")
    except DatabaseError as error:
        raise ImportRefused([f"the database refused the file, nothing was imported: "
                             f"{error}"]) from None
    if made_director:
        forget_cached_roles(actor.user)
    if notes is not None:
        notes.extend(plan.notes)
    return tournament


def _importer_directs(actor: Actor, tournament: Tournament) -> bool:
    """The importer's account made director of the tournament (its role in the file, if
    the mapping gave it one, becomes director); False when nothing changed."""
    user = actor.user
    if user is None or not user.is_authenticated or user.is_superuser:
        return False
    role = StaffRole.objects.filter(tournament=tournament, user=user).first()
    if role is None:
        StaffRole.objects.create(tournament=tournament, user=user, role=Role.DIRECTOR)
        return True
    if role.role == Role.DIRECTOR:
        return False
    role.role, role.is_chief_referee = Role.DIRECTOR, False
    role.save(update_fields=["role", "is_chief_referee"])
    return True
