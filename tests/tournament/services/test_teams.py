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


@pytest.mark.parametrize(("fields", "field", "message"), [
    ({"name": "Chi\u200bna"}, "name", "team name contains an invisible character (U+200B)"),
    ({"player2": "李\u200d娜"}, "player2", "player 2 contains an invisible character (U+200D)"),
    ({"player1": "\u202eieW iL"}, "player1",
     "player 1 contains an invisible text-direction character (U+202E)"),
    ({"reserve": "Wang\u2067"}, "reserve",
     "reserve contains an invisible text-direction character (U+2067)"),
    ({"country": "Ita\ufeffly"}, "country",
     "country or club contains an invisible character (U+FEFF)"),
    ({"player1_id": "CN\u2060001"}, "player1_id",
     "federation id of player 1 contains an invisible character (U+2060)"),
    ({"seed": "1\u200b"}, "seed", "seed contains an invisible character (U+200B)"),
    ({"seed": "²"}, "seed",
     "seed '²' is not a whole number of 1 or more written with the digits 0-9"),
    ({"seed": "0"}, "seed",
     "seed '0' is not a whole number of 1 or more written with the digits 0-9"),
])
def test_invisible_characters_and_odd_digits_are_named(fields, field, message):
    with pytest.raises(TeamEntryError) as caught:
        entry(**fields)
    assert caught.value.field_errors[field] == [message]


def test_a_name_differing_only_by_an_invisible_character_cannot_slip_in(director, tournament):
    team = create_team(director, tournament, entry(name="中国红队", player1="张伟",
                                                   player2="李娜"))
    assert team.name == "中国红队"
    assert list(team.players.values_list("name", flat=True)) == ["张伟", "李娜"]
    with pytest.raises(TeamEntryError, match="invisible character"):
        create_team(director, tournament, entry(code="CHN2", name="中国\u200b红队"))
    assert Team.objects.count() == 1


def test_removing_a_reserve_who_plays_in_a_line_up_says_so(director, tournament, make_team):
    from tournament.models import Stage
    from tournament.services.draw import generate_round
    from tournament.services.rounds import close_round, publish_round, set_lineup, start_round
    from tournament.services.stages import allot_groups, create_stage

    team = create_team(director, tournament, entry(reserve="Wang Fang"))
    other = make_team(tournament)
    stage = create_stage(director, tournament, name="Groups", kind=Stage.Kind.GROUPS)
    allot_groups(director, stage, [[team, other]])
    round_ = generate_round(director, stage)
    reserve = team.players.get(number=Player.RESERVE_NUMBER)
    set_lineup(director, round_, team, first_player=team.players.get(number=1),
               second_player=reserve)

    with pytest.raises(ServiceError) as caught:
        update_team(director, team, entry())
    assert caught.value.message == (
        "the reserve Wang Fang plays in a line-up of Groups, Round 1 and cannot be removed; "
        "change that line-up first")
    assert caught.value.field_errors == {"reserve": [caught.value.message]}

    publish_round(director, round_, override_reason="test")
    start_round(director, round_)
    round_.matches.update(home_total=0, away_total=0, signed_off_at=round_.created_at)
    close_round(director, round_)
    with pytest.raises(ServiceError) as caught:
        update_team(director, team, entry())
    assert caught.value.message == (
        "the reserve Wang Fang plays in a line-up of Groups, Round 1 and cannot be removed")
    assert team.players.filter(number=Player.RESERVE_NUMBER, name="Wang Fang").exists()
