"""Which tests the PostgreSQL pass of CI runs again: those that can reach the database
(tests/conftest.py). A test left out by mistake would be checked on SQLite only."""

import pytest
from django.test import TestCase

from tests.conftest import uses_the_database


def test_a_test_without_the_database_runs_in_the_sqlite_pass_only(request):
    assert not uses_the_database(request.node)


@pytest.mark.django_db
def test_a_test_marked_for_the_database_runs_in_both(request):
    assert uses_the_database(request.node)


def test_a_test_asking_for_the_database_runs_in_both(request, db):
    assert uses_the_database(request.node)


class DjangoTestCaseTests(TestCase):
    """hypothesis.extra.django.TestCase is one of these (the random-event tests)."""

    def test_a_django_test_case_runs_in_both(self):
        assert uses_the_database(self._pytest_item)

    @pytest.fixture(autouse=True)
    def _item(self, request):
        self._pytest_item = request.node

