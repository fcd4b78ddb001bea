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


def test_secret_key_is_generated_once_and_kept_out_of_git(manage, tmp_path):
    script = "from django.conf import settings; print(settings.SECRET_KEY)"
    first = manage("shell", "--no-imports", "-c", script)
    second = manage("shell", "--no-imports", "-c", script)
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
def test_https_settings_follow_the_hosts(manage, hosts, debug, https):
    script = "from django.conf import settings; print(settings.HTTPS)"
    result = manage("shell", "--no-imports", "-c", script, ALLOWED_HOSTS=hosts, DEBUG=debug)
    assert result.stdout.strip() == https
