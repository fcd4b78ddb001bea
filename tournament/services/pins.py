"""Players' PINs: the hash, the check with its lock, and lifting a lock (docs/results.md).

A PIN has as few as 10,000 values, so what protects it is the lock, not the hash: after the
tournament's "wrong PINs before a lock" (5 by default) wrong PINs in a row, that player's PIN
entry is refused for "PIN lock (minutes)" (15 by default), whatever PIN is typed, until the
lock ends or a referee lifts it. Every wrong PIN is audited with the table, the seat and the
device.

A wrong PIN makes the approval or signature fail, and the service's transaction rolls back
with it; so the service raises ``WrongPin`` and ``counts_wrong_pins`` (around the service)
records the failure in a transaction of its own once the service's has ended, then lets the
refusal through. Call such a service outside any transaction of your own, or the record goes
with your rollback.
"""

from __future__ import annotations

import datetime as dt
import functools
from zoneinfo import ZoneInfo

from django.contrib.auth.hashers import make_password
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext, ngettext

from tournament.hashers import PinHasher, pin_checker
from tournament.models import Player, Table, Tournament
from tournament.permissions import Perm, require
from tournament.services.base import Actor, ServiceError, audit
from tournament.services.locking import lock

PIN_HASHER = PinHasher.algorithm


class WrongPin(ServiceError):
    """A PIN that does not match the seat's player; counted by ``counts_wrong_pins``."""

    def __init__(self, player: Player, table: Table, seat: int):
        super().__init__(f"wrong PIN for seat {seat}", field_errors={"pin": ["wrong PIN"]})
        self.player, self.table, self.seat = player, table, seat

    def explain(self, message: str) -> None:
        self.message = message
        self.args = (message,)


# The hash ---------------------------------------------------------------------------------

def hash_pin(pin: str) -> str:
    """The PIN's salted hash with the cheap PIN hasher (tournament/hashers.py)."""
    return make_password(pin, hasher=PIN_HASHER)


def pin_matches(player: Player, pin: str | None) -> bool:
    """Whether ``pin`` is the player's: checked only against a hash of the PIN hasher at its
    iterations, or of Django's ``pbkdf2_sha256`` at no more than Django's (a PIN hashed
    before the PIN hasher existed); any other hash, whatever it names, never matches and
    costs nothing (tournament/hashers.py ``pin_checker``)."""
    checker = pin_checker(player.pin_hash)
    return checker is not None and checker.verify(pin or "", player.pin_hash)


# The lock ---------------------------------------------------------------------------------

def is_locked(player: Player, now: dt.datetime | None = None) -> bool:
    until = player.pin_locked_until
    return until is not None and until > (now or timezone.now())


def venue_time(tournament: Tournament, moment: dt.datetime) -> str:
    return timezone.localtime(moment, ZoneInfo(tournament.time_zone)).strftime("%H:%M")


def locked_message(tournament: Tournament, player: Player) -> str:
    return (gettext("PIN entry for %(player)s is locked until %(time)s (venue time); a referee "
                    "can lift it")
            % {"player": player.name, "time": venue_time(tournament, player.pin_locked_until)})


def check_pin(tournament: Tournament, player: Player, pin: str | None, *, table: Table,
              seat: int) -> None:
    """Inside the approving or signing service's transaction: refuse a locked player's
    entry, raise ``WrongPin`` for a wrong PIN, and on the right one start the count of wrong
    PINs again (and re-hash a PIN made by an older hasher with the PIN hasher)."""
    if is_locked(player):
        raise ServiceError(locked_message(tournament, player),
                           field_errors={"pin": [gettext("PIN entry is locked")]})
    if not (pin or "").strip():
        # Nobody guessed anything: a forgotten PIN field is not counted.
        raise ServiceError(
            gettext("type the PIN of %(player)s (seat %(seat)s)")
            % {"player": player.name, "seat": seat},
            field_errors={"pin": [gettext("type the PIN")]})
    if not pin_matches(player, pin):
        raise WrongPin(player, table, seat)
    changes = {}
    if player.pin_failures or player.pin_locked_until is not None:
        changes.update(pin_failures=0, pin_locked_until=None)
    if not player.pin_hash.startswith(PIN_HASHER + "$"):
        changes["pin_hash"] = hash_pin(pin)
    if changes:
        Player.objects.filter(pk=player.pk).update(**changes)


def record_wrong_pin(actor: Actor, wrong: WrongPin) -> Player:
    """Count and audit one wrong PIN in its own transaction, locking the player's PIN entry
    when the count reaches the tournament's limit; says so in ``wrong``'s message."""
    table, seat = wrong.table, wrong.seat
    with transaction.atomic():
        # The player's row is locked: two wrong PINs at once both count.
        player = lock(players=[wrong.player]).one("players")
        tournament = player.team.tournament
        now = timezone.now()
        if player.pin_locked_until is not None and not is_locked(player, now):
            player.pin_failures, player.pin_locked_until = 0, None  # a lock that ended
        already_locked = player.pin_locked_until is not None
        player.pin_failures = min(player.pin_failures + 1, 30_000)
        starts_lock = not already_locked and player.pin_failures >= tournament.pin_attempts
        if starts_lock:
            player.pin_locked_until = now + dt.timedelta(minutes=tournament.pin_lockout_minutes)
        player.save(update_fields=["pin_failures", "pin_locked_until"])
        named = {"player_name": player.name, "team_code": player.team.code,
                 "table_number": table.number}
        audit(actor, tournament, "pin.failure",
              player=player.pk, table=table.pk, seat=seat, match=table.match_id,
              device=actor.device, failures=player.pin_failures, **named)
        if starts_lock:
            audit(actor, tournament, "pin.locked", player=player.pk, table=table.pk,
                  seat=seat, match=table.match_id,
                  until=player.pin_locked_until.isoformat(),
                  until_venue=venue_time(tournament, player.pin_locked_until),
                  failures=player.pin_failures, **named)
    if player.pin_locked_until is not None:
        wrong.explain(gettext("wrong PIN for seat %(seat)d; %(locked)s")
                      % {"seat": seat, "locked": locked_message(tournament, player)})
    else:
        left = tournament.pin_attempts - player.pin_failures
        wrong.explain(ngettext(
            "wrong PIN for seat %(seat)d; after %(left)d more wrong PIN, PIN entry for "
            "%(player)s is locked for %(minutes)d minutes",
            "wrong PIN for seat %(seat)d; after %(left)d more wrong PINs, PIN entry for "
            "%(player)s is locked for %(minutes)d minutes", left)
            % {"seat": seat, "left": left, "player": player.name,
               "minutes": tournament.pin_lockout_minutes})
    return player


def counts_wrong_pins(service):
    """Wrap a service that checks PINs so that each wrong PIN is recorded although the
    service refuses it (and its own transaction rolls back)."""

    @functools.wraps(service)
    def wrapper(actor: Actor, *args, **kwargs):
        try:
            return service(actor, *args, **kwargs)
        except WrongPin as wrong:
            record_wrong_pin(actor, wrong)
            raise

    return wrapper


def lift_pin_lock(actor: Actor, player: Player) -> Player:
    """A referee lets the player type their PIN again: the lock and the count of wrong PINs
    are cleared."""
    tournament = player.team.tournament
    require(actor.user, tournament, Perm.SIGN_OFF)
    with transaction.atomic():
        player = lock(players=[player]).one("players")
        locked = is_locked(player)
        if not locked and not player.pin_failures:
            raise ServiceError(
                gettext("PIN entry for %(player)s is not locked") % {"player": player.name})
        failures = player.pin_failures
        player.pin_failures, player.pin_locked_until = 0, None
        player.save(update_fields=["pin_failures", "pin_locked_until"])
        audit(actor, tournament, "pin.unlock", player=player.pk, locked=bool(locked),
              failures=failures, player_name=player.name, team_code=player.team.code)
    return player
