"""The PIN rules as services: the cheap PIN hash, counting wrong PINs at once, lifting locks."""

import datetime as dt
import threading
import uuid

import pytest
from django.contrib.auth.hashers import make_password
from django.core.exceptions import PermissionDenied
from django.db import connection
from django.utils import timezone

from tournament.hashers import PinHasher
from tournament.models import AuditEntry, Player, Stage
from tournament.services import ServiceError
from tournament.services.approvals import approve_hand, seat_player
from tournament.services.draw import generate_round
from tournament.services.entry import record_hand_result
from tournament.services.hands import HandEntry
from tournament.services.pins import WrongPin, lift_pin_lock
from tournament.services.rounds import publish_round, start_round
from tournament.services.stages import create_stage, enter_teams
from tournament.services.teams import set_player_pin


@pytest.fixture
def result(director_actor, tournament, teams):
    """Hand 1 of table 1 entered, in a tournament that asks for PINs."""
    tournament.approvals_need_pin = True
    tournament.save()
    stage = create_stage(director_actor, tournament, name="Swiss", kind=Stage.Kind.SWISS,
                         swiss_rounds=3)
    enter_teams(director_actor, stage, teams(2))
    round_ = generate_round(director_actor, stage)
    publish_round(director_actor, round_)
    start_round(director_actor, round_)
    table = round_.matches.get().tables.get(position=1)
    return record_hand_result(director_actor, table, 1, HandEntry("knock", 1, 4, 12),
                              seen_version=0, request_token=uuid.uuid4())


def seat1(result):
    return seat_player(result.table, 1)


def test_pins_are_hashed_with_the_cheap_pin_hasher(director_actor, result):
    player = seat1(result)
    set_player_pin(director_actor, player, "2468")
    player.refresh_from_db()
    algorithm, iterations, _salt, _hash = player.pin_hash.split("$")
    assert algorithm == "pbkdf2_sha256_pin" and int(iterations) <= 2_000
    assert approve_hand(director_actor, result, 1, pin="2468").method == "pin"


def test_a_pin_hashed_before_the_pin_hasher_still_works_and_is_rehashed(director_actor,
                                                                        result):
    player = seat1(result)
    Player.objects.filter(pk=player.pk).update(pin_hash=make_password("2468"))  # default hasher
    assert approve_hand(director_actor, result, 1, pin="2468").method == "pin"
    player.refresh_from_db()
    assert player.pin_hash.startswith("pbkdf2_sha256_pin$")


def test_production_settings_know_the_pin_hasher_and_keep_passwords_strong():
    from tournament import settings

    assert settings.PASSWORD_HASHERS[0] == "django.contrib.auth.hashers.PBKDF2PasswordHasher"
    assert "tournament.hashers.PinHasher" in settings.PASSWORD_HASHERS
    assert PinHasher.algorithm == "pbkdf2_sha256_pin"


def test_a_wrong_pin_in_the_service_is_counted_and_refused(director_actor, result):
    player = seat1(result)
    set_player_pin(director_actor, player, "2468")
    with pytest.raises(WrongPin, match=r"after 4 more wrong PINs, PIN entry for .* is locked"):
        approve_hand(director_actor, result, 1, pin="1111")
    player.refresh_from_db()
    assert player.pin_failures == 1
    entry = AuditEntry.objects.get(action="pin.failure")
    assert entry.data["seat"] == 1 and entry.data["table"] == result.table_id


@pytest.mark.django_db(transaction=True)
def test_wrong_pins_at_once_all_count(director_actor, tournament, result):
    tournament.pin_attempts = 20
    tournament.save()
    player = seat1(result)
    set_player_pin(director_actor, player, "2468")
    tries = 8
    barrier = threading.Barrier(tries)
    refused, errors = [], []
    lock = threading.Lock()

    def guess(n):
        try:
            barrier.wait()
            approve_hand(director_actor, result, 1, pin=f"{1000 + n}")
        except WrongPin:
            with lock:
                refused.append(n)
        except Exception as error:
            with lock:
                errors.append(repr(error))
        finally:
            connection.close()

    threads = [threading.Thread(target=guess, args=(n,)) for n in range(tries)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert errors == [] and len(refused) == tries
    player.refresh_from_db()
    assert player.pin_failures == tries
    assert AuditEntry.objects.filter(action="pin.failure").count() == tries


def test_only_referees_lift_a_lock_and_only_a_lock(director_actor, tournament, staff_user,
                                                   actor, result):
    player = seat1(result)
    with pytest.raises(ServiceError, match="is not locked"):
        lift_pin_lock(director_actor, player)
    player.pin_failures = 5
    player.pin_locked_until = timezone.now() + dt.timedelta(minutes=15)
    player.save()
    scorer = actor(staff_user(tournament, "scorer"))
    with pytest.raises(PermissionDenied):
        lift_pin_lock(scorer, player)
    referee = actor(staff_user(tournament, "referee", username="ref-wu"))
    lift_pin_lock(referee, player)
    player.refresh_from_db()
    assert (player.pin_failures, player.pin_locked_until) == (0, None)
    assert "ref-wu lifted the PIN lock of" in AuditEntry.objects.get(action="pin.unlock").summary
