"""The audit sentences of the rounds: the draw, publishing, starting, closing and undoing a
round, a team's line-up and the swaps."""

from __future__ import annotations

from django.utils.translation import pgettext

from tournament.audit_wording.base import (
    Entry,
    gettext,
    listed,
    round_label,
    round_words,
    say,
    words_for,
)


@words_for("round.generate")
def _round_generate(e: Entry) -> str:
    text = gettext("%(actor)s drew %(round)s: %(n)s matches") % {
        "actor": e.who, "round": round_words(e["round_name"]), "n": e["matches"]}
    if e.get("byes"):
        text += gettext(", bye: %(teams)s") % {"teams": listed(e["byes"])}
    return text + "".join(gettext("; %(note)s") % {"note": say(note)}
                          for note in e.get("notes", []))


@words_for("round.publish")
def _round_publish(e: Entry) -> str:
    values = {"actor": e.who, "round": round_words(e["round_name"])}
    if e.get("override_reason"):
        return gettext("%(actor)s published the draw of %(round)s before %(previous)s was "
                       "finished; reason: %(reason)s") % {
            **values, "previous": round_label(e["previous"]), "reason": e["override_reason"]}
    return gettext("%(actor)s published the draw of %(round)s") % values


@words_for("round.start")
def _round_start(e: Entry) -> str:
    values = {"actor": e.who, "round": round_words(e["round_name"])}
    if e.get("without_deals"):
        return gettext("%(actor)s started play in %(round)s without deals (the boxes dealt "
                       "elsewhere)") % values
    return gettext("%(actor)s started play in %(round)s") % values


@words_for("round.close")
def _round_close(e: Entry) -> str:
    if e.get("reopened"):
        return gettext("%(round)s closed again: %(actor)s signed off the match it was "
                       "re-opened for") % {"actor": e.who,
                                            "round": round_words(e["round_name"])}
    return gettext("%(actor)s closed %(round)s") % {
        "actor": e.who, "round": round_words(e["round_name"])}


@words_for("round.undo")
def _round_undo(e: Entry) -> str:
    return gettext("%(actor)s undid %(round)s") % {
        "actor": e.who, "round": round_words(e["round_name"])}


@words_for("round.lineup")
def _round_lineup(e: Entry) -> str:
    return gettext("%(actor)s set the line-up of %(code)s in %(round)s: table 1 %(before1)s "
                   "→ %(after1)s, table 2 %(before2)s → %(after2)s") % {
        "actor": e.who, "code": e["team_code"], "round": round_words(e["round_name"]),
        "before1": e["before"][0], "after1": e["after"][0], "before2": e["before"][1],
        "after2": e["after"][1]}


@words_for("round.swap")
def _round_swap(e: Entry) -> str:
    a, b = e["team_codes"]
    text = gettext("%(actor)s swapped %(a)s and %(b)s in %(round)s") % {
        "actor": e.who, "a": a, "b": b, "round": round_words(e["round_name"])}
    if e.get("follows"):
        text += gettext(" (%(follows)s)") % {"follows": say(e["follows"])}
    if e.get("warnings"):
        text += gettext(" despite: %(warnings)s") % {
            "warnings": pgettext("list separator", "; ").join(say(w) for w in e["warnings"])}
    return text


@words_for("round.clock_length")
def _round_clock_length(e: Entry) -> str:
    return gettext("%(actor)s set the planned length of %(round)s: %(n)s minutes") % {
        "actor": e.who, "round": round_words(e["round_name"]), "n": e["minutes"]}


@words_for("round.clock_pause")
def _round_clock_pause(e: Entry) -> str:
    return gettext("%(actor)s paused the clock of %(round)s") % {
        "actor": e.who, "round": round_words(e["round_name"])}


@words_for("round.clock_resume")
def _round_clock_resume(e: Entry) -> str:
    return gettext("%(actor)s let the clock of %(round)s run again (paused for %(n)s "
                   "seconds)") % {"actor": e.who, "round": round_words(e["round_name"]),
                                  "n": e["paused_seconds"]}


@words_for("round.clock_add")
def _round_clock_add(e: Entry) -> str:
    return gettext("%(actor)s added %(n)s minutes to the clock of %(round)s") % {
        "actor": e.who, "round": round_words(e["round_name"]), "n": e["minutes"]}


@words_for("table.extend")
def _table_extend(e: Entry) -> str:
    return gettext("%(actor)s gave table %(table)s of %(round)s %(n)s minutes more; "
                   "reason: %(reason)s") % {
        "actor": e.who, "table": e["table_number"], "round": round_words(e["round_name"]),
        "n": e["minutes"], "reason": e["reason"]}
