"""What standard tools flagged (issue 56, item 5), on the demo's pages: `<time datetime>`
values the Nu checker accepts (no microseconds), a staff table's button column named for
screen readers, cache keys a memcached would take."""

import re

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import caches
from django.test import Client, override_settings
from django.urls import reverse

from tournament.models import Match

pytestmark = pytest.mark.django_db

# HTML's valid global date and time string, to the second, with its offset.
DATETIME = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:Z|[+-]\d\d:?\d\d)$")


def datetimes(html: str) -> list[str]:
    return re.findall(r'<time datetime="([^"]*)"', html)


def test_time_elements_carry_a_valid_datetime(live_demo):
    public = Client().get(reverse("public:penalties", args=[live_demo.slug])).content.decode()
    director = Client()
    director.force_login(get_user_model().objects.create_superuser("times", "", "x" * 12))
    match = Match.objects.filter(round__stage__tournament=live_demo).order_by("pk").first()
    staff = director.get(reverse("director:match_page", args=[live_demo.slug, match.pk]))
    found = datetimes(public) + datetimes(staff.content.decode())
    assert found and all(DATETIME.match(value) for value in found), found


def test_the_staff_tables_button_column_has_a_name(live_demo):
    director = Client()
    director.force_login(get_user_model().objects.create_superuser("heads", "", "x" * 12))
    page = director.get(reverse("director:staff", args=[live_demo.slug])).content.decode()
    headers = re.findall(r"<th[^>]*>(.*?)</th>", page, flags=re.S)
    assert headers and all(re.sub(r"<[^>]+>", "", h).strip() for h in headers), headers
    assert '<span class="visually-hidden">Actions</span>' in page


@override_settings(PUBLIC_CACHE_SECONDS=300)
def test_a_long_short_name_in_an_address_makes_no_key_memcached_would_refuse(live_demo,
                                                                              recwarn):
    long_slug = "x" * 300
    assert Client().get(f"/t/{long_slug}/").status_code == 404
    keys = [key for key in caches["default"]._cache if ":public:" in key]
    assert keys and all(len(key) <= 250 for key in keys)
    assert not [w for w in recwarn if "CacheKeyWarning" in type(w.message).__name__]
