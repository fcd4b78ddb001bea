"""``python manage.py import_tournament FILE [--slug NEW]``: a tournament file written by
``export_tournament`` read into this database (docs/formats.md, "Tournament file").

Everything in the file is checked first, and every problem is listed with its path in the
file (``rounds[3].matches[7].tables[1].hands[4].opponent_deadwood: …``); then the whole
tournament is written in one transaction, or nothing is. People unknown here become
inactive accounts without a password. ``--slug`` gives the tournament another short name
(needed when the file's is taken). Exit status 1 when nothing was imported.
"""

from django.core.management.base import BaseCommand, CommandError

from tournament.exchange.import_ import ImportRefused, import_tournament, read_document
from tournament.services import Actor


class Command(BaseCommand):
    help = "Import a whole tournament from a JSON file written by export_tournament."

    def add_arguments(self, parser):
        parser.add_argument("file", metavar="FILE", help="the file ('-' for standard input)")
        parser.add_argument("--slug", metavar="NEW",
                            help="the imported tournament's short name (default: the file's)")

    def handle(self, *args, file, slug, **options):
        try:
            if file == "-":
                import sys

                data = sys.stdin.buffer.read()
            else:
                with open(file, "rb") as handle:
                    data = handle.read()
        except OSError as error:
            raise CommandError(f"cannot read {file}: {error.strerror}", returncode=1) from None
        try:
            document = read_document(data)
            tournament = import_tournament(
                document, slug=slug,
                actor=Actor(user=None, device="manage.py import_tournament"))
        except ImportRefused as refused:
            count = len(refused.messages)
            raise CommandError(
                f"{file}: nothing was imported ({count} problem{'s' if count > 1 else ''}):\n"
                + "\n".join(f"  {message}" for message in refused.messages),
                returncode=1) from None
        self.stdout.write(f"imported {tournament.name} as {tournament.slug}")
