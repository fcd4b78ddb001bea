"""The round clock (issue 58; tournament/clock.py, services/clock.py): it runs from Start
play for the round's planned minutes, stands still while paused, takes added time, gives
one table its own extension with a reason; the director's alone, audited; the big screen's
fragment carries the end time (no "now"), the progress page marks the tables still playing
once time is up."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.core.exceptions import PermissionDenied
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tests.tournament.views.public_event import build_event
from tournament.clock import RoundClock, clock_text, clock_view
from tournament.models import AuditEntry, Round
from tournament.services.base import ServiceError
from tournament.services.clock import (
    add_time,
    extend_table,
    pause_clock,
    resume_clock,
    set_planned_minutes,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def in_play(director_actor, tournament, make_team):
    event = build_event(director_actor, tournament, make_team, closed=1)
    return event.open


def started_ago(round_, minutes):
    """As if Start play was ``minutes`` ago."""
    Round.objects.filter(pk=round_.pk).update(
        started_at=timezone.now() - dt.timedelta(minutes=minutes))
    return Round.objects.select_related("stage__tournament").get(pk=round_.pk)


def test_the_round_takes_the_tournament_s_length_and_runs_from_start_play(
        in_play, tournament):
    assert in_play.planned_minutes == tournament.round_minutes == 80
    round_ = started_ago(in_play, 30)
    left = RoundClock.of(round_).seconds_left(timezone.now())
    assert 50 * 60 - 2 <= left <= 50 * 60
    assert clock_text(50 * 60) == "50:00" and clock_text(3725) == "1:02:05"
    assert clock_text(-5) == "0:00"


def test_pause_stands_still_and_resume_keeps_the_time_left(in_play, director_actor):
    round_ = started_ago(in_play, 30)
    round_ = pause_clock(director_actor, round_)
    frozen = RoundClock.of(round_).seconds_left(timezone.now() + dt.timedelta(minutes=10))
    assert 50 * 60 - 2 <= frozen <= 50 * 60  # ten minutes later: the same
    # Ten minutes in the pause, then play resumes: the ten minutes are added.
    Round.objects.filter(pk=round_.pk).update(
        clock_paused_at=timezone.now() - dt.timedelta(minutes=10))
    round_ = resume_clock(director_actor, Round.objects.get(pk=round_.pk))
    assert 600 - 2 <= round_.clock_added_seconds <= 600 + 2
    left = RoundClock.of(round_).seconds_left(timezone.now())
    assert 60 * 60 - 4 <= left <= 60 * 60
    actions = list(AuditEntry.objects.filter(action__startswith="round.clock")
                   .order_by("pk").values_list("action", flat=True))
    assert actions == ["round.clock_pause", "round.clock_resume"]


def test_added_time_a_table_s_extension_and_its_reason(in_play, director_actor):
    round_ = add_time(director_actor, started_ago(in_play, 79), 5)
    assert round_.clock_added_seconds == 300
    table = round_.tables.order_by("number").first()
    with pytest.raises(ServiceError, match="empty"):
        extend_table(director_actor, table, 10, "   ")
    extend_table(director_actor, table, 10, "A card was found on the floor")
    table.refresh_from_db()
    assert table.extra_minutes == 10
    entry = AuditEntry.objects.get(action="table.extend")
    assert entry.data["reason"] == "A card was found on the floor"
    clock = RoundClock.of(round_)
    now = timezone.now()
    assert clock.table_ends_at(10) - clock.ends_at == dt.timedelta(minutes=10)
    assert not clock.is_up(now) and not clock.is_up(now, 10)
    assert clock.is_up(now + dt.timedelta(minutes=7)) and not clock.is_up(
        now + dt.timedelta(minutes=7), 10)


def test_bad_minutes_and_a_round_not_in_play_are_refused(in_play, director_actor,
                                                         tournament):
    for bad in (0, -1, 24 * 60 + 1, True, 2.5, "5"):
        with pytest.raises(ServiceError, match="whole number"):
            add_time(director_actor, in_play, bad)
    closed = tournament.stages.get().rounds.get(number=1)
    with pytest.raises(ServiceError, match="in play"):
        pause_clock(director_actor, closed)
    with pytest.raises(ServiceError, match="in play"):
        set_planned_minutes(director_actor, closed, 90)
    assert set_planned_minutes(director_actor, in_play, 90).planned_minutes == 90


def test_only_the_director_runs_the_clock(in_play, tournament, staff_user, actor):
    referee = actor(staff_user(tournament, "referee", username="ref"))
    with pytest.raises(PermissionDenied):
        pause_clock(referee, in_play)
    client = Client()
    client.force_login(referee.user)
    response = client.post(reverse("director:round_clock", args=[tournament.slug, in_play.pk]),
                           {"action": "pause"})
    assert response.status_code == 403
    assert Round.objects.get(pk=in_play.pk).clock_paused_at is None


def test_the_big_screen_carries_the_end_time_and_the_progress_page_the_late_tables(
        in_play, tournament, director_actor):
    round_ = started_ago(in_play, 85)  # 80 minutes planned: time is up
    table = round_.tables.order_by("number").last()
    extend_table(director_actor, table, 15, "Started late: the table was moved")
    fragment = Client().get(reverse("public:screen_fragment", args=[tournament.slug]))
    ends = re.search(r'data-clock-ends="([^"]+)"', fragment.content.decode()).group(1)
    assert ends == clock_view(round_).ends_iso
    assert "–:––" in fragment.content.decode()  # no "now" in a page a cache keeps
    client = Client()
    client.force_login(director_actor.user)
    page = client.get(reverse("director:round_progress", args=[tournament.slug, round_.pk]))
    text = page.content.decode()
    assert "Time is up: tables still playing" in text
    late = re.findall(r"Table (\d+): \d+ of \d+ hands entered", text)
    assert late and str(table.number) not in late  # the extended table has time left
    # The clock's buttons: pause, then the page says so.
    url = reverse("director:round_clock", args=[tournament.slug, round_.pk])
    client.post(url, {"action": "pause"})
    assert "paused" in client.get(reverse("director:round_progress",
                                          args=[tournament.slug, round_.pk])).content.decode()
    response = client.post(url, {"action": "add", "minutes": "x"}, follow=True)
    assert "whole number" in response.content.decode()
    response = client.post(url, {"action": "extend", "table": "999999", "minutes": "5",
                                 "reason": "x"}, follow=True)
    assert "Choose a table of this round" in response.content.decode()
