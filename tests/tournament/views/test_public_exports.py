"""Downloads of the public tables (issue 13, item 3): every export as CSV and XLSX, walked
during a round in play under each live-results setting, finds no card and no held-back
result; the switches hide them with their pages; a name that starts like a formula stays a
text while numbers stay numbers; the file is named after the tournament and the time;
query counts pinned."""

import csv
import io
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from openpyxl import load_workbook

from tests.conftest import kept_stage_queries
from tests.tournament.views.public_event import (
    build_event,
    leaked_runs,
    one_event_per_module,
    public_runs,
    secret_runs,
)
from tests.tournament.views.routes import all_routes, fill
from tests.tournament.views.test_public_pages import values_for
from tournament.models import Deal, HandResult, Tournament

KINDS = ("csv", "xlsx")


built_event, event, tournament = one_event_per_module()


def export_routes() -> list[str]:
    return [route for route in all_routes() if route.startswith("t/")
            and re.search(r"\.<slug:kind>$", route)]


def export_urls(tournament, event) -> list[str]:
    urls = []
    for route in export_routes():
        values = values_for(route, tournament, event)
        if "/rounds/<int:pk>/boxes/<int:deal_pk>/" in route:
            # Every box of the round in play and of a closed round.
            values["pk"] = [event.open.pk]
            urls += fill(route, {**values, "kind": KINDS})
            values = {**values, "pk": [event.closed[0].pk], "deal_pk": list(
                Deal.objects.filter(round=event.closed[0]).values_list("pk", flat=True))}
        urls += fill(route, {**values, "kind": KINDS})
    return urls


def rows_of(response) -> list[list]:
    """The cells of a CSV or XLSX download, row by row (the header first)."""
    if response["Content-Type"].startswith("text/csv"):
        return list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    book = load_workbook(io.BytesIO(response.content))
    return [list(row) for row in book.active.iter_rows(values_only=True)]


def text_of(rows) -> str:
    return "\n".join(" ".join("" if cell is None else str(cell) for cell in row)
                     for row in rows)


def records(rows) -> list[dict]:
    header, *body = rows
    return [dict(zip(header, row, strict=False)) for row in body]


def open_results(event) -> dict[int, set[int]]:
    """hand → the opponent's deadwoods of the round in play's results on it (unique to
    each result by build_event's choice)."""
    hands: dict[int, set[int]] = {}
    for hand, deadwood in HandResult.objects.filter(
            table__round=event.open, is_current=True).values_list("hand", "opponent_deadwood"):
        hands.setdefault(hand, set()).add(deadwood)
    return hands


@pytest.mark.parametrize("setting", ["closed", "finished_boxes", "live"])
def test_no_export_shows_a_card_or_a_kept_back_result_of_a_round_in_play(
        client, tournament, event, setting):
    tournament.live_results = setting
    tournament.save()
    results = open_results(event)
    kept_hands = {"closed": [1, 2, 3], "finished_boxes": [2, 3], "live": []}[setting]
    kept_back = {d for hand in kept_hands for d in results[hand]}
    shown = {d for hand, ds in results.items() if hand not in kept_hands for d in ds}
    runs, closed_cards = secret_runs(event.open), public_runs(event.closed)
    open_round_results = reverse("public:round_export",
                                 args=[tournament.slug, event.open.pk, "csv"])
    seen: set[int] = set()
    visited = 0
    for url in export_urls(tournament, event):
        response = client.get(url)
        assert response.status_code in (200, 404), url
        if response.status_code != 200:
            continue
        visited += 1
        assert "attachment" in response["Content-Disposition"], url
        rows = rows_of(response)
        text = text_of(rows)
        assert not leaked_runs(text, runs, closed_cards), f"{url} shows cards"
        assert not [e for e in event.kept_back + event.finished if e in text]
        deadwoods = {int(r["Opponent's deadwood"]) for r in records(rows)
                     if r.get("Opponent's deadwood") not in (None, "")}
        assert not deadwoods & kept_back, f"{url} shows a held-back result under {setting}"
        seen |= deadwoods & shown
        if url == open_round_results:
            scores = [r["Home score"] for r in records(rows)]
            assert scores and all(s != "" for s in scores) == (setting == "live"), scores
    assert visited >= 2 * 12
    assert seen == shown  # what the setting allows is exported (so the test can fail)


SWITCHED = {"public_standings": ["standings_export"], "public_players": ["individual_export"],
            "public_penalties": ["penalties_export"], "public_results": []}


@pytest.mark.parametrize("switch", list(SWITCHED))
def test_a_switch_turned_off_hides_its_exports_and_set_up_hides_all(client, tournament,
                                                                    event, switch):
    closed = event.closed[0]
    urls = {name: reverse(f"public:{name}", args=[tournament.slug, "xlsx"])
            for name in ("standings_export", "individual_export", "penalties_export")}
    urls["travellers_export"] = reverse("public:travellers_export",
                                        args=[tournament.slug, closed.pk, "csv"])
    urls["round_export"] = reverse("public:round_export", args=[tournament.slug, closed.pk,
                                                                "csv"])
    hidden = SWITCHED[switch] + (["travellers_export"] if switch == "public_results" else [])
    setattr(tournament, switch, False)
    tournament.save()
    for name, url in urls.items():
        assert client.get(url).status_code == (404 if name in hidden else 200), name
    assert client.get(urls["round_export"].replace(".csv", ".pdf")).status_code == 404
    tournament.status = Tournament.Status.SETUP
    tournament.save()
    assert {client.get(url).status_code for url in urls.values()} == {404}


def test_the_pages_link_their_exports(client, tournament, event):
    slug, closed = tournament.slug, event.closed[0]
    deal = Deal.objects.filter(round=closed).first()
    pages = {
        "standings": ([slug], "standings_export"),
        "individual": ([slug], "individual_export"),
        "round": ([slug, closed.pk], "round_export"),
        "travellers": ([slug, closed.pk], "travellers_export"),
        "traveller": ([slug, closed.pk, deal.pk], "traveller_export"),
        "penalties": ([slug], "penalties_export"),
    }
    for page, (args, export) in pages.items():
        html = client.get(reverse(f"public:{page}", args=args)).content.decode()
        for kind in KINDS:
            assert f'href="{reverse(f"public:{export}", args=[*args, kind])}' in html, page


FORMULAS = [("EQ", "=SUM(1+1)"), ("MI", "-2+3"), ("PL", "+Plus"), ("AT", "@cmd")]


def test_a_name_like_a_formula_stays_text_and_numbers_stay_numbers(
        client, own_tournament, make_team):
    tournament, director_actor = own_tournament
    build_event(director_actor, tournament, make_team, codes=FORMULAS, open_round=False)
    url = reverse("public:standings_export", args=[tournament.slug, "xlsx"])
    response = client.get(url)
    assert re.fullmatch(r'attachment; filename="own-cup-standings-swiss-\d{8}-\d{4}\.xlsx"',
                        response["Content-Disposition"])
    sheet = load_workbook(io.BytesIO(response.content)).active
    header = [cell.value for cell in sheet[1]]
    name, small = header.index("Team") + 1, header.index("Small points") + 1
    names = {sheet.cell(row, name).value: sheet.cell(row, name)
             for row in range(2, sheet.max_row + 1)}
    assert set(names) == {n for _c, n in FORMULAS}
    assert {cell.data_type for cell in names.values()} == {"s"}
    negative = [sheet.cell(row, small) for row in range(2, sheet.max_row + 1)
                if sheet.cell(row, small).value < 0]
    assert negative and {cell.data_type for cell in negative} == {"n"}
    # CSV: a leading apostrophe makes such a text inert; numbers as they are.
    rows = records(rows_of(client.get(url.replace(".xlsx", ".csv"))))
    assert {r["Team"] for r in rows} == {f"'{n}" for _c, n in FORMULAS}
    assert any(re.fullmatch(r"-\d+", r["Small points"]) for r in rows)
    # The individual standings and the round's results too.
    individual = rows_of(client.get(reverse("public:individual_export",
                                            args=[tournament.slug, "csv"])))
    assert {r["Team"] for r in records(individual)} == {f"'{n}" for _c, n in FORMULAS}
    results = load_workbook(io.BytesIO(client.get(reverse(
        "public:round_export", args=[tournament.slug, tournament.stages.get().rounds.first().pk,
                                     "xlsx"])).content)).active
    assert {c.data_type for row in results.iter_rows(min_row=2, min_col=4, max_col=4)
            for c in row} == {"s"}


def test_the_columns_are_the_pages(client, tournament, event):
    rows = rows_of(client.get(reverse("public:standings_export", args=[tournament.slug,
                                                                       "csv"])))
    assert rows[0][:7] == ["#", "Code", "Team", "Played", "Match points", "Small points",
                           "Wins"]
    assert len(rows) == 1 + len(event.teams)
    results = rows_of(client.get(reverse("public:round_export",
                                         args=[tournament.slug, event.closed[0].pk, "csv"])))
    assert results[0] == ["Match", "Home code", "Home", "Away code", "Away", "Home score",
                          "Away score", "Home match points", "Away match points", "Status"]
    assert {r[-1] for r in results[1:]} == {"official"}


# Pinned query counts: the same for a small and a larger event ------------------------------

PINNED = {"standings": 11, "individual": 8, "round": 6, "round_open": 8, "boxes": 7,
          "traveller": 6, "penalties": 2}


def export_pages(tournament, event) -> dict[str, str]:
    slug, closed, open_ = tournament.slug, event.closed[0], event.open
    deal = Deal.objects.filter(round=closed).order_by("hand", "deal_set").first()

    def url(name, *args):
        return reverse(f"public:{name}", args=[slug, *args, "xlsx"])

    return {"standings": url("standings_export"), "individual": url("individual_export"),
            "round": url("round_export", closed.pk), "round_open": url("round_export", open_.pk),
            "boxes": url("travellers_export", open_.pk),
            "traveller": url("traveller_export", closed.pk, deal.pk),
            "penalties": url("penalties_export")}


def query_counts(client, tournament, event) -> dict[str, int]:
    counts = {}
    for name, url in export_pages(tournament, event).items():
        client.get(url)  # a second visit is counted: what the process keeps is read
        with CaptureQueriesContext(connection) as queries:
            assert client.get(url).status_code == 200, url
        counts[name] = len(queries)
    return counts


def test_every_export_reads_in_a_pinned_number_of_queries(
        client, tournament, event, make_tournament, make_team, staff_user, actor):
    larger = make_tournament(name="Asian Cup", slug="asian-cup")
    director = actor(staff_user(larger, "director", username="director2"))
    big = build_event(director, larger, make_team, teams=8, closed=3,
                      codes=[(f"A{i}", f"Asia {i}") for i in range(1, 9)])
    for setting in ("finished_boxes",):
        for t in (tournament, larger):
            t.live_results = setting
            t.save()
        small, large = query_counts(client, tournament, event), query_counts(client, larger, big)
        # The standings read the stage (kept on PostgreSQL after the first visit).
        expected = {**PINNED, "standings": PINNED["standings"] - kept_stage_queries()}
        assert small == large == expected
