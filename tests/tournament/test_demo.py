"""The demo event (issue 14, item 1): built through the services, complete, the same for the
same seed; ``--live`` leaves the final round in play; quickstart loads it once."""

from __future__ import annotations

import io
import json
import re

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from tournament.demo import DIRECTOR, REFEREE, SCORER, SLUG, build_demo
from tournament.models import (
    Approval,
    AuditEntry,
    Deal,
    DealKey,
    HandResult,
    Match,
    Penalty,
    Player,
    Round,
    Stage,
    TableSignature,
    Tournament,
)
from tournament.selectors.integrity import check_standings
from tournament.selectors.standings import stage_standings


def dump(tournament: Tournament) -> str:
    """The event in a canonical form without database ids: everything played, when and by
    whom, the secrets (keys, salted hashes) and the standings."""
    t = lambda moment: moment.isoformat() if moment else None  # noqa: E731
    where = ("table__round__stage__order", "table__round__number", "table__number")
    data = {
        "tournament": [tournament.name, tournament.status, t(tournament.created_at)],
        "keys": [[k.number, k.key_hex, k.commitment, t(k.revealed_at)]
                 for k in DealKey.objects.filter(tournament=tournament).order_by("number")],
        "deals": list(Deal.objects.filter(round__stage__tournament=tournament).order_by(
            "round__stage__order", "round__number", "deal_set", "hand", "reserve")
            .values_list("round__number", "hand", "cards")),
        "pins": list(Player.objects.filter(team__tournament=tournament).order_by(
            "team__code", "number").values_list("name", "pin_hash")),
        "hands": [[*values[:-1], t(values[-1])] for values in
                  HandResult.objects.filter(table__round__stage__tournament=tournament)
                  .order_by(*where, "hand", "version").values_list(
                      *where, "hand", "version", "is_current", "outcome", "declarer_seat",
                      "declarer_deadwood", "opponent_deadwood", "false_knock_seat",
                      "false_knock_deadwood", "seat1_points", "seat2_points", "explanation",
                      "cards", "reason", "request_token", "entered_by__username",
                      "entered_at")],
        "approvals": [[*values[:-1], t(values[-1])] for values in
                      Approval.objects.filter(result__table__round__stage__tournament=tournament)
                      .order_by(*(f"result__{w}" for w in where), "result__hand",
                                "result__version", "seat")
                      .values_list("result__table__number", "result__hand", "seat", "method",
                                   "approved_at")],
        "signatures": [[*values[:-1], t(values[-1])] for values in
                       TableSignature.objects.filter(table__round__stage__tournament=tournament)
                       .order_by(*where, "seat").values_list("table__number", "seat",
                                                             "signed_at")],
        "matches": [[*values[:-1], t(values[-1])] for values in
                    Match.objects.filter(round__stage__tournament=tournament).order_by(
                        "round__stage__order", "round__number", "number").values_list(
                        "round__stage__name", "round__number", "number", "home__code",
                        "away__code", "home_total", "away_total", "extra_hands",
                        "forfeited_by__code", "signed_off_at")],
        "penalties": [[*values[:-1], t(values[-1])] for values in
                      Penalty.objects.filter(tournament=tournament).order_by("recorded_at",
                                                                              "kind")
                      .values_list("team__code", "kind", "amount", "minutes", "reason",
                                   "recorded_at")],
        "audit": [[entry.action, entry.actor_name, entry.summary, t(entry.created_at)]
                  for entry in AuditEntry.objects.filter(tournament=tournament)
                  .order_by("created_at", "id")],
        "standings": [[stage.name, [(line.rank, line.team.code, line.match_points,
                                     line.small_points) for line in
                                    stage_standings(stage).lines]]
                      for stage in tournament.stages.order_by("order")],
    }
    return json.dumps(data, ensure_ascii=False, sort_keys=True, default=str)


def forget_demo_accounts() -> None:
    """So that the next build makes its accounts (and their salts) again."""
    get_user_model().objects.filter(username__in=[DIRECTOR, REFEREE, SCORER]).delete()


@pytest.mark.slow
@pytest.mark.django_db
def test_the_demo_is_complete_checks_out_and_the_same_seed_gives_the_same_event():
    out = io.StringIO()
    call_command("demo", "--seed", "7", stdout=out)
    assert "Demo tournament built" in out.getvalue()
    passwords = dict(re.findall(r"(demo-\w+): password (\S+)", out.getvalue()))
    assert set(passwords) == {REFEREE, SCORER}
    tournament = Tournament.objects.get(slug=SLUG)
    assert tournament.status == Tournament.Status.FINISHED
    # Without --season (tests/tournament/test_demo_season.py) it counts for no rating.
    assert (tournament.rated, tournament.category, tournament.federation) == (False, "", "")
    assert not Tournament.objects.filter(slug="demo-open").exists()
    teams = list(tournament.teams.values_list("name", flat=True))
    assert len(teams) == 16 and {"中国红队", "中華台北"} <= set(teams)

    groups, knockout = tournament.stages.order_by("order")
    assert groups.kind == Stage.Kind.GROUPS and knockout.kind == Stage.Kind.KNOCKOUT
    assert [g.entries.count() for g in groups.groups.order_by("order")] == [8, 8]
    assert groups.rounds.count() == 7 and knockout.rounds.count() == 3
    assert not Round.objects.filter(stage__tournament=tournament).exclude(
        status=Round.Status.CLOSED).exists()
    # The knockout was seeded from the group standings: the top 4 of each group.
    assert knockout.entries.count() == 8
    for group in groups.groups.all():
        top = [line.team.pk for line in stage_standings(groups, group=group).lines[:4]]
        assert set(top) <= set(knockout.entries.values_list("team_id", flat=True))
    assert AuditEntry.objects.filter(tournament=tournament, action="stage.seeded").exists()

    # Every match played is signed off; one group match defaulted, no hand in it.
    played = Match.objects.filter(round__stage__tournament=tournament, forfeited_by=None)
    assert not played.filter(signed_off_at=None).exists()
    defaulted = Match.objects.get(round__stage=groups, forfeited_by__isnull=False,
                                  round__number=6)
    assert not HandResult.objects.filter(table__match=defaulted).exists()
    kinds = sorted(Penalty.objects.filter(tournament=tournament).values_list("kind",
                                                                          flat=True))
    assert kinds == ["default", "lateness", "small_points", "warning"]
    # Every hand came from a deal of the application, false knocks among them; one was
    # corrected by the referee after the sign-off, with its reason.
    hands = HandResult.objects.filter(table__round__stage__tournament=tournament)
    assert not hands.filter(deal=None).exists()
    assert hands.filter(is_current=True, false_knock_seat__isnull=False).exists()
    assert hands.filter(is_current=True).exclude(cards=None).exists()
    corrected = hands.filter(version=2)
    assert corrected.count() == 1 and corrected.get().reason
    assert AuditEntry.objects.filter(tournament=tournament, action="result.correct").count() == 1
    report = check_standings(tournament)
    assert report.ok, report.summary
    assert DealKey.objects.get(tournament=tournament).revealed_at is not None

    # The public pages show it.
    client = Client()
    for name in ("tournament", "rounds", "penalties"):
        response = client.get(reverse(f"public:{name}", args=[SLUG]))
        assert response.status_code == 200, name
    page = client.get(reverse("public:tournament", args=[SLUG])).content.decode()
    assert "Demo Team Cup" in page
    # The final's winner is 1st, its loser 2nd, the third-place match's winner 3rd: on the
    # overview, the standings page and the API (read off the matches, not the ranking).
    final, third = Match.objects.filter(round__stage=knockout, round__number=3).order_by(
        "number").select_related("home", "away")
    champion, runner_up = ((final.home, final.away) if final.home_total > 0
                           else (final.away, final.home))
    bronze = third.home if third.home_total > 0 else third.away
    items = client.get(f"/api/tournaments/{SLUG}/final-ranking").json()["items"]
    assert [(item["place"], item["team"]["code"]) for item in items[:3]] == [
        (1, champion.code), (2, runner_up.code), (3, bronze.code)]
    standings = client.get(reverse("public:standings", args=[SLUG])).content.decode()
    podium = re.findall(r'<li class="place-(\d)"><span class="medal">\d</span> <a [^>]*>'
                        r'<span class="team-code">([^<]+)</span>', standings)
    assert podium == [("1", champion.code), ("2", runner_up.code), ("3", bronze.code)]
    assert "Champion" in page and champion.name in page

    # Again: nothing done while it exists; with --replace, the same event again.
    first = dump(tournament)
    out = io.StringIO()
    call_command("demo", "--seed", "7", stdout=out)
    assert "Nothing done" in out.getvalue()
    assert Tournament.objects.count() == 1
    from tournament.services import Actor
    from tournament.services.tournaments import delete_tournament

    assert Client().login(username=SCORER, password=passwords[SCORER])
    delete_tournament(Actor(user=get_user_model().objects.get(username=DIRECTOR)), tournament)
    deletion = AuditEntry.objects.get(tournament=None, action="tournament.delete")
    assert "demo accounts made inactive" in deletion.summary
    # Its accounts go with it: the passwords anyone could work out from a seed open nothing.
    for username, password in passwords.items():
        assert not Client().login(username=username, password=password), username
        user = get_user_model().objects.get(username=username)
        assert not user.is_active and not user.has_usable_password()
    forget_demo_accounts()
    call_command("demo", "--seed", "7", stdout=io.StringIO())
    assert_same_event(dump(Tournament.objects.get(slug=SLUG)), first)


def assert_same_event(again: str, first: str) -> None:
    """The two dumps are equal; if not, name the first part that differs and show its first
    different item (pytest's own diff of two long strings takes minutes)."""
    if again == first:
        return
    a, b = json.loads(again), json.loads(first)
    for part in sorted(set(a) | set(b)):
        if a.get(part) != b.get(part):
            items_a, items_b = a.get(part) or [], b.get(part) or []
            pairs = zip(items_a, items_b, strict=False)
            index = next((i for i, (x, y) in enumerate(pairs) if x != y),
                         min(len(items_a), len(items_b)))
            pytest.fail(f"the same seed gave another event: {part!r} differs at item {index} "
                        f"({len(items_a)} items against {len(items_b)}): "
                        f"{items_a[index:index + 1]!r} against {items_b[index:index + 1]!r}")
    pytest.fail("the same seed gave another event (the dumps differ in their text only)")


@pytest.mark.django_db
def test_replace_deletes_the_demo_through_the_service_first(monkeypatch):
    from tournament.demo import Built, Demo

    made = []

    def build(demo):
        made.append(demo.seed)
        demo.accounts()
        from tournament.services.tournaments import create_tournament

        return Built(create_tournament(demo.director, name="Demo Team Cup", slug=SLUG,
                                       starts_on="2025-10-17", ends_on="2025-10-19"))

    monkeypatch.setattr(Demo, "build", build)
    build_demo(5)
    first = Tournament.objects.get(slug=SLUG)
    with pytest.raises(Exception, match="exists already"):
        build_demo(5)
    build_demo(6, replace=True)
    assert made == [5, 6] and not Tournament.objects.filter(pk=first.pk).exists()
    assert AuditEntry.objects.filter(tournament=None, action="tournament.delete",
                                     data__demo=True).exists()


@pytest.fixture
def quickstart(db, settings, tmp_path, monkeypatch):
    settings.STATIC_ROOT = tmp_path / "static"
    settings.VAR_DIR = tmp_path  # the build's lock and progress (tournament/first_start.py)
    monkeypatch.setenv("DJANGO_SUPERUSER_PASSWORD", "a-Long-pass-123")
    built = []
    # The build itself is tested above; here only whether quickstart asks for it.
    monkeypatch.setattr("tournament.demo.build_demo",
                        lambda *args, **kwargs: built.append((args, kwargs)) or
                        type("Built", (), {"tournament": None, "hands": 0,
                                           "passwords": {REFEREE: "r-pass", SCORER: "s-pass"}})())

    def run(*args):
        out = io.StringIO()
        call_command("quickstart", "--no-serve", *args, stdout=out)
        return out.getvalue()

    return run, built


def test_quickstart_loads_the_demo_on_the_first_start_only(quickstart, make_tournament):
    run, built = quickstart
    out = run()
    assert len(built) == 1
    # The demo's accounts are printed beside the director's.
    assert f"{REFEREE}: password r-pass" in out and f"{SCORER}: password s-pass" in out
    assert out.index("Log in at") < out.index(f"{REFEREE}: password")
    make_tournament(slug=SLUG)  # as if it had been built
    run()
    assert len(built) == 1


def test_quickstart_no_demo_skips_it(quickstart):
    run, built = quickstart
    out = run("--no-demo")
    assert built == [] and not Tournament.objects.exists()
    assert "demo" in out.lower()


# Deleting a tournament from the director's pages -----------------------------------------

def test_a_director_deletes_a_tournament_and_one_with_results_needs_its_name(
        client, tournament, staff_user, make_tournament, monkeypatch):
    director = staff_user(tournament, "director")
    client.force_login(director)
    url = reverse("director:tournament_delete", args=[tournament.slug])
    assert client.get(reverse("director:tournament_edit", args=[tournament.slug])
                      ).content.decode().count(url) == 1
    referee = staff_user(tournament, "referee")
    other = Client()
    other.force_login(referee)
    assert other.get(url).status_code == 403 and other.post(url).status_code == 403

    monkeypatch.setattr("tournament.services.tournaments.tournament_has_results",
                        lambda tournament: True)
    monkeypatch.setattr("tournament.views.director.tournaments.tournament_has_results",
                        lambda tournament: True)
    page = client.get(url).content.decode()
    assert 'name="confirm_name"' in page
    response = client.post(url, {"confirm_name": "World"})
    assert response.status_code == 200 and "Type the tournament" in response.content.decode()
    assert Tournament.objects.filter(pk=tournament.pk).exists()
    response = client.post(url, {"confirm_name": " World Cup "})
    assert response.status_code == 302
    assert not Tournament.objects.filter(pk=tournament.pk).exists()
    entry = AuditEntry.objects.get(tournament=None, action="tournament.delete")
    assert "World Cup" in entry.summary and entry.actor == director


def test_a_tournament_without_results_goes_with_one_click(client, tournament, staff_user):
    client.force_login(staff_user(tournament, "director"))
    url = reverse("director:tournament_delete", args=[tournament.slug])
    assert 'name="confirm_name"' not in client.get(url).content.decode()
    assert client.post(url).status_code == 302
    assert not Tournament.objects.exists()


def test_without_a_seed_the_demo_passwords_are_random():
    from tournament.demo import Clock, seeded, venue_time
    from tournament.services.staff import _new_password

    def password(**kwargs):
        with seeded(7, Clock(venue_time(-7, 18, 0)), **kwargs):
            return _new_password()

    assert password() != password()
    assert password(seeded_passwords=True) == password(seeded_passwords=True)


@pytest.mark.django_db
def test_a_retired_demo_account_comes_back_with_a_new_password():
    from tournament.demo import revive_account
    from tournament.demo_accounts import retire_accounts

    user = get_user_model().objects.create_user(REFEREE, password="old-Pass-123456")
    assert retire_accounts() == [REFEREE]
    assert not Client().login(username=REFEREE, password="old-Pass-123456")
    new = revive_account(REFEREE)[REFEREE]
    user.refresh_from_db()
    assert user.is_active and Client().login(username=REFEREE, password=new)
    assert revive_account(REFEREE) == {}  # an active account is left alone
