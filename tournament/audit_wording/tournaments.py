"""The audit sentences of a tournament's set-up: creating, changing, opening, deleting,
exporting and importing it, and the accounts and the staff."""

from __future__ import annotations

from tournament.audit_wording.base import Entry, gettext, listed, words_for

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


@words_for("tournament.slug_clash")
def _tournament_slug_clash(e: Entry) -> str:
    return gettext("The short name %(before)s became %(after)s: it differed from %(kept)s only "
                   "by case, and short names are unique whatever their case") % {
        "before": e["before"], "after": e["after"], "kept": e["kept"]}


@words_for("tournament.rated")
def _tournament_rated(e: Entry) -> str:
    text = (gettext("%(actor)s made the results of this event count for the ratings")
            if e["rated"] else
            gettext("%(actor)s took this event's results out of the ratings"))
    return text % {"actor": e.who}


@words_for("tournament.category")
def _tournament_category(e: Entry) -> str:
    from tournament.models import Category

    if not e["category"]:
        return gettext("%(actor)s took away this event's master points category") % {
            "actor": e.who}
    return gettext("%(actor)s set this event's master points category: %(category)s") % {
        "actor": e.who, "category": Category(e["category"]).label}


@words_for("ratings.scale")
def _ratings_scale(e: Entry) -> str:
    from tournament.models import Category

    return gettext("%(actor)s changed the master point scale of the category %(category)s: "
                   "%(points)s, to the top %(share)s %% of the field") % {
        "actor": e.who, "category": Category(e["category"]).label,
        "points": ", ".join(str(p) for p in e["points"]), "share": e["share"]}


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
    if e.get("retired_devices"):
        text += gettext("; table device accounts made inactive: %(accounts)s") % {
            "accounts": listed(e["retired_devices"])}
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
    if e.get("pins_dropped"):
        text += gettext("; %(n)s PIN hashes not in this software's form were dropped (those "
                        "players have no PIN until the director sets one)") % {
            "n": e["pins_dropped"]}
    return text


@words_for("backup.take")
def _backup_take(e: Entry) -> str:
    text = gettext("%(actor)s took a backup: %(n)s files written") % {
        "actor": e.who, "n": e["written"]}
    if e.get("problems"):
        text += gettext("; failed: %(problems)s") % {"problems": listed(e["problems"])}
    if e.get("mirror_problem"):
        text += gettext("; the mirror: %(problem)s") % {"problem": e["mirror_problem"]}
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
