"""Pages anyone may see (issue 12): no login; a tournament in set-up shows nothing, and
the tournament's switches hide the standings, the results, the players and the penalties.
What of a round in play shows is ``selectors.visibility.public_view``'s rule, whoever is
logged in."""

from tournament.views.public.bulletin import bulletin
from tournament.views.public.event import (
    deal_check,
    demo_build,
    hand_records,
    home,
    round_list,
    tournament_page,
)
from tournament.views.public.results import match_page, round_draw
from tournament.views.public.screen import screen, screen_fragment
from tournament.views.public.standings import (
    individual_standings,
    stage_standings,
    standings,
)
from tournament.views.public.teams import penalties, player_page, team_list, team_page
from tournament.views.public.travellers import box_index, field_page, traveller

__all__ = [
    "box_index", "bulletin", "deal_check", "demo_build", "field_page", "hand_records", "home",
    "individual_standings",
    "match_page", "penalties", "player_page", "round_draw", "round_list", "screen",
    "screen_fragment", "stage_standings", "standings", "team_list", "team_page",
    "tournament_page", "traveller",
]
