"""The referee's sign-off, and what a correction after it undoes (RULES.md §10).

A sign-off makes a match official: every hand at both tables entered and approved, both
tables signed by both players; the totals are computed then. It locks the match and both
its tables (``services.locking``), the rows every hand save locks too, so a hand saved at
that moment either lands first (and clears the signatures the sign-off needs) or finds the
match signed off.

After the sign-off, or once the round is closed, only a referee changes a hand, with a
reason (``selectors.results.is_correction``); the change makes the match provisional again
until it is signed off again.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy

from scoring.match import plays_extra_hands
from tournament.audit_wording import match_name
from tournament.models import Match, Round, Table, TableSignature
from tournament.permissions import Perm, require
from tournament.selectors.results import is_knockout, match_totals
from tournament.services.approvals import latest_change, listed, missing_at
from tournament.services.backups import want_backup
from tournament.services.base import Actor, ServiceError, Stale, audit
from tournament.services.locking import checkpoint, lock, shown_revision
from tournament.services.team_results import write_match_results
from tournament.services.text import clean_text


def sign_off_match(actor: Actor, match: Match, *, revision: int | None = None) -> Match:
    """The referee makes the match official: every hand at both tables entered, approved,
    and both tables signed by both players. ``revision``: the match's revision the page
    showed (refused when anything was saved, approved or signed since)."""
    tournament = match.round.stage.tournament
    require(actor.user, tournament, Perm.SIGN_OFF)
    table_ids = Table.objects.filter(match_id=match.pk).values_list("pk", flat=True)
    with transaction.atomic():
        locked = lock(matches=[match], tables=table_ids)
        match = locked.one("matches")
        if revision is not None and shown_revision(match, locked.tables.values()) != revision:
            raise Stale(
                gettext("match %(number)s changed since this page was shown: %(what)s; it "
                        "was not signed off: look at it again")
                % {"number": match.number,
                   "what": latest_change(*locked.tables.values())})
        if match.signed_off_at is not None:
            raise ServiceError(
                gettext("match %(number)s is signed off already") % {"number": match.number})
        if match.forfeited_by_id is not None:
            raise ServiceError(
                gettext("match %(number)s was forfeited: a default decides it without a sign-off")
                % {"number": match.number})
        if match.round.status not in (Round.Status.IN_PLAY, Round.Status.CLOSED):
            raise ServiceError(gettext("%(round)s is not in play") % {"round": match.round})
        tables = sorted(locked.tables.values(), key=lambda t: t.position)
        missing = [m for table in tables for m in missing_at(table)]
        signed = set(TableSignature.objects.filter(table__match=match)
                     .values_list("table__number", "seat"))
        missing += [gettext("table %(table)s: seat %(seat)s has not signed")
                    % {"table": t.number, "seat": s}
                    for t in tables for s in (1, 2) if (t.number, s) not in signed]
        if missing:
            raise ServiceError(
                gettext("cannot sign off: %(missing)s") % {"missing": listed(missing)})
        home, away = match_totals(match)
        if plays_extra_hands(knockout=is_knockout(match), home_total=home, away_total=away):
            raise ServiceError(
                gettext("the match is tied at %(home)s; a knockout match goes on with extra "
                        "hands until it is decided") % {"home": home})
        checkpoint("match.sign_off")
        match.home_total, match.away_total = home, away
        match.signed_off_at = timezone.now()
        match.signed_off_by = actor.user
        match.revision += 1  # what the pages showed is out of date
        match.save(update_fields=["home_total", "away_total", "signed_off_at",
                                  "signed_off_by", "revision"])
        write_match_results(match)
        audit(actor, tournament, "match.sign_off", match=match.pk,
              match_name=match_name(match), totals=[home, away])
        if is_knockout(match):  # a place decided: a backup at once (services.backups)
            want_backup(f"{tournament.slug}: match {match.number} of {match.round.stage.name}, "
                        f"{match.round.label} signed off")
    return match


def correction_reason(reason: str) -> str:
    """The reason a correction must give, cleaned; refused when there is none."""
    try:
        return clean_text(reason, label=gettext_lazy("reason"), max_length=500, required=True)
    except ValueError:
        raise ServiceError(
            gettext("a correction after sign-off needs a reason"),
            field_errors={"reason": [gettext("give the reason")]}) from None


def reopen(match: Match) -> None:
    """A correction makes the match provisional until it is signed off again; call it with
    the match locked. A closed round stays closed (its records stay public; the match shows
    "being corrected")."""
    match.signed_off_at = None
    match.signed_off_by = None
    match.home_total = match.away_total = None
    match.save(update_fields=["signed_off_at", "signed_off_by", "home_total", "away_total"])
