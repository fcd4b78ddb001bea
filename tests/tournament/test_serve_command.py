"""``manage.py serve`` hands over to gunicorn with a control socket of none (issue 56): two
servers on one machine (the public pool and the staff pool) would share gunicorn's one
socket per account."""

from django.core.management import call_command

from tournament.management.commands import serve


def test_serve_starts_gunicorn_without_a_shared_control_socket(monkeypatch):
    started = []
    monkeypatch.setenv("CACHE_URL", "locmemcache://")  # (else serve sets one for gunicorn)
    monkeypatch.setattr(serve, "call_command", lambda *args, **kwargs: None)
    monkeypatch.setattr(serve, "start_beside", lambda *args: None)
    monkeypatch.setattr(serve.os, "execv", lambda path, argv: started.append(argv))
    call_command("serve", "127.0.0.1:8123", "--no-migrate")
    [argv] = started
    assert argv[argv.index("--bind") + 1] == "127.0.0.1:8123"
    assert "--no-control-socket" in argv
