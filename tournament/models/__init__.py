from tournament.models.audit import AuditEntry
from tournament.models.backups import BackupState
from tournament.models.deals import Deal, DealKey
from tournament.models.devices import CommandReceipt, DeviceToken, TableBinding, TableDevice
from tournament.models.imports import PendingImport
from tournament.models.person import Person
from tournament.models.ratings import (
    Category,
    MasterPointAward,
    MasterPointScale,
    PersonRating,
    RatingPoint,
    RatingState,
)
from tournament.models.results import Approval, HandResult, TableSignature
from tournament.models.round import Match, Round, RoundEntry, Table, TableSeat
from tournament.models.staff import Role, StaffRole
from tournament.models.stage import Group, Stage, StageTeam
from tournament.models.standings import Penalty, SeatTally, TeamResult
from tournament.models.team import Player, Team
from tournament.models.tournament import Tournament

__all__ = [
    "Approval",
    "AuditEntry",
    "BackupState",
    "Category",
    "CommandReceipt",
    "Deal",
    "DealKey",
    "DeviceToken",
    "Group",
    "HandResult",
    "MasterPointAward",
    "MasterPointScale",
    "Match",
    "Penalty",
    "PendingImport",
    "Person",
    "PersonRating",
    "Player",
    "RatingPoint",
    "RatingState",
    "Role",
    "Round",
    "RoundEntry",
    "SeatTally",
    "StaffRole",
    "Stage",
    "StageTeam",
    "Table",
    "TableBinding",
    "TableDevice",
    "TableSeat",
    "TableSignature",
    "Team",
    "TeamResult",
    "Tournament",
]
