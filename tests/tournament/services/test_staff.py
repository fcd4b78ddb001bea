import pytest

from tournament.models import Role, StaffRole
from tournament.permissions import Perm, has_perm
from tournament.services import ServiceError
from tournament.services.staff import assign_role, remove_role


@pytest.fixture
def director_user(tournament, staff_user):
    return staff_user(tournament, Role.DIRECTOR, username="boss")


def test_new_account_gets_a_one_time_password(actor, director_user, tournament, client):
    staff, password = assign_role(actor(director_user), tournament, username="scorer1",
                                  role=Role.SCORER, create_account=True)
    assert password and staff.role == Role.SCORER
    assert client.login(username="scorer1", password=password)


def test_unknown_account_without_create_is_refused(actor, director_user, tournament):
    with pytest.raises(ServiceError, match="there is no account 'ghost'"):
        assign_role(actor(director_user), tournament, username="ghost", role=Role.SCORER)


def test_changing_a_role_replaces_it(actor, director_user, tournament, make_user):
    user = make_user("chen")
    assign_role(actor(director_user), tournament, username="chen", role=Role.SCORER)
    assign_role(actor(director_user), tournament, username="CHEN", role=Role.REFEREE,
                is_chief_referee=True)
    assert StaffRole.objects.get(user=user).title == "Chief referee"
    assert has_perm(user, tournament, Perm.DISQUALIFY)


@pytest.mark.parametrize(("role", "chief", "message"), [
    ("scorer", True, "only a referee can be the chief referee"),
    ("emperor", False, "unknown role"),
])
def test_bad_roles(actor, director_user, tournament, make_user, role, chief, message):
    make_user("chen")
    with pytest.raises(ServiceError, match=message):
        assign_role(actor(director_user), tournament, username="chen", role=role,
                    is_chief_referee=chief)


def test_director_cannot_demote_or_remove_themselves(actor, director_user, tournament):
    with pytest.raises(ServiceError, match="your own director role"):
        assign_role(actor(director_user), tournament, username="boss", role=Role.SCORER)
    with pytest.raises(ServiceError, match="your own role"):
        remove_role(actor(director_user), StaffRole.objects.get(user=director_user))


def test_user_names_follow_djangos_validator_in_any_script(actor, director_user, tournament,
                                                           client):
    for username in ["张伟", "李娜", "josé.m", "ref+1@club-7"]:
        staff, password = assign_role(actor(director_user), tournament, username=username,
                                      role=Role.SCORER, create_account=True)
        assert staff.user.username == username
        assert client.login(username=username, password=password)
    with pytest.raises(ServiceError, match="may only contain letters, digits"):
        assign_role(actor(director_user), tournament, username="张 伟", role=Role.SCORER,
                    create_account=True)


@pytest.mark.parametrize(("username", "message"), [
    ("scorer\u200b1", "user name contains an invisible character (U+200B)"),
    ("\u202eadmin", "user name contains an invisible text-direction character (U+202E)"),
    ("li\u2066wei\u2069", "user name contains an invisible text-direction character (U+2066)"),
    ("li wei", "user name 'li wei' may only contain letters, digits and @ . + - _"),
    ("chen/1", "user name 'chen/1' may only contain letters, digits and @ . + - _"),
    ("x" * 151, "user name is longer than 150 characters"),
    ("\ufdfa" * 10, "user name is longer than 150 characters"),
])
def test_odd_user_names_are_refused_with_the_reason(actor, director_user, tournament,
                                                    django_user_model, username, message):
    with pytest.raises(ServiceError) as caught:
        assign_role(actor(director_user), tournament, username=username, role=Role.SCORER,
                    create_account=True)
    assert caught.value.message == message
    assert caught.value.field_errors == {"username": [message]}
    assert list(django_user_model.objects.values_list("username", flat=True)) == ["boss"]


def test_a_compatibility_spelling_finds_the_existing_account(actor, director_user, tournament,
                                                             make_user, django_user_model):
    # Django stores user names NFKC-normalised: "ﬁona" (with the fi ligature) is "fiona".
    fiona = make_user("fiona")
    staff, password = assign_role(actor(director_user), tournament, username="ﬁona",
                                  role=Role.SCORER, create_account=True)
    assert staff.user == fiona and password is None
    assert django_user_model.objects.count() == 2
