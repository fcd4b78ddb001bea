"""The audit sentences of the deals: the deal keys, making, replacing and revealing deals,
and the printouts downloaded."""

from __future__ import annotations

from tournament.audit_wording.base import Entry, gettext, reason_words, round_words, words_for


@words_for("deals.new_key")
def _deals_new_key(e: Entry) -> str:
    return gettext("deal key %(key)s made; its commitment is %(commitment)s") % {
        "key": e["key"], "commitment": e["commitment"]}


@words_for("deals.public_value")
def _deals_public_value(e: Entry) -> str:
    return gettext("%(actor)s set the public value mixed into the deals of key %(key)s: "
                   "%(value)s") % {"actor": e.who, "key": e["key"], "value": e["value"]}


@words_for("deals.generate")
def _deals_generate(e: Entry) -> str:
    return gettext("%(actor)s made %(n)s deals for %(round)s with deal key %(key)s") % {
        "actor": e.who, "n": e["deals"], "round": round_words(e["round_name"]),
        "key": e["key"]}


@words_for("deals.replace")
def _deals_replace(e: Entry) -> str:
    text = gettext("%(actor)s replaced hand %(hand)s of set %(set)s in %(round)s with reserve "
                   "deal %(reserve)s (deal key %(key)s)") % {
        "actor": e.who, "hand": e["hand"], "set": e["deal_set"],
        "round": round_words(e["round_name"]), "reserve": e["reserve"], "key": e["key"]}
    text += reason_words(e["reason"])
    if e.get("played"):
        text += gettext("; %(n)s table(s) had played the old deal and keep their results on "
                        "it") % {"n": e["played"]}
    return text


@words_for("deals.reveal")
def _deals_reveal(e: Entry) -> str:
    return gettext("%(actor)s revealed deal key %(key)s") % {"actor": e.who, "key": e["key"]}


def printout_names() -> dict[str, str]:
    """The printouts of a round's deals, by their name in the address."""
    return {"deal-sheet": gettext("deal sheet"), "box-labels": gettext("box labels"),
            "packing-list": gettext("packing list"),
            "everything": gettext("round's papers, all in one")}


@words_for("deals.download")
def _deals_download(e: Entry) -> str:
    if "printout" in e.data:
        what = gettext("%(printout)s (%(paper)s)") % {
            "printout": printout_names().get(e["printout"], e["printout"]),
            "paper": e["paper"]}
    else:
        what = e["what"]
    return gettext("%(actor)s downloaded the %(what)s of %(round)s") % {
        "actor": e.who, "what": what, "round": round_words(e["round_name"])}
