"""``python manage.py import_tournament FILE [--slug NEW]``: a tournament file written by
``export_tournament`` read into this database (docs/formats.md, "Tournament file").

Everything in the file is checked first, and every problem is listed with its path in the
file (``rounds[3].matches[7].tables[1].hands[4].opponent_deadwood: …``); then the whole
tournament is written in one transaction, or nothing is. The people of the file become new
inactive accounts without a password; a name this database has is refused until
``--map-user NAME_IN_FILE=ACCOUNT`` says which account it is (an existing one, or the name
of a new one). ``--slug`` gives the tournament another short name (needed when the file's
is taken). Exit status 1 when nothing was imported; never a traceback. What the import
changed of the file without refusing it (a player's PIN hash that is not this software's own,
dropped) is printed as a note on standard error, as the import page's preview shows it.
"""

import os
import sys

from django.core.management.base import BaseCommand, CommandError

from tournament.exchange.import_ import import_tournament
from tournament.exchange.problems import ImportRefused
from tournament.exchange.read import max_bytes, read_document, too_large
from tournament.services import Actor


class Command(BaseCommand):
    help = "Import a whole tournament from a JSON file written by export_tournament."

    def add_arguments(self, parser):
        parser.add_argument("file", metavar="FILE", help="the file ('-' for standard input)")
        parser.add_argument("--slug", metavar="NEW",
                            help="the imported tournament's short name (default: the file's)")
        parser.add_argument("--map-user", metavar="NAME_IN_FILE=ACCOUNT", action="append",
                            default=[], dest="map_user",
                            help="the account a person of the file is: an account of this "
                                 "database, or the name of a new inactive one (repeat for "
                                 "each person to map)")

    def handle(self, *args, file, slug, map_user, **options):
        mapping = {}
        for pair in map_user:
            name, sep, account = pair.partition("=")
            if not sep or not name.strip() or not account.strip():
                raise CommandError(f"--map-user {pair}: write it NAME_IN_FILE=ACCOUNT",
                                   returncode=1)
            mapping[name.strip()] = account.strip()
        try:
            limit = max_bytes()
            if file == "-":
                data = sys.stdin.buffer.read(limit + 1)
            else:
                size = os.path.getsize(file)
                if size > limit:
                    raise too_large(size)
                with open(file, "rb") as handle:
                    data = handle.read(limit + 1)
        except OSError as error:
            raise CommandError(f"cannot read {file}: {error.strerror}", returncode=1) from None
        except ImportRefused as refused:
            raise CommandError(f"{file}: nothing was imported: {refused.messages[0]}",
                               returncode=1) from None
        notes: list[str] = []
        try:
            document = read_document(data)
            tournament = import_tournament(
                document, slug=slug, map_users=mapping,
                actor=Actor(user=None, device="manage.py import_tournament"), notes=notes)
        except ImportRefused as refused:
            count = len(refused.messages)
            raise CommandError(
                f"{file}: nothing was imported ({count} problem{'s' if count > 1 else ''}):\n"
                + "\n".join(f"  {message}" for message in refused.messages),
                returncode=1) from None
        self.stdout.write(f"imported {tournament.name} as {tournament.slug}")
        for note in notes:
            self.stderr.write(f"note: {note}")
