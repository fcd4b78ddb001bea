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
