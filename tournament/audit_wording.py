"""The audit log's sentences, written when an entry is shown, in the reader's language.

An audit entry keeps what was done (``AuditEntry.action``) and what it was done to
(``AuditEntry.data``: ids for the tournament file's natural keys, and the names, numbers
and codes the sentence needs, as they were at that moment). The sentence is not stored:
``sentence(entry)`` writes it from the action and the data with the translated phrases
below, so the same entry reads in English to one director and in Chinese to another (as
pretix does). ``WORDING`` has one function for every action a service records; a test
walks every ``audit(...)`` call and fails on an action without one.

Entries recorded before this (their English sentence stored in
``AuditEntry.recorded_summary``) are shown as they were recorded, marked as such.

Parts of a sentence made deeper in the services (a draw's notes, what a penalty changed,
a swap's warnings) are stored as *phrases*: ``phrase(gettext_noop("…%(x)s…"), x=…)``, an
English template with named values, translated when shown (``say``). Their templates
are marked with ``gettext_noop`` where they are made, so the catalogue has them.

The data keys that hold ids (``exchange.common.AUDIT_REFERENCES``: round, match, table,
team, teams, player, stage, …) are never used here: a row may be gone, and an imported
file maps them to other ids. The words come from keys of their own (``round_name``,
``table_number``, ``team_code``, …).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any

from django.utils.translation import gettext, pgettext

from scoring.pairing import round_slots
from tournament.wording import knockout_round_name, phrases, separation_text

logger = logging.getLogger(__name__)

# Stored by ``Actor.name`` for an entry made by no person (a command, the system).
SYSTEM = "system"


# Building the data (used by the services) -------------------------------------------------

def round_name(round_) -> dict:
    """What names a round in an entry's data: its stage's name, its number, and in a
    knockout's bracket the slots it starts from (its name: "Final", "Quarter-finals")."""
    rounds = round_.stage.bracket_rounds
    slots = (round_slots(round_.number, rounds)
             if rounds is not None and 1 <= round_.number <= rounds else None)
    return {"stage": round_.stage.name, "number": round_.number, "slots": slots}


def match_name(match) -> dict:
    """A match in an entry's data: its number and its teams' codes."""
    return {"number": match.number, "home": match.home.code, "away": match.away.code}


def phrase(template: str, **params: Any) -> dict:
    """A part of a sentence kept in an entry's data: an English template marked with
    ``gettext_noop`` where it is made, and its values (texts, numbers, a ``round_name``,
    other phrases, or lists of them, which are listed)."""
    return {"text": template, "params": params}


# Showing ----------------------------------------------------------------------------------

@dataclass(frozen=True)
class Entry:
    """What a wording function reads: who did it, the entry's data and its address."""

    who: str
    data: Mapping[str, Any]
    ip: str | None = None

    def __getitem__(self, key: str) -> Any:
        return self.data[key]

    def get(self, key: str, default: Any = None) -> Any:
        return self.data.get(key, default)


Wording = Callable[[Entry], str]
WORDING: dict[str, Wording] = {}


def words_for(*actions: str) -> Callable[[Wording], Wording]:
    def register(function: Wording) -> Wording:
        for action in actions:
            WORDING[action] = function
        return function
    return register


class WordingError(Exception):
    """An entry whose data its action's wording cannot write a sentence from."""


def sentence(entry, *, strict: bool = False) -> str:
    """The entry's sentence in the active language: the one it was recorded with when it
    has one (an entry made before sentences were written when shown), else written from
    its action and data. An action without wording, or data its wording cannot use (a
    hand-edited file), gives the action's name and the data rather than an error; with
    ``strict`` it raises ``WordingError`` (the test settings check every new entry so)."""
    if entry.recorded_summary:
        return entry.recorded_summary
    data = entry.data if isinstance(entry.data, dict) else {}
    write = WORDING.get(entry.action)
    try:
        if write is None:
            raise WordingError(f"no wording for the action {entry.action!r}")
        return write(Entry(who=actor_words(entry), data=data, ip=entry.ip_address))
    except Exception as error:
        if strict:
            if isinstance(error, WordingError):
                raise
            raise WordingError(f"the wording of {entry.action!r} cannot use the data "
                               f"{data!r}: {error!r}") from error
        logger.warning("audit entry %s (%s) has no sentence: %r", entry.pk, entry.action,
                       error)
        return _unworded(entry.action, data)


def actor_words(entry) -> str:
    """Who made the entry: the name kept with it; "system" (no person) translated."""
    if entry.actor_name == SYSTEM and entry.actor_id is None:
        return gettext("system")
    return entry.actor_name


def _unworded(action: str, data: Mapping) -> str:
    values = ", ".join(f"{key} {_value(value)}" for key, value in sorted(data.items()))
    return (gettext("%(action)s: %(values)s") % {"action": action, "values": values}
            if values else action)


def _value(value: Any) -> str:
    if isinstance(value, dict) and "text" in value and "params" in value:
        return say(value)
    if isinstance(value, dict) and {"stage", "number"} <= set(value):
        return round_words(value)
    if isinstance(value, (list, tuple)):
        return listed(_value(item) for item in value)
    if value is None:
        return "—"
    return str(value)


def say(stored: Mapping) -> str:
    """A stored phrase in the active language, its values filled in."""
    params = {name: _value(value) for name, value in (stored.get("params") or {}).items()}
    template = gettext(stored["text"])
    try:
        return template % params if params else template
    except (KeyError, TypeError, ValueError):  # a translation that lost a placeholder
        return stored["text"] % params if params else stored["text"]


def listed(items) -> str:
    return pgettext("list separator", ", ").join(items)


def round_label(ref: Mapping) -> str:
    """"Round 3", or a bracket round's name ("Final")."""
    if ref.get("slots"):
        return knockout_round_name(ref["slots"])
    return gettext("Round %(n)d") % {"n": ref["number"]}


def round_words(ref: Mapping) -> str:
    """"Swiss, Round 3": the round as the rest of the site names it."""
    return gettext("%(stage)s, %(round)s") % {"stage": ref["stage"], "round": round_label(ref)}


def _match(ref: Mapping) -> str:
    return gettext("match %(number)s (%(home)s – %(away)s)") % ref


def _with(text: str, *parts: str) -> str:
    return text + "".join(parts)


def _reason(reason: str) -> str:
    return gettext("; reason: %(reason)s") % {"reason": reason}


def _unknown(value) -> str:
    return value or gettext("unknown")


# The wording of each action ---------------------------------------------------------------
# The English must read as the entries always did (tests compare it).

@words_for("tournament.create")
def _tournament_create(e: Entry) -> str:
    return gettext("%(actor)s created the tournament %(name)s; deal commitment "
                   "%(commitment)s") % {"actor": e.who, "name": e["name"],
                                         "commitment": e["commitment"]}


@words_for("tournament.update")
def _tournament_update(e: Entry) -> str:
    from tournament.models import Tournament

    def field(name: str):
        try:
            return Tournament._meta.get_field(name)
        except Exception:  # a field that is no more
            return None

    def label(name: str) -> str:
        found = field(name)
        return str(found.verbose_name) if found is not None else name

    def value(name: str, stored) -> str:
        """A choice by its label ("running" → "Running", in the reader's language), a
        switch (stored as "True" or "False") as yes or no; anything else as stored."""
        found = field(name)
        choices = dict(found.flatchoices) if found is not None and found.choices else {}
        if stored in choices:
            return str(choices[stored])
        if found is not None and found.get_internal_type() == "BooleanField" \
                and str(stored) in ("True", "False"):
            return gettext("yes") if str(stored) == "True" else gettext("no")
        return str(stored)

    changes = listed(gettext("%(field)s %(old)s → %(new)s")
                     % {"field": label(name), "old": value(name, old), "new": value(name, new)}
                     for name, (old, new) in e["changes"].items())
    return gettext("%(actor)s changed %(changes)s") % {"actor": e.who, "changes": changes}


@words_for("tournament.open")
def _tournament_open(e: Entry) -> str:
    return gettext("%(actor)s opened the public pages of %(name)s (status Running)") % {
        "actor": e.who, "name": e["name"]}


@words_for("tournament.delete")
def _tournament_delete(e: Entry) -> str:
    text = (gettext("%(actor)s deleted the tournament %(name)s (%(slug)s) (the demo)")
            if e.get("demo") else gettext("%(actor)s deleted the tournament %(name)s (%(slug)s)"))
    text %= {"actor": e.who, "name": e["name"], "slug": e["slug"]}
    counts = {"teams": e["teams"], "rounds": e["rounds"]}
    text += (gettext(": %(teams)s teams, %(rounds)s rounds, with results") if e.get("played")
             else gettext(": %(teams)s teams, %(rounds)s rounds")) % counts
    if e.get("retired"):
        text += gettext("; demo accounts made inactive: %(accounts)s") % {
            "accounts": listed(e["retired"])}
    return text


@words_for("tournament.export")
def _tournament_export(e: Entry) -> str:
    values = {"actor": e.who, "size": f"{e['size']:,}", "name": e.get("backup")}
    if e.get("backup"):
        return gettext("%(actor)s downloaded the backup %(name)s (%(size)s bytes, secrets "
                       "included)") % values
    if e.get("secrets"):
        return gettext("%(actor)s downloaded the tournament file with its secrets (the deal "
                       "key not revealed, the deals of the rounds not closed, the PIN hashes) "
                       "(%(size)s bytes)") % values
    return gettext("%(actor)s downloaded the tournament file without its secrets "
                   "(%(size)s bytes)") % values


@words_for("tournament.import")
def _tournament_import(e: Entry) -> str:
    text = gettext("%(actor)s imported the tournament from a file (format version "
                   "%(version)s): %(teams)s teams, %(rounds)s rounds, %(hands)s hand "
                   "results") % {"actor": e.who, "version": e["version"], "teams": e["teams"],
                                 "rounds": e["rounds"], "hands": e["hands"]}
    if e.get("made_director"):
        text += gettext("; %(actor)s became its director") % {"actor": e.who}
    return text


@words_for("account.unlock")
def _account_unlock(e: Entry) -> str:
    return gettext("%(actor)s unlocked the account %(username)s") % {
        "actor": e.who, "username": e["username"]}


@words_for("staff.assign")
def _staff_assign(e: Entry) -> str:
    from tournament.models import Role

    title = (gettext("Chief referee") if e.get("chief")
             else str(dict(Role.choices).get(e["role"], e["role"])))
    text = (gettext("%(actor)s made %(username)s %(title)s (new account)")
            if e.get("new_account") else gettext("%(actor)s made %(username)s %(title)s"))
    return text % {"actor": e.who, "username": e["username"], "title": title}


@words_for("staff.remove")
def _staff_remove(e: Entry) -> str:
    return gettext("%(actor)s removed %(username)s from the staff") % {
        "actor": e.who, "username": e["username"]}


# Teams and players

@words_for("team.create")
def _team_create(e: Entry) -> str:
    return gettext("%(actor)s added team %(name)s (%(code)s)") % {
        "actor": e.who, "name": e["team_name"], "code": e["team_code"]}


@words_for("team.update")
def _team_update(e: Entry) -> str:
    from tournament.models.team import FIELD_LABELS

    changes = listed(gettext("%(field)s %(old)s → %(new)s")
                     % {"field": FIELD_LABELS.get(name, name), "old": old or "—",
                        "new": new or "—"}
                     for name, (old, new) in e["changes"].items())
    return gettext("%(actor)s changed team %(code)s: %(changes)s") % {
        "actor": e.who, "code": e["team_code"], "changes": changes}


@words_for("team.delete")
def _team_delete(e: Entry) -> str:
    return gettext("%(actor)s deleted team %(name)s (%(code)s)") % {
        "actor": e.who, "name": e["team_name"], "code": e["team_code"]}


@words_for("team.import")
def _team_import(e: Entry) -> str:
    values = {"actor": e.who, "n": len(e["codes"]), "file": e.get("filename")}
    if e.get("filename"):
        return gettext("%(actor)s imported %(n)s teams from %(file)s") % values
    return gettext("%(actor)s imported %(n)s teams") % values


@words_for("player.pin")
def _player_pin(e: Entry) -> str:
    text = (gettext("%(actor)s set the PIN of %(player)s (%(code)s)") if e["set"]
            else gettext("%(actor)s removed the PIN of %(player)s (%(code)s)"))
    return text % {"actor": e.who, "player": e["player_name"], "code": e["team_code"]}


@words_for("pin.failure")
def _pin_failure(e: Entry) -> str:
    return gettext("wrong PIN for seat %(seat)s at table %(table)s (%(player)s, %(code)s), "
                   "device %(device)s, ip %(ip)s; %(failures)s wrong in a row") % {
        "seat": e["seat"], "table": e["table_number"], "player": e["player_name"],
        "code": e["team_code"], "device": _unknown(e.get("device")), "ip": _unknown(e.ip),
        "failures": e["failures"]}


@words_for("pin.locked")
def _pin_locked(e: Entry) -> str:
    return gettext("PIN entry for %(player)s (%(code)s) locked until %(time)s (venue time) "
                   "after %(failures)s wrong PINs") % {
        "player": e["player_name"], "code": e["team_code"], "time": e["until_venue"],
        "failures": e["failures"]}


@words_for("pin.unlock")
def _pin_unlock(e: Entry) -> str:
    text = (gettext("%(actor)s lifted the PIN lock of %(player)s (%(code)s) after "
                    "%(failures)s wrong PINs") if e["locked"] else
            gettext("%(actor)s cleared the wrong PINs of %(player)s (%(code)s) after "
                    "%(failures)s wrong PINs"))
    return text % {"actor": e.who, "player": e["player_name"], "code": e["team_code"],
                   "failures": e["failures"]}


# Stages

def _extra(extra: int | None) -> str:
    """What follows "the top 2 of each group": the best of the next place, if any."""
    if extra:
        return gettext(" and the %(extra)s best of the next place") % {"extra": extra}
    return ""


@words_for("stage.create")
def _stage_create(e: Entry) -> str:
    from tournament.models import Stage

    text = gettext("%(actor)s created the stage %(name)s (%(kind)s)") % {
        "actor": e.who, "name": e["stage_name"],
        "kind": dict(Stage.Kind.choices).get(e["kind"], e["kind"])}
    if e.get("source_name"):
        text += gettext(", seeded from the standings of %(source)s: %(n)s per group") % {
            "source": e["source_name"], "n": e["per_group"]} + _extra(e.get("extra"))
    return text


@words_for("stage.qualification")
def _stage_qualification(e: Entry) -> str:
    if e.get("source_name"):
        how = gettext("the top %(n)s of each group of %(source)s") % {
            "n": e["qualifiers_per_group"], "source": e["source_name"]} + _extra(
            e.get("extra_qualifiers"))
    else:
        how = gettext("seeds entered by hand")
    return gettext("%(actor)s set the qualification of %(stage)s: %(how)s") % {
        "actor": e.who, "stage": e["stage_name"], "how": how}


@words_for("stage.teams")
def _stage_teams(e: Entry) -> str:
    return gettext("%(actor)s entered %(n)s teams in %(stage)s: %(codes)s") % {
        "actor": e.who, "n": len(e["codes"]), "stage": e["stage_name"],
        "codes": listed(e["codes"])}


@words_for("stage.groups")
def _stage_groups(e: Entry) -> str:
    groups = pgettext("list separator", "; ").join(
        gettext("%(group)s: %(codes)s") % {"group": name, "codes": listed(codes)}
        for name, codes in e["groups"])
    return gettext("%(actor)s allotted the groups of %(stage)s: %(groups)s") % {
        "actor": e.who, "stage": e["stage_name"], "groups": groups}


@words_for("stage.seeded")
def _stage_seeded(e: Entry) -> str:
    def seed(s: Mapping) -> str:
        values = {"seed": s["seed"], "team": s["team"], "group": s["group"],
                  "place": s["place"], "mp": s["match_points"],
                  "sp": f"{s['small_points']:+d}", "wins": s["wins"]}
        if s["group"]:
            text = (gettext("%(seed)s. %(team)s (%(group)s place %(place)s: %(mp)s mp, "
                            "%(sp)s sp, %(wins)s w, extra)") if s["extra"] else
                    gettext("%(seed)s. %(team)s (%(group)s place %(place)s: %(mp)s mp, "
                            "%(sp)s sp, %(wins)s w)"))
        else:
            text = (gettext("%(seed)s. %(team)s (place %(place)s: %(mp)s mp, %(sp)s sp, "
                            "%(wins)s w, extra)") if s["extra"] else
                    gettext("%(seed)s. %(team)s (place %(place)s: %(mp)s mp, %(sp)s sp, "
                            "%(wins)s w)"))
        return text % values

    return gettext("%(actor)s seeded %(stage)s from the official standings of %(source)s: "
                   "%(seeds)s") % {
        "actor": e.who, "stage": e["stage_name"], "source": e["source_name"],
        "seeds": pgettext("list separator", "; ").join(seed(s) for s in e["seeds"])}


@words_for("standings.lots")
def _standings_lots(e: Entry) -> str:
    def place(d: Mapping) -> str:
        if "key" in d:
            why = separation_text(SimpleNamespace(key=d["key"], above=_tuple(d["above_value"]),
                                                  below=_tuple(d["below_value"])))
        else:
            why = d["text"]
        values = {"group": d["group"], "above": d["above"], "rank": d["rank"],
                  "below": d["below"], "why": why}
        if d["group"]:
            return gettext("%(group)s: %(above)s (place %(rank)s) above %(below)s, %(why)s") \
                % values
        return gettext("%(above)s (place %(rank)s) above %(below)s, %(why)s") % values

    text = (gettext("Drawing of lots in the standings of %(stage)s after %(round)s: "
                    "%(places)s (seeded from deal key 1, checkable once it is revealed)")
            if e["seeded"] else
            gettext("Drawing of lots in the standings of %(stage)s after %(round)s: "
                    "%(places)s (no deal key yet: an empty seed)"))
    return text % {"stage": e["stage_name"], "round": round_label(e["round_name"]),
                   "places": pgettext("list separator", "; ").join(place(d) for d in e["lots"])}


def _tuple(value):
    return tuple(value) if isinstance(value, list) else value


@words_for("standings.check")
def _standings_check(e: Entry) -> str:
    what = gettext("%(stages)s stage(s), %(matches)s matches, %(hands)s hands, %(rows)s "
                   "result rows expected, %(stored)s stored") % {
        "stages": e["stages"], "matches": e["matches"], "hands": e["hands"],
        "rows": e["rows"], "stored": e["stored_rows"]}
    found = (gettext("%(n)s difference(s): %(what)s") % {"n": e["differences"], "what": what}
             if e["differences"] else gettext("no difference: %(what)s") % {"what": what})
    text = gettext("%(actor)s ran the integrity check of the standings: %(found)s") % {
        "actor": e.who, "found": found}
    for d in e.get("listed", []):
        text += gettext("; %(stage)s, round %(round)s, %(where)s: %(what)s") % d
    more = e["differences"] - len(e.get("listed", []))
    if more > 0:
        text += gettext("; and %(n)s more") % {"n": more}
    return text


# Rounds

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


# Deals

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
    text += _reason(e["reason"])
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
            "packing-list": gettext("packing list")}


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


# Tables, devices and results

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
    return gettext("%(actor)s made the devices of %(round)s's %(n)s tables (new passwords "
                   "and API tokens)") % {
        "actor": e.who, "round": round_words(e["round_name"]), "n": e["tables"]}


@words_for("device.bind_round")
def _device_bind_round(e: Entry) -> str:
    return gettext("%(actor)s bound %(n)s table devices to %(round)s's tables") % {
        "actor": e.who, "n": e["tables"], "round": round_words(e["round_name"])}


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
        text += _reason(e["reason"])
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
                   "signatures") % {"actor": e.who, "match": _match(e["match_name"]),
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
    return text


# Penalties

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
    where = (gettext("%(round)s %(match)s") % {"round": round_, "match": _match(p["match"])}
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
    return text + _changes(e) + _reason(e["reason"])


@words_for("penalty.undo")
def _penalty_undo(e: Entry) -> str:
    p = e["described"]
    text = gettext("%(actor)s undid %(penalty)s") % {
        "actor": e.who, "penalty": penalty_words(p)}
    if e.get("default_undone"):
        text += gettext(" and the default of match %(number)s it caused") % {
            "number": p["match"]["number"]}
    return text + _changes(e) + _reason(e["reason"])


def check_wording(entry) -> None:
    """Raise ``WordingError`` when an entry's sentence cannot be written (the tests'
    settings call it for every new entry: ``AUDIT_WORDING_CHECK``)."""
    sentence(entry, strict=True)

