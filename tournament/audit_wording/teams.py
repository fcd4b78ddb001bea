"""The audit sentences of the teams and their players: adding, changing, deleting and
importing teams, and the players' PINs (set, wrong, locked, unlocked)."""

from __future__ import annotations

from tournament.audit_wording.base import Entry, gettext, listed, or_unknown, words_for


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
        "code": e["team_code"], "device": or_unknown(e.get("device")), "ip": or_unknown(e.ip),
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


@words_for("player.person_link")
def _player_person_link(e: Entry) -> str:
    """A player linked by federation and id to a person who existed already
    (services.persons)."""
    return gettext("%(actor)s entered %(player)s (%(code)s) as the person with %(federation)s "
                   "id %(id)s, known from other events") % {
        "actor": e.who, "player": e["player_name"], "code": e["team_code"],
        "federation": e["federation"], "id": e["federation_id"]}


@words_for("player.person_unlink")
def _player_person_unlink(e: Entry) -> str:
    return gettext("%(actor)s gave %(player)s (%(code)s) a person of their own: they are not "
                   "the person with %(federation)s id %(id)s") % {
        "actor": e.who, "player": e["player_name"], "code": e["team_code"],
        "federation": e["federation"] or "—", "id": e["federation_id"] or "—"}


@words_for("person.edit")
def _person_edit(e: Entry) -> str:
    return gettext("%(actor)s changed the person %(name)s: %(fields)s") % {
        "actor": e.who, "name": e["person_name"], "fields": listed(e["fields"])}


@words_for("person.merge")
def _person_merge(e: Entry) -> str:
    return gettext("%(actor)s merged %(merged)s into the person %(name)s (%(n)s players)") % {
        "actor": e.who, "merged": listed(e["merged"]), "name": e["person_name"],
        "n": e["players"]}


@words_for("person.hide")
def _person_hide(e: Entry) -> str:
    text = (gettext("%(actor)s hid the person %(name)s from the public lists and profiles")
            if e["hidden"] else
            gettext("%(actor)s showed the person %(name)s on the public lists again"))
    return text % {"actor": e.who, "name": e["person_name"]}
