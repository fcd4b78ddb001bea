from django.apps import AppConfig


class TournamentConfig(AppConfig):
    name = "tournament"
    verbose_name = "Duplicate Gin"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # The public cache and the shared cache's purges listen to the services'
        # announcements in every process (management commands included), not only in the
        # web server's; the PDF font's
        # system check and what several servers must share are registered (manage.py check).
        # Audit entries are worded in the reader's language by tournament.audit_wording,
        # which imports the models (they do not import it).
        from tournament import cache_purge, deploy_checks, public_cache  # noqa: F401
        from tournament.audit_wording import sentence
        from tournament.models.audit import word_entries_with
        from tournament.pdf import fonts  # noqa: F401
        from tournament.services import ratings  # noqa: F401 (listens to audits: ratings)
        from tournament.tables import signatures

        word_entries_with(sentence)
        # django-tables2 works out a column method's arguments once per function, not per
        # cell (half the time of a big traveller's spreadsheet).
        signatures.install()
