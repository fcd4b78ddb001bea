"""``python manage.py export_tournament SLUG [--include-secrets] [-o FILE]``: the whole
tournament as one JSON file (docs/formats.md, "Tournament file").

Without ``--include-secrets`` the file leaves out the key of a deal key not yet revealed,
the deals (and cards entered) of the rounds not closed, and the players' PIN hashes: such a
file can be shown to anyone, but a tournament with a key still secret cannot be imported
from it. Written to FILE, or to standard output. Exit status 1 for a tournament that does
not exist.
"""

import os
import sys
import tempfile

from django.core.management.base import BaseCommand, CommandError

from tournament.exchange.export import export_text
from tournament.models import Tournament


class Command(BaseCommand):
    help = "Write a whole tournament to one JSON file (natural keys, UTC times)."

    def add_arguments(self, parser):
        parser.add_argument("slug", metavar="SLUG")
        parser.add_argument("--include-secrets", action="store_true",
                            help="also the secret deal key, the deals of rounds not closed "
                                 "and the PIN hashes (keep such a file safe)")
        parser.add_argument("-o", "--output", metavar="FILE",
                            help="the file to write (default: standard output)")

    def handle(self, *args, slug, include_secrets, output, **options):
        tournament = Tournament.objects.filter(slug=slug).first()
        if tournament is None:
            raise CommandError(f"no tournament {slug}", returncode=1)
        text = export_text(tournament, secrets=include_secrets)
        if not output or output == "-":
            sys.stdout.write(text)
            sys.stdout.flush()
            return
        folder = os.path.dirname(os.path.abspath(output))
        try:
            # Written beside the target and renamed: a backup on a timer never leaves half
            # a file where the last good one was.
            handle, temporary = tempfile.mkstemp(dir=folder, prefix=".export-", suffix=".json")
            with os.fdopen(handle, "w", encoding="utf-8", newline="\n") as file:
                file.write(text)
            if include_secrets:
                os.chmod(temporary, 0o600)
            else:
                os.chmod(temporary, 0o644)
            os.replace(temporary, output)
        except OSError as error:
            raise CommandError(f"cannot write {output}: {error.strerror}", returncode=1) from None
        self.stderr.write(f"{tournament.slug}: written to {output} ({len(text.encode()):,} bytes"
                          f"{', secrets included' if include_secrets else ''})")
