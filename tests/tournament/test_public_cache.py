"""The public cache: a page is built once and served to every anonymous reader before
sessions and authentication run, until a service commits a change of its tournament; never
to a reader with a session, never across languages, never after a change."""

import gzip
import time
import uuid

import pytest
from django.core.cache import cache
from django.urls import reverse

from tests.tournament.views.public_event import entry_for, one_event_per_module
from tournament import public_cache
from tournament.models import Match, Table, Tournament
from tournament.services.approvals import approve_hand
from tournament.services.base import ServiceError
from tournament.services.entry import record_hand_result
from tournament.services.penalties import record_penalty


@pytest.fixture(autouse=True)
def cached(settings):
    settings.PUBLIC_CACHE_SECONDS = 300
    settings.PUBLIC_CACHE_GRACE_SECONDS = 0  # every change shows at once (tested below)
    cache.clear()
    yield
    cache.clear()


built_event, event, tournament = one_event_per_module(
    closed=1, tournament_fields={"live_results": "live"})


def standings_url(tournament):
    return reverse("public:standings", args=[tournament.slug])


def test_a_page_is_built_once_then_served_without_touching_the_database(
        client, tournament, event, django_assert_num_queries):
    first = client.get(standings_url(tournament))
    assert first["X-Public-Cache"] == "miss"
    with django_assert_num_queries(0):  # no session, no user, no tournament: the cache only
        second = client.get(standings_url(tournament))
    assert second["X-Public-Cache"] == "hit"
    assert second.content == first.content
    assert second["ETag"] == first["ETag"]
    assert second["Content-Security-Policy"] == first["Content-Security-Policy"]


def test_a_committed_change_is_shown_at_once(client, tournament, event, director_actor,
                                             django_capture_on_commit_callbacks):
    url = reverse("public:penalties", args=[tournament.slug])
    assert "Slow play" not in client.get(url).content.decode()
    assert client.get(url)["X-Public-Cache"] == "hit"
    team = event.teams[1]
    with django_capture_on_commit_callbacks(execute=True):
        record_penalty(director_actor, team=team, round=event.open, kind="warning",
                       reason="Slow play")
    response = client.get(url)
    assert response["X-Public-Cache"] == "miss"
    assert "Slow play" in response.content.decode()


def test_a_hand_entered_in_play_shows_under_live_results(client, tournament, event,
                                                         director_actor,
                                                         django_capture_on_commit_callbacks):
    match = Match.objects.filter(round=event.open).order_by("number").first()
    url = reverse("public:match", args=[tournament.slug, match.pk])
    before = client.get(url).content.decode()
    table = Table.objects.filter(match=match, position=1).get()
    with django_capture_on_commit_callbacks(execute=True):
        result = record_hand_result(director_actor, table, 4, entry_for(1, 4), seen_version=0,
                                    request_token=uuid.uuid4())
    after = client.get(url)
    assert after["X-Public-Cache"] == "miss"
    assert after.content.decode() != before
    assert str(result.seat1_points).lstrip("-") in after.content.decode()


def test_a_refused_change_leaves_the_cache_alone(client, tournament, event, director_actor,
                                                 django_capture_on_commit_callbacks):
    url = standings_url(tournament)
    client.get(url)
    with django_capture_on_commit_callbacks(execute=True), pytest.raises(ServiceError):
        record_penalty(director_actor, team=event.teams[0], round=event.open, kind="warning",
                       reason="")
    assert client.get(url)["X-Public-Cache"] == "hit"


def test_a_change_of_another_tournament_keeps_this_one(client, tournament, event):
    url = standings_url(tournament)
    client.get(url)
    public_cache.invalidate("another-event")
    assert client.get(url)["X-Public-Cache"] == "hit"
    # the list of tournaments shows every tournament: it is built again
    home = reverse("public:home")
    client.get(home)
    public_cache.invalidate("another-event")
    assert client.get(home)["X-Public-Cache"] == "miss"


def test_a_reader_with_a_session_is_never_served_nor_stored(client, tournament, event,
                                                            staff_user):
    url = standings_url(tournament)
    client.force_login(staff_user(tournament, "director", username="boss"))
    response = client.get(url)
    assert "X-Public-Cache" not in response
    client.logout()
    assert client.get(url)["X-Public-Cache"] == "miss"


def test_each_language_has_its_own_copy(client, tournament, event):
    url = standings_url(tournament)
    english = client.get(url)
    chinese = client.get("/zh-hans" + url)
    assert chinese["X-Public-Cache"] == "miss"
    assert '<html lang="zh-hans">' in chinese.content.decode()
    assert client.get(url)["X-Public-Cache"] == "hit"
    assert client.get(url).content == english.content


def test_if_modified_since_never_keeps_a_reader_on_content_that_changed(
        client, tournament, event, director_actor, django_capture_on_commit_callbacks):
    """Two contents of one page never share a Last-Modified second; the same content
    built again keeps its own (issue 53)."""
    url = reverse("public:penalties", args=[tournament.slug])
    first = client.get(url)
    public_cache.invalidate(tournament.slug)  # built again, the same content
    again = client.get(url)
    assert again["X-Public-Cache"] == "miss"
    assert again["Last-Modified"] == first["Last-Modified"]
    assert client.get(url, HTTP_IF_MODIFIED_SINCE=first["Last-Modified"]).status_code == 304
    with django_capture_on_commit_callbacks(execute=True):  # other content, same second
        record_penalty(director_actor, team=event.teams[1], round=event.open,
                       kind="warning", reason="Slow play")
    changed = client.get(url, HTTP_IF_MODIFIED_SINCE=first["Last-Modified"])
    assert changed.status_code == 200 and "Slow play" in changed.content.decode()
    assert changed["Last-Modified"] != first["Last-Modified"]


def test_a_conditional_request_is_answered_not_modified(client, tournament, event):
    url = standings_url(tournament)
    etag = client.get(url)["ETag"]
    response = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert response.status_code == 304 and response["ETag"] == etag
    assert client.get(url, HTTP_IF_NONE_MATCH='"other"').status_code == 200


def test_a_reader_that_accepts_gzip_gets_the_page_compressed_once(client, tournament, event):
    url = standings_url(tournament)
    first = client.get(url, HTTP_ACCEPT_ENCODING="gzip, deflate, br")
    assert first["X-Public-Cache"] == "miss" and first["Content-Encoding"] == "gzip"
    page = gzip.decompress(first.content)
    assert int(first["Content-Length"]) == len(first.content) < len(page)
    plain = client.get(url)
    assert plain["X-Public-Cache"] == "hit" and not plain.has_header("Content-Encoding")
    assert plain.content == page and int(plain["Content-Length"]) == len(page)
    again = client.get(url, HTTP_ACCEPT_ENCODING="gzip")
    assert again["X-Public-Cache"] == "hit" and gzip.decompress(again.content) == page
    for response in (first, plain, again):
        assert response["Vary"] == "Accept-Encoding"  # never Cookie (issue 53)
    # One page, two encodings: the gzip copy's tag is the weak form of the plain one's, and
    # either answers a conditional request in either encoding.
    assert first["ETag"] == f"W/{plain['ETag']}"
    for etag in (first["ETag"], plain["ETag"]):
        for encoding in ("gzip", ""):
            response = client.get(url, HTTP_IF_NONE_MATCH=etag, HTTP_ACCEPT_ENCODING=encoding)
            assert response.status_code == 304


def test_a_page_kept_by_another_release_of_the_site_is_not_served(
        client, tournament, event, monkeypatch):
    url = standings_url(tournament)
    client.get(url)
    assert client.get(url)["X-Public-Cache"] == "hit"
    monkeypatch.setattr(public_cache, "release", lambda: "upgraded")
    assert client.get(url)["X-Public-Cache"] == "miss"
    assert client.get(url)["X-Public-Cache"] == "hit"


def test_the_release_is_a_digest_of_the_code_and_templates(settings, tmp_path):
    for name, text in (("tournament/a.py", "x = 1"), ("templates/a.html", "<p>"),
                       ("scoring/b.txt", "not code")):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    settings.BASE_DIR = tmp_path
    public_cache.release.cache_clear()
    try:
        first = public_cache.release()
        (tmp_path / "scoring/b.txt").write_text("changed, but not code")
        public_cache.release.cache_clear()
        assert public_cache.release() == first
        (tmp_path / "templates/a.html").write_text("<p>changed")
        public_cache.release.cache_clear()
        assert public_cache.release() != first
    finally:
        public_cache.release.cache_clear()


def test_a_small_answer_is_not_compressed(client, tournament, event):
    url = f"/api/tournaments/{tournament.slug}"
    response = client.get(url, HTTP_ACCEPT_ENCODING="gzip")
    assert response.status_code == 200 and len(response.content) < 1024
    assert not response.has_header("Content-Encoding")
    assert response.json()["slug"] == tournament.slug


def test_errors_and_staff_pages_are_not_kept(client, tournament, event):
    missing = reverse("public:match", args=[tournament.slug, 999_999])
    assert client.get(missing).status_code == 404
    assert "X-Public-Cache" not in client.get(missing)
    login = reverse("login")
    assert "X-Public-Cache" not in client.get(login)


def test_the_language_switch_works_from_a_cached_page(client, tournament, event):
    """The kept page holds no form and no token: its switch is a link to the other
    language's address, kept apart (issue 53)."""
    url = standings_url(tournament)
    client.get(url)
    page = client.get(url)
    assert page["X-Public-Cache"] == "hit"
    text = page.content.decode()
    assert "csrfmiddlewaretoken" not in text and "<form" not in text
    assert f'href="/zh-hans{url}"' in text
    chinese = client.get(f"/zh-hans{url}")
    assert chinese["X-Public-Cache"] == "miss" and '<html lang="zh-hans">' in \
        chinese.content.decode()


def test_a_host_the_site_does_not_serve_is_refused_not_served(client, tournament, event):
    url = standings_url(tournament)
    client.get(url)
    assert client.get(url, HTTP_HOST="evil.example").status_code == 400


def test_without_https_a_redirecting_site_redirects_first(client, tournament, event, settings):
    url = standings_url(tournament)
    client.get(url, secure=True)
    settings.SECURE_SSL_REDIRECT = True
    client = type(client)()  # the security middleware reads the setting when it starts
    assert client.get(url).status_code == 301
    assert client.get(url, secure=True)["X-Public-Cache"] == "hit"


def test_the_api_is_cached_and_invalidated_like_the_pages(client, tournament, event):
    url = f"/api/tournaments/{tournament.slug}/standings"
    first = client.get(url)
    assert first.status_code == 200 and first["X-Public-Cache"] == "miss"
    assert client.get(url)["X-Public-Cache"] == "hit"
    assert client.get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    public_cache.invalidate(tournament.slug)
    assert client.get(url)["X-Public-Cache"] == "miss"
    assert client.get("/api/tournaments/no-such-event/standings").status_code == 404
    assert "X-Public-Cache" not in client.get("/api/tournaments/no-such-event/standings")


def test_while_a_page_is_built_again_the_others_get_the_copy_before(client, tournament,
                                                                   event, settings):
    url = standings_url(tournament)
    before = client.get(url).content
    public_cache.invalidate(tournament.slug)
    settings.PUBLIC_CACHE_GRACE_SECONDS = 60  # results streaming in: built at most once a minute
    response = client.get(url)
    assert response["X-Public-Cache"] == "stale" and response.content == before
    assert "s-maxage=1" in response["Cache-Control"]  # within its grace: kept in front too
    settings.PUBLIC_CACHE_GRACE_SECONDS = 0
    key = public_cache._entry_key(response.wsgi_request)
    cache.add(f"{key}:building", 1)  # another reader is building it
    meanwhile = client.get(url)
    assert meanwhile["X-Public-Cache"] == "stale"
    assert meanwhile["X-Accel-Expires"] == "0"  # past its grace (0): not kept in front
    cache.delete(f"{key}:building")
    assert client.get(url)["X-Public-Cache"] == "miss"
    assert client.get(url)["X-Public-Cache"] == "hit"


def round_pages(tournament, round_):
    match = Match.objects.filter(round=round_).order_by("number").first()
    return [reverse("public:round", args=[tournament.slug, round_.pk]),
            reverse("public:match", args=[tournament.slug, match.pk]),
            reverse("public:travellers", args=[tournament.slug, round_.pk])]


def test_a_hand_saved_at_one_match_leaves_the_other_rounds_and_matches_pages_kept(
        client, tournament, event, director_actor, django_capture_on_commit_callbacks):
    """A save makes stale its match's page, its round's pages that show every match and
    the tournament's summing-up pages; not another round's pages, nor (results shown live)
    another match's page. Any other change makes stale every page of the tournament."""
    closed, playing = round_pages(tournament, event.closed[0]), round_pages(tournament,
                                                                            event.open)
    first, second = Match.objects.filter(round=event.open).order_by("number")[:2]
    other_match = reverse("public:match", args=[tournament.slug, second.pk])
    summing_up = [standings_url(tournament), reverse("public:tournament",
                                                     args=[tournament.slug])]
    for url in [*closed, *playing, *summing_up, other_match]:
        client.get(url)
        assert client.get(url)["X-Public-Cache"] == "hit", url
    def save(hand):
        table = Table.objects.get(match=first, position=2)  # the tournament as it is now
        seen = table.results.filter(hand=hand, is_current=True).values_list("version",
                                                                           flat=True)
        with django_capture_on_commit_callbacks(execute=True):
            return record_hand_result(director_actor, table, hand, entry_for(5, hand),
                                      seen_version=seen.first() or 0,
                                      request_token=uuid.uuid4())

    result = save(4)
    for url in [*closed, other_match]:
        assert client.get(url)["X-Public-Cache"] == "hit", url
    for url in playing + summing_up:
        assert client.get(url)["X-Public-Cache"] == "miss", url
    assert str(result.seat1_points).lstrip("-") in client.get(playing[1]).content.decode()
    # A box's results shown once every table has them approved by both seats: the approval
    # that completes a table's, or a save over such a result, may show or hide a box on
    # every match page of the round; a save over an unapproved result, a first approval
    # or a signature cannot.
    Tournament.objects.filter(pk=tournament.pk).update(live_results="finished_boxes")

    def other_match_after(change):
        with django_capture_on_commit_callbacks(execute=True):
            done = change()
        assert client.get(closed[1])["X-Public-Cache"] == "hit"
        how = client.get(other_match)["X-Public-Cache"]
        client.get(other_match)
        return done, how

    try:
        result, _how = other_match_after(lambda: save(3))  # over whatever hand 3 held
        assert other_match_after(lambda: approve_hand(director_actor, result, 1))[1] == "hit"
        assert other_match_after(lambda: approve_hand(director_actor, result, 2))[1] == "miss"
        assert other_match_after(lambda: save(3))[1] == "miss"  # over a result approved by both
    finally:
        Tournament.objects.filter(pk=tournament.pk).update(live_results="live")
    with django_capture_on_commit_callbacks(execute=True):  # not a round's results
        record_penalty(director_actor, team=event.teams[1], round=event.open, kind="warning",
                       reason="Slow play")
    for url in [*closed, *playing, *summing_up, other_match]:
        assert client.get(url)["X-Public-Cache"] == "miss", url


def test_a_rounds_page_built_while_its_tournament_changes_is_built_again(
        client, tournament, event, monkeypatch):
    """A round's page names its round only once built: if a change came meanwhile, what
    was built is kept as out of date, never as current."""
    url = round_pages(tournament, event.open)[0]
    from tournament.views.public import results

    lines = results.round_lines

    def changed_meanwhile(round_, views):
        public_cache.invalidate(tournament.slug, round_.pk)  # a save while it is built
        return lines(round_, views)

    monkeypatch.setattr(results, "round_lines", changed_meanwhile)
    assert client.get(url)["X-Public-Cache"] == "miss"
    monkeypatch.setattr(results, "round_lines", lines)
    assert client.get(url)["X-Public-Cache"] == "miss"  # not served as current
    assert client.get(url)["X-Public-Cache"] == "hit"


def age_copy(response, seconds: float) -> None:
    """Make the copy kept of the page of this response as if built ``seconds`` ago (from
    now: however long the test took since, on however slow a machine)."""
    key = public_cache._entry_key(response.wsgi_request)
    entry = cache.get(key)
    entry["built"] = time.time() - seconds
    cache.set(key, entry)


@pytest.fixture
def out_of_date(client, tournament, event, director_actor, settings,
                django_capture_on_commit_callbacks):
    """The penalties page kept, then a penalty recorded and the grace (1 s) over: the page
    kept is out of date, built 1.5 s ago (``age``). Gives the address and the answer kept
    before."""

    def make(reason: str, prefix: str = "", age: float = 1.5):
        url = prefix + reverse("public:penalties", args=[tournament.slug])
        before = client.get(url)
        assert reason not in before.content.decode()
        settings.PUBLIC_CACHE_GRACE_SECONDS = 1
        with django_capture_on_commit_callbacks(execute=True):
            record_penalty(director_actor, team=event.teams[2], round=event.open,
                           kind="warning", reason=reason)
        age_copy(before, age)
        return url, before

    return make


def test_the_reader_who_finds_the_copy_out_of_date_gets_it_and_the_page_is_built_after(
        client, out_of_date):
    """Nobody waits for a page built again: the reader who finds it out of date is answered
    with the copy before, and the page is built once that answer is sent (the test client,
    as a WSGI server, closes the response after reading it)."""
    url, before = out_of_date("Late back from the break")
    first = client.get(url)
    assert first["X-Public-Cache"] == "stale" and first.content == before.content
    # Past its grace: a shared cache in front keeps it not even a second (the promise of
    # two seconds: docs/public.md, How fresh).
    assert first["Cache-Control"] == "public, max-age=0, s-maxage=0"
    assert first["X-Accel-Expires"] == "0"
    assert cache.get(public_cache._entry_key(first.wsgi_request) + ":building") is None
    again = client.get(url)
    assert again["X-Public-Cache"] == "hit"
    assert "Late back from the break" in again.content.decode()


def test_a_page_built_after_the_answer_is_built_in_its_own_language(client, out_of_date):
    url, before = out_of_date("Mobile phone at the table", prefix="/zh-hans")
    assert '<html lang="zh-hans">' in before.content.decode()
    assert client.get(url)["X-Public-Cache"] == "stale"
    again = client.get(url)
    assert again["X-Public-Cache"] == "hit"
    assert '<html lang="zh-hans">' in again.content.decode()
    assert "Mobile phone at the table" in again.content.decode()


def test_a_reader_who_has_the_copy_is_answered_not_modified_and_the_page_built_after(
        client, out_of_date):
    url, before = out_of_date("Cards shown to a partner")
    first = client.get(url, HTTP_IF_MODIFIED_SINCE=before["Last-Modified"])
    assert first.status_code == 304 and first["X-Public-Cache"] == "stale"
    again = client.get(url, HTTP_IF_MODIFIED_SINCE=before["Last-Modified"])
    assert again.status_code == 200 and again["X-Public-Cache"] == "hit"
    assert "Cards shown to a partner" in again.content.decode()


def test_a_page_that_fails_to_build_after_the_answer_is_logged_and_tried_again(
        client, out_of_date, monkeypatch, caplog):
    url, before = out_of_date("Score card not signed")

    def broken(*args, **kwargs):
        raise ConnectionError("the cache went away")

    with monkeypatch.context() as patched:
        patched.setattr(public_cache.PublicCacheMiddleware, "_build", broken)
        first = client.get(url)
    assert first["X-Public-Cache"] == "stale" and first.content == before.content
    assert "building" in caplog.text and "the cache went away" in caplog.text
    retried = client.get(url)
    assert retried["X-Public-Cache"] == "stale"  # the lock let go: tried again
    again = client.get(url)
    assert again["X-Public-Cache"] == "hit"
    assert "Score card not signed" in again.content.decode()


def test_a_copy_older_than_twice_the_grace_is_built_again_while_its_reader_waits(
        client, out_of_date):
    """As a shared cache's stale-while-revalidate: a page nobody read for a while is not
    handed out from a copy far behind the database."""
    url, _before = out_of_date("Talking during play", age=2.5)
    first = client.get(url)
    assert first["X-Public-Cache"] == "miss"
    assert "Talking during play" in first.content.decode()


def test_a_page_hidden_since_its_copy_was_built_drops_the_copy(client, tournament, event,
                                                               settings):
    url = standings_url(tournament)
    before = client.get(url)
    settings.PUBLIC_CACHE_GRACE_SECONDS = 1
    Tournament.objects.filter(pk=tournament.pk).update(public_standings=False)
    try:
        public_cache.invalidate(tournament.slug)  # what the services' change does
        age_copy(before, 1.5)
        assert client.get(url)["X-Public-Cache"] == "stale"  # the copy, then built: 404
        assert client.get(url).status_code == 404
        assert client.get(url).status_code == 404
    finally:
        Tournament.objects.filter(pk=tournament.pk).update(public_standings=True)
        public_cache.invalidate(tournament.slug)
