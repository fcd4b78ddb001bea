from django.apps import AppConfig


class TournamentConfig(AppConfig):
    name = "tournament"
    verbose_name = "Duplicate Gin"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Registers the system check on the PDF font (manage.py check).
        from tournament.pdf import fonts  # noqa: F401
