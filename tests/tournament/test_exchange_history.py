"""A restore keeps the whole history (issue 50, item 2): a played event with changes (a
team renamed and given a reserve on its page, a line-up changed, a result corrected after
sign-off, a group stage drawn) is exported and imported under another short name, and every
tracked row's history (type, time, user, reason, fields, in order), every row's history
page in the admin, the audit log and the result versions are the original's. A file of
version 1 (written before the history travelled) still imports, each row with one "created"
version; the file round-trips byte for byte; the history part is checked like the rest."""

import copy
import html
import json
import uuid

import pytest
from django.contrib.auth import get_user_model
from django.template.loader import render_to_string
from django.urls import reverse
from simple_history.utils import update_change_reason

from tests.tournament.test_exchange import same_people
from tests.tournament.views.public_event import one_event_per_module, page_text
from tournament.exchange.common import IMPORT_ACTION, dump, map_schedule
from tournament.exchange.export import export_text, export_tournament
from tournament.exchange.history import CREATED_REASON, TRACKED, tracked_fields
from tournament.exchange.import_ import import_tournament, review_import
from tournament.exchange.problems import ImportRefused
from tournament.exchange.read import read_document
from tournament.exchange.schema import VERSION
from tournament.models import (
    AuditEntry,
    Group,
    HandResult,
    Match,
    Player,
    Round,
    RoundEntry,
    Stage,
    Table,
    Team,
    Tournament,
)
from tournament.services import Actor
from tournament.services.approvals import approve_hand, sign_table
from tournament.services.draw import generate_round
from tournament.services.entry import record_hand_result
from tournament.services.hands import HandEntry
from tournament.services.signoff import sign_off_match
from tournament.services.stages import allot_groups, create_stage
from tournament.services.teams import team_entry_fields

User = get_user_model()

CODES = [("CHN", "中国红队"), ("ITA", "Italia"), ("FRA", "Équipe de France"), ("USA", "USA")]
built_event, event, tournament = one_event_per_module(teams=4, codes=CODES, open_round=False)

# The admin's history pages (RoundEntry has none: its history is compared row by row).
ADMIN_MODELS = (Tournament, Team, Player, Stage, Round, Match)


def with_changes(client, event) -> Tournament:
    """The event changed as a director does it: T1 renamed and given a reserve on its
    page, a group stage allotted and drawn, a line-up of the Swiss round 3 changed on its
    page, a result of round 1 corrected after sign-off and signed off again, and a change
    reason on the renamed team's version."""
    tournament = event.tournament
    director = User.objects.get(username="event-director")
    actor = Actor(user=director, ip="10.0.0.8")
    client.force_login(director)
    team = Team.objects.get(tournament=tournament, code="CHN")
    fields = {**team_entry_fields(team), "name": "中国红队 (renamed)", "reserve": "Wang Fang"}
    response = client.post(reverse("director:team_edit", args=[tournament.slug, team.pk]),
                           {k: "" if v is None else v for k, v in fields.items()})
    assert response.status_code == 302
    update_change_reason(Team.objects.get(pk=team.pk), "The captain asked for it")
    groups = create_stage(actor, tournament, name="Groups", kind=Stage.Kind.GROUPS)
    allot_groups(actor, groups, [event.teams[:2], event.teams[2:]], names=["Red", "Blue"])
    generate_round(actor, groups)
    third = generate_round(actor, event.stage)
    entry = RoundEntry.objects.filter(round=third).exclude(match=None).first()
    first, second = entry.second_player, entry.first_player
    response = client.post(
        reverse("director:round_lineup", args=[tournament.slug, third.pk, entry.team_id]),
        {"first_player": first.pk, "second_player": second.pk})
    assert response.status_code == 302
    match = Match.objects.filter(round=event.closed[0]).order_by("number").first()
    table = Table.objects.get(match=match, position=1)
    current = HandResult.objects.get(table=table, hand=1, is_current=True)
    corrected = record_hand_result(actor, table, 1, HandEntry("knock", 1, 3, 40),
                                   seen_version=current.version, request_token=uuid.uuid4(),
                                   reason="Deadwood counted again")
    for seat in (1, 2):
        approve_hand(actor, corrected, seat)
    for seat in (1, 2):
        sign_table(actor, table, seat)
    sign_off_match(actor, Match.objects.get(pk=match.pk))
    client.logout()
    return tournament


def keys_of(tournament) -> dict:
    """Each tracked (and referenced) row's natural key by model and id."""
    t = tournament
    teams = dict(Team.objects.filter(tournament=t).values_list("pk", "code"))
    stages = dict(Stage.objects.filter(tournament=t).values_list("pk", "name"))
    rounds = {pk: (stages[stage], number) for pk, stage, number in
              Round.objects.filter(stage__tournament=t).values_list("pk", "stage", "number")}
    return {
        Tournament: {t.pk: "the tournament"},
        Team: teams,
        Player: {pk: (teams[team], number) for pk, team, number in
                 Player.objects.filter(team__tournament=t).values_list("pk", "team",
                                                                       "number")},
        Stage: stages,
        Round: rounds,
        Match: {pk: (*rounds[r], number) for pk, r, number in
                Match.objects.filter(round__stage__tournament=t).values_list(
                    "pk", "round", "number")},
        RoundEntry: {pk: (*rounds[r], teams[team]) for pk, r, team in
                     RoundEntry.objects.filter(round__stage__tournament=t).values_list(
                         "pk", "round", "team")},
        Group: {pk: (stages[stage], name) for pk, stage, name in
                Group.objects.filter(stage__tournament=t).values_list("pk", "stage", "name")},
        User: dict(User.objects.values_list("pk", "username")),
    }


def histories(tournament) -> dict:
    """Every version of every tracked row of the tournament, by model and the row's
    natural key, oldest first: type, time, user name, reason and every tracked field, the
    references by natural key (database ids differ from one database to the other)."""
    keys = keys_of(tournament)
    out = {}
    for model, rows in keys.items():
        if model in (Group, User):
            continue
        fields = [f for f in model.history.model.tracked_fields if f.name != "id"]
        versions: dict = {}
        for record in (model.history.model.objects.filter(id__in=list(rows))
                       .order_by("history_date", "history_id")):
            values = {}
            for field in fields:
                value = getattr(record, field.attname)
                if field.is_relation and value is not None:
                    value = keys[field.related_model].get(value, f"gone {value}")
                elif field.name == "schedule" and value is not None:
                    value = map_schedule(value, lambda t: keys[Team].get(t),
                                         lambda g: keys[Group][int(g)])
                values[field.name] = value
            versions.setdefault(rows[record.id], []).append((
                record.history_type, record.history_date,
                record.history_user.username if record.history_user else None,
                record.history_change_reason, values))
        out[model.__name__] = versions
    return out


def admin_history_pages(client, tournament) -> dict:
    """The text of each row's history page in the admin, by model and natural key. A
    stored schedule is shown as it is kept, by team and group ids, which differ from one
    database to the other: each is read by natural keys."""
    keys = keys_of(tournament)
    schedules = {}
    for schedule in Stage.history.filter(tournament=tournament, schedule__isnull=False) \
            .values_list("schedule", flat=True):
        schedules[str(schedule)] = json.dumps(map_schedule(
            schedule, lambda t: keys[Team].get(t), lambda g: "/".join(keys[Group][int(g)])),
            ensure_ascii=False, sort_keys=True)
    pages = {}
    for model in ADMIN_MODELS:
        name = model._meta.model_name
        for pk, key in keys[model].items():
            response = client.get(reverse(f"admin:tournament_{name}_history", args=[pk]))
            assert response.status_code == 200
            text = page_text(response.content.decode())
            for shown, natural in schedules.items():
                text = text.replace(shown, natural)
            pages[(name, key)] = text
    return pages


def audit_log(tournament) -> list:
    """Each audit entry but the import's: when, who, what, and its sentence as shown."""
    return [(e.created_at, e.actor.username if e.actor else None, e.actor_name, e.action,
             e.ip_address, page_text(render_to_string("director/audit_summary.html",
                                                      {"record": e})))
            for e in AuditEntry.objects.filter(tournament=tournament)
            .exclude(action=IMPORT_ACTION).select_related("actor").order_by("created_at", "id")]


def result_versions(tournament) -> list:
    """Every version of every hand, with who entered and approved it, when and why."""
    return [(r.table.round.stage.name, r.table.round.number, r.table.number, r.hand,
             r.version, r.is_current, r.outcome, r.seat1_points,
             r.seat2_points, r.explanation, r.entered_by.username, r.entered_at,
             r.ip_address, r.device, r.reason,
             [(a.seat, a.method, a.approved_at, a.recorded_by.username)
              for a in r.approvals.order_by("seat")])
            for r in HandResult.objects.filter(table__round__stage__tournament=tournament)
            .select_related("table__round__stage", "entered_by")
            .order_by("table__round__stage__order", "table__round__number", "table__number",
                      "hand", "version")]


def restored(tournament, slug="restored"):
    text = export_text(tournament, secrets=True)
    document = read_document(text.encode())
    return text, import_tournament(document, slug=slug, map_users=same_people(document))


def test_a_restore_keeps_every_history_page_the_audit_log_and_the_result_versions(
        client, event, admin_user):
    tournament = with_changes(client, event)
    original = histories(tournament)
    # The changes are in the history: the renamed team's versions, by its director.
    chn = original["Team"]["CHN"]
    assert [v[0] for v in chn] == ["+", "~"] and chn[-1][2] == "event-director"
    assert chn[-1][3] == "The captain asked for it" and "renamed" in chn[-1][4]["name"]
    assert original["Player"][("CHN", 3)][0][2] == "event-director"
    # The draw writes round entries in bulk (no version); the line-up change writes one.
    [lineup] = [v for versions in original["RoundEntry"].values() for v in versions]
    assert lineup[0] == "~" and lineup[2] == "event-director"
    assert any(v[4]["signed_off_at"] is None for versions in original["Match"].values()
               for v in versions[1:])
    assert any(v[4]["schedule"] for v in original["Stage"]["Groups"])
    assert all(versions for versions in original["Team"].values())

    _text, copy_ = restored(tournament)
    assert histories(copy_) == original
    client.force_login(admin_user)
    assert admin_history_pages(client, copy_) == admin_history_pages(client, tournament)
    assert audit_log(copy_) == audit_log(tournament)
    assert result_versions(copy_) == result_versions(tournament)


def test_export_import_export_is_the_same_file_history_included(client, event):
    tournament = with_changes(client, event)
    first, copy_ = restored(tournament, slug="again")
    second = export_text(copy_, secrets=True)
    assert second.replace('"slug": "again"', '"slug": "world-cup"', 1) == first
    assert json.loads(first)["history"]["teams"]
    # The history keeps the short name the tournament had then.
    assert {v["fields"]["slug"] for v in json.loads(second)["history"]["tournament"]} == {
        "world-cup"}


def test_the_history_names_no_database_id_and_no_secret(client, event):
    tournament = with_changes(client, event)
    document = export_tournament(tournament, secrets=True)
    history = document["history"]
    assert list(history) == list(TRACKED)
    player = history["players"][0]
    assert set(player) == {"team", "player", "at", "type", "user", "reason", "fields"}
    assert not {"pin_hash", "pin_failures", "pin_locked_until"} & set(player["fields"])
    assert all(p["pin_hash"] not in dump(history) for t in document["teams"]
               for p in t["players"] if p["pin_hash"])
    match = history["matches"][-1]["fields"]
    assert isinstance(match["home"], str) and isinstance(match["round"], int)
    groups = next(v for v in history["stages"] if v["fields"]["schedule"])
    assert set(groups["fields"]["schedule"]["groups"]) == {"Red", "Blue"}
    # Every field the history keeps is in the file, but the row's tournament.
    for kind, (model, _keys, fields) in TRACKED.items():
        assert set(fields) == tracked_fields(model) - {"tournament"}, kind


def as_version_1(document: dict) -> None:
    """A file of this version made a version 1 file, as written before the history, the
    persons and the names in the other script travelled."""
    document["version"] = 1
    del document["history"]
    del document["tournament"]["federation"]
    del document["tournament"]["other_name"]
    for team in document["teams"]:
        del team["other_name"]
        for player in team["players"]:
            del player["person"]
    for stage in document["stages"]:
        del stage["other_name"]


def test_a_file_of_version_1_imports_with_one_created_version_per_row(client, event):
    tournament = with_changes(client, event)
    document = json.loads(export_text(tournament, secrets=True))
    as_version_1(document)
    plan, problems = review_import(document, slug="old", map_users=same_people(document))
    assert not problems
    assert [n for n in plan.notes if n.startswith("history: the file is of version 1")]
    copy_ = import_tournament(document, slug="old", map_users=same_people(document))
    keys = keys_of(copy_)
    rounds = dict(Round.objects.filter(stage__tournament=copy_).values_list("pk", "created_at"))
    for model in (Tournament, Team, Player, Stage, Round, Match, RoundEntry):
        for pk in keys[model]:
            [version] = model.history.model.objects.filter(id=pk)
            row = model.objects.get(pk=pk)
            assert (version.history_type, version.history_user,
                    version.history_change_reason) == ("+", None, CREATED_REASON)
            expected = {Tournament: copy_.created_at, Round: getattr(row, "created_at", None),
                        Match: rounds.get(getattr(row, "round_id", None)),
                        RoundEntry: rounds.get(getattr(row, "round_id", None))}.get(
                model, copy_.created_at)
            assert version.history_date == expected, model
            for field in model.history.model.tracked_fields:
                assert getattr(version, field.attname) == getattr(row, field.attname)
    audit = AuditEntry.objects.get(tournament=copy_, action=IMPORT_ACTION)
    assert audit.data["version"] == 1
    # Exported again, it is a file of the current version with that history.
    again = export_tournament(copy_, secrets=True)
    assert again["version"] == VERSION and len(again["history"]["teams"]) == 4


def test_a_version_1_file_through_the_import_page_says_so_and_names_nobody(client, event,
                                                                          make_user):
    from tests.tournament.views.test_exchange_pages import choices, importer, upload

    document = json.loads(export_text(event.tournament, secrets=True))
    as_version_1(document)
    client.force_login(importer(make_user))
    preview = client.get(upload(client, dump(document).encode())["Location"])
    assert "history: the file is of version 1" in html.unescape(preview.content.decode())
    data = {**choices(preview, **same_people(document)), "slug": "from-the-page"}
    done = client.post(preview.request["PATH_INFO"], {**data, "import": "1"})
    assert done.status_code == 302
    copy_ = Tournament.objects.get(slug="from-the-page")
    versions = Team.history.filter(tournament=copy_)
    assert versions.count() == 4
    assert {(v.history_type, v.history_user_id) for v in versions} == {("+", None)}


def test_a_version_1_file_with_history_and_a_version_2_file_without_are_refused(event,
                                                                               tournament):
    document = export_tournament(tournament, secrets=True)
    old = {**copy.deepcopy(document), "version": 1}
    with pytest.raises(ImportRefused) as refused:
        import_tournament(old, slug="old-with-history")
    assert "history: unknown field" in refused.value.messages
    del document["history"]
    with pytest.raises(ImportRefused) as refused:
        import_tournament(document, slug="new-without-history")
    assert "history: missing" in refused.value.messages


def _broken(document, path, value):
    broken = copy.deepcopy(document)
    node = broken
    for part in path[:-1]:
        node = node[part]
    node[path[-1]] = value
    return broken


@pytest.mark.parametrize(("path", "value", "message"), [
    (["history", "teams", 0, "team"], "ZZZ", "history.teams[0].team: no team has the code ZZZ"),
    (["history", "players", 2, "player"], 3,
     "history.players[2].player: team ITA has no player 3"),
    (["history", "matches", 0, "match"], 99, "history.matches[0].match: round 1 has no match 99"),
    (["history", "rounds", 0, "round"], 9, "history.rounds[0].round: Swiss has no round 9"),
    (["history", "round_entries", 0, "fields", "first_player"], 3,
     "history.round_entries[0].fields.first_player: team"),
    (["history", "matches", 0, "fields", "home"], "ZZZ",
     "history.matches[0].fields.home: no team has the code ZZZ"),
    (["history", "matches", 0, "fields", "group"], "Nowhere",
     "history.matches[0].fields.group: the stage has no group Nowhere"),
    (["history", "teams", 0, "user"], "stranger",
     "history.teams[0].user: stranger is not in people"),
    (["history", "teams", 0, "type"], "*", "history.teams[0].type: must be one of +, ~, -"),
    (["history", "teams", 0, "at"], "2026-02-30T09:00:00.000000Z",
     "history.teams[0].at: 2026-02-30T09:00:00.000000Z is not a real time"),
    (["history", "teams", 1, "at"], "2000-01-01T00:00:00.000000Z",
     "history.teams[1].at: is earlier than the version before it"),
    (["history", "teams", 0, "fields", "name"], "China\x00", "history.teams[0].fields.name: "),
    (["history", "teams", 0, "reason"], "a\nb", "history.teams[0].reason: "),
    (["history", "teams", 0, "reason"], "x" * 101,
     "history.teams[0].reason: must have at most 100 characters"),
    (["history", "teams", 0, "fields", "seed"], 0,
     "history.teams[0].fields.seed: must be a whole number from 1 to 2147483647"),
    (["history", "tournament", 0, "fields", "starts_on"], "2026-02-30",
     "history.tournament[0].fields.starts_on: 2026-02-30 is not a date"),
    (["history", "teams", 0, "fields", "pin_hash"], "x",
     "history.teams[0].fields.pin_hash: unknown field"),
])
def test_a_broken_history_is_refused_with_its_path(client, event, path, value, message):
    document = export_tournament(with_changes(client, event), secrets=True)
    before = (Tournament.objects.count(), Team.history.count(), Match.history.count())
    with pytest.raises(ImportRefused) as refused:
        import_tournament(_broken(document, path, value), slug="broken",
                          map_users=same_people(document))
    assert any(m.startswith(message) for m in refused.value.messages), refused.value.messages
    assert (Tournament.objects.count(), Team.history.count(), Match.history.count()) == before
