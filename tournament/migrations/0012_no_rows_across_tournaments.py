# No side doors (issue 22): the database refuses rows that link two tournaments, a line-up
# player of another team, a hand beyond the match's hands, a draw that scores, a deal made
# with another tournament's key and a deal whose cards are not the 52 cards
# (docs/invariants.md).
#
# Adding the draw's check constraint makes SQLite rebuild tournament_handresult, which would
# drop its triggers: every trigger comes off first and all are made again at the end. A
# later migration that rebuilds one of these tables calls ``install`` from this module (it
# makes 0009's, 0010's and these).

import importlib

from django.db import migrations, models

invariants = importlib.import_module("tournament.migrations.0009_invariant_triggers")
previous = importlib.import_module(
    "tournament.migrations.0010_team_results_penalties_forfeits_qualification")

# The tournament of a round, as SQL (``{round}`` the round's id).
ROUND_TOURNAMENT = ("(SELECT s.tournament_id FROM tournament_round r JOIN tournament_stage s"
                    " ON s.id = r.stage_id WHERE r.id = {round})")


def _team_elsewhere(team: str, tournament: str) -> str:
    """The team ``team`` (an id, as SQL) is not of the tournament ``tournament``."""
    return (f"({team} IS NOT NULL AND NOT EXISTS (SELECT 1 FROM tournament_team t"
            f" WHERE t.id = {team} AND t.tournament_id = {tournament}))")


# (name, table, events, columns, bad, message), as in 0009; ``bad`` may be a mapping from
# the engine to its SQL where the two read a JSON field or a pattern differently.
CARDS = [rank + suit for suit in "SHDC" for rank in "A23456789TJQK"]  # "AS" … "KC"
_TOKEN_GLOB = "[A23456789TJQK][SHDC]"
_EVERY_CARD = {
    "sqlite": " OR ".join(f"instr(NEW.cards, '{card}') = 0" for card in CARDS),
    "postgresql": " OR ".join(f"strpos(NEW.cards, '{card}') = 0" for card in CARDS),
}
HANDS_OF_THE_MATCH = {
    "sqlite": "json_extract(r.rule_settings, '$.hands_per_match')",
    "postgresql": "(r.rule_settings ->> 'hands_per_match')::integer",
}


def _hand_beyond(vendor: str) -> str:
    return ("NEW.hand > (SELECT " + HANDS_OF_THE_MATCH[vendor] + " + m.extra_hands"
            " FROM tournament_table t JOIN tournament_match m ON m.id = t.match_id"
            " JOIN tournament_round r ON r.id = t.round_id WHERE t.id = NEW.table_id)")


CHECKS = [
    # A match is between teams of its round's tournament.
    ("match_teams_tournament", "tournament_match", "both", "round_id, home_id, away_id",
     _team_elsewhere("NEW.home_id", ROUND_TOURNAMENT.format(round="NEW.round_id")) + " OR "
     + _team_elsewhere("NEW.away_id", ROUND_TOURNAMENT.format(round="NEW.round_id")),
     "a match is between teams of its round's tournament"),
    # A round entry (a match's side, or a bye) is a team of the round's tournament, and its
    # line-up players are of that team.
    ("roundentry_team_tournament", "tournament_roundentry", "both", "round_id, team_id",
     _team_elsewhere("NEW.team_id", ROUND_TOURNAMENT.format(round="NEW.round_id")),
     "a round entry is a team of the round's tournament"),
    ("roundentry_players_team", "tournament_roundentry", "both",
     "team_id, first_player_id, second_player_id",
     "(NEW.first_player_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM tournament_player p"
     " WHERE p.id = NEW.first_player_id AND p.team_id = NEW.team_id))"
     " OR (NEW.second_player_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM tournament_player p"
     " WHERE p.id = NEW.second_player_id AND p.team_id = NEW.team_id))",
     "a line-up's players are of the entry's team"),
    # A stage's teams are of the stage's tournament.
    ("stageteam_team_tournament", "tournament_stageteam", "both", "stage_id, team_id",
     _team_elsewhere("NEW.team_id", "(SELECT s.tournament_id FROM tournament_stage s"
                                    " WHERE s.id = NEW.stage_id)"),
     "a stage's teams are of its tournament"),
    # A penalty is against a team of its tournament (0010's check covers its round, match
    # and player).
    ("penalty_team_tournament", "tournament_penalty", "both", "tournament_id, team_id",
     _team_elsewhere("NEW.team_id", "NEW.tournament_id"),
     "a penalty is against a team of its tournament"),
    # A result is for a hand of the match: the round's hands plus the extra hands it has.
    ("handresult_hand_in_match", "tournament_handresult", "both", "table_id, hand",
     {vendor: _hand_beyond(vendor) for vendor in ("sqlite", "postgresql")},
     "a result is for a hand of its match (its round's hands and its extra hands)"),
    # A deal is made with a key of its round's tournament.
    ("deal_key_tournament", "tournament_deal", "both", "round_id, key_id",
     "NOT EXISTS (SELECT 1 FROM tournament_dealkey k WHERE k.id = NEW.key_id"
     " AND k.tournament_id = " + ROUND_TOURNAMENT.format(round="NEW.round_id") + ")",
     "a deal is made with a key of its round's tournament"),
    # A deal's cards are the 52 cards, each once, as canonical tokens ("TD") separated by
    # single spaces: 52 well-formed tokens of which none is missing.
    ("deal_cards_deck", "tournament_deal", "both", "cards",
     {"sqlite": "NOT (NEW.cards GLOB '" + " ".join([_TOKEN_GLOB] * 52) + "') OR "
                + _EVERY_CARD["sqlite"],
      "postgresql": "NEW.cards !~ '^([A23456789TJQK][SHDC] ){51}[A23456789TJQK][SHDC]$' OR "
                    + _EVERY_CARD["postgresql"]},
     "a deal's cards are the 52 cards, each once, separated by single spaces"),
]


def _for(vendor: str, check):
    name, table, events, columns, bad, message = check
    return name, table, events, columns, bad[vendor] if isinstance(bad, dict) else bad, message


def trigger_names(vendor: str) -> set[str]:
    """Every trigger in place after this migration (0009's, 0010's and these)."""
    return previous.trigger_names(vendor) | invariants.trigger_names(vendor, CHECKS)


def install(apps, schema_editor):
    previous.install(apps, schema_editor)
    vendor = schema_editor.connection.vendor
    make = invariants._postgresql if vendor == "postgresql" else invariants._sqlite
    for check in CHECKS:
        for statement in invariants._drop(vendor, check[0], check[1]):
            schema_editor.execute(statement)
        for statement in make(*_for(vendor, check)):
            schema_editor.execute(statement)


def remove(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    for name, table, *_rest in [*invariants.CHECKS, *previous.CHECKS, *CHECKS]:
        for statement in invariants._drop(vendor, name, table):
            schema_editor.execute(statement)


def remove_then_previous(apps, schema_editor):
    """Undoing this migration: its triggers off, 0010's state (its triggers) made again."""
    remove(apps, schema_editor)
    previous.install(apps, schema_editor)


class Migration(migrations.Migration):

    dependencies = [
        ("tournament", "0011_public_switches_live_results_field_settings"),
    ]

    operations = [
        migrations.RunPython(remove, previous.install),
        migrations.AddConstraint(
            model_name="handresult",
            constraint=models.CheckConstraint(
                condition=~models.Q(outcome="draw") | models.Q(seat1_points=0),
                name="result_draw_scores_nothing",
            ),
        ),
        migrations.RunPython(install, remove_then_previous),
    ]
