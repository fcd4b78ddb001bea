"""tables.PlainRows: the body written in one pass is the body django-tables2 writes itself."""

import re

import pytest
from django.utils import translation

from tournament.tables import (
    FinalRankingTable,
    IndividualTable,
    QualificationTable,
    RankingTable,
    StandingsTable,
)


def _standings_row(rank, **changes):
    row = {"rank": rank, "code": f"T{rank}", "name": f"Team {rank}", "group": "A",
           "played": 15, "match_points": 40 - rank, "small_points": 120 - 60 * rank,
           "wins": 11, "gins": 7, "penalty_text": "", "penalty_match_points": 0,
           "penalty_small_points": 0, "provisional": False, "separation": "",
           "separated_by": ""}
    return {**row, **changes}


STANDINGS = [
    _standings_row(1, name='<script>alert("x")</script> & Co',
                   separation="small points: 200 vs -40", separated_by="small_points"),
    _standings_row(2, code="=HYPERLINK", provisional=True, penalty_text="−1 mp · −25 sp",
                   penalty_match_points=1, penalty_small_points=25),
    _standings_row(3, played=0, match_points=0, small_points=0, wins=0, gins=0,
                   name="上海队"),
    _standings_row(4, seed=1, separation="tied with the next team: same place"),
]


def _individual_row(rank, **changes):
    row = {"rank": rank, "player": f"Player {rank}", "federation_id": "", "team_code": "T1",
           "team_name": "Team", "hands": 24, "points": 310 - 200 * rank,
           "per_hand": (310 - 200 * rank) / 24, "gins": 3, "big_gins": 0, "knocks": 9,
           "undercuts_won": 1, "undercuts_suffered": 0, "false_knocks": 0,
           "dealer_hands": 12, "dealer_points": 200, "non_dealer_hands": 12,
           "non_dealer_points": -40, "provisional": False}
    return {**row, **changes}


FINAL = [{"place": 1, "code": "CHN", "name": "中国 <b>", "how": "won the final",
          "before": "Groups · A", "match_points": 18, "small_points": 240},
         {"place": "3–4", "code": "=X", "name": "O'Brien & Co", "how": "", "before": "",
          "match_points": None, "small_points": None},
         {"place": 5, "code": "T5", "name": "Team", "how": "5th of the Swiss",
          "before": "Swiss", "match_points": 0, "small_points": -35}]

RANKING = [{"place": 1, "open": "", "code": "CHN", "name": "中国 <b>", "label": "champion",
            "url": "/t/x/teams/1/", "row_class": "place-1"},
           {"place": "", "open": "3–4", "code": "=X", "name": "O'Brien & Co",
            "label": "still playing", "url": "", "row_class": "undecided"},
           {"place": 5, "open": "", "code": "T5", "name": "Team", "label": "out", "url": "",
            "row_class": ""}]

INDIVIDUAL = [_individual_row(1), _individual_row(2, provisional=True, player="O'Brien <b>"),
              _individual_row(3, hands=0, points=0, per_hand=0.0, dealer_points=None)]


# Every table that writes its rows in one pass, with rows of every kind of cell.
PLAIN_TABLES = [
    (StandingsTable, STANDINGS, {}),
    (StandingsTable, STANDINGS, {"exclude": ("penalties", "provisional")}),
    (QualificationTable, STANDINGS, {}),
    (IndividualTable, INDIVIDUAL, {}),
    (FinalRankingTable, FINAL, {}),
    (RankingTable, RANKING, {}),
]


def _stock_body(table_class, rows, **kwargs) -> str:
    """The tbody django-tables2's own template writes, without its even/odd classes."""
    table = table_class(rows, template_name="django_tables2/table.html", **kwargs)
    html = table.as_html(None)
    body = html[html.index("<tbody"):html.index("</tbody>")]
    body = re.sub(r'\s*class="(?:even|odd)"', "", body)
    body = re.sub(r' (?:even|odd)"', '"', body)
    return _squeeze(body[body.index(">") + 1:])


def _squeeze(html: str) -> str:
    html = re.sub(r">\s+", ">", html)
    html = re.sub(r"\s+<", "<", html)
    return re.sub(r"\s+>", ">", html)


@pytest.mark.parametrize(("table_class", "rows", "kwargs"), PLAIN_TABLES)
@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_the_plain_body_is_what_django_tables2_writes(table_class, rows, kwargs, language):
    with translation.override(language):
        plain = _squeeze(str(table_class(rows, **kwargs).plain_body()))
        assert plain == _stock_body(table_class, rows, **kwargs)
    assert "<script>" not in plain and "<b>" not in plain


def test_the_page_template_writes_the_plain_body_under_the_sites_header():
    html = StandingsTable(STANDINGS).as_html(None)
    assert '<th scope="col"' in html
    assert html.count("<tr") == len(STANDINGS) + 1
    assert '<tr class="provisional">' in html
    assert "&lt;script&gt;" in html and "<script>" not in html


def test_an_empty_table_says_so():
    table = StandingsTable([])
    table.empty_text = "No team in this table."
    assert "No team in this table." in table.as_html(None)


def test_a_render_method_asking_for_the_bound_row_is_refused():
    class Odd(StandingsTable):
        def render_wins(self, bound_row):
            return "?"

    with pytest.raises(TypeError, match="render_wins"):
        Odd(STANDINGS).plain_body()


@pytest.mark.parametrize(("table_class", "rows", "kwargs"), PLAIN_TABLES)
@pytest.mark.parametrize("language", ["en", "zh-hans"])
@pytest.mark.parametrize("excluded", [(), ("code", "rank")])
def test_the_plain_download_rows_are_what_django_tables2_makes(table_class, rows, kwargs,
                                                               language, excluded):
    import django_tables2 as tables

    with translation.override(language):
        table = table_class(rows, **kwargs)
        plain = list(table.as_values(exclude_columns=excluded))
        stock = list(tables.Table.as_values(table_class(rows, **kwargs), excluded))
    assert plain == stock and len(plain) == len(rows) + 1


def test_a_column_of_another_kind_is_left_to_django_tables2():
    import django_tables2 as tables

    class Linked(StandingsTable):
        name = tables.Column(verbose_name="Team", linkify=lambda record: "/x/")
        wins = tables.BooleanColumn()

    table = Linked(STANDINGS)
    assert list(table.as_values()) == list(tables.Table.as_values(Linked(STANDINGS)))
