"""django-tables2 tables of the staff and public pages, one module per kind of table; the
views import them from here."""

from tournament.tables.cells import minus_signs, team_cell
from tournament.tables.export import BYTE_ORDER_MARK, SpreadsheetExport
from tournament.tables.persons import MasterPointsTable, RatingListTable, person_rows
from tournament.tables.plain import PlainRows
from tournament.tables.players import FieldTable, IndividualTable, field_rows, individual_rows
from tournament.tables.rankings import FinalRankingTable, RankingTable, final_rows, ranking_rows
from tournament.tables.staff import (
    AuditTable,
    DirectorTeamTable,
    StaffTable,
    TeamTable,
    TournamentTable,
)
from tournament.tables.standings import (
    QualificationTable,
    SeedTable,
    StandingsTable,
    empty_standings_columns,
    standings_rows,
)

__all__ = [
    "BYTE_ORDER_MARK",
    "AuditTable",
    "DirectorTeamTable",
    "FieldTable",
    "FinalRankingTable",
    "IndividualTable",
    "MasterPointsTable",
    "PlainRows",
    "QualificationTable",
    "RankingTable",
    "RatingListTable",
    "SeedTable",
    "SpreadsheetExport",
    "StaffTable",
    "StandingsTable",
    "TeamTable",
    "TournamentTable",
    "empty_standings_columns",
    "field_rows",
    "final_rows",
    "individual_rows",
    "minus_signs",
    "person_rows",
    "ranking_rows",
    "standings_rows",
    "team_cell",
]
