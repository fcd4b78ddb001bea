from django.apps import AppConfig


class TournamentConfig(AppConfig):
    name = "tournament"
    verbose_name = "Duplicate Gin"
    default_auto_field = "django.db.models.BigAutoField"
