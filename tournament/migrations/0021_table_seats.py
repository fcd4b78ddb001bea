# Who sat where, stored (issue 52, item 1): a row per table and seat naming its player
# (TableSeat), written by the services with the line-ups, filled here for every table of a
# match from its line-ups by ``scoring.seating``. A table may be without a match in the
# schema (individual events to come); a round with matches has none.
#
# What the database keeps (docs/invariants.md), on SQLite and PostgreSQL: a seat row names
# the player the match's line-ups put there (``scoring.seating`` written out as SQL when the
# triggers are made: ``_seated``), at a table of its round; a line-up changes only with its
# seats taken off first; a player sits at one seat of a round (a unique constraint); the
# line-ups and seats of a closed round never change; a table of a round with matches has its
# match. ``table_round`` and ``table_match_fixed`` of 0009 are made again to allow a table
# without a match (and a table's position never changes).
#
# Making Table.match and Table.position nullable makes SQLite rebuild tournament_table,
# which drops the triggers that name it: every trigger comes off first and all are made
# again at the end, as in 0015. A later migration that rebuilds one of these tables calls
# ``install`` from this module.

import importlib

import django.db.models.deletion
from django.db import migrations, models

from scoring import seating

invariants = importlib.import_module("tournament.migrations.0009_invariant_triggers")
previous = importlib.import_module("tournament.migrations.0013_table_devices_commands")

_SLOTS = {1: "first_player_id", 2: "second_player_id"}


def _seated(table: str, seat: str, entry: str, player: str) -> str:
    """SQL: the round entry ``entry`` puts ``player`` in seat ``seat`` of the match's table
    ``table`` (aliases or expressions): ``scoring.seating.seats()`` written out."""
    return "(" + " OR ".join(
        f"({table}.position = {position} AND {seat} = {number}"
        f" AND {entry}.side = '{holder.side.value}' AND {entry}.{_SLOTS[holder.slot]} = {player})"
        for position, number, holder in seating.seats()) + ")"


_CLOSED = ("EXISTS (SELECT 1 FROM tournament_round r WHERE r.id = OLD.round_id"
           " AND r.status = 'closed')")
SEAT_COLUMNS = "round_id, table_id, seat, player_id"
LINEUP_COLUMNS = "match_id, side, first_player_id, second_player_id"
CHECKS = [
    # A seat row names the player its match's line-ups put in that seat, at a table of its
    # round (a table without a match: any player, for the individual events to come).
    ("tableseat_lineup", "tournament_tableseat", "both", SEAT_COLUMNS,
     "NOT EXISTS (SELECT 1 FROM tournament_table t WHERE t.id = NEW.table_id"
     " AND t.round_id = NEW.round_id AND (t.match_id IS NULL OR EXISTS (SELECT 1"
     " FROM tournament_roundentry e WHERE e.match_id = t.match_id AND "
     + _seated("t", "NEW.seat", "e", "NEW.player_id") + ")))",
     "a seat's player is the one its match's line-ups put there, at a table of its round"),
    # A line-up changes only under no seat it would contradict: the services take the
    # match's seats off, change the line-up, and write them again.
    ("roundentry_seats_follow", "tournament_roundentry", "update", LINEUP_COLUMNS,
     "EXISTS (SELECT 1 FROM tournament_tableseat s JOIN tournament_table t"
     " ON t.id = s.table_id WHERE t.match_id = OLD.match_id AND "
     + _seated("t", "s.seat", "OLD", "s.player_id")
     + " AND NOT COALESCE(NEW.match_id = OLD.match_id AND NEW.side = OLD.side AND "
     + _seated("t", "s.seat", "NEW", "s.player_id") + ", FALSE))",
     "a line-up changes with its seats: take them off first"),
    # What a closed round was played with is history.
    ("roundentry_lineup_closed", "tournament_roundentry", "update", LINEUP_COLUMNS,
     _CLOSED + " AND (COALESCE(OLD.match_id, 0) <> COALESCE(NEW.match_id, 0)"
     " OR OLD.side <> NEW.side"
     " OR COALESCE(OLD.first_player_id, 0) <> COALESCE(NEW.first_player_id, 0)"
     " OR COALESCE(OLD.second_player_id, 0) <> COALESCE(NEW.second_player_id, 0))",
     "the line-ups of a closed round never change"),
    ("tableseat_closed", "tournament_tableseat", "update", SEAT_COLUMNS, _CLOSED,
     "the seats of a closed round never change"),
    # Today's team rounds stay exact: a round with matches has no table without one.
    ("table_match_in_team_round", "tournament_table", "both", "round_id, match_id",
     "NEW.match_id IS NULL AND EXISTS (SELECT 1 FROM tournament_match m"
     " WHERE m.round_id = NEW.round_id)",
     "a table of a round with matches is a table of one of them"),
    ("match_no_table_without_match", "tournament_match", "insert", "round_id",
     "EXISTS (SELECT 1 FROM tournament_table t WHERE t.round_id = NEW.round_id"
     " AND t.match_id IS NULL)",
     "a round with tables without a match has no matches"),
    # 0009's, made again: a table without a match has no match's round to follow, and a
    # table's position (which decides its seats) never changes either.
    ("table_round", "tournament_table", "both", "round_id, match_id",
     "NEW.match_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM tournament_match m"
     " WHERE m.id = NEW.match_id AND m.round_id = NEW.round_id)",
     "a table's round is its match's round"),
    ("table_match_fixed", "tournament_table", "update", "round_id, match_id, position",
     "OLD.round_id <> NEW.round_id OR COALESCE(OLD.match_id, 0) <> COALESCE(NEW.match_id, 0)"
     " OR COALESCE(OLD.position, 0) <> COALESCE(NEW.position, 0)",
     "a table never moves to another match"),
]


def trigger_names(vendor: str) -> set[str]:
    """Every trigger in place after this migration."""
    return previous.trigger_names(vendor) | invariants.trigger_names(vendor, CHECKS)


# 0009's checks made again here, after 0009's own.
REMADE = {"table_round", "table_match_fixed"}


def install(apps, schema_editor):
    # The new checks first: SQLite runs the newest of a row's triggers first, so the older
    # checks keep giving their reasons for what they refuse (PostgreSQL runs them by name).
    vendor = schema_editor.connection.vendor
    make = invariants._postgresql if vendor == "postgresql" else invariants._sqlite

    def made(checks):
        for check in checks:
            for statement in invariants._drop(vendor, check[0], check[1]):
                schema_editor.execute(statement)
            for statement in make(*check):
                schema_editor.execute(statement)

    made(check for check in CHECKS if check[0] not in REMADE)
    previous.install(apps, schema_editor)
    made(check for check in CHECKS if check[0] in REMADE)


def remove(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    for name, table, *_rest in CHECKS:
        for statement in invariants._drop(vendor, name, table):
            schema_editor.execute(statement)
    previous.remove(apps, schema_editor)


def seat_every_table(apps, schema_editor):
    """The seats of every table of a match, from its line-ups (as ``services.seats``
    writes them for every line-up made or changed after this migration)."""
    RoundEntry = apps.get_model("tournament", "RoundEntry")
    Table = apps.get_model("tournament", "Table")
    TableSeat = apps.get_model("tournament", "TableSeat")
    lineups: dict[int, dict[str, tuple[int, int]]] = {}
    for match, side, first, second in (
            RoundEntry.objects.filter(match__isnull=False).order_by()
            .values_list("match_id", "side", "first_player_id", "second_player_id")
            .iterator(chunk_size=5000)):
        lineups.setdefault(match, {})[side] = (first, second)
    TableSeat.objects.bulk_create(
        (TableSeat(round_id=round_id, table_id=table, seat=seat,
                   player_id=seating.player_in_seat(position, seat, lineups[match]))
         for table, round_id, match, position in (
             Table.objects.filter(match__isnull=False).order_by()
             .values_list("pk", "round_id", "match_id", "position").iterator(chunk_size=5000))
         if len(lineups.get(match, ())) == 2
         for seat in (1, 2)),
        batch_size=2000)


class Migration(migrations.Migration):

    dependencies = [
        ('tournament', '0020_persons'),
    ]

    operations = [
        migrations.RunPython(previous.remove, previous.install),
        migrations.CreateModel(
            name='TableSeat',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('seat', models.PositiveSmallIntegerField()),
            ],
            options={
                'ordering': ['table', 'seat'],
            },
        ),
        migrations.AlterField(
            model_name='table',
            name='match',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='tables', to='tournament.match'),
        ),
        migrations.AlterField(
            model_name='table',
            name='position',
            field=models.PositiveSmallIntegerField(blank=True, null=True),
        ),
        migrations.AddConstraint(
            model_name='table',
            constraint=models.CheckConstraint(condition=models.Q(models.Q(('match__isnull', False), ('position__isnull', False)), models.Q(('match__isnull', True), ('position__isnull', True)), _connector='OR'), name='table_position_with_match'),
        ),
        migrations.AddField(
            model_name='tableseat',
            name='player',
            field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='seats', to='tournament.player'),
        ),
        migrations.AddField(
            model_name='tableseat',
            name='round',
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='tournament.round'),
        ),
        migrations.AddField(
            model_name='tableseat',
            name='table',
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='seats', to='tournament.table'),
        ),
        migrations.AddConstraint(
            model_name='tableseat',
            constraint=models.UniqueConstraint(fields=('table', 'seat'), name='table_seat_once'),
        ),
        migrations.AddConstraint(
            model_name='tableseat',
            constraint=models.UniqueConstraint(fields=('round', 'player'), name='table_seat_player_once_per_round'),
        ),
        migrations.AddConstraint(
            model_name='tableseat',
            constraint=models.CheckConstraint(condition=models.Q(('seat__in', [1, 2])), name='table_seat_1_2'),
        ),
        migrations.RunPython(seat_every_table, migrations.RunPython.noop),
        migrations.RunPython(install, remove, elidable=False),
    ]
