"""What a tournament file holds, in a few lines for the import page's preview: the
tournament, its stages, rounds, teams and staff, and the people it names. Read from a
document that passed the schema (``import_.check_import`` runs first), never from the
database."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class StageLine:
    name: str
    kind: str
    teams: int
    groups: int
    rounds: int
    other_name: str = ""  # the name in the other script (tournament.names)


@dataclass(frozen=True)
class RoundLine:
    stage: str
    number: int
    status: str
    matches: int
    hands: int
    signed_off: int


@dataclass(frozen=True)
class TeamLine:
    code: str
    name: str
    country: str
    players: int
    other_name: str = ""


@dataclass(frozen=True)
class PersonLine:
    username: str
    full_name: str
    role: str  # the staff role in the file, or "" for someone who is not on the staff
    chief_referee: bool


@dataclass(frozen=True)
class FileSummary:
    name: str
    slug: str
    starts_on: str
    ends_on: str
    venue: str
    status: str
    secrets: bool
    stages: list[StageLine]
    rounds: list[RoundLine]
    teams: list[TeamLine]
    people: list[PersonLine]
    hands: int
    penalties: int
    audit_entries: int
    other_name: str = ""


def summarize(document: dict) -> FileSummary:
    t = document["tournament"]
    rounds_per_stage: dict[str, int] = {}
    rounds = []
    for r in document["rounds"]:
        rounds_per_stage[r["stage"]] = rounds_per_stage.get(r["stage"], 0) + 1
        hands = sum(1 for m in r["matches"] for table in m["tables"] for h in table["hands"]
                    if h["current"])
        rounds.append(RoundLine(
            stage=r["stage"], number=r["number"], status=r["status"],
            matches=len(r["matches"]), hands=hands,
            signed_off=sum(1 for m in r["matches"] if m["signed_off_at"] is not None)))
    staff = {s["user"]: s for s in document["staff"]}
    return FileSummary(
        name=t["name"], other_name=t.get("other_name", ""), slug=t["slug"],
        starts_on=t["starts_on"], ends_on=t["ends_on"],
        venue=t["venue"], status=t["status"], secrets=document["secrets"],
        stages=[StageLine(name=s["name"], other_name=s.get("other_name", ""), kind=s["kind"],
                          teams=len(s["teams"]),
                          groups=len(s["groups"]), rounds=rounds_per_stage.get(s["name"], 0))
                for s in sorted(document["stages"], key=lambda s: s["order"])],
        rounds=rounds,
        teams=[TeamLine(code=team["code"], name=team["name"],
                        other_name=team.get("other_name", ""), country=team["country"],
                        players=len(team["players"])) for team in document["teams"]],
        people=[PersonLine(
            username=p["username"],
            full_name=" ".join(n for n in (p["first_name"], p["last_name"]) if n),
            role=staff[p["username"]]["role"] if p["username"] in staff else "",
            chief_referee=bool(staff.get(p["username"], {}).get("chief_referee")))
            for p in document["people"]],
        hands=sum(line.hands for line in rounds),
        penalties=len(document["penalties"]),
        audit_entries=len(document["audit"]),
    )
