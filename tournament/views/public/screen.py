"""The big screen (issue 13, item 1): one fixed address per tournament for a projector in
the hall, opened once by a hall computer. It shows the standings, the current round's
matches with their state (and their scores as far as ``selectors.visibility``'s rule lets
the public see them) and the draw of the next round; each section pages through by itself
(``static/tournament/screen.js``), and htmx fetches the fragment again every
``SCREEN_POLL_SECONDS`` so a sign-off appears without a reload.

The fragment is a pure function of the data and its URL (no user, no CSRF token, no
"now"), so a cache in front of the public pages can keep it until the services say the
results changed.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings
from django.views.decorators.http import require_GET

from tournament.clock import clock_view
from tournament.models import Round
from tournament.public_cache import cache_public
from tournament.selectors.draw import round_plan
from tournament.selectors.event_ranking import event_ranking
from tournament.selectors.public import round_lines, tournament_views
from tournament.selectors.public_standings import public_standings
from tournament.selectors.standings import last_stage_played
from tournament.states import HAS_RESULTS
from tournament.views.public.base import public_page, render_public
from tournament.views.public.standings import begun_knockout

# The largest bracket round the screen shows: a round of 16 and what follows fit 1920×1080.
SCREEN_BRACKET_SLOTS = 16
# Rows a page of each section shows at 1920×1080 (screen.css sizes rows to fit them).
STANDINGS_ROWS = 14
MATCH_ROWS = 6
DRAW_ROWS = 6


def poll_seconds() -> float:
    """How often the screen asks for the fragment again (setting ``SCREEN_POLL_SECONDS``)."""
    return float(getattr(settings, "SCREEN_POLL_SECONDS", 15))


def page_seconds() -> float:
    """How long each page of a section stays up (setting ``SCREEN_PAGE_SECONDS``)."""
    return float(getattr(settings, "SCREEN_PAGE_SECONDS", 12))


@dataclass(frozen=True)
class Paged:
    """A section's rows, each with the page it shows on."""

    rows: list[tuple[int, object]]  # (page, row)
    pages: int

    @classmethod
    def of(cls, items, size: int) -> Paged:
        items = list(items)
        return cls(rows=[(index // size, item) for index, item in enumerate(items)],
                   pages=max(1, -(-len(items) // size)))


def _rounds(rounds: list[Round]) -> tuple[Round | None, Round | None]:
    """The round whose matches the screen shows (in play, else the last closed) and the
    round whose draw it shows (published, not started yet)."""
    in_play = [r for r in rounds if r.status == Round.Status.IN_PLAY]
    closed = [r for r in rounds if r.status == Round.Status.CLOSED]
    published = [r for r in rounds if r.status == Round.Status.PUBLISHED]
    current = in_play[-1] if in_play else (closed[-1] if closed else None)
    return current, (published[0] if published else None)


def screen_context(tournament) -> dict:
    """What the screen shows: every query the fragment makes is here (a fixed number,
    whatever the size of the event)."""
    rounds, views = tournament_views(tournament)
    current, upcoming = _rounds(rounds)
    # The round clock's end time (no "now": a cached fragment stays right, clock.js counts).
    context: dict = {"current": current, "upcoming": upcoming, "clock": clock_view(current)}
    knockout = begun_knockout(tournament, rounds) if tournament.public_standings else None
    if knockout is not None:
        # The knockout that ends the event: its bracket (the last rounds, from the round
        # of 16: what a projector can show whole), then the podium; no standings table.
        ranking = event_ranking(tournament, views)
        context["ranking"] = ranking
        if ranking.champion is not None:
            context["podium"] = ranking.podium
        elif ranking.bracket is not None:
            context["bracket"] = ranking.bracket
            context["bracket_rounds"] = [r for r in ranking.bracket.rounds
                                         if r.slots <= SCREEN_BRACKET_SLOTS]
            context["held_back"] = tournament.public_results and any(
                m.line is not None and not m.line.shown
                and m.line.state in HAS_RESULTS
                for r in ranking.bracket.rounds
                for m in [*r.matches, *filter(None, [r.third_place])])
        return context
    if tournament.public_standings:
        stage = last_stage_played(tournament)
        if stage is not None:
            stage.tournament = tournament
            standings = public_standings(stage, views)
            grouped = len(standings.tables) > 1
            rows = [(table.group.name if grouped and table.group else "", line)
                    for table in standings.tables for line in table.lines]
            context["standings"] = standings
            context["standings_rows"] = Paged.of(rows, STANDINGS_ROWS)
    if current is not None:
        lines = round_lines(current, views)
        context["matches"] = Paged.of(lines, MATCH_ROWS)
        context["provisional_scores"] = any(line.provisional for line in lines)
        # Scores the live-results rule (or the results switch) keeps back for now.
        context["held_back"] = tournament.public_results and any(
            not line.shown and line.state in HAS_RESULTS for line in lines)
    if upcoming is not None:
        plan = round_plan(upcoming)
        context["draw"] = Paged.of([*((m, None) for m in plan.matches),
                                    *((None, team) for team in plan.byes)], DRAW_ROWS)
    return context


@require_GET
@cache_public()
@public_page()
def screen(request, tournament):
    """The page the hall computer opens once."""
    return render_public(request, tournament, "public/screen.html", {
        **screen_context(tournament),
        "poll_ms": int(poll_seconds() * 1000), "page_ms": int(page_seconds() * 1000),
    })


@require_GET
@cache_public()
@public_page()
def screen_fragment(request, tournament):
    """The screen's content, fetched again by htmx every ``SCREEN_POLL_SECONDS``."""
    return render_public(request, tournament, "public/screen_fragment.html",
                         screen_context(tournament))
