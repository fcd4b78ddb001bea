"""The README's run command on a fresh machine: one command gives a working site."""

import io
import re
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from django.contrib.auth.password_validation import validate_password
from django.core.management import call_command
from django.core.management.base import CommandError

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def get(url: str) -> tuple[int, str]:
    with urllib.request.urlopen(url, timeout=5) as response:
        return response.status, response.read().decode()


def test_quickstart_migrates_creates_a_director_and_serves(tmp_path, subprocess_env):
    port = free_port()
    env = subprocess_env()
    server = subprocess.Popen(
        [sys.executable, "manage.py", "quickstart", f"127.0.0.1:{port}"],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )
    try:
        output = []
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            line = server.stdout.readline()
            output.append(line)
            if "Quit the server with" in line or server.poll() is not None:
                break
        text = "".join(output)
        match = re.search(r"as director with the password (\S+)", text)
        assert match, text
        status, login_page = get(f"http://127.0.0.1:{port}/accounts/login/")
        assert status == 200 and "Log in" in login_page
        css = re.search(r'href="(/static/tournament/site\.[0-9a-f]+\.css)"', login_page)
        assert css, "the stylesheet is served with a hashed name from collectstatic"
        assert get(f"http://127.0.0.1:{port}{css.group(1)}")[0] == 200
        assert (tmp_path / "var" / "db.sqlite3").exists()
    finally:
        server.terminate()
        server.wait(timeout=10)

    again = subprocess.run(
        [sys.executable, "manage.py", "quickstart", "--no-serve"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120,
    )
    assert "with your director account" in again.stdout


# The director account from DJANGO_SUPERUSER_* passes the password validators or is refused
# with the reasons, and nothing is created.

@pytest.fixture
def quickstart(db, settings, tmp_path, monkeypatch):
    settings.STATIC_ROOT = tmp_path / "static"
    for name in ("DJANGO_SUPERUSER_USERNAME", "DJANGO_SUPERUSER_PASSWORD",
                 "DJANGO_SUPERUSER_EMAIL"):
        monkeypatch.delenv(name, raising=False)

    def run(**env):
        for name, value in env.items():
            monkeypatch.setenv(name, value)
        out = io.StringIO()
        # The director account is the subject here, not the demo (tests/tournament/test_demo.py).
        call_command("quickstart", "--no-serve", "--no-demo", stdout=out)
        return out.getvalue()

    return run


@pytest.mark.parametrize(("username", "password", "reasons"), [
    ("director", "short1", ["This password is too short. It must contain at least 8 "
                            "characters."]),
    ("director", "password123", ["This password is too common."]),
    ("director", "12345678", ["This password is too common.",
                              "This password is entirely numeric."]),
    ("margaret.chen", "margaretchen", ["The password is too similar to the username."]),
])
def test_a_weak_director_password_is_refused_with_the_reasons(quickstart, django_user_model,
                                                               username, password, reasons):
    with pytest.raises(CommandError) as refused:
        quickstart(DJANGO_SUPERUSER_USERNAME=username, DJANGO_SUPERUSER_PASSWORD=password)
    message = str(refused.value)
    assert message.startswith("The director account was not created: "
                              "DJANGO_SUPERUSER_PASSWORD is refused: ")
    for reason in reasons:
        assert reason in message
    assert password not in message
    assert not django_user_model.objects.exists()


def test_a_password_similar_to_the_email_is_refused(quickstart, django_user_model):
    with pytest.raises(CommandError, match="too similar to the email address"):
        quickstart(DJANGO_SUPERUSER_PASSWORD="lily.wong@example.org",
                   DJANGO_SUPERUSER_EMAIL="lily.wong@example.org")
    assert not django_user_model.objects.exists()


def test_a_bad_director_user_name_is_refused(quickstart, django_user_model):
    with pytest.raises(CommandError, match="Enter a valid username"):
        quickstart(DJANGO_SUPERUSER_USERNAME="no spaces please",
                   DJANGO_SUPERUSER_PASSWORD="a-Long-pass-123")
    assert not django_user_model.objects.exists()


def test_a_good_director_password_makes_the_account(quickstart, django_user_model):
    out = quickstart(DJANGO_SUPERUSER_USERNAME="chen", DJANGO_SUPERUSER_PASSWORD="a-Long-pass-123",
                     DJANGO_SUPERUSER_EMAIL="chen@example.org")
    assert "as chen with the password you set" in out
    user = django_user_model.objects.get()
    assert user.is_superuser and user.email == "chen@example.org"
    assert user.check_password("a-Long-pass-123")


def test_the_generated_director_password_passes_the_validators(quickstart, django_user_model):
    out = quickstart()
    password = re.search(r"as director with the password (\S+)", out).group(1)
    user = django_user_model.objects.get(username="director")
    assert user.check_password(password)
    validate_password(password, user)  # raises if any validator refuses it
