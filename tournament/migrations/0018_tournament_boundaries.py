# Boundaries between events (issue 48).
#
# 1. The table devices belong to their tournament in the data: a row names the tournament,
#    the table number and the account (TableDevice). The device accounts made before this
#    migration are recorded from what they are: an account with a device token, named
#    SLUG-table-N after a tournament's short name (whatever its case), whose one role on the
#    whole site is a scorer of that tournament. An account with roles elsewhere too is not
#    recorded: the next "Make the table devices" makes that table a new account.
# 2. Short names are unique whatever their case. Of two that differ only by case, the later
#    tournament is renamed with a suffix (-2, -3, …), which its audit log records and this
#    migration prints; then a unique index on the lower-cased short name.

import re

import django.db.models.deletion
import django.db.models.functions.text
from django.conf import settings
from django.db import migrations, models

DEVICE_NAME = re.compile(r"^(?P<slug>.+)-table-(?P<number>[1-9][0-9]{0,3})$", re.IGNORECASE)


def record_device_accounts(apps, schema_editor):
    DeviceToken = apps.get_model("tournament", "DeviceToken")
    StaffRole = apps.get_model("tournament", "StaffRole")
    TableDevice = apps.get_model("tournament", "TableDevice")
    taken = set()
    for token in DeviceToken.objects.select_related("user").order_by("user_id"):
        user = token.user
        found = DEVICE_NAME.match(user.username)
        if found is None or user.is_superuser or user.is_staff:
            continue
        roles = list(StaffRole.objects.filter(user=user).select_related("tournament"))
        if len(roles) != 1 or roles[0].role != "scorer":
            continue
        tournament = roles[0].tournament
        number = int(found["number"])
        if tournament.slug.lower() != found["slug"].lower() or (tournament.pk, number) in taken:
            continue
        taken.add((tournament.pk, number))
        TableDevice.objects.create(tournament=tournament, number=number, user=user,
                                   issued_at=token.created_at)


def rename_slug_clashes(apps, schema_editor):
    Tournament = apps.get_model("tournament", "Tournament")
    AuditEntry = apps.get_model("tournament", "AuditEntry")
    folded = {}
    for pk, slug in Tournament.objects.order_by("pk").values_list("pk", "slug"):
        folded.setdefault(slug.lower(), []).append((pk, slug))
    names = {slug.lower() for slug in folded}
    for clash in (pks for pks in folded.values() if len(pks) > 1):
        kept = clash[0][1]
        for pk, slug in clash[1:]:
            number = 2
            while True:
                suffix = f"-{number}"
                renamed = slug[:50 - len(suffix)] + suffix
                if renamed.lower() not in names:
                    break
                number += 1
            names.add(renamed.lower())
            Tournament.objects.filter(pk=pk).update(slug=renamed)
            AuditEntry.objects.create(
                tournament_id=pk, actor=None, actor_name="system",
                action="tournament.slug_clash",
                data={"before": slug, "after": renamed, "kept": kept})
            print(f"\n  The short name {slug} clashed with {kept} (short names are unique "
                  f"whatever their case): tournament {pk} is now {renamed}.")


class Migration(migrations.Migration):

    dependencies = [
        ('tournament', '0017_seat_tallies'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='TableDevice',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('number', models.PositiveSmallIntegerField(verbose_name='table')),
                ('made_at', models.DateTimeField(auto_now_add=True)),
                ('issued_at', models.DateTimeField(blank=True, null=True)),
                ('issue_token', models.UUIDField(blank=True, null=True)),
                ('tournament', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='table_devices', to='tournament.tournament')),
                ('user', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='table_device', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'ordering': ['tournament', 'number'],
                'constraints': [
                    models.UniqueConstraint(fields=('tournament', 'number'), name='table_device_one_per_table'),
                    models.CheckConstraint(condition=models.Q(('number__gte', 1)), name='table_device_number_positive'),
                ],
            },
        ),
        migrations.RunPython(record_device_accounts, migrations.RunPython.noop),
        migrations.RunPython(rename_slug_clashes, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name='tournament',
            constraint=models.UniqueConstraint(django.db.models.functions.text.Lower('slug'), name='tournament_slug_unique_any_case', violation_error_message='This short name is already taken.'),
        ),
    ]
