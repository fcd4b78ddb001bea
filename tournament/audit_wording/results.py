"""The audit sentences of the results and their approval: the tables' devices, the hands
entered and changed, the players' approvals and signatures, the paper scorecards, a
match's sign-off and extra hands."""

from __future__ import annotations

from collections.abc import Mapping

from tournament.audit_wording.base import (
    Entry,
    gettext,
    match_words,
    reason_words,
    round_words,
    words_for,
)
from tournament.wording import phrases


@words_for("device.bind")
def _device_bind(e: Entry) -> str:
    return gettext("%(actor)s scores table %(table)s in %(round)s") % {
        "actor": e.who, "table": e["table_number"], "round": round_words(e["round_name"])}


@words_for("result.device")
def _result_device(e: Entry) -> str:
    return gettext("%(actor)s's device scores table %(table)s in %(round)s") % {
        "actor": e.who, "table": e["table_number"], "round": round_words(e["round_name"])}


@words_for("device.move")
def _device_move(e: Entry) -> str:
    values = {"actor": e.who, "username": e["username"], "before": e.get("before"),
              "table": e["table_number"], "round": round_words(e["round_name"])}
    if e.get("before") is not None:
        return gettext("%(actor)s moved %(username)s from table %(before)s to table "
                       "%(table)s in %(round)s") % values
    return gettext("%(actor)s moved %(username)s to table %(table)s in %(round)s") % values


@words_for("device.create")
def _device_create(e: Entry) -> str:
    text = gettext("%(actor)s made the devices of %(round)s's %(n)s tables (new passwords "
                   "and API tokens)") % {
        "actor": e.who, "round": round_words(e["round_name"]), "n": e["tables"]}
    if e.get("replaced"):
        text += gettext("; the slips printed before stop working")
    if e.get("new_accounts"):
        text += gettext("; new accounts: %(accounts)s") % {
            "accounts": ", ".join(e["new_accounts"])}
    return text


@words_for("device.bind_round")
def _device_bind_round(e: Entry) -> str:
    return gettext("%(actor)s bound %(n)s table devices to %(round)s's tables") % {
        "actor": e.who, "n": e["tables"], "round": round_words(e["round_name"])}


@words_for("device.discard")
def _device_discard(e: Entry) -> str:
    """A command a table's screen kept and never sent, let go by its scorer
    (services.discards)."""
    values = {"actor": e.who, "hand": e["hand"], "table": e["table_number"],
              "seat": e.get("seat")}
    if e["command"] == "approve":
        text = gettext("%(actor)s discarded seat %(seat)s's approval of hand %(hand)s at "
                       "table %(table)s, kept on the device and never sent") % values
    else:
        text = gettext("%(actor)s discarded a save of hand %(hand)s at table %(table)s, kept "
                       "on the device and never sent") % values
        if e.get("entry"):
            text += gettext(": %(entry)s") % {"entry": hand_entry_words(e["entry"])}
        elif e.get("cards"):
            text += gettext(": typed by its cards")
        if e.get("approvals"):
            text += gettext(", with %(n)s approvals of it") % {"n": e["approvals"]}
    why = e.get("why")
    if why == "moved":
        text += gettext("; the account had been moved to another table")
    elif why == "stale":
        text += gettext("; the hand had been changed on another device")
    elif why == "refused":
        text += gettext("; the server had refused it")
    return text


def hand_entry_words(h: Mapping) -> str:
    """A hand as a referee would say it: "knock by seat 1 4 vs 12", "gin by seat 2 vs 30",
    "draw", with a false knock (``services.hands.HandEntry`` as stored by ``as_data``)."""
    values = {"seat": h.get("declarer_seat"), "declarer": h.get("declarer_deadwood"),
              "opponent": h.get("opponent_deadwood")}
    outcome = h["outcome"]
    if outcome == "draw":
        text = gettext("draw")
    elif outcome == "gin":
        text = gettext("gin by seat %(seat)s vs %(opponent)s") % values
    elif outcome == "big_gin":
        text = gettext("Big Gin by seat %(seat)s vs %(opponent)s") % values
    else:
        text = gettext("knock by seat %(seat)s %(declarer)s vs %(opponent)s") % values
    if h.get("false_knock_seat"):
        text += gettext(", false knock by seat %(seat)s at %(deadwood)s") % {
            "seat": h["false_knock_seat"], "deadwood": h["false_knock_deadwood"]}
    return text


def _explained(score: Mapping) -> str:
    from scoring.explain import explain

    return explain(score["outcome"], score["declarer_deadwood"], score["opponent_deadwood"],
                   score["points"], draw_rule=score["draw_rule"],
                   false_knock_deadwood=score["false_knock_deadwood"], phrases=phrases())


@words_for("result.enter", "result.change", "result.correct")
def _result(e: Entry) -> str:
    values = {"actor": e.who, "hand": e["hand"], "table": e["table_number"],
              "entry": hand_entry_words(e["entry"]), "explanation": _explained(e["score"])}
    if e.get("before"):
        text = gettext("%(actor)s changed hand %(hand)s at table %(table)s: %(before)s → "
                       "%(entry)s (%(explanation)s)") % {
            **values, "before": hand_entry_words(e["before"])}
    else:
        text = gettext("%(actor)s entered hand %(hand)s at table %(table)s: %(entry)s "
                       "(%(explanation)s)") % values
    if e.get("reason"):
        text += reason_words(e["reason"])
    if e.get("cleared"):
        text += gettext("; the players' signatures were cleared")
    return text


@words_for("result.approve")
def _result_approve(e: Entry) -> str:
    return gettext("seat %(seat)s approved hand %(hand)s at table %(table)s (version "
                   "%(version)s)") % {"seat": e["seat"], "hand": e["hand"],
                                      "table": e["table_number"], "version": e["version"]}


@words_for("result.sign")
def _result_sign(e: Entry) -> str:
    return gettext("seat %(seat)s signed table %(table)s") % {
        "seat": e["seat"], "table": e["table_number"]}


@words_for("match.approve_on_paper")
def _match_approve_on_paper(e: Entry) -> str:
    return gettext("%(actor)s recorded the paper scorecards of %(match)s as approved and "
                   "signed by the players: %(approvals)s approvals, %(signatures)s "
                   "signatures") % {"actor": e.who, "match": match_words(e["match_name"]),
                                    "approvals": e["approvals"],
                                    "signatures": e["signatures"]}


def _score(m: Mapping, home: int, away: int) -> str:
    return gettext("match %(number)s (%(home)s %(home_total)s – %(away_total)s %(away)s)") % {
        **m, "home_total": home, "away_total": away}


@words_for("match.sign_off")
def _match_sign_off(e: Entry) -> str:
    return gettext("%(actor)s signed off %(match)s") % {
        "actor": e.who, "match": _score(e["match_name"], *e["totals"])}


@words_for("match.extra_hands")
def _match_extra_hands(e: Entry) -> str:
    text = gettext("%(actor)s added %(extra)s hands to %(match)s: hands %(first)s to "
                   "%(last)s") % {
        "actor": e.who, "extra": e["extra"], "match": _score(e["match_name"], *e["totals"]),
        "first": e["hands"] - e["extra"] + 1, "last": e["hands"]}
    if e.get("made"):
        text += gettext("; %(n)s new deals made") % {"n": e["made"]}
    if e.get("reopened"):
        text += gettext("; %(round)s is in play again until the match is signed off") % {
            "round": round_words(e["round_name"])}
    return text
