# What must never happen, refused by the database on SQLite and on PostgreSQL where a
# constraint would have to look at another table (docs/invariants.md); and a signed-off match
# always has its totals (a plain check constraint).
#
# Each check is a trigger that fires before a row is written and refuses it (IntegrityError on
# both engines: RAISE(ABORT) on SQLite, SQLSTATE 23514 on PostgreSQL). On SQLite a later
# migration that rebuilds one of these tables (Django does for most column changes) drops its
# triggers: call ``install`` from this module again at its end
# (``importlib.import_module("tournament.migrations.0009_invariant_triggers").install``);
# tests/tournament/test_invariants.py checks that every trigger is in place.

from django.db import migrations, models

# (name, table, events, bad, message): ``events`` is "insert", "update" or "both";
# updates fire when one of the table's ``columns`` is written. ``bad`` is an SQL condition
# on NEW (and OLD for "update") that both engines read alike.
MATCH_COLUMNS = "round_id, home_id, away_id, group_id"
CHECKS = [
    # A team plays at most one match per round (home in one and away in another included).
    # Inserted: no other match of the round has either team (the new row's id may not be
    # known yet); changed: no match but this one.
    ("match_team_once", "tournament_match", "insert", MATCH_COLUMNS,
     "EXISTS (SELECT 1 FROM tournament_match m WHERE m.round_id = NEW.round_id"
     " AND (m.home_id IN (NEW.home_id, NEW.away_id)"
     " OR m.away_id IN (NEW.home_id, NEW.away_id)))",
     "a team plays one match per round"),
    ("match_team_once_changed", "tournament_match", "update", MATCH_COLUMNS,
     "EXISTS (SELECT 1 FROM tournament_match m WHERE m.round_id = NEW.round_id"
     " AND m.id <> NEW.id AND (m.home_id IN (NEW.home_id, NEW.away_id)"
     " OR m.away_id IN (NEW.home_id, NEW.away_id)))",
     "a team plays one match per round"),
    # A match's group belongs to the stage of the match's round.
    ("match_group_stage", "tournament_match", "both", MATCH_COLUMNS,
     "NEW.group_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM tournament_group g"
     " JOIN tournament_round r ON r.stage_id = g.stage_id"
     " WHERE g.id = NEW.group_id AND r.id = NEW.round_id)",
     "a match's group belongs to the stage of its round"),
    # The teams of a match are the ones its round entries say (a change of home or away
    # leaves no entry behind).
    ("match_entries_follow", "tournament_match", "update", MATCH_COLUMNS,
     "EXISTS (SELECT 1 FROM tournament_roundentry e WHERE e.match_id = NEW.id"
     " AND ((e.side = 'home' AND e.team_id <> NEW.home_id)"
     " OR (e.side = 'away' AND e.team_id <> NEW.away_id)))",
     "a match's teams are its round entries' teams"),
    # A round entry in a match: the match's round, and the team on that side of it.
    ("roundentry_match", "tournament_roundentry", "both", "round_id, match_id, team_id, side",
     "NEW.match_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM tournament_match m"
     " WHERE m.id = NEW.match_id AND m.round_id = NEW.round_id"
     " AND ((NEW.side = 'home' AND m.home_id = NEW.team_id)"
     " OR (NEW.side = 'away' AND m.away_id = NEW.team_id)))",
     "a round entry is its team's side of a match of the same round"),
    # A table's round is its match's round (Table.round is kept for the table numbers'
    # uniqueness per round and for the reads by round).
    ("table_round", "tournament_table", "both", "round_id, match_id",
     "NOT EXISTS (SELECT 1 FROM tournament_match m WHERE m.id = NEW.match_id"
     " AND m.round_id = NEW.round_id)",
     "a table's round is its match's round"),
    # A stage team's group is a group of that stage.
    ("stageteam_group_stage", "tournament_stageteam", "both", "stage_id, group_id",
     "NEW.group_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM tournament_group g"
     " WHERE g.id = NEW.group_id AND g.stage_id = NEW.stage_id)",
     "a stage team's group belongs to that stage"),
    # A result's deal is a deal of the table's round and of the same hand.
    ("handresult_deal", "tournament_handresult", "both", "table_id, hand, deal_id",
     "NEW.deal_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM tournament_deal d"
     " JOIN tournament_table t ON t.round_id = d.round_id"
     " WHERE d.id = NEW.deal_id AND t.id = NEW.table_id AND d.hand = NEW.hand)",
     "a result's deal is a deal of its table's round and of the same hand"),
    # Rows never move to another parent, so a check above cannot be undone from the other
    # side: a round's stage, a group's stage, a match's round, a table's match and round, a
    # deal's round and hand stay what they were made with.
    ("round_stage_fixed", "tournament_round", "update", "stage_id",
     "OLD.stage_id <> NEW.stage_id", "a round never moves to another stage"),
    ("group_stage_fixed", "tournament_group", "update", "stage_id",
     "OLD.stage_id <> NEW.stage_id", "a group never moves to another stage"),
    ("match_round_fixed", "tournament_match", "update", "round_id",
     "OLD.round_id <> NEW.round_id", "a match never moves to another round"),
    ("table_match_fixed", "tournament_table", "update", "round_id, match_id",
     "OLD.round_id <> NEW.round_id OR OLD.match_id <> NEW.match_id",
     "a table never moves to another match"),
    ("deal_place_fixed", "tournament_deal", "update", "round_id, hand",
     "OLD.round_id <> NEW.round_id OR OLD.hand <> NEW.hand",
     "a deal never moves to another round or hand"),
]
# Matches of one round are written one transaction at a time on PostgreSQL (on SQLite every
# write transaction is alone anyway), so two at once cannot both miss each other's teams.
_ROUND_LOCK = "PERFORM pg_advisory_xact_lock(74106, mod(NEW.round_id, 2147483647)::integer);"
SERIALIZED = {"match_team_once": _ROUND_LOCK, "match_team_once_changed": _ROUND_LOCK}


def _literal(text):
    return "'" + text.replace("'", "''") + "'"


def _sqlite(name, table, events, columns, bad, message):
    message = _literal(message)
    statements = []
    if events in ("insert", "both"):
        statements.append(
            f"CREATE TRIGGER dupgin_{name}_insert BEFORE INSERT ON {table} FOR EACH ROW "
            f"WHEN {bad} BEGIN SELECT RAISE(ABORT, {message}); END")
    if events in ("update", "both"):
        statements.append(
            f"CREATE TRIGGER dupgin_{name}_update BEFORE UPDATE OF {columns} ON {table} "
            f"FOR EACH ROW WHEN {bad} BEGIN SELECT RAISE(ABORT, {message}); END")
    return statements


def _postgresql(name, table, events, columns, bad, message):
    message = _literal(message)
    when = {"insert": "INSERT", "update": f"UPDATE OF {columns}",
            "both": f"INSERT OR UPDATE OF {columns}"}[events]
    return [
        f"CREATE OR REPLACE FUNCTION dupgin_{name}() RETURNS trigger LANGUAGE plpgsql AS $$ "
        f"BEGIN {SERIALIZED.get(name, '')} IF {bad} THEN RAISE EXCEPTION USING "
        f"ERRCODE = 'check_violation', MESSAGE = {message}; END IF; RETURN NEW; END $$",
        f"CREATE TRIGGER dupgin_{name} BEFORE {when} ON {table} FOR EACH ROW "
        f"EXECUTE FUNCTION dupgin_{name}()",
    ]


def _drop(vendor, name, table):
    if vendor == "postgresql":
        return [f"DROP TRIGGER IF EXISTS dupgin_{name} ON {table}",
                f"DROP FUNCTION IF EXISTS dupgin_{name}()"]
    return [f"DROP TRIGGER IF EXISTS dupgin_{name}_{event}" for event in ("insert", "update")]


def trigger_names(vendor: str, checks=None) -> set[str]:
    """The triggers ``install`` makes on this engine (or those of other ``checks``)."""
    names = set()
    for name, _table, events, *_rest in CHECKS if checks is None else checks:
        if vendor == "postgresql":
            names.add(f"dupgin_{name}")
        else:
            names.update(f"dupgin_{name}_{event}" for event in ("insert", "update")
                         if events in (event, "both"))
    return names


def install(schema_editor_or_apps, schema_editor=None):
    """(Re)make every trigger: usable as RunPython's code, or with a schema editor alone."""
    editor = schema_editor or schema_editor_or_apps
    vendor = editor.connection.vendor
    if vendor not in ("sqlite", "postgresql"):
        raise RuntimeError(f"no invariant triggers for {vendor}")
    for check in CHECKS:
        name, table = check[0], check[1]
        for statement in _drop(vendor, name, table):
            editor.execute(statement)
        make = _postgresql if vendor == "postgresql" else _sqlite
        for statement in make(*check):
            editor.execute(statement)


def remove(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    for name, table, *_rest in CHECKS:
        for statement in _drop(vendor, name, table):
            schema_editor.execute(statement)


class Migration(migrations.Migration):
    dependencies = [
        ("tournament", "0008_round_rules_schedule_result_deal"),
    ]

    operations = [
        # First: on SQLite adding a constraint rebuilds the table, which would drop its
        # triggers.
        migrations.AddConstraint(
            model_name="match",
            constraint=models.CheckConstraint(
                condition=models.Q(("home_total__isnull", True), ("signed_off_at__isnull", True))
                | models.Q(("home_total__isnull", False), ("signed_off_at__isnull", False)),
                name="match_totals_when_signed_off",
            ),
        ),
        migrations.RunPython(install, remove, elidable=False),
    ]
