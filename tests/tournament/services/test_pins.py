"""The PIN rules as services: the cheap PIN hash, counting wrong PINs at once, lifting locks."""

import datetime as dt
import threading
import time
import uuid

import pytest
from django.contrib.auth.hashers import PBKDF2PasswordHasher, make_password
from django.core.exceptions import PermissionDenied
from django.db import connection
from django.utils import timezone

from tournament.hashers import PinHasher, pin_checker
from tournament.models import AuditEntry, Player, Stage
from tournament.services import ServiceError
from tournament.services.approvals import approve_hand, seat_player
from tournament.services.draw import generate_round
from tournament.services.entry import record_hand_result
from tournament.services.hands import HandEntry
from tournament.services.pins import WrongPin, lift_pin_lock, pin_matches
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
    # Django's default hasher at its iterations (the test settings' default is MD5).
    legacy = make_password("2468", hasher=PBKDF2PasswordHasher())
    assert legacy.startswith(f"pbkdf2_sha256${PBKDF2PasswordHasher.iterations}$")
    Player.objects.filter(pk=player.pk).update(pin_hash=legacy)
    assert approve_hand(director_actor, result, 1, pin="2468").method == "pin"
    player.refresh_from_db()
    assert player.pin_hash.startswith("pbkdf2_sha256_pin$")


SALT, DIGEST = "a" * 22, "A" * 43 + "="  # the form of a salt and a SHA-256 digest
NEVER_CHECKED = [
    f"pbkdf2_sha256$30000000${SALT}${DIGEST}",  # the tournament file of issue 48: 29 s a tap
    f"pbkdf2_sha256_pin$30000000${SALT}${DIGEST}",  # the PIN hasher's name, not its work
    f"pbkdf2_sha256${PBKDF2PasswordHasher.iterations + 1}${SALT}${DIGEST}",
    f"pbkdf2_sha256_pin$1000${SALT}a${DIGEST}",  # a salt longer than the PIN hasher's
    f"pbkdf2_sha256_pin$1000${SALT}${DIGEST[:-1]}",  # a digest shorter than SHA-256's
    f"pbkdf2_sha256_pin$01000${SALT}${DIGEST}",
    f"pbkdf2_sha256_pin$1000${SALT}${DIGEST}\n",
    "argon2$argon2id$v=19$m=65536,t=50,p=1$c2FsdHNhbHQ$aGFzaGhhc2hoYXNoaGFzaA",
    "bcrypt_sha256$$2b$14$" + "a" * 53,
    f"scrypt$65536${SALT}$8$1$" + "A" * 86 + "==",
    f"md5${SALT}$" + "0" * 32,
    "pbkdf2_sha1$30000000$salt$hash",
    "not a hash",
]


@pytest.fixture
def production_hashers(settings):
    """The real settings' hashers (the test settings hash passwords with MD5): a planted
    hash meets what a production server would run on it."""
    from tournament import settings as real

    settings.PASSWORD_HASHERS = real.PASSWORD_HASHERS


@pytest.mark.parametrize("encoded", NEVER_CHECKED)
def test_a_pin_hash_not_ours_never_matches_and_costs_nothing(director_actor, result,
                                                            production_hashers, encoded):
    """Issue 48: a hash names its hasher and work factor; a PIN check runs no hasher but the
    PIN hasher at its iterations (or Django's PBKDF2 at no more than Django's), so one tap on
    a planted hash costs no more than one on a PIN set on the pages."""
    player = seat1(result)
    Player.objects.filter(pk=player.pk).update(pin_hash=encoded)
    assert pin_checker(encoded) is None  # no hasher runs on it
    started = time.perf_counter()
    with pytest.raises(WrongPin):
        approve_hand(director_actor, result, 1, pin="2468")
    assert time.perf_counter() - started < 0.5
    player.refresh_from_db()
    assert player.pin_hash == encoded and player.pin_failures == 1


def test_a_true_hash_of_the_pin_at_another_work_factor_never_matches(result,
                                                                     production_hashers):
    player = seat1(result)
    pin_hasher, django_hasher = PinHasher(), PBKDF2PasswordHasher()
    ours = pin_hasher.encode("2468", pin_hasher.salt())
    assert pin_checker(ours).algorithm == PinHasher.algorithm
    player.pin_hash = ours
    assert pin_matches(player, "2468") and not pin_matches(player, "2469")
    for dearer in (pin_hasher.encode("2468", pin_hasher.salt(), PinHasher.iterations + 1),
                   django_hasher.encode("2468", django_hasher.salt(),
                                        PBKDF2PasswordHasher.iterations + 1)):
        player.pin_hash = dearer
        assert pin_checker(dearer) is None and not pin_matches(player, "2468")
    # Django's PBKDF2 at no more than Django's iterations: a PIN from before the PIN hasher.
    older = django_hasher.encode("2468", "oldsalt12345", 260_000)
    player.pin_hash = older
    assert pin_checker(older).algorithm == "pbkdf2_sha256" and pin_matches(player, "2468")


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
