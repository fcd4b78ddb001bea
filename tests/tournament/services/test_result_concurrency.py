"""Several scorers saving the same hands at once: nothing lost, nothing doubled.

Runs on whichever database the suite uses; CI runs it on SQLite and on PostgreSQL.
"""

import random
import threading
import time
import uuid

import pytest
from django.db import connection

from tournament.models import HandResult, Stage
from tournament.services.draw import generate_round
from tournament.services.entry import StaleResult, record_hand_result
from tournament.services.hands import HandEntry
from tournament.services.rounds import publish_round, start_round
from tournament.services.stages import create_stage, enter_teams

pytestmark = pytest.mark.django_db(transaction=True)

WRITERS = 16
HANDS = 3


def test_sixteen_scorers_on_the_same_hands(director_actor, tournament, teams):
    stage = create_stage(director_actor, tournament, name="Swiss", kind=Stage.Kind.SWISS,
                         swiss_rounds=3)
    enter_teams(director_actor, stage, teams(2))
    round_ = generate_round(director_actor, stage)
    publish_round(director_actor, round_)
    start_round(director_actor, round_)
    table = round_.tables.get(position=1)
    barrier = threading.Barrier(WRITERS)
    saved, told, failures = [], [], []
    lock = threading.Lock()

    def scorer(n):
        rng = random.Random(n)
        try:
            barrier.wait()
            for attempt in range(6):
                hand = rng.randint(1, HANDS)
                current = HandResult.objects.filter(table=table, hand=hand,
                                                    is_current=True).first()
                seen = current.version if current else 0
                time.sleep(rng.random() / 50)
                entry = HandEntry("knock", 1 + (n + attempt) % 2, 1 + n % 10, 12 + attempt)
                try:
                    result = record_hand_result(director_actor, table, hand, entry,
                                                seen_version=seen, request_token=uuid.uuid4())
                except StaleResult as error:
                    with lock:
                        told.append((hand, error.current.version if error.current else 0))
                else:
                    with lock:
                        saved.append((hand, result.version))
        except Exception as error:  # anything else is a lost or broken save
            with lock:
                failures.append(repr(error))
        finally:
            connection.close()

    threads = [threading.Thread(target=scorer, args=(n,)) for n in range(WRITERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert failures == []
    assert len(saved) + len(told) == WRITERS * 6
    assert saved and told  # the race really happened
    for hand in range(1, HANDS + 1):
        versions = sorted(v for h, v in saved if h == hand)
        stored = list(HandResult.objects.filter(table=table, hand=hand)
                      .order_by("version").values_list("version", "is_current"))
        # Every successful save is stored, once, in an unbroken chain of versions.
        assert [v for v, _current in stored] == versions == list(range(1, len(versions) + 1))
        assert sum(current for _v, current in stored) == (1 if versions else 0)
        if versions:
            assert stored[-1] == (versions[-1], True)
