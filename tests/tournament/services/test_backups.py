"""When a backup is due, who takes it, what it writes and keeps (services.backups; the
server's own backups end to end: tests/tournament/test_backups_by_themselves.py)."""

import datetime as dt

import pytest
from django.utils import timezone

from tournament.exchange.backups import drop_files, list_backups
from tournament.models import BackupState
from tournament.services import backups
from tournament.services.rounds import close_round


@pytest.fixture
def backup_folder(settings, tmp_path):
    settings.BACKUP_DIR = tmp_path / "backups"
    settings.BACKUP_MIRROR_DIR = ""
    return settings.BACKUP_DIR


def test_closing_a_round_wants_a_backup_at_once(director_actor, round_in_play,
                                                django_capture_on_commit_callbacks):
    round_ = round_in_play(4)
    for match in round_.matches.all():
        match.home_total, match.away_total, match.signed_off_at = 10, -10, timezone.now()
        match.save()
    with django_capture_on_commit_callbacks(execute=True):
        close_round(director_actor, round_)
    state = BackupState.objects.get()
    assert state.wanted_why == "world-cup: Swiss, Round 1 closed"
    assert backups.due(state, timezone.now(), 600) == "world-cup: Swiss, Round 1 closed"


def test_the_interval_counts_only_while_a_round_is_in_play(db, round_in_play, backup_folder):
    now = timezone.now()
    state = backups.current_state()
    assert backups.due(state, now, 600) is None  # nothing in play, nothing wanted
    round_in_play(4)
    assert backups.due(state, now, 600) == "a round is in play: every 600 seconds"
    backups.take_backup(why="test", by="test")
    state.refresh_from_db()
    assert backups.due(state, now + dt.timedelta(seconds=599), 600) is None
    assert backups.due(state, now + dt.timedelta(seconds=601), 600) is not None


def test_one_keeper_of_the_site_holds_the_lease(db):
    now = timezone.now()
    assert backups.hold_lease("laptop:1", 15, now)
    assert not backups.hold_lease("server-2:7", 15, now + dt.timedelta(seconds=5))
    assert backups.hold_lease("laptop:1", 15, now + dt.timedelta(seconds=5))  # renewed
    # The first keeper stopped without a word: the other takes over once the lease ends.
    assert backups.hold_lease("server-2:7", 15, now + dt.timedelta(seconds=21))
    backups.release_lease("server-2:7")
    assert backups.hold_lease("laptop:1", 15, now + dt.timedelta(seconds=22))


def test_a_backup_says_what_it_left_out_and_the_mirror_what_went_wrong(
        round_in_play, make_tournament, backup_folder, settings, tmp_path):
    round_in_play(4)
    make_tournament(slug="quiet")
    first = backups.take_backup(why="test", by="test")  # the first takes every tournament
    assert sorted(files_of(first)) == ["quiet", "world-cup"]
    settings.BACKUP_MIRROR_DIR = str(tmp_path / "no-stick" / "gin")
    second = backups.take_backup(why="test", by="test")
    assert files_of(second) == ["world-cup"]
    assert [what for what in second.left_out if not what.startswith("the database")] == [
        "quiet: no round in play and nothing recorded since the last backup (it is in that "
        "one)"]
    assert "does not exist (is the stick plugged in" in second.mirror_problem
    assert BackupState.objects.get().mirror_problem == second.mirror_problem
    settings.BACKUP_MIRROR_DIR = str(tmp_path / "gin")
    third = backups.take_backup(why="test", by="test")
    assert not third.mirror_problem and third.mirrored == third.written
    assert {b.name for b in list_backups(tmp_path / "gin")} == {
        n for n in third.written if n.endswith(".json")}


def files_of(report) -> list[str]:
    """The tournaments whose files a backup wrote."""
    return [backup.slug for backup in list_backups(backups.backup_dir())
            if backup.name in report.written]


def test_old_files_go_by_count_and_by_age_but_the_newest_stays(tmp_path):
    now = dt.datetime(2026, 12, 6, tzinfo=dt.UTC)

    class File:
        def __init__(self, name, days):
            self.name, self.taken_at = name, now - dt.timedelta(days=days)
            (tmp_path / name).write_text(name)

    files = [File(f"f{n}", days) for n, days in enumerate([40, 41, 42])]
    assert drop_files(tmp_path, files, 10, max_age=dt.timedelta(days=30), now=now) == [
        "f1", "f2"]
    files = [File(f"g{n}", n) for n in range(5)]
    assert drop_files(tmp_path, files, 3, max_age=dt.timedelta(days=30), now=now) == [
        "g3", "g4"]


def test_an_import_wants_a_backup_at_once(tournament, django_capture_on_commit_callbacks):
    from tournament.exchange.export import export_text
    from tournament.exchange.import_ import import_tournament
    from tournament.exchange.read import read_document

    document = read_document(export_text(tournament).encode())
    with django_capture_on_commit_callbacks(execute=True):
        import_tournament(document, slug="copy")
    assert BackupState.objects.get().wanted_why == "copy: imported"
