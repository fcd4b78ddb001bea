"""The README's run command on a fresh machine: one command gives a working site."""

import re
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

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
