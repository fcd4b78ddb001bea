"""Migration 0018 on a database made before it (issue 48): two short names differing only by
case, the later one renamed with a suffix, audited and printed; the device accounts made
before it recorded as their tournament's, those with roles elsewhere left out."""

import io
from contextlib import redirect_stdout

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("tournament", "0001_squashed_0017_seat_tallies")]
AFTER = [("tournament", "0018_tournament_boundaries")]


@pytest.mark.django_db(transaction=True)
def test_the_migration_renames_a_case_clash_and_records_the_devices():
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    try:
        apps = executor.loader.project_state(BEFORE).apps
        Tournament = apps.get_model("tournament", "Tournament")
        User = apps.get_model("auth", "User")
        StaffRole = apps.get_model("tournament", "StaffRole")
        DeviceToken = apps.get_model("tournament", "DeviceToken")
        dates = {"starts_on": "2026-11-20", "ends_on": "2026-11-22"}
        first = Tournament.objects.create(name="A", slug="wc-a", **dates)
        second = Tournament.objects.create(name="B", slug="WC-A", **dates)
        third = Tournament.objects.create(name="C", slug="Wc-A", **dates)
        Tournament.objects.create(name="D", slug="wc-a-2", **dates)  # the suffix is taken
        own = User.objects.create(username="wc-a-table-1")
        shared = User.objects.create(username="wc-a-table-2")
        for user, number in ((own, 1), (shared, 2)):
            StaffRole.objects.create(tournament=first, user=user, role="scorer")
            DeviceToken.objects.create(user=user, digest=f"{number:064d}")
        StaffRole.objects.create(tournament=second, user=shared, role="scorer")
        printed = io.StringIO()
        with redirect_stdout(printed):
            executor = MigrationExecutor(connection)
            executor.migrate(AFTER)
    finally:
        # Back to the latest schema (the models below, and the tests after this one).
        latest = MigrationExecutor(connection)
        latest.migrate(latest.loader.graph.leaf_nodes("tournament"))
    from tournament.models import AuditEntry, TableDevice
    from tournament.models import Tournament as Current

    assert Current.objects.get(pk=first.pk).slug == "wc-a"
    assert Current.objects.get(pk=second.pk).slug == "WC-A-3"
    assert Current.objects.get(pk=third.pk).slug == "Wc-A-4"
    entry = AuditEntry.objects.get(tournament_id=second.pk, action="tournament.slug_clash")
    assert entry.summary == ("The short name WC-A became WC-A-3: it differed from wc-a only "
                             "by case, and short names are unique whatever their case")
    assert "The short name WC-A clashed with wc-a" in printed.getvalue()
    assert "tournament " + str(third.pk) + " is now Wc-A-4" in printed.getvalue()
    assert list(TableDevice.objects.values_list("tournament_id", "number", "user__username")) \
        == [(first.pk, 1, "wc-a-table-1")]
