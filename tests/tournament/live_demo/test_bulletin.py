"""The daily bulletin (issue 26): the demo with its final still in play (``live_demo``,
conftest.py), read back with pypdf."""

from __future__ import annotations

import datetime as dt
import io
from zoneinfo import ZoneInfo

from django.test import Client
from django.urls import reverse
from django.utils import translation
from django.utils.formats import date_format
from pypdf import PdfReader

from tournament.demo import SLUG
from tournament.models import Match, Round, Stage, TeamResult, Tournament
from tournament.selectors.bulletin import bulletin_days, read_bulletin, round_day
from tournament.selectors.standings import read_stage, tables_of


def text_of(data: bytes) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(data)).pages)


def signed(value: int) -> str:
    return f"{value:+d}" if value else "0"


def days_of(tournament: Tournament) -> dict[dt.date, list[Round]]:
    zone = ZoneInfo(tournament.time_zone)
    days: dict[dt.date, list[Round]] = {}
    for round_ in Round.objects.filter(stage__tournament=tournament).exclude(
            status=Round.Status.DRAFT).select_related("stage").order_by("stage__order",
                                                                       "number"):
        days.setdefault(round_day(round_, zone), []).append(round_)
    return days


def get_pdf(client: Client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, response.content[:300]
    assert response["Content-Type"] == "application/pdf"
    return text_of(response.content)


def day_url(day: dt.date, *, staff: bool = False, language: str = "en") -> str:
    """A day's bulletin; the public copy's address carries its language."""
    with translation.override(language):
        return reverse("director:day_bulletin" if staff else "public:day_bulletin",
                       args=[SLUG, day.isoformat()])


def section(text: str, start: str, end: str | None) -> str:
    body = text.split(start, 1)[1]
    return body.split(end, 1)[0] if end else body


def test_a_day_of_the_demo_holds_its_results_and_the_standings_after_it(live_demo, db):
    days = days_of(live_demo)
    first = min(days)
    assert bulletin_days(live_demo) == sorted(days)  # every day has a closed round here
    text = get_pdf(Client(), day_url(first))
    assert f"Bulletin of {date_format(first, 'DATE_FORMAT')}" in text
    rounds = days[first]
    assert all(r.status == Round.Status.CLOSED for r in rounds)
    results = section(text, "Results", "Standings after the day")
    for match in Match.objects.filter(round__in=rounds, forfeited_by=None).select_related(
            "home", "away"):
        if TeamResult.objects.filter(match=match, void=True).exists():
            assert f"{match.home.code} {match.home.name} {match.away.code}" in results
            continue  # a withdrawn team's match: void, no score
        assert (f"{match.home.code} {match.home.name} {signed(match.home_total)} : "
                f"{signed(match.away_total)} {match.away.code} {match.away.name}") in results
    # The group tables as they stood after the day's last round, not after the next day.
    stage = rounds[-1].stage
    assert stage.kind == Stage.Kind.GROUPS
    standings = section(text, "Standings after the day", "Boxes of the day")
    for table in tables_of(read_stage(stage), after_round=rounds[-1].number):
        assert f"{table.group} · after round {rounds[-1].number}" in standings
        for line in table.lines:
            assert (f"{line.rank} {line.team.code} {line.team.name} {line.played} "
                    f"{line.match_points} {signed(line.small_points)}") in standings
    assert "The day's best against the field" in text
    assert "Boxes of the day: the largest swings" in text
    assert "Dealer's 11 cards" in text
    assert "The rarest results on the travellers" in text


def test_no_result_of_a_round_still_in_play_gets_into_a_bulletin(live_demo, db):
    final = Round.objects.get(stage__tournament=live_demo, status=Round.Status.IN_PLAY)
    days = days_of(live_demo)
    last = max(days)
    assert final in days[last]  # played the same day as the closed semi-finals
    client = Client()
    for url, staff, day in ((day_url(last), False, True),
                            (reverse("public:bulletin", args=[SLUG]), False, False),
                            (day_url(last, staff=True), True, True)):
        if staff:
            client.force_login(live_demo.staff.get(role="director").user)
        text = get_pdf(client, url)
        if day:
            assert "Not in this bulletin (not closed yet): Knockout · Final" in text
        results = section(text, "Results", "Standings")
        assert "Knockout · Semi-finals" in results
        assert "Knockout · Final" not in results and "leads by" not in text
        for heading in ("Boxes of the day", "The rarest results", "Penalties"):
            assert "Knockout · Final," not in section(text, heading, None)
        bracket = section(text, "the bracket", "Boxes of the day")
        assert "Champion" not in bracket  # the final is not decided in any bulletin
    # The final's entered results exist and the public pages could show finished boxes.
    assert final.tables.filter(results__is_current=True).exists()
    assert live_demo.live_results == Tournament.LiveResults.FINISHED_BOXES


def test_the_chinese_bulletin_is_in_chinese(live_demo, db):
    day = min(days_of(live_demo))
    url = day_url(day, language="zh-hans")
    assert url.startswith("/zh-hans/t/")
    text = get_pdf(Client(), url)
    english = ("Results", "Standings after the day", "Boxes of the day: the largest swings",
               "The rarest results on the travellers", "The day's best against the field",
               "Dealer's 11 cards")
    with translation.override("zh-hans"):
        chinese = [translation.gettext(words) for words in english]
    for words, translated in zip(english, chinese, strict=True):
        assert translated != words and translated in text
    assert "中国红队" in text and "Standings after the day" not in text


def test_the_public_copy_follows_the_switches_and_the_directors_has_everything(
        live_demo, db):
    day = min(days_of(live_demo))
    Tournament.objects.filter(pk=live_demo.pk).update(public_players=False,
                                                      public_penalties=False)
    public = get_pdf(Client(), day_url(day))
    assert "against the field" not in public and "Penalties" not in public
    assert "Results" in public
    director = Client()
    director.force_login(live_demo.staff.get(role="director").user)
    full = get_pdf(director, day_url(day, staff=True))
    assert "The day's best against the field" in full and "Penalties" in full
    Tournament.objects.filter(pk=live_demo.pk).update(public_results=False)
    public = get_pdf(Client(), day_url(day))
    assert "Results" not in public and "largest swings" not in public


def test_a_day_without_a_closed_round_or_not_a_date_is_not_found(live_demo, db):
    client = Client()
    before = min(days_of(live_demo)) - dt.timedelta(days=1)
    for day in (before.isoformat(), "2025-13-01", "yesterday"):
        url = reverse("public:day_bulletin", args=[SLUG, day])
        assert client.get(url).status_code == 404
    assert read_bulletin(live_demo, before) is None


def test_the_overview_and_the_dashboard_link_every_day(live_demo, db):
    days = bulletin_days(live_demo)
    page = Client().get(reverse("public:tournament", args=[SLUG])).content.decode()
    director = Client()
    director.force_login(live_demo.staff.get(role="director").user)
    dashboard = director.get(reverse("director:dashboard", args=[SLUG])).content.decode()
    for day in days:
        assert day_url(day) in page
        assert day_url(day, staff=True) in dashboard
    assert reverse("public:bulletin", args=[SLUG]) in page
    assert reverse("director:bulletin", args=[SLUG]) in dashboard


def test_a_bulletin_needs_the_staff_area_for_the_directors_copy(live_demo, db):
    day = min(days_of(live_demo))
    response = Client().get(day_url(day, staff=True))
    assert response.status_code == 302 and "login" in response["Location"]


def test_the_boxes_of_the_day_are_the_largest_swings_each_box_once(live_demo, db):
    from scoring import seating
    from scoring.seating import Side
    from tournament.models import HandResult

    zone = ZoneInfo(live_demo.time_zone)
    for day in bulletin_days(live_demo):
        bulletin = read_bulletin(live_demo, day)
        rounds = bulletin.rounds
        assert all(r.status == Round.Status.CLOSED and round_day(r, zone) == day
                   for r in rounds)
        # Worked out again from the stored hands: each match's home net per hand.
        nets: dict[tuple[int, int], int] = {}
        for result in HandResult.objects.filter(
                table__round__in=rounds, is_current=True,
                table__match__forfeited_by=None).select_related("table"):
            if TeamResult.objects.filter(match_id=result.table.match_id, void=True).exists():
                continue
            home_seat = seating.seat_of(result.table.position, Side.HOME)
            key = (result.table.match_id, result.hand)
            nets[key] = nets.get(key, 0) + result.points(home_seat)
        boxes = bulletin.swings
        assert boxes and len(boxes) <= 6
        assert abs(boxes[0].swing) == max(abs(net) for net in nets.values())
        for box in boxes:
            assert box.swing == nets[box.match.pk, box.hand] != 0
            assert box.cards is not None and len(box.cards.dealer) == 11
        deals = [box.tables[0].result.deal_id for box in boxes]
        assert len(set(deals)) == len(deals)
        assert [abs(b.swing) for b in boxes] == sorted((abs(b.swing) for b in boxes),
                                                       reverse=True)
        for rare in bulletin.rare:
            assert rare.field >= 4 and 2 * rare.tables < rare.field
            assert rare.round in rounds
