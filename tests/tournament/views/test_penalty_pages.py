"""The penalty pages: the list, recording one, undoing one, and where penalties show
(the match page, the team page, the staff navigation), as referees and directors use them."""

import re
from html.parser import HTMLParser

import pytest
from django.urls import reverse

from tournament.models import AuditEntry, Penalty, Stage
from tournament.services.draw import generate_round
from tournament.services.penalties import record_penalty, undo_penalty
from tournament.services.rounds import publish_round, start_round
from tournament.services.stages import create_stage, enter_teams


def url(name, *args):
    return reverse(f"director:{name}", args=args)


def text(response) -> str:
    html = response.content.decode()
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).replace("&#x27;", "'")


@pytest.fixture
def referee_user(tournament, staff_user):
    return staff_user(tournament, "referee", username="ref")


@pytest.fixture
def referee(client, referee_user):
    client.force_login(referee_user)
    return referee_user


@pytest.fixture
def in_play(director_actor, tournament, teams):
    stage = create_stage(director_actor, tournament, name="Swiss", kind=Stage.Kind.SWISS,
                         swiss_rounds=3)
    enter_teams(director_actor, stage, teams(4))
    round_ = generate_round(director_actor, stage)
    publish_round(director_actor, round_)
    return start_round(director_actor, round_)


def post(client, tournament, round_, **values):
    data = {"round": round_.pk, "kind": "warning", "reason": "", **values}
    data = {key: ("" if value is None else getattr(value, "pk", value))
            for key, value in data.items()}
    return client.post(url("penalty_create", tournament.slug), data)


class _Hidden(HTMLParser):
    """The hidden fields of the confirmation's form, as the browser would send them."""

    def __init__(self):
        super().__init__()
        self.inside, self.fields = False, {}

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "form" and "penalty-confirm" in (attrs.get("class") or ""):
            self.inside = True
        elif tag == "input" and self.inside and attrs.get("type") == "hidden":
            self.fields.setdefault(attrs["name"], []).append(attrs.get("value") or "")

    def handle_endtag(self, tag):
        if tag == "form":
            self.inside = False


def confirmation(response) -> dict[str, list[str]]:
    """What the confirmation page sends back when its button is pressed."""
    assert response.status_code == 200, response
    parser = _Hidden()
    parser.feed(response.content.decode())
    assert parser.fields.get("confirm"), "not the confirmation page"
    return parser.fields


def confirm(client, tournament, response):
    return client.post(url("penalty_create", tournament.slug), confirmation(response))


def test_a_referee_records_a_warning_and_sees_it_listed(client, referee, tournament, in_play):
    page = client.get(url("penalty_create", tournament.slug))
    assert page.status_code == 200
    assert "Swiss, Round 1" in text(page)  # the round in play is the default
    team = in_play.matches.first().home
    response = post(client, tournament, in_play, team=team, reason="phone at the table")
    assert response.status_code == 302
    penalty = Penalty.objects.get()
    assert (penalty.kind, penalty.team, penalty.recorded_by) == ("warning", team, referee)
    listing = text(client.get(response.url))
    assert f"Recorded against {team.code}: warning." in listing
    assert "phone at the table" in listing and "active" in listing


@pytest.mark.parametrize(("values", "message"), [
    ({"reason": ""}, "give the reason for the warning"),
    ({"kind": "small_points", "amount": 0, "reason": "x"}, "needs the points to deduct"),
    ({"kind": "match_points", "amount": "-2", "reason": "x"},
     "Points deducted: type a whole number with the digits 0–9, not “-2”"),
    ({"kind": "match_points", "amount": "10000", "reason": "x"}, "must be from 1 to 9999"),
    ({"kind": "lateness", "reason": "x", "match": "own"}, "lateness needs the minutes"),
    ({"kind": "default", "reason": "x", "match": "other round"}, "is in Swiss, Round 2"),
    ({"kind": "warning", "reason": "x", "player": "other team"}, "is a player of"),
    ({"kind": "default", "reason": "x", "match": "not its own"}, "does not play match"),
    ({"kind": "disqualification", "reason": "x"},
     "Only the chief referee or the director may disqualify"),
    ({"kind": "nonsense", "reason": "x"}, "Select a valid choice"),
    ({"team": "999999", "reason": "x"}, "Select a valid choice"),
])
def test_bad_input_gets_a_message_never_a_500(client, referee, director_actor, tournament,
                                              in_play, values, message):
    own = in_play.matches.order_by("number").first()
    other = in_play.matches.order_by("number").last()
    for match in in_play.matches.all():
        match.forfeited_by = match.home  # decided, so that round 2 can be drawn
        match.save()
    from tournament.services.rounds import close_round

    close_round(director_actor, in_play)
    later = generate_round(director_actor, in_play.stage)
    publish_round(director_actor, later)
    values = {"team": own.home, **values}
    values["match"] = {"own": own, "other round": later.matches.first(),
                       "not its own": other}.get(values.get("match"))
    if values.get("player") == "other team":
        values["player"] = own.away.players.first()
    response = post(client, tournament, in_play, **values)
    assert response.status_code == 200
    assert message in text(response)
    assert not Penalty.objects.exists()


def test_the_chief_referee_disqualifies_through_the_page(client, tournament, staff_user,
                                                         in_play):
    client.force_login(staff_user(tournament, "referee", chief=True))
    team = in_play.matches.first().home
    response = post(client, tournament, in_play, kind="disqualification", team=team,
                    reason="cheating")
    assert not Penalty.objects.exists()  # shown first: it forfeits the team's matches
    response = confirm(client, tournament, response)
    assert response.status_code == 302
    assert Penalty.objects.get().kind == "disqualification"


def test_undo_needs_a_reason_and_marks_the_penalty_undone(client, referee, referee_user,
                                                          actor, tournament, in_play):
    match = in_play.matches.order_by("number").first()
    penalty = record_penalty(actor(referee_user), team=match.home, round=in_play,
                             kind="default", match=match, reason="no show")
    page = url("penalty_undo", tournament.slug, penalty.pk)
    response = client.post(page, {"reason": ""})
    assert response.status_code == 200
    assert "give the reason for the undo" in text(response)
    response = client.post(page, {"reason": "they were at the wrong table"})
    assert response.status_code == 302
    penalty.refresh_from_db()
    assert penalty.undone_by == referee_user
    listing = text(client.get(response.url))
    assert "undone" in listing and "they were at the wrong table" in listing
    again = client.post(page, {"reason": "twice"})
    assert "already undone" in text(again)


def test_a_referee_is_not_offered_to_undo_a_disqualification(client, referee, tournament,
                                                             staff_user, actor, in_play):
    chief = actor(staff_user(tournament, "referee", chief=True))
    penalty = record_penalty(chief, team=in_play.matches.first().home, round=in_play,
                             kind="disqualification", reason="cheating")
    listing = client.get(url("penalty_list", tournament.slug)).content.decode()
    assert url("penalty_undo", tournament.slug, penalty.pk) not in listing
    response = client.post(url("penalty_undo", tournament.slug, penalty.pk),
                           {"reason": "mistake"})
    assert response.status_code == 200
    assert "Only the chief referee or the director may undo" in text(response)
    assert Penalty.objects.get().is_active


def test_the_match_page_shows_the_forfeit_and_offers_a_penalty(client, referee,
                                                               referee_user, actor,
                                                               tournament, in_play):
    match = in_play.matches.order_by("number").first()
    page = client.get(url("match_page", tournament.slug, match.pk))
    link = url("penalty_create", tournament.slug) + f"?match={match.pk}"
    assert link in page.content.decode()
    form = client.get(link)
    assert f"match {match.number} ({match.home.code} – {match.away.code})" in text(form)
    record_penalty(actor(referee_user), team=match.away, round=in_play, kind="default",
                   match=match, reason="did not come")
    shown = text(client.get(url("match_page", tournament.slug, match.pk)))
    assert f"forfeited by {match.away.code}" in shown
    assert "did not come" in shown
    assert "Sign the match off" not in shown
    progress = text(client.get(url("round_progress", tournament.slug, in_play.pk)))
    assert f"forfeited by {match.away.code}" in progress


def test_the_team_page_lists_the_team_s_penalties(client, tournament, staff_user, actor,
                                                  in_play):
    director = staff_user(tournament, "director", username="boss")
    client.force_login(director)
    team = in_play.matches.first().home
    penalty = record_penalty(actor(director), team=team, round=in_play, kind="small_points",
                             amount=5, reason="late score sheet")
    undo_penalty(actor(director), penalty, "sheet was on time")
    record_penalty(actor(director), team=team, round=in_play, kind="warning",
                   reason="noise")
    shown = text(client.get(url("team_edit", tournament.slug, team.pk)))
    assert "Small-point deduction : 5" in shown and "late score sheet" in shown
    assert "undone sheet was on time" in shown
    assert "Warning · T1" in shown and "noise" in shown


def test_staff_navigation_and_rights(client, tournament, staff_user, in_play):
    client.force_login(staff_user(tournament, "scorer"))
    assert client.get(url("penalty_list", tournament.slug)).status_code == 403
    assert client.get(url("penalty_create", tournament.slug)).status_code == 403
    client.force_login(staff_user(tournament, "referee"))
    page = client.get(url("penalty_list", tournament.slug)).content.decode()
    assert f'href="{url("penalty_list", tournament.slug)}"' in page


def test_the_audit_log_says_what_a_penalty_did(client, referee, tournament, in_play):
    match = in_play.matches.order_by("number").first()
    confirm(client, tournament, post(client, tournament, in_play, kind="lateness", minutes=40,
                                     match=match, team=match.home, reason="lost"))
    entry = AuditEntry.objects.get(action="penalty.record")
    assert f"over the limit of 15 minutes: a default of match {match.number}" in entry.summary
    assert (f"Swiss, Round 1 match {match.number} ({match.home.code} – {match.away.code}) "
            f"forfeited by {match.home.code}") in entry.summary


@pytest.mark.parametrize("count", [3, 12])
def test_the_penalty_list_s_queries_are_pinned(client, referee, referee_user, actor,
                                               tournament, in_play, count,
                                               django_assert_num_queries):
    teams = [team for match in in_play.matches.all() for team in (match.home, match.away)]
    for n in range(count):
        penalty = record_penalty(actor(referee_user), team=teams[n % 4], round=in_play,
                                 kind="match_points", amount=1 + n, reason=f"reason {n}")
        if n % 3 == 0:
            undo_penalty(actor(referee_user), penalty, "mistake")
    with django_assert_num_queries(8):
        response = client.get(url("penalty_list", tournament.slug))
    assert response.status_code == 200
    assert text(response).count("reason ") == count
    with django_assert_num_queries(10):  # the two filters' values are looked up
        assert client.get(url("penalty_list", tournament.slug)
                          + f"?round={in_play.pk}&team={teams[0].pk}").status_code == 200


@pytest.mark.parametrize("query", ["?round=abc", "?team=-1", "?round=99999999999999999999",
                                   "?page=x", "?round=&team="])
def test_odd_query_strings_keep_the_pages_up(client, referee, tournament, in_play, query):
    assert client.get(url("penalty_list", tournament.slug) + query).status_code == 200
    assert client.get(url("penalty_create", tournament.slug) + query).status_code == 200
    odd_match = url("penalty_create", tournament.slug) + "?match=99999"
    assert client.get(odd_match).status_code == 404
