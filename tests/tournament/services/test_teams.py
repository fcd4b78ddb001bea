import pytest

from tournament.models import AuditEntry, Player, Team
from tournament.services import ServiceError
from tournament.services.teams import (
    TeamEntryError,
    create_team,
    delete_team,
    parse_team_entry,
    update_team,
)


@pytest.fixture
def director(tournament, staff_user, actor):
    return actor(staff_user(tournament, "director", username="chen"))


def entry(**fields):
    raw = {"code": "chn", "name": "China", "player1": "Li Wei", "player2": "Zhang Min", **fields}
    return parse_team_entry(raw)


def test_parse_cleans_and_upper_cases():
    parsed = entry(name="  China  ", seed="3", reserve="Wang", reserve_id="CN9")
    assert (parsed.code, parsed.name, parsed.seed) == ("CHN", "China", 3)
    assert parsed.reserve.name == "Wang" and parsed.reserve.federation_id == "CN9"


@pytest.mark.parametrize(("fields", "field", "message"), [
    ({"name": ""}, "name", "team name is empty"),
    ({"player2": " "}, "player2", "player 2 is empty"),
    ({"code": "TOO-LONG-CODE"}, "code", "longer than 10"),
    ({"code": "-AB"}, "code", "letters, digits or hyphens"),
    ({"seed": "-1"}, "seed", "not a whole number"),
    ({"name": "Nul\x00l"}, "name", "NUL character"),
    ({"player1": "Tab\there"}, "player1", "control character"),
    ({"reserve_id": "X"}, "reserve", "needs the reserve's name"),
    ({"player2": "li wei"}, "player2", "named twice"),
])
def test_bad_entries_name_the_field(fields, field, message):
    with pytest.raises(TeamEntryError) as caught:
        entry(**fields)
    assert any(message in m for m in caught.value.field_errors[field])


def test_create_update_and_delete_are_audited(director, tournament):
    team = create_team(director, tournament, entry(reserve="Wang"))
    assert list(team.players.values_list("name", "number", "is_reserve")) == [
        ("Li Wei", 1, False), ("Zhang Min", 2, False), ("Wang", 3, True)]

    update_team(director, team, entry(name="China Red", player2="Zhou Yu"))
    team.refresh_from_db()
    assert team.name == "China Red"
    assert list(team.players.values_list("name", flat=True)) == ["Li Wei", "Zhou Yu"]
    summary = AuditEntry.objects.get(action="team.update").summary
    assert summary == ("chen changed team CHN: team name China → China Red, "
                       "player 2 Zhang Min → Zhou Yu, reserve Wang → —")

    delete_team(director, team)
    assert not Team.objects.exists() and not Player.objects.exists()
    assert AuditEntry.objects.filter(action="team.delete").exists()


def test_clashes_are_refused(director, tournament):
    create_team(director, tournament, entry(seed="1", player1_id="F1"))
    for clash, message in [
        (entry(code="X1"), "team name 'China' is already used"),
        (entry(name="Other"), "team code CHN is already used"),
        (entry(code="X2", name="X2", seed="1"), "seed 1 is already given"),
        (entry(code="X3", name="X3", player2_id="F1"), "federation id F1 is already registered"),
    ]:
        with pytest.raises(ServiceError, match=message):
            create_team(director, tournament, clash)
    assert Team.objects.count() == 1


def test_a_team_may_keep_its_own_code_and_seed_when_edited(director, tournament):
    team = create_team(director, tournament, entry(seed="1", player1_id="F1"))
    update_team(director, team, entry(seed="1", player1_id="F1", country="China"))
    team.refresh_from_db()
    assert team.country == "China"
