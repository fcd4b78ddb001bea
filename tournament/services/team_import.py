"""CSV import of teams with their players (columns in docs/formats.md).

All or nothing: every bad line is reported with its number and reason, and nothing is
imported while any line is bad. A dry run reports what would be imported.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass, field

from django.db import transaction
from django.utils.translation import gettext

from tournament.models import Tournament
from tournament.permissions import Perm, require
from tournament.services.base import Actor, ServiceError, audit
from tournament.services.persons import audit_links
from tournament.services.teams import (
    REQUIRED_TEAM_FIELDS,
    TEAM_FIELDS,
    TeamEntry,
    TeamEntryError,
    find_conflicts,
    insert_team,
    parse_team_entry,
)

MAX_FILE_BYTES = 1_000_000
MAX_TEAMS = 5_000
_DELIMITERS = ",;\t"


@dataclass(frozen=True)
class Problem:
    line: int
    message: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.message}"


@dataclass
class ImportReport:
    teams: list[tuple[int, TeamEntry]] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    imported: bool = False

    @property
    def ok(self) -> bool:
        return not self.problems and bool(self.teams)


def _decode(data: bytes) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        raise _FileProblem(Problem(
            line,
            gettext("byte 0x%(byte)02x is not UTF-8 text; save the file as 'CSV UTF-8' "
                    "and import it again") % {"byte": data[error.start]},
        )) from None


class _FileProblem(Exception):
    def __init__(self, problem: Problem):
        self.problem = problem


def _header_key(name: str) -> str:
    return name.strip().lower().replace(" ", "_").replace("-", "_")


def read_team_csv(data: bytes) -> ImportReport:
    """Parse the file into team entries and problems, without touching the database."""
    report = ImportReport()
    if len(data) > MAX_FILE_BYTES:
        report.problems.append(Problem(1, gettext("the file is larger than %(limit)s bytes")
                                       % {"limit": f"{MAX_FILE_BYTES:,}"}))
        return report
    try:
        text = _decode(data)
    except _FileProblem as error:
        report.problems.append(error.problem)
        return report
    if "\x00" in text:
        line = text[: text.index("\x00")].count("\n") + 1
        report.problems.append(Problem(
            line, gettext("contains a NUL character; is this a CSV file?")))
        return report
    if not text.strip():
        report.problems.append(Problem(1, gettext("the file is empty")))
        return report

    first_line = text.splitlines()[0]
    delimiter = max(_DELIMITERS, key=first_line.count)
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    header = [_header_key(h) for h in next(reader)]
    unknown = [h for h in header if h not in TEAM_FIELDS]
    missing = [f for f in REQUIRED_TEAM_FIELDS if f not in header]
    repeated = sorted({h for h in header if header.count(h) > 1})
    if unknown:
        report.problems.append(Problem(1, gettext(
            "unknown column(s): %(unknown)s; allowed: %(allowed)s")
            % {"unknown": ", ".join(unknown), "allowed": ", ".join(TEAM_FIELDS)}))
    if missing:
        report.problems.append(Problem(1, gettext("missing column(s): %(columns)s")
                                       % {"columns": ", ".join(missing)}))
    if repeated:
        report.problems.append(Problem(1, gettext("column(s) given twice: %(columns)s")
                                       % {"columns": ", ".join(repeated)}))
    if report.problems:
        return report

    line = reader.line_num
    try:
        for values in reader:
            start, line = line + 1, reader.line_num
            if not any(v.strip() for v in values):
                continue
            if len(values) > len(header):
                report.problems.append(Problem(
                    start, gettext("%(values)d values but the header has %(columns)d columns")
                    % {"values": len(values), "columns": len(header)}))
                continue
            raw = dict(zip(header, values, strict=False))
            try:
                report.teams.append((start, parse_team_entry(raw)))
            except TeamEntryError as error:
                report.problems.append(Problem(start, error.message))
            if len(report.teams) > MAX_TEAMS:
                report.problems.append(Problem(
                    start, gettext("more than %(limit)d teams in one file") % {"limit": MAX_TEAMS}))
                break
    except csv.Error as error:
        report.problems.append(Problem(
            reader.line_num, gettext("cannot read the CSV: %(error)s") % {"error": error}))
    if not report.teams and not report.problems:
        report.problems.append(Problem(1, gettext("the file has a header but no teams")))
    return report


def import_teams(
    actor: Actor, tournament: Tournament, data: bytes, *, dry_run: bool, filename: str = ""
) -> ImportReport:
    """Check the whole file against itself and the stored teams; import it only if all is well."""
    require(actor.user, tournament, Perm.MANAGE_TEAMS)
    report = read_team_csv(data)
    with transaction.atomic():
        if report.teams:
            conflicts = find_conflicts(tournament, [entry for _, entry in report.teams])
            for (line, _entry), found in zip(report.teams, conflicts, strict=True):
                report.problems.extend(Problem(line, message) for message in found)
            report.problems.sort(key=lambda p: p.line)
        if dry_run or not report.ok:
            return report
        links = []
        for _line, entry in report.teams:
            try:
                insert_team(tournament, entry, links)
            except ServiceError as error:
                report.problems.append(Problem(_line, error.message))
                transaction.set_rollback(True)
                return report
        report.imported = True
        audit(actor, tournament, "team.import", codes=[entry.code for _, entry in report.teams],
              filename=filename or "")
        audit_links(actor, tournament, links)
    return report
