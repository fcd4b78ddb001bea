"""``python manage.py check_standings [SLUG ...]``: the integrity check of the standings.

Recomputes every result row of each tournament named (every tournament without a name)
from its raw hand results and penalties (``selectors.integrity``) and lists every
difference with the stored rows and match totals. Exit status 0 when there is none, 1 when
a difference is found, 2 for a tournament that does not exist. It only reads; the check
from the staff standings page is the one recorded in the audit log.
"""

from django.core.management.base import BaseCommand, CommandError

from tournament.models import Tournament
from tournament.selectors.integrity import check_standings


class Command(BaseCommand):
    help = ("Recompute every tournament's result rows from the hand results and penalties "
            "and list every difference with what is stored (exit status 1 if any).")

    def add_arguments(self, parser):
        parser.add_argument("slugs", nargs="*", metavar="SLUG",
                            help="tournaments to check (default: all of them)")

    def handle(self, *args, slugs, **options):
        if slugs:
            found = {t.slug: t for t in Tournament.objects.filter(slug__in=slugs)}
            missing = [slug for slug in slugs if slug not in found]
            if missing:
                raise CommandError(f"no tournament {', '.join(missing)}", returncode=2)
            tournaments = [found[slug] for slug in dict.fromkeys(slugs)]
        else:
            tournaments = list(Tournament.objects.order_by("slug"))
        differences = 0
        for tournament in tournaments:
            report = check_standings(tournament)
            self.stdout.write(f"{tournament.slug}: {report.summary}")
            for difference in report.differences:
                self.stdout.write(f"  {difference}")
            differences += len(report.differences)
        if differences:
            raise CommandError(f"{differences} difference(s) between the stored standings and "
                               "the hand results", returncode=1)
