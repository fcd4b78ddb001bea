"""The life of a round: draft → published → in play → closed (issue 4).

Generation lives in ``tournament.services.draw``; this module moves a round through its
states and edits line-ups. A closed round changes only through a referee's correction.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy

from tournament.audit_wording import round_name
from tournament.models import Match, Player, Round, RoundEntry, Team
from tournament.permissions import Perm, require
from tournament.selectors.penalties import disqualified_players
from tournament.services.backups import want_backup
from tournament.services.base import Actor, ServiceError, audit
from tournament.services.locking import lock
from tournament.services.seats import clear_seats, write_seats
from tournament.services.standings import record_lots
from tournament.services.team_results import write_bye_results, write_match_results
from tournament.services.text import clean_text


def _locked(round_: Round) -> Round:
    return lock(rounds=[round_]).one("rounds")


def _expect(round_: Round, *statuses: str, doing: str) -> None:
    if round_.status not in statuses:
        raise ServiceError(
            gettext("%(round)s is %(status)s; cannot %(doing)s")
            % {"round": round_, "status": round_.get_status_display().lower(), "doing": doing})


def open_matches(round_: Round) -> list[Match]:
    """Matches of the round that are not decided yet, in board order: no official
    (signed-off) result and not forfeited (a default decides a match without a sign-off).
    The one place that says what "decided" means; the pages that offer to close a round
    ask here, so a match decided another way counts everywhere."""
    return list(round_.matches.filter(signed_off_at=None, forfeited_by=None)
                .select_related("home", "away").order_by("number"))


def match_label(match: Match) -> str:
    return f"match {match.number} ({match.home.code} – {match.away.code})"


def unfinished_matches(round_: Round) -> list[str]:
    """The matches of ``open_matches`` in words ("match 3 (CHN – ITA)")."""
    return [match_label(m) for m in open_matches(round_)]


def publish_round(actor: Actor, round_: Round, *, override_reason: str = "") -> Round:
    """Make the draw public. The previous round of the stage must be finished, unless the
    director overrides that with a reason, which is recorded."""
    tournament = round_.stage.tournament
    require(actor.user, tournament, Perm.MANAGE_ROUNDS)
    try:
        reason = clean_text(override_reason, label=gettext_lazy("reason"),
                            max_length=500, required=False)
    except ValueError as error:
        raise ServiceError(str(error)) from None
    with transaction.atomic():
        round_ = _locked(round_)
        _expect(round_, Round.Status.DRAFT, doing=gettext("publish it again"))
        previous = round_.stage.rounds.filter(number=round_.number - 1).first()
        still_open = unfinished_matches(previous) if previous is not None else []
        if still_open and not reason:
            raise ServiceError(
                gettext("%(round)s still has %(count)s match(es) without a result (%(matches)s); "
                        "give a reason to publish anyway")
                % {"round": previous.label, "count": len(still_open),
                   "matches": ", ".join(still_open[:3]) + (", …" if len(still_open) > 3 else "")})
        if not still_open:
            reason = ""  # nothing to override: keep no reason on record
        round_.status = Round.Status.PUBLISHED
        round_.published_at = timezone.now()
        round_.publish_override_reason = reason
        round_.save(update_fields=["status", "published_at", "publish_override_reason"])
        audit(actor, tournament, "round.publish", round=round_.pk, override_reason=reason,
              round_name=round_name(round_),
              previous=round_name(previous) if reason else None)
    return round_


def start_round(actor: Actor, round_: Round, *, deals_elsewhere: bool | None = None) -> Round:
    """Play starts: results may now be entered; line-ups are fixed.

    A round whose deals were not made here is played on boxes dealt elsewhere (by hand, by
    another program). ``deals_elsewhere`` is the director's answer to that question on the
    round page: False refuses to start a round without deals, True starts it (the audit
    entry says so); None, for code that starts rounds by itself (the demo, the tests, the
    benchmarks, which enter results by their counts), does not ask."""
    tournament = round_.stage.tournament
    require(actor.user, tournament, Perm.MANAGE_ROUNDS)
    with transaction.atomic():
        round_ = _locked(round_)
        _expect(round_, Round.Status.PUBLISHED, doing=gettext("start play"))
        without_deals = not round_.deals.exists()
        if without_deals and deals_elsewhere is False:
            raise ServiceError(gettext(
                "%(round)s has no deals yet. Make them first (Deals and boxes), or confirm "
                "that the boxes are dealt elsewhere, by hand or by another program.")
                % {"round": round_.label})
        _refuse_disqualified_players(round_)
        round_.status = Round.Status.IN_PLAY
        round_.started_at = timezone.now()
        round_.save(update_fields=["status", "started_at"])
        write_bye_results(round_)  # the draw is fixed from now on
        for match in round_.matches.exclude(forfeited_by=None):  # defaulted before play
            write_match_results(match)
        audit(actor, tournament, "round.start", round=round_.pk, round_name=round_name(round_),
              without_deals=without_deals)
    return round_


def close_round(actor: Actor, round_: Round) -> Round:
    """Every match signed off: the round's results are final and its deals are revealed."""
    tournament = round_.stage.tournament
    require(actor.user, tournament, Perm.MANAGE_ROUNDS)
    with transaction.atomic():
        # The round and all its matches (services.locking): a sign-off or a correction at
        # that moment lands wholly before the close, or after it.
        matches = Match.objects.filter(round_id=round_.pk).values_list("pk", flat=True)
        round_ = lock(rounds=[round_], matches=matches).one("rounds")
        _expect(round_, Round.Status.IN_PLAY, doing=gettext("close it"))
        still_open = unfinished_matches(round_)
        if still_open:
            raise ServiceError(
                gettext("%(round)s cannot be closed yet: %(count)s match(es) without an official "
                        "result: %(matches)s")
                % {"round": round_.label, "count": len(still_open),
                   "matches": ", ".join(still_open[:5]) + (", …" if len(still_open) > 5 else "")})
        round_.status = Round.Status.CLOSED
        round_.closed_at = timezone.now()
        round_.save(update_fields=["status", "closed_at"])
        audit(actor, tournament, "round.close", round=round_.pk, round_name=round_name(round_))
        record_lots(actor, round_)  # lots that decided a place in the standings, if any
        want_backup(f"{tournament.slug}: {round_.stage.name}, {round_.label} closed")
    return round_


def close_reopened_round(actor: Actor, round_: Round) -> Round | None:
    """A round re-opened for a tied knockout match's extra hands (``services.extra_hands``)
    closes again by itself once every match in it is signed off: the sign-off of the match
    it was re-opened for ends it, as the director's close did the first time. None when the
    round is not such a round, or a match of it is still open. Called by the sign-off,
    after its own transaction (the round is locked before its matches)."""
    tournament = round_.stage.tournament
    require(actor.user, tournament, Perm.SIGN_OFF)
    with transaction.atomic():
        matches = Match.objects.filter(round_id=round_.pk).values_list("pk", flat=True)
        round_ = lock(rounds=[round_], matches=matches).one("rounds")
        if (round_.status != Round.Status.IN_PLAY or round_.closed_at is None
                or unfinished_matches(round_)):
            return None
        round_.status = Round.Status.CLOSED
        round_.closed_at = timezone.now()
        round_.save(update_fields=["status", "closed_at"])
        audit(actor, tournament, "round.close", round=round_.pk, round_name=round_name(round_),
              reopened=True)
        record_lots(actor, round_)
        want_backup(f"{tournament.slug}: {round_.stage.name}, {round_.label} closed again")
    return round_


def undo_round(actor: Actor, round_: Round) -> None:
    """Delete the latest round of a stage, as long as nothing has been played in it.

    Results can only be entered in a round in play, so a draft or published round has none.
    """
    tournament = round_.stage.tournament
    require(actor.user, tournament, Perm.MANAGE_ROUNDS)
    with transaction.atomic():
        round_ = _locked(round_)
        _expect(round_, Round.Status.DRAFT, Round.Status.PUBLISHED, doing=gettext("undo it"))
        if round_.stage.rounds.filter(number__gt=round_.number).exists():
            raise ServiceError(
                gettext("undo the later rounds of %(stage)s first") % {"stage": round_.stage})
        if round_.penalties.filter(undone_at__isnull=True).exists():
            raise ServiceError(
                gettext("penalties are recorded in %(round)s; undo them on the penalties page "
                        "first") % {"round": round_})
        named = round_name(round_)
        round_.penalties.all().delete()  # undone ones: the audit log keeps their record
        round_.delete()
        audit(actor, tournament, "round.undo", round_name=named)


def _refuse_disqualified_players(round_: Round) -> None:
    """Play does not start with a disqualified player in a line-up (RULES.md §16)."""
    entries = (RoundEntry.objects.filter(round=round_, match__forfeited_by=None)
               .exclude(match=None).select_related("team"))
    banned = disqualified_players({entry.team_id for entry in entries})
    for entry in entries:
        for player_id in (entry.first_player_id, entry.second_player_id):
            if player_id in banned:
                raise ServiceError(
                    gettext("%(name)s (%(code)s) is disqualified; change the line-up of %(code)s "
                            "before play starts")
                    % {"name": banned[player_id].player.name, "code": entry.team.code})


def set_lineup(
    actor: Actor, round_: Round, team: Team, *, first_player: Player, second_player: Player
) -> RoundEntry:
    """Who plays at the match's table 1 and who at table 2; a reserve may come in."""
    tournament = round_.stage.tournament
    require(actor.user, tournament, Perm.MANAGE_ROUNDS)
    with transaction.atomic():
        # The players too: a disqualification locks its player, so it lands before or after.
        round_ = lock(rounds=[round_], players=[first_player, second_player]).one("rounds")
        _expect(round_, Round.Status.DRAFT, Round.Status.PUBLISHED,
                doing=gettext("change a line-up"))
        entry = RoundEntry.objects.select_for_update().filter(round=round_, team=team).first()
        if entry is None or entry.match_id is None:
            raise ServiceError(
                gettext("%(team)s does not play a match in %(round)s")
                % {"team": team, "round": round_})
        if first_player.team_id != team.pk or second_player.team_id != team.pk:
            raise ServiceError(gettext("both players must belong to %(team)s") % {"team": team})
        if first_player.pk == second_player.pk:
            raise ServiceError(gettext("a player cannot sit at both tables"))
        banned = disqualified_players([team.pk])
        for player in (first_player, second_player):
            if player.pk in banned:
                raise ServiceError(
                    gettext("%(player)s is disqualified (%(round)s: %(reason)s) and cannot play")
                    % {"player": player.name, "round": banned[player.pk].round,
                       "reason": banned[player.pk].reason})
        before = (entry.first_player.name, entry.second_player.name)
        clear_seats(matches=[entry.match_id])  # the database refuses a line-up under them
        entry.first_player, entry.second_player = first_player, second_player
        entry.save(update_fields=["first_player", "second_player"])
        write_seats(matches=[entry.match_id])
        audit(actor, tournament, "round.lineup", round=round_.pk, team=team.pk,
              team_code=team.code, round_name=round_name(round_), before=list(before),
              after=[first_player.name, second_player.name])
    return entry
