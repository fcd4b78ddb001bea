"""WSGI entry point: `gunicorn tournament.wsgi`."""

import os

from django.core.wsgi import get_wsgi_application

from tournament.collector import tune_garbage_collection

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournament.settings")
application = get_wsgi_application()
tune_garbage_collection()  # every view loaded first, then out of the collector's sight
