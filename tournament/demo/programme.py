"""The demo event's programme: where and when it is played, its sixteen teams and their
players, the rounds' start times and the boxes of a match; with ``--season``, the players'
federation ids and the earlier event's day and rounds (tournament/demo/season.py)."""

from __future__ import annotations

import datetime as dt

TIME_ZONE = "Europe/Vienna"
FIRST_DAY = dt.date(2025, 10, 17)

# code, name, country, (player 1, player 2[, reserve]): seeds in this order.
TEAMS = [
    ("CHN-R", "中国红队", "China", ("王磊", "陈静", "赵敏")),
    ("ENG", "London Rummy Society", "England", ("Oliver Bennett", "Priya Shah")),
    ("USA", "New York Gin Club", "United States", ("Dorothy Reyes", "Marcus Whitfield")),
    ("TPE", "中華台北", "Chinese Taipei", ("林志明", "黃雅婷")),
    ("FRA", "Les As de Paris", "France", ("Camille Lefèvre", "Julien Moreau")),
    ("GER", "Berliner Kartenfreunde", "Germany", ("Lukas Schneider", "Anna Becker")),
    ("JPN", "Team Sakura", "Japan", ("佐藤健", "鈴木花子")),
    ("ITA", "Scala Quaranta Milano", "Italy", ("Giulia Romano", "Marco Bianchi")),
    ("HKG", "香港維港隊", "Hong Kong", ("陳嘉欣", "Tony Leung Ka-fai")),
    ("ESP", "Barcelona Descarte", "Spain", ("Lucía Fernández", "Javier Ortega")),
    ("KOR", "Seoul Knockers", "Korea", ("Kim Min-jun", "Park Ji-woo")),
    ("BRA", "Rio Canastra", "Brazil", ("Ana Beatriz Souza", "Rafael Lima")),
    ("CHN-B", "中国蓝队", "China", ("张伟", "刘洋")),
    ("IND", "Mumbai Aces", "India", ("Arjun Mehta", "Ananya Iyer")),
    ("AUS", "Sydney Sundowners", "Australia", ("Chloe Nguyen", "Jack O'Brien")),
    ("ISR", "Tel Aviv Gin", "Israel", ("Noa Levi", "Daniel Cohen")),
]

# Round start times, venue time: (day, hour, minute); the knockout follows the groups.
GROUP_STARTS = [(0, 9, 30), (0, 11, 15), (0, 14, 0), (0, 15, 45), (1, 9, 30), (1, 11, 15),
                (1, 14, 0)]
KNOCKOUT_STARTS = [(1, 15, 45), (2, 9, 30), (2, 11, 30)]
HAND_MINUTES = 9
HANDS_PER_MATCH = 6  # boxes a match (the default is 8): the demo builds in seconds

# With --season (issue 55): both events are of this federation and every player carries an
# id of it, so each is one person at both. Not FCG: the demo's persons must never be linked
# to a real federation's players kept in the same database.
FEDERATION = "DEMO"


def federation_id(seed: int, number: int) -> str:
    """The id of the team of ``seed``'s player ``number`` (1, 2; 3 the reserve)."""
    return f"D{seed:02d}{number}"


# The earlier event: a one-day Swiss of the same teams four weeks before the cup (day 0 in
# venue_time's days from FIRST_DAY), rounds as the cup's.
SEASON_DAY = -27
SEASON_STARTS = [(SEASON_DAY, 10, 0), (SEASON_DAY, 11, 45), (SEASON_DAY, 14, 30),
                 (SEASON_DAY, 16, 15)]
# The master points' categories (docs/ratings.md): the cup's field came from sixteen
# countries; the open is a national federation's event.
CATEGORY = "international"
SEASON_CATEGORY = "national"
