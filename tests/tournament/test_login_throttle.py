"""Login throttling: per account and per address, a clear lock-out page, a director's
unlock, and the client address behind a trusted proxy (tournament/login_throttle.py)."""

import datetime as dt
import subprocess
import sys
from pathlib import Path

import pytest
from axes.exceptions import AxesBackendRequestParameterRequired
from axes.models import AccessAttempt
from django.contrib.auth import authenticate
from django.core.exceptions import PermissionDenied
from django.test import RequestFactory, override_settings
from django.urls import reverse

from tournament import settings as production_settings
from tournament.client_ip import client_ip
from tournament.models import AuditEntry, Role
from tournament.services import Actor, ServiceError
from tournament.services.accounts import unlock_account

ROOT = Path(__file__).resolve().parents[2]
PASSWORD = "a-Long-pass-123"  # make_user's


def log_in(client, username, password, address="10.0.0.1", **headers):
    return client.post(reverse("login"), {"username": username, "password": password},
                       REMOTE_ADDR=address, **headers)


def logged_in(client):
    return "_auth_user_id" in client.session


def fail(client, username, times, address="10.0.0.1", **headers):
    for _ in range(times):
        response = log_in(client, username, "wrong-password", address, **headers)
        assert not logged_in(client)
    return response


@pytest.fixture
def scorer(tournament, staff_user):
    return staff_user(tournament, Role.SCORER, username="lily")


@pytest.fixture
def director(tournament, staff_user):
    return staff_user(tournament, Role.DIRECTOR, username="chen")


def test_four_failures_do_not_lock(client, scorer):
    assert fail(client, "lily", 4).status_code == 200
    assert log_in(client, "lily", PASSWORD).status_code == 302
    assert logged_in(client)


def test_five_failures_lock_the_account_even_from_another_address(client, scorer):
    response = fail(client, "lily", 5)
    assert response.status_code == 429
    response = log_in(client, "lily", PASSWORD, address="192.0.2.50")
    assert response.status_code == 429
    assert not logged_in(client)
    html = response.content.decode()
    assert "Log-in locked" in html and "too many failed log-ins" in html
    assert "15 minutes after the last failed attempt" in html
    assert "ask a director of your tournament" in html
    assert 'href="/static/' in html, "the page is the site's own template"


def test_the_lock_lifts_after_the_cool_off(client, scorer):
    fail(client, "lily", 5)
    assert log_in(client, "lily", PASSWORD, address="192.0.2.50").status_code == 429
    AccessAttempt.objects.update(attempt_time=dt.datetime.now(dt.UTC) - dt.timedelta(minutes=16))
    assert log_in(client, "lily", PASSWORD, address="192.0.2.50").status_code == 302
    assert logged_in(client)


def test_one_address_trying_many_accounts_is_locked(client, scorer):
    for n in range(19):
        log_in(client, f"guess{n}", "wrong-password", address="198.51.100.7")
    assert log_in(client, "lily", PASSWORD, address="198.51.100.7").status_code == 302
    client.logout()
    assert log_in(client, "guess-last", "wrong", address="198.51.100.7").status_code == 429
    response = log_in(client, "lily", PASSWORD, address="198.51.100.7")
    assert response.status_code == 429 and not logged_in(client)
    # The accounts themselves were not guessed at: from elsewhere lily gets in.
    assert log_in(client, "lily", PASSWORD, address="203.0.113.1").status_code == 302


def test_the_admin_login_is_throttled_too(client, admin_user):
    for _ in range(5):
        client.post(reverse("admin:login"), {"username": "root", "password": "nope"},
                    REMOTE_ADDR="10.0.0.3")
    response = client.post(reverse("admin:login"), {"username": "root", "password": PASSWORD},
                           REMOTE_ADDR="10.0.0.4")
    assert response.status_code == 429 and not logged_in(client)


def test_production_refuses_a_login_without_a_request(scorer):
    """Only the test settings let the test client's login() through without a request."""
    assert production_settings.AUTHENTICATION_BACKENDS[0] == "axes.backends.AxesStandaloneBackend"
    with (override_settings(AUTHENTICATION_BACKENDS=production_settings.AUTHENTICATION_BACKENDS),
          pytest.raises(AxesBackendRequestParameterRequired)):
        authenticate(username="lily", password=PASSWORD)


def test_a_director_sees_and_unlocks_a_locked_account(client, director, scorer, tournament):
    fail(client, "lily", 5)
    client.force_login(director)
    page = client.get(reverse("director:staff", args=[tournament.slug])).content.decode()
    assert "Locked accounts" in page and 'name="username" value="lily"' in page

    response = client.post(reverse("director:staff_unlock", args=[tournament.slug]),
                           {"username": "lily"}, REMOTE_ADDR="10.9.9.9")
    assert response.status_code == 302
    page = client.get(response["Location"]).content.decode()
    assert "lily can log in again." in page and "Locked accounts" not in page
    entry = AuditEntry.objects.get(action="account.unlock")
    assert entry.actor == director and entry.tournament == tournament
    assert entry.summary == "chen unlocked the account lily"
    assert entry.ip_address == "10.9.9.9" and entry.data["cleared"] == 1

    client.logout()
    assert log_in(client, "lily", PASSWORD, address="192.0.2.50").status_code == 302
    assert logged_in(client)


def test_a_scorer_cannot_unlock(client, scorer, tournament, staff_user, actor):
    fail(client, "lily", 5)
    other = staff_user(tournament, Role.SCORER, username="max")
    client.force_login(other)
    response = client.post(reverse("director:staff_unlock", args=[tournament.slug]),
                           {"username": "lily"})
    assert response.status_code == 403
    with pytest.raises(PermissionDenied):
        unlock_account(actor(other), tournament, "lily")
    assert AccessAttempt.objects.filter(username="lily").exists()
    assert not AuditEntry.objects.filter(action="account.unlock").exists()


def test_a_director_unlocks_only_their_own_staff(client, director, tournament, make_tournament,
                                                 staff_user, make_user, actor):
    elsewhere = staff_user(make_tournament(), Role.SCORER, username="ana")
    fail(client, "ana", 5)
    with pytest.raises(ServiceError, match="ana is not on the staff of World Cup"):
        unlock_account(actor(director), tournament, "ana")
    with pytest.raises(ServiceError, match="there is no account 'ghost'"):
        unlock_account(actor(director), tournament, "ghost")
    assert AccessAttempt.objects.filter(username="ana").exists()
    # A superuser unlocks anyone, here through a tournament the account has no role in.
    assert unlock_account(actor(make_user("root", superuser=True)), tournament, "ana") == 1
    client.post(reverse("login"), {"username": "ana", "password": PASSWORD})
    assert logged_in(client) and int(client.session["_auth_user_id"]) == elsewhere.pk


@pytest.mark.parametrize("data", [{}, {"username": ""}, {"username": "\x00"},
                                  {"username": "x" * 200}])
def test_odd_unlock_requests_get_a_message(client, director, tournament, data):
    client.force_login(director)
    response = client.post(reverse("director:staff_unlock", args=[tournament.slug]), data,
                           follow=True)
    assert response.status_code == 200
    assert "user name" in response.content.decode()


@pytest.mark.parametrize("staff", [3, 30])
def test_staff_page_queries_are_pinned_with_locked_accounts(
        client, director, tournament, staff_user, staff, django_assert_max_num_queries):
    for n in range(staff):
        staff_user(tournament, Role.SCORER, username=f"s{n}")
    for n in range(0, staff, 3):
        fail(client, f"s{n}", 5, address=f"10.1.0.{n}")
    client.force_login(director)
    # One of them: who created the tournament; three: whether this director may unlock
    # each locked account (its roles elsewhere, its device), whatever their number.
    with django_assert_max_num_queries(10):
        page = client.get(reverse("director:staff", args=[tournament.slug]))
    assert page.content.decode().count(">Unlock<") == len(range(0, staff, 3))


# The client's address: a header only when configured, read from the right.

def request_with(remote="10.0.0.1", forwarded=None):
    headers = {"HTTP_X_FORWARDED_FOR": forwarded} if forwarded is not None else {}
    return RequestFactory().get("/", REMOTE_ADDR=remote, **headers)


def test_the_forwarded_header_is_ignored_unless_configured():
    assert client_ip(request_with(forwarded="203.0.113.9")) == "10.0.0.1"


@override_settings(TRUSTED_PROXY_HEADER="HTTP_X_FORWARDED_FOR", TRUSTED_PROXY_COUNT=1)
@pytest.mark.parametrize(("forwarded", "expected"), [
    ("203.0.113.9", "203.0.113.9"),
    ("6.6.6.6, 203.0.113.9", "203.0.113.9"),  # the client's own claim is on the left
    (" 2001:db8::1 ", "2001:db8::1"),
    ("not-an-address", "10.0.0.1"),
    ("", "10.0.0.1"),
    (None, "10.0.0.1"),  # straight to the application server
])
def test_the_configured_header_gives_the_address_its_proxy_saw(forwarded, expected):
    assert client_ip(request_with(forwarded=forwarded)) == expected


@override_settings(TRUSTED_PROXY_HEADER="HTTP_X_FORWARDED_FOR", TRUSTED_PROXY_COUNT=2)
def test_with_two_proxies_the_second_entry_from_the_right_counts():
    assert client_ip(request_with(forwarded="6.6.6.6, 203.0.113.9, 10.0.0.2")) == "203.0.113.9"
    assert client_ip(request_with(forwarded="203.0.113.9")) == "10.0.0.1"


def test_without_the_setting_a_forged_header_cannot_dodge_the_lock(client, scorer):
    for n in range(5):
        log_in(client, "lily", "wrong", HTTP_X_FORWARDED_FOR=f"203.0.113.{n}")
    assert set(AccessAttempt.objects.values_list("ip_address", flat=True)) == {"10.0.0.1"}
    assert log_in(client, "lily", PASSWORD).status_code == 429


@override_settings(TRUSTED_PROXY_HEADER="HTTP_X_FORWARDED_FOR", TRUSTED_PROXY_COUNT=1)
def test_behind_the_proxy_throttle_and_audit_see_the_client(client, director, scorer,
                                                            tournament):
    proxy = "10.0.0.254"
    for _ in range(20):
        log_in(client, "someone", "wrong", address=proxy, HTTP_X_FORWARDED_FOR="203.0.113.5")
    assert set(AccessAttempt.objects.values_list("ip_address", flat=True)) == {"203.0.113.5"}
    # Another client through the same proxy is not locked by the first one's address.
    assert log_in(client, "lily", PASSWORD, address=proxy,
                  HTTP_X_FORWARDED_FOR="198.51.100.1").status_code == 302
    assert log_in(client, "lily", PASSWORD, address=proxy,
                  HTTP_X_FORWARDED_FOR="203.0.113.5").status_code == 429
    client.force_login(director)
    client.post(reverse("director:staff_unlock", args=[tournament.slug]), {"username": "lily"},
                REMOTE_ADDR=proxy, HTTP_X_FORWARDED_FOR="6.6.6.6, 198.51.100.1")
    assert AuditEntry.objects.get(action="account.unlock").ip_address == "198.51.100.1"


def test_actor_from_request_uses_the_same_address():
    request = request_with(forwarded="203.0.113.9")
    request.user = None
    assert Actor.from_request(request).ip == "10.0.0.1"
    with override_settings(TRUSTED_PROXY_HEADER="HTTP_X_FORWARDED_FOR"):
        assert Actor.from_request(request).ip == "203.0.113.9"


def test_settings_come_from_the_environment(subprocess_env):
    def run(**env):
        script = ("from django.conf import settings as s; print(s.AXES_FAILURE_LIMIT, "
                  "s.AXES_COOLOFF_TIME, s.TRUSTED_PROXY_HEADER or '-', s.TRUSTED_PROXY_COUNT)")
        return subprocess.run([sys.executable, "manage.py", "shell", "--no-imports", "-c",
                               script], cwd=ROOT, env=subprocess_env(**env),
                              capture_output=True, text=True, timeout=120)

    assert run().stdout.split() == ["5", "0:15:00", "-", "1"]
    configured = run(AXES_FAILURE_LIMIT="3", AXES_COOLOFF_MINUTES="60",
                     TRUSTED_PROXY_HEADER="X-Forwarded-For", TRUSTED_PROXY_COUNT="2")
    assert configured.stdout.split() == ["3", "1:00:00", "HTTP_X_FORWARDED_FOR", "2"]
    refused = run(AXES_FAILURE_LIMIT="0")
    assert refused.returncode != 0
    assert "AXES_FAILURE_LIMIT, LOGIN_ADDRESS_FAILURE_LIMIT and AXES_COOLOFF_MINUTES must be" \
        in refused.stderr
