"""A default shows what it will do before it is done (issue 51): the confirmation page of a
default (and of lateness over the limit) lists exactly the results the service then changes
and the teams that then sit out, with the rules that say so; the preview writes nothing;
a confirmation of a plan that has changed meanwhile is refused with what changed."""

import html
import re
import uuid

import pytest
from django.urls import reverse

from tests.tournament.views.test_penalty_pages import confirmation, text
from tournament.models import AuditEntry, HandResult, Match, Penalty, Stage, TeamResult
from tournament.selectors.penalties import left_out
from tournament.services.approvals import approve_hand, sign_table
from tournament.services.draw import generate_round
from tournament.services.entry import record_hand_result
from tournament.services.hands import HandEntry
from tournament.services.rounds import close_round, publish_round, start_round
from tournament.services.signoff import sign_off_match
from tournament.services.stages import allot_groups, create_stage

HOME_23 = HandEntry("knock", 1, 4, 12)  # at table 1: home +23
DRAW = HandEntry("draw")


def url(name, *args):
    return reverse(f"director:{name}", args=args)


def enter(actor, match, table1, table2=DRAW):
    one, two = match.tables.order_by("position")
    for table, entry in ((one, table1), (two, table2)):
        record_hand_result(actor, table, 1, entry, seen_version=0, request_token=uuid.uuid4())


def play(actor, match, table1=HOME_23, table2=DRAW):
    enter(actor, match, table1, table2)
    for result in HandResult.objects.filter(table__match=match, is_current=True):
        approve_hand(actor, result, 1)
        approve_hand(actor, result, 2)
    for table in match.tables.all():
        sign_table(actor, table, 1)
        sign_table(actor, table, 2)
    sign_off_match(actor, match)


def begin(actor, stage):
    round_ = generate_round(actor, stage)
    publish_round(actor, round_)
    return start_round(actor, round_)


def match_of(round_, home, away):
    return Match.objects.get(round=round_, home__code=home, away__code=away)


# A group of five (Berger, bye first):
#   1: T1 bye, T2–T5, T3–T4    2: T4 bye, T5–T3, T1–T2    3: T2 bye, T3–T1, T4–T5
#   4: T5 bye, T1–T4, T2–T3    5: T3 bye, T4–T2, T5–T1

@pytest.fixture
def group(director_actor, tournament, teams):
    """Rounds 1 and 2 played and closed; round 3 in play, T3 – T1 with its hands entered
    (T3 +23, provisional)."""
    tournament.hands_per_match = 1
    tournament.save()
    stage = create_stage(director_actor, tournament, name="Groups", kind=Stage.Kind.GROUPS)
    allot_groups(director_actor, stage, [teams(5)])
    for _ in range(2):
        round_ = begin(director_actor, stage)
        for match in round_.matches.all():
            play(director_actor, match)
        close_round(director_actor, round_)
    three = begin(director_actor, stage)
    enter(director_actor, match_of(three, "T3", "T1"), HOME_23)
    return stage


@pytest.fixture
def referee(client, tournament, staff_user):
    user = staff_user(tournament, "referee", username="ref")
    client.force_login(user)
    return user


def ask(client, tournament, round_, **values):
    data = {"round": round_.pk, "kind": "default", "reason": "did not come back", **values}
    data = {key: ("" if value is None else getattr(value, "pk", value))
            for key, value in data.items()}
    return client.post(url("penalty_create", tournament.slug), data)


def state(stage):
    """Every result row of the stage, (round number, team) → its values, and each match's
    forfeiting team."""
    rows = {(r.round.number, r.team.code): (r.match_id, r.outcome, r.small_points,
                                           r.match_points, r.forfeit, r.void, r.provisional)
            for r in TeamResult.objects.filter(round__stage=stage)
            .select_related("round", "team")}
    forfeits = {m.pk: m.forfeited_by_id for m in Match.objects.filter(round__stage=stage)}
    return rows, forfeits


def shown_results(response) -> dict[str, tuple[str, str]]:
    """The confirmation's table: where → (now, after it)."""
    page = response.content.decode()
    table = page[page.index('class="stack penalty-effects"'):page.index("</table>")]
    found = {}
    for where, now, then in re.findall(
            r'<td[^>]*><strong>(.*?)</strong></td>\s*<td[^>]*>(.*?)</td>\s*<td[^>]*>(.*?)</td>',
            table,
            flags=re.S):
        found[html.unescape(where)] = (html.unescape(now), html.unescape(then))
    return found


def shown_later(response) -> list[str]:
    page = response.content.decode()
    block = re.search(r'<ul class="penalty-later">(.*?)</ul>', page, flags=re.S).group(1)
    return [html.unescape(item) for item in re.findall(r"<li>(.*?)</li>", block, flags=re.S)]


def where(match) -> str:
    return (f"Groups, Round {match.round.number} · match {match.number} "
            f"({match.home.code} – {match.away.code})")


def test_the_confirmation_lists_exactly_what_the_default_then_does(
        client, referee, director_actor, tournament, group):
    three = group.rounds.get(number=3)
    defaulted = match_of(three, "T3", "T1")
    before = state(group)
    audits = AuditEntry.objects.count()
    page = ask(client, tournament, three, team=defaulted.home, match=defaulted)
    # The preview wrote nothing.
    assert state(group) == before
    assert not Penalty.objects.exists() and AuditEntry.objects.count() == audits
    shown = text(page)
    assert "Default by T3 of match 1 (T3 – T1)" in shown
    assert "Rules, section 11 · Default in a group stage:" in shown
    assert "every result of a match it played in that stage is cancelled" in shown
    assert "Rules, section 16 · Sitting out:" in shown and "Rules, section 8 · Forfeit:" in shown
    results = shown_results(page)
    later = shown_later(page)

    response = client.post(url("penalty_create", tournament.slug), confirmation(page))
    assert response.status_code == 302
    after = state(group)

    # The results the page listed are exactly the matches and byes whose rows changed.
    changed_rows = {key for key in before[0].keys() | after[0].keys()
                    if before[0].get(key) != after[0].get(key)}
    changed_matches = {after[0][key][0] for key in changed_rows}
    assert None not in changed_matches  # no bye of T3 was played yet in this stage
    matches = Match.objects.filter(pk__in=changed_matches).select_related("round", "home",
                                                                           "away")
    assert set(results) == {where(m) for m in matches}
    assert len(results) == 3  # round 1 T3–T4, round 2 T5–T3, round 3 T3–T1
    for match in matches:
        now, then = results[where(match)]
        home = after[0][match.round.number, match.home.code]
        away = after[0][match.round.number, match.away.code]
        assert home[5] and away[5] and "cleared: it counts for neither team" in then
        old_home = before[0].get((match.round.number, match.home.code))
        if old_home is not None:
            state_word = "provisional" if old_home[6] else "official"
            assert now == (f"{match.home.code} {old_home[2]} – {match.away.code} "
                           f"{before[0][match.round.number, match.away.code][2]}, "
                           f"{old_home[3]}–{before[0][match.round.number, match.away.code][3]}"
                           f" match points ({state_word})")
    # The forfeits it named are exactly the matches whose forfeiting team changed.
    forfeited = {pk for pk in after[1] if after[1][pk] != before[1][pk]}
    assert forfeited == {defaulted.pk}
    assert results[where(defaulted)][0] == "T3 23 – T1 -23, 3–1 match points (provisional)"
    assert results[where(defaulted)][1] == (
        "forfeited by T3: T3 0 – T1 0, 0–3 match points; the hands entered are kept, and "
        "count again if the default is undone; cleared: it counts for neither team")

    # The later rounds: drawn as the page said.
    assert later == [
        "T3 is withdrawn from Groups: it is left out of every round of the stage drawn "
        "from now on.",
        "Groups, Round 4: T2 sits out (its scheduled opponent T3 is withdrawn): no match, "
        "no bye, no points.",
        "Groups, Round 5: T3's scheduled bye is dropped.",
    ]
    play(director_actor, match_of(three, "T4", "T5"))
    close_round(director_actor, three)
    four = begin(director_actor, group)
    assert [[t.code for t in teams] for teams in left_out(four)] == [["T3"], ["T2"]]
    play(director_actor, match_of(four, "T1", "T4"))
    close_round(director_actor, four)
    five = begin(director_actor, group)
    assert sorted(five.entries.values_list("team__code", flat=True)) == ["T1", "T2", "T4",
                                                                        "T5"]
    assert not five.entries.filter(side="bye").exists()


def test_a_change_meanwhile_refuses_the_confirmation_with_what_changed(
        client, referee, director_actor, tournament, group):
    three = group.rounds.get(number=3)
    defaulted = match_of(three, "T3", "T1")
    page = ask(client, tournament, three, team=defaulted.home, match=defaulted)
    sent = confirmation(page)
    # Meanwhile a correction of round 2's T5 – T3 (a referee's, with a reason) changes
    # a result the default clears.
    two_match = match_of(group.rounds.get(number=2), "T5", "T3")
    table = two_match.tables.get(position=1)
    record_hand_result(director_actor, table, 1, HandEntry("gin", 1, None, 20),
                       seen_version=1, request_token=uuid.uuid4(), reason="wrong sheet")
    before = state(group)
    refused = client.post(url("penalty_create", tournament.slug), sent)
    assert refused.status_code == 200
    assert state(group) == before and not Penalty.objects.exists()
    shown = text(refused)
    assert "has changed since it was shown; nothing was recorded" in shown
    assert ("No longer: Groups, Round 2 · match 1 (T5 – T3): T5 23 – T3 -23, 3–1 match "
            "points (official)") in shown
    assert ("Now: Groups, Round 2 · match 1 (T5 – T3): T5 45 – T3 -45, 3–1 match points "
            "(provisional)") in shown
    # The page now shows the plan of now: confirmed, it is recorded.
    response = client.post(url("penalty_create", tournament.slug), confirmation(refused))
    assert response.status_code == 302
    assert Penalty.objects.get().match == defaulted
    defaulted.refresh_from_db()
    assert defaulted.forfeited_by.code == "T3"


def test_lateness_over_the_limit_is_confirmed_within_it_is_not(client, referee, tournament,
                                                               group):
    three = group.rounds.get(number=3)
    defaulted = match_of(three, "T3", "T1")
    within = ask(client, tournament, three, kind="lateness", minutes=15, team=defaulted.home,
                 match=defaulted, reason="traffic")
    assert within.status_code == 302  # changes no result: recorded at once
    page = ask(client, tournament, three, kind="lateness", minutes=16, team=defaulted.home,
               match=defaulted, reason="traffic again")
    assert Penalty.objects.count() == 1
    shown = text(page)
    assert ("Lateness of 16 minutes by T3, over the limit of 15 minutes: a default of match 1 "
            "(T3 – T1)") in shown
    assert "Rules, section 11 · Lateness:" in shown
    assert len(shown_results(page)) == 3
    # "Change it" goes back to the form, filled in, and records nothing.
    again = client.post(url("penalty_create", tournament.slug),
                        {**confirmation(page), "edit": "1"})
    assert 'name="minutes" value="16"' in again.content.decode()
    assert Penalty.objects.count() == 1
    response = client.post(url("penalty_create", tournament.slug), confirmation(page))
    assert response.status_code == 302
    assert sorted(Penalty.objects.values_list("kind", flat=True)) == [
        "default", "lateness", "lateness"]


def test_a_knockout_and_a_swiss_default_say_what_follows(client, referee, director_actor,
                                                         tournament, teams, round_in_play):
    swiss = round_in_play(4)
    match = swiss.matches.order_by("number").first()
    page = ask(client, tournament, swiss, team=match.away, match=match)
    shown = text(page)
    assert f"Swiss: {match.away.code} is paired again in the next round." in shown
    assert "Rules, section 11 · Default in a Swiss round:" in shown
    assert f"forfeited by {match.away.code}" in shown
