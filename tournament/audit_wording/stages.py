"""The audit sentences of the stages and their standings: creating a stage, its
qualification, teams, groups and seeds, the drawing of lots and the integrity check."""

from __future__ import annotations

from collections.abc import Mapping
from types import SimpleNamespace

from django.utils.translation import pgettext

from tournament.audit_wording.base import Entry, gettext, listed, round_label, words_for
from tournament.wording import separation_text


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


@words_for("stage.rename")
def _stage_rename(e: Entry) -> str:
    def named(pair) -> str:
        name, other = pair
        return f"{name} · {other}" if other else name
    return gettext("%(actor)s renamed the stage %(before)s: %(after)s") % {
        "actor": e.who, "before": named(e["before"]), "after": named(e["after"])}


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
