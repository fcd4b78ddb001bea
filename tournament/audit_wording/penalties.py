"""The audit sentences of the penalties: how a penalty is named (``penalty_words``),
recording it and undoing it, with what it changed."""

from __future__ import annotations

from collections.abc import Mapping

from tournament.audit_wording.base import (
    Entry,
    gettext,
    match_words,
    reason_words,
    round_words,
    say,
    words_for,
)


def penalty_words(p: Mapping) -> str:
    """"a match-point deduction of 2 against T2 in Groups, Round 2", "lateness of 20 minutes
    by T2 (Ann) at Swiss, Round 1 match 1 (T1 – T2)", … (``services.penalties``)."""
    from tournament.models import Penalty

    Kind = Penalty.Kind
    kind, team, player = p["kind"], p["team"], p.get("player")
    round_ = round_words(p["round_name"])
    if kind == Kind.DISQUALIFICATION:
        if player:
            return gettext("the disqualification of %(player)s (%(team)s) in %(round)s") % {
                "player": player, "team": team, "round": round_}
        return gettext("the disqualification of %(team)s from %(round)s on") % {
            "team": team, "round": round_}
    who = (gettext("%(team)s (%(player)s)") % {"team": team, "player": player}
           if player else team)
    where = (gettext("%(round)s %(match)s") % {"round": round_, "match": match_words(p["match"])}
             if p.get("match") else round_)
    values = {"who": who, "where": where, "amount": p.get("amount"),
              "minutes": p.get("minutes")}
    if kind == Kind.WARNING:
        return gettext("a warning to %(who)s in %(where)s") % values
    if kind == Kind.SMALL_POINTS:
        return gettext("a small-point deduction of %(amount)s against %(who)s in %(where)s") \
            % values
    if kind == Kind.MATCH_POINTS:
        return gettext("a match-point deduction of %(amount)s against %(who)s in %(where)s") \
            % values
    if kind == Kind.LATENESS:
        return gettext("lateness of %(minutes)s minutes by %(who)s at %(where)s") % values
    return gettext("a default by %(who)s of %(where)s") % values


def _changes(e: Entry) -> str:
    return "".join(gettext("; %(note)s") % {"note": say(change)}
                   for change in e.get("changes", []))


@words_for("penalty.record")
def _penalty_record(e: Entry) -> str:
    p = e["described"]
    text = gettext("%(actor)s recorded %(penalty)s") % {
        "actor": e.who, "penalty": penalty_words(p)}
    if p["kind"] == "lateness":
        values = {"limit": e["limit"], "number": (p.get("match") or {}).get("number")}
        text += (gettext("; over the limit of %(limit)s minutes: a default of match "
                         "%(number)s too") if e.get("default_made") else
                 gettext("; within the limit of %(limit)s minutes: no default")) % values
    return text + _changes(e) + reason_words(e["reason"])


@words_for("penalty.undo")
def _penalty_undo(e: Entry) -> str:
    p = e["described"]
    text = gettext("%(actor)s undid %(penalty)s") % {
        "actor": e.who, "penalty": penalty_words(p)}
    if e.get("default_undone"):
        text += gettext(" and the default of match %(number)s it caused") % {
            "number": p["match"]["number"]}
    return text + _changes(e) + reason_words(e["reason"])
