# Approvals and signatures "on paper" (issue 24, desk entry): a referee records that the
# players signed the paper scorecard. The method's column widens and is checked.
#
# Widening a column makes SQLite rebuild tournament_approval and tournament_tablesignature,
# which drops their triggers (the revisions of migration 0013 among them): every trigger
# comes off first and all are made again at the end (docs/invariants.md).

import importlib

from django.conf import settings
from django.db import migrations, models

previous = importlib.import_module("tournament.migrations.0013_table_devices_commands")


class Migration(migrations.Migration):

    dependencies = [
        ('tournament', '0014_pending_imports'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RunPython(previous.remove, previous.install),
        migrations.AlterField(
            model_name='approval',
            name='method',
            field=models.CharField(choices=[('tap', 'tap'), ('pin', 'PIN'), ('paper', 'on paper')], max_length=5),
        ),
        migrations.AlterField(
            model_name='tablesignature',
            name='method',
            field=models.CharField(choices=[('tap', 'tap'), ('pin', 'PIN'), ('paper', 'on paper')], max_length=5),
        ),
        migrations.AddConstraint(
            model_name='approval',
            constraint=models.CheckConstraint(condition=models.Q(('method__in', ['tap', 'pin', 'paper'])), name='approval_method_valid'),
        ),
        migrations.AddConstraint(
            model_name='tablesignature',
            constraint=models.CheckConstraint(condition=models.Q(('method__in', ['tap', 'pin', 'paper'])), name='signature_method_valid'),
        ),
        migrations.RunPython(previous.install, previous.remove),
    ]
