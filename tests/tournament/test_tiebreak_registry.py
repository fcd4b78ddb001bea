"""A tiebreak is one class: registered in a test, it is accepted by ``Rules`` and the command
line, offered by the settings form, worded by the standings and applied to the ranking."""

import io
import json

import pytest
from django.utils import translation

from scoring import cli
from scoring.errors import RuleError
from scoring.rules import Rules
from scoring.standings import Separation, played_match, standings
from scoring.tiebreaks import TIEBREAKS, Criterion, tiebreak
from tournament.forms import TournamentForm
from tournament.wording import criterion_value, ranking_order, separation_text, tiebreak_name


class GinsConceded(Criterion):
    """Fewer gins and Big Gins made against the team: lower is better."""

    key, abbreviation = "gins_conceded", "GC"
    name = "gins conceded"
    label = "Fewest gins conceded"
    higher_is_better = False

    def values(self, group, field_):
        conceded = dict.fromkeys(group, 0)
        for match in field_.matches:
            if match.home in conceded:
                conceded[match.home] += match.away_gins
            if match.away in conceded:
                conceded[match.away] += match.home_gins
        return conceded

    def describe(self, value, words=None):
        return f"{value} conceded"


@pytest.fixture
def gins_conceded():
    tiebreak(GinsConceded)
    yield GinsConceded.key
    del TIEBREAKS[GinsConceded.key]


def _four_level_teams():
    """Each team wins one match and loses one by 20: all four level on match points and
    small points. Gins conceded: D 0, B 1, C 1, A 3."""
    rules = Rules()
    return [played_match(1, "A", "C", 20, rules, home_gins=1, away_gins=3),
            played_match(2, "B", "D", 20, rules, home_gins=0, away_gins=1),
            played_match(3, "C", "B", 20, rules),
            played_match(4, "D", "A", 20, rules)]


def test_an_unregistered_key_is_refused():
    with pytest.raises(RuleError, match="unknown tiebreak 'gins_conceded'"):
        Rules(tiebreaks=("gins_conceded",))


def test_a_registered_tiebreak_is_accepted_and_applied_in_its_direction(gins_conceded):
    rules = Rules(tiebreaks=(gins_conceded, "lots"))
    assert rules.tiebreaks == ("gins_conceded", "lots")
    rows = standings(["A", "B", "C", "D"], _four_level_teams(), tiebreaks=rules.tiebreaks,
                     lots_seed=b"seed")
    order = [row.team for row in rows]
    assert order[0] == "D" and order[-1] == "A" and set(order[1:3]) == {"B", "C"}
    assert rows[0].separation.text == "gins conceded: 0 conceded vs 1 conceded"
    assert rows[1].separated_by == "lots"  # B and C conceded one gin each
    assert rows[2].separation.text == "gins conceded: 1 conceded vs 3 conceded"


@pytest.mark.django_db
def test_a_registered_tiebreak_is_offered_by_the_settings_form(gins_conceded, tournament):
    form = TournamentForm(instance=tournament)
    slots = [name for name in form.fields if name.startswith("tiebreak_")]
    assert len(slots) == len(TIEBREAKS) == 5
    assert (gins_conceded, "Fewest gins conceded") in form.fields["tiebreak_1"].choices


def test_a_registered_tiebreak_is_worded_by_the_standings(gins_conceded):
    with translation.override("en"):
        assert tiebreak_name(gins_conceded) == "gins conceded"
        assert criterion_value(gins_conceded, 2) == "2 conceded"
        assert separation_text(Separation(gins_conceded, 1, 3, "")) == \
            "gins conceded: 1 conceded vs 3 conceded"
        assert "gins conceded" in ranking_order(("wins", gins_conceded))


def test_the_command_line_accepts_a_registered_tiebreak(gins_conceded):
    document = {"rules": {"tiebreaks": [gins_conceded]}, "teams": ["A", "B"],
                "rounds": [[{"home": "A", "away": "B", "forfeit": "B"}]]}
    out = io.StringIO()
    code = cli.main(["standings"], stdin=io.StringIO(json.dumps(document)), stdout=out)
    assert code == 0, out.getvalue()
    assert [json.loads(line)["team"] for line in out.getvalue().splitlines()] == ["A", "B"]


def test_without_it_the_command_line_refuses_the_key():
    document = {"rules": {"tiebreaks": ["gins_conceded"]}, "teams": ["A"], "rounds": []}
    out = io.StringIO()
    assert cli.main(["standings"], stdin=io.StringIO(json.dumps(document)), stdout=out) == 2
    assert "unknown tiebreak 'gins_conceded'" in out.getvalue()
