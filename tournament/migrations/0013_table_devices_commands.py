# Table devices and versioned commands (issue 21): a revision on each table (every save and
# approval moves it on, by trigger) and match (signatures by trigger; sign-offs and extra
# hands with the match's own update), the request token of
# an approval and a signature, the table a scorer account scores in a round, the devices'
# API tokens and the receipts of sign-offs by request token.
#
# Adding a column with a default makes SQLite rebuild tournament_match and tournament_table,
# which other tables' triggers name: every trigger comes off first and all are made again
# at the end, with the check of the new table (docs/invariants.md). A later migration that
# rebuilds one of these tables calls ``install`` from this module.

import importlib

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

invariants = importlib.import_module("tournament.migrations.0009_invariant_triggers")
previous = importlib.import_module("tournament.migrations.0012_no_rows_across_tournaments")

CHECKS = [
    # A scorer's table is a table of the round it is bound for.
    ("tablebinding_table_round", "tournament_tablebinding", "both", "round_id, table_id",
     "NOT EXISTS (SELECT 1 FROM tournament_table t WHERE t.id = NEW.table_id"
     " AND t.round_id = NEW.round_id)",
     "a scorer's table is a table of the round it is bound for"),
]


# What moves a revision on (services.commands): written by the database with the row that
# moves it, so that a save or a tap costs no extra round trip. (name, table, statement):
# the statement runs after each row inserted, NEW being that row.
REVISIONS = [
    ("revision_result", "tournament_handresult",
     "UPDATE tournament_table SET revision = revision + 1 WHERE id = NEW.table_id"),
    ("revision_approval", "tournament_approval",
     "UPDATE tournament_table SET revision = revision + 1 WHERE id ="
     " (SELECT table_id FROM tournament_handresult WHERE id = NEW.result_id)"),
    ("revision_signature", "tournament_tablesignature",
     "UPDATE tournament_match SET revision = revision + 1 WHERE id ="
     " (SELECT match_id FROM tournament_table WHERE id = NEW.table_id)"),
]


def _revision_sql(vendor: str, name: str, table: str, statement: str) -> list[str]:
    if vendor == "postgresql":
        return [
            f"CREATE OR REPLACE FUNCTION dupgin_{name}() RETURNS trigger LANGUAGE plpgsql AS "
            f"$$ BEGIN {statement}; RETURN NEW; END $$",
            f"CREATE TRIGGER dupgin_{name} AFTER INSERT ON {table} FOR EACH ROW "
            f"EXECUTE FUNCTION dupgin_{name}()",
        ]
    return [f"CREATE TRIGGER dupgin_{name}_insert AFTER INSERT ON {table} FOR EACH ROW "
            f"BEGIN {statement}; END"]


def trigger_names(vendor: str) -> set[str]:
    """Every trigger in place after this migration."""
    return (previous.trigger_names(vendor) | invariants.trigger_names(vendor, CHECKS)
            | invariants.trigger_names(vendor, [(name, table, "insert")
                                                for name, table, _sql in REVISIONS]))


def install(apps, schema_editor):
    previous.install(apps, schema_editor)
    vendor = schema_editor.connection.vendor
    make = invariants._postgresql if vendor == "postgresql" else invariants._sqlite
    for check in CHECKS:
        for statement in invariants._drop(vendor, check[0], check[1]):
            schema_editor.execute(statement)
        for statement in make(*check):
            schema_editor.execute(statement)
    for name, table, sql in REVISIONS:
        for statement in invariants._drop(vendor, name, table):
            schema_editor.execute(statement)
        for statement in _revision_sql(vendor, name, table, sql):
            schema_editor.execute(statement)


def remove(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    previous.remove(apps, schema_editor)
    for name, table, *_rest in [*CHECKS, *REVISIONS]:
        for statement in invariants._drop(vendor, name, table):
            schema_editor.execute(statement)


def remove_then_previous(apps, schema_editor):
    remove(apps, schema_editor)
    previous.install(apps, schema_editor)


class Migration(migrations.Migration):

    dependencies = [
        ('tournament', '0012_no_rows_across_tournaments'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RunPython(previous.remove, previous.install),
        migrations.AddField(
            model_name='approval',
            name='request_token',
            field=models.UUIDField(blank=True, null=True, unique=True),
        ),
        migrations.AddField(
            model_name='historicalmatch',
            name='revision',
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.AddField(
            model_name='match',
            name='revision',
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.AddField(
            model_name='table',
            name='revision',
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.AddField(
            model_name='tablesignature',
            name='request_token',
            field=models.UUIDField(blank=True, null=True, unique=True),
        ),
        migrations.CreateModel(
            name='DeviceToken',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('digest', models.CharField(max_length=64, unique=True)),
                ('created_at', models.DateTimeField(auto_now_add=True)),
                ('last_used_at', models.DateTimeField(blank=True, null=True)),
                ('user', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='device_token', to=settings.AUTH_USER_MODEL)),
            ],
        ),
        migrations.CreateModel(
            name='CommandReceipt',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('request_token', models.UUIDField(unique=True)),
                ('action', models.CharField(choices=[('sign_off', 'sign off')], max_length=10)),
                ('created_at', models.DateTimeField(auto_now_add=True)),
                ('match', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='tournament.match')),
                ('tournament', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='tournament.tournament')),
                ('user', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'constraints': [models.CheckConstraint(condition=models.Q(('action__in', ['sign_off'])), name='command_receipt_action_valid')],
            },
        ),
        migrations.CreateModel(
            name='TableBinding',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('bound_at', models.DateTimeField(auto_now_add=True)),
                ('bound_by', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL)),
                ('round', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='bindings', to='tournament.round')),
                ('table', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='bindings', to='tournament.table')),
                ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='table_bindings', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'constraints': [models.UniqueConstraint(fields=('round', 'user'), name='table_binding_once')],
            },
        ),
        migrations.RunPython(install, remove_then_previous),
    ]
