"""The public tournament page is a summary: the latest results of a round, not all of
them, with links to the round and the team list (issue 15)."""

import re

from django.urls import reverse

from tests.tournament.views.public_event import build_event
from tournament.views.public import event as public_event


def test_the_home_page_shows_the_latest_results_and_links_to_the_rest(
        client, tournament, director_actor, make_team, monkeypatch):
    event = build_event(director_actor, tournament, make_team, teams=6, closed=1,
                        open_round=False)
    closed = event.closed[0]
    home = reverse("public:tournament", args=[tournament.slug])
    everything = client.get(home).content.decode()
    match_links = re.compile(rf'href="/t/{tournament.slug}/matches/(\d+)/"')
    assert len(set(match_links.findall(everything))) == 3  # a round of 3 matches, all shown
    assert "The latest" not in everything

    monkeypatch.setattr(public_event, "LATEST_RESULTS", 2)
    summary = client.get(home).content.decode()
    shown = {int(pk) for pk in match_links.findall(summary)}
    latest = list(closed.matches.order_by("-signed_off_at", "number")
                  .values_list("pk", flat=True)[:2])
    assert shown == set(latest)
    assert "The latest 2 of 3 matches." in summary
    assert f'href="{reverse("public:round", args=[tournament.slug, closed.pk])}"' in summary
    assert f'href="{reverse("public:teams", args=[tournament.slug])}"' in summary
