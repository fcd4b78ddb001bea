"""The integrity check of the standings, run from the staff standings page (issue 11, item
8): the check itself is ``selectors.integrity``; running it from the page is recorded in
the audit log with what it found, so that a difference, which should never be, is on
record with the time it was seen. Referees and directors (``Perm.SIGN_OFF``: the check
reads provisional results)."""

from __future__ import annotations

from tournament.models import Tournament
from tournament.permissions import Perm, require
from tournament.selectors.integrity import IntegrityReport, check_standings, one_snapshot
from tournament.services.base import Actor, audit

SHOWN_IN_AUDIT = 20  # differences written out in the audit entry; the count is always there


def run_standings_check(actor: Actor, tournament: Tournament) -> IntegrityReport:
    """Check every stage of the tournament and record the outcome in the audit log."""
    require(actor.user, tournament, Perm.SIGN_OFF)
    with one_snapshot():  # one transaction: the reads, then the audit entry
        report = check_standings(tournament)
        listed = [{"stage": d.stage, "round": d.round, "where": d.where, "what": d.what}
                  for d in report.differences[:SHOWN_IN_AUDIT]]
        audit(actor, tournament, "standings.check",
              differences=len(report.differences), rows=report.rows,
              stored_rows=report.stored_rows, matches=report.matches, hands=report.hands,
              stages=len(report.stages), listed=listed)
    return report
