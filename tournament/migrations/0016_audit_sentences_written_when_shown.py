"""Audit entries keep their action and data; the sentence is written when shown, in the
reader's language (tournament/audit_wording.py). The column of the stored sentence is
renamed and may be empty: the rows recorded before keep their English sentence exactly as
it was (nothing is rewritten), and every newer row leaves it empty."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("tournament", "0015_approval_on_paper"),
    ]

    operations = [
        migrations.RenameField(
            model_name="auditentry", old_name="summary", new_name="recorded_summary",
        ),
        migrations.AlterField(
            model_name="auditentry", name="recorded_summary",
            field=models.TextField(blank=True, default=""),
        ),
    ]
