"""Settings come from the environment; a production-like set passes Django's deploy check."""

import secrets
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def manage(subprocess_env):
    def run(*args, **env_overrides):
        return subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT,
                              env=subprocess_env(**env_overrides),
                              capture_output=True, text=True, timeout=120)

    return run


@pytest.fixture
def read_settings(subprocess_env):
    """Run ``script`` in a child process that imports the settings only, as manage.py
    names them, without loading the applications: what a setting comes to, read in a fifth
    of the time of ``manage.py shell``."""
    def run(script, **env_overrides):
        return subprocess.run([sys.executable, "-c", script], cwd=ROOT,
                              env=subprocess_env(DJANGO_SETTINGS_MODULE="tournament.settings",
                                                 **env_overrides),
                              capture_output=True, text=True, timeout=120)

    return run


def test_deploy_check_is_clean_with_production_variables(manage):
    result = manage("check", "--deploy", "--fail-level", "WARNING", DEBUG="0",
                    SECRET_KEY=secrets.token_urlsafe(50), ALLOWED_HOSTS="gin.example.org")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_deploy_check_catches_debug_in_production(manage):
    result = manage("check", "--deploy", "--fail-level", "WARNING", DEBUG="1",
                    SECRET_KEY=secrets.token_urlsafe(50), ALLOWED_HOSTS="gin.example.org")
    assert result.returncode != 0
    assert "security.W018" in result.stderr + result.stdout


def test_secret_key_is_generated_once_and_kept_out_of_git(read_settings, tmp_path):
    script = "from django.conf import settings; print(settings.SECRET_KEY)"
    first = read_settings(script)
    second = read_settings(script)
    key_file = tmp_path / "var" / "secret_key"
    assert first.stdout == second.stdout
    assert first.stdout.strip() == key_file.read_text().strip()
    assert len(first.stdout.strip()) >= 50
    assert oct(key_file.stat().st_mode & 0o777) == "0o600"
    assert "/var/" in (ROOT / ".gitignore").read_text()


@pytest.mark.parametrize(("hosts", "debug", "https"), [
    ("localhost,127.0.0.1", "0", "False"),
    ("gin.example.org", "0", "True"),
    ("gin.example.org", "1", "False"),
])
def test_https_settings_follow_the_hosts(read_settings, hosts, debug, https):
    script = "from django.conf import settings; print(settings.HTTPS)"
    result = read_settings(script, ALLOWED_HOSTS=hosts, DEBUG=debug)
    assert result.stdout.strip() == https



@pytest.mark.parametrize(("host", "lan"), [
    ("localhost", True), ("127.0.0.1", True), ("[::1]", True), ("192.168.1.10", True),
    ("10.0.0.5", True), ("172.16.3.4", True), ("169.254.10.20", True), ("[fd00::10]", True),
    ("[fe80::1]", True), ("gin.local", True), ("gin-server.lan", True), ("GIN.LAN", True),
    ("gin.home.arpa", True), ("gin.internal", True), ("gin-pc", True), (".lan", True),
    ("gin.example.org", False), (".example.org", False), ("*", False), ("8.8.8.8", False),
    ("[2606:4700::1111]", False), ("100.64.0.1", False), ("local.example.org", False),
])
def test_which_hosts_count_as_a_lan(host, lan):
    from tournament.settings import is_lan_host

    assert is_lan_host(host) is lan


# What a plain-HTTP request to the first allowed host gets: the HTTPS setting, the cookie
# flags, and where SecurityMiddleware sends it ("None": it is served, not redirected).
_PLAIN_HTTP_REQUEST = """
from django.conf import settings
from django.middleware.security import SecurityMiddleware
from django.test import RequestFactory
request = RequestFactory().get("/", HTTP_HOST=settings.ALLOWED_HOSTS[0].lstrip("."))
response = SecurityMiddleware(lambda request: None).process_request(request)
print(settings.HTTPS, getattr(settings, "SESSION_COOKIE_SECURE", False),
      getattr(settings, "CSRF_COOKIE_SECURE", False), getattr(response, "url", None))
"""
_PLAIN = ["False", "False", "False", "None"]


@pytest.mark.parametrize(("hosts", "variables", "expected"), [
    # A venue LAN server answers plain HTTP: no redirect, cookies sent without TLS.
    ("192.168.1.10", {}, _PLAIN),
    ("gin.local,10.0.0.5,localhost", {}, _PLAIN),
    # One public name switches HTTPS on, for every host.
    ("192.168.1.10,gin.example.org", {}, ["True", "True", "True", "https://192.168.1.10/"]),
    # The HTTPS variable always wins.
    ("192.168.1.10", {"HTTPS": "1"}, ["True", "True", "True", "https://192.168.1.10/"]),
    ("gin.example.org", {"HTTPS": "0"}, _PLAIN),
])
def test_a_plain_http_request_is_served_or_redirected(read_settings, hosts, variables,
                                                     expected):
    result = read_settings(_PLAIN_HTTP_REQUEST, DEBUG="0", ALLOWED_HOSTS=hosts, **variables)
    assert result.stdout.split() == expected, result.stderr


def test_deploy_check_on_a_lan_warns_about_plain_http(manage):
    result = manage("check", "--deploy", "--fail-level", "WARNING", DEBUG="0",
                    SECRET_KEY=secrets.token_urlsafe(50), ALLOWED_HOSTS="192.168.1.10")
    output = result.stdout + result.stderr
    assert result.returncode != 0
    assert "security.W008" in output and "security.W012" in output


def test_deploy_check_says_what_several_servers_must_share(manage):
    """On PostgreSQL (several application servers may share it) a cache and a key of this
    machine's own are warned about; a shared Redis and a given key are not (issue 29)."""
    postgres = {"DEBUG": "0", "ALLOWED_HOSTS": "gin.example.org",
                "DATABASE_URL": "postgres://gin@db.internal:5432/gin"}
    result = manage("check", "--deploy", "--fail-level", "WARNING", **postgres)
    output = result.stdout + result.stderr
    assert result.returncode != 0
    assert "tournament.W004" in output and "tournament.W005" in output
    result = manage("check", "--deploy", "--fail-level", "WARNING", **postgres,
                    SECRET_KEY=secrets.token_urlsafe(50),
                    CACHE_URL="redis://cache.internal:6379/1")
    assert result.returncode == 0, result.stdout + result.stderr
    # One machine's SQLite: nothing to share.
    result = manage("check", "--deploy", "--fail-level", "WARNING", DEBUG="0",
                    ALLOWED_HOSTS="gin.example.org", SECRET_KEY=secrets.token_urlsafe(50))
    assert "tournament.W004" not in result.stdout + result.stderr


@pytest.mark.parametrize(("url", "engine"), [
    ("", "django.db.backends.sqlite3"),  # set but empty: the default, as unset
    ("  ", "django.db.backends.sqlite3"),
    ("postgres://postgres@127.0.0.1:5432/x", "django.db.backends.postgresql"),
])
def test_an_empty_database_url_means_the_default(read_settings, url, engine):
    script = "from django.conf import settings; print(settings.DATABASES['default']['ENGINE'])"
    result = read_settings(script, DATABASE_URL=url)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == engine


@pytest.mark.parametrize(("url", "scheme"), [("mysql://u@h/db", "mysql"),
                                             ("nonsense", "nonsense")])
def test_a_database_url_of_another_kind_says_what_is_wrong(manage, url, scheme):
    result = manage("check", DATABASE_URL=url)
    assert result.returncode != 0
    assert "DATABASE_URL names SQLite (sqlite:///path) or PostgreSQL" in result.stderr
    assert f"not {scheme!r}" in result.stderr
