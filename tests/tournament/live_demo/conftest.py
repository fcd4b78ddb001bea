"""The demo event with its final in play, built once for the tests of this folder (the demo
itself, the bulletin, every printout's fonts, every page in Chinese): the demo takes
seconds to build, more on PostgreSQL.
It lives in a transaction rolled back when the last test of this folder is done; nothing
here writes outside it."""

import pytest
from django.db import transaction

from tournament.demo import build_demo


@pytest.fixture(scope="package")
def live_demo(django_db_setup, django_db_blocker):
    """The demo event with its final and third-place match in play, entered in part."""
    with django_db_blocker.unblock(), transaction.atomic():
        built = build_demo(11, live=True)
        yield built.tournament
        transaction.set_rollback(True)
