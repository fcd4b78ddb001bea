"""A tournament's deal keys as the public check page and the director's deals page show
them: each key's commitment, when it was revealed, what it dealt, and (once revealed) the
commands that re-create those deals."""

from __future__ import annotations

import shlex
from dataclasses import dataclass

from django.db.models import QuerySet

from scoring.deals import DealBlock, DealPlace, blocks_of, verify
from tournament.models import Deal, DealKey, Round, Tournament


@dataclass(frozen=True)
class DealtRound:
    round: Round
    blocks: list[DealBlock]  # exactly the deals of this round that the key made


@dataclass(frozen=True)
class KeyRecord:
    key: DealKey
    rounds: list[DealtRound]

    @property
    def dealt(self) -> bool:
        return bool(self.rounds)

    @property
    def verified(self) -> bool:
        """The revealed key hashes to the commitment published before its deals."""
        return self.key.is_revealed and verify(self.key.key, self.key.commitment)

    @property
    def commands(self) -> list[str]:
        """``python -m scoring deals`` lines that re-create every deal of a revealed key
        (none before the reveal: the key is secret)."""
        if not self.key.is_revealed:
            return []
        tail = (["--public-value", self.key.public_value] if self.key.public_value else [])
        return [shlex.join(["python", "-m", "scoring", "deals", "--key", self.key.key_hex,
                            *block.options, *tail])
                for dealt in self.rounds for block in dealt.blocks]


def key_commitments(tournament: Tournament) -> QuerySet[DealKey]:
    """The tournament's deal keys by number, each with the commitment published when it was
    made (and the key once revealed), without what they dealt: a query set, one query when
    read (the tournament page)."""
    return DealKey.objects.filter(tournament=tournament).order_by("number")


def deal_keys(tournament: Tournament) -> list[KeyRecord]:
    """Every key of the tournament in order, with the rounds it dealt (three queries)."""
    keys = list(key_commitments(tournament))
    places: dict[tuple[int, int], list[DealPlace]] = {}
    rows = (Deal.objects.filter(round__stage__tournament=tournament)
            .values_list("key_id", "round_id", "round__stage__order", "round__number",
                         "deal_set", "hand", "reserve"))
    for key_id, round_id, stage, number, deal_set, hand, reserve in rows.iterator():
        places.setdefault((key_id, round_id), []).append(
            DealPlace(stage, number, deal_set, hand, reserve))
    rounds = Round.objects.filter(pk__in={round_id for _, round_id in places}).select_related(
        "stage").in_bulk()
    records = []
    for key in keys:
        dealt = [DealtRound(rounds[round_id], blocks_of(found))
                 for (key_id, round_id), found in places.items() if key_id == key.pk]
        dealt.sort(key=lambda d: (d.round.stage.order, d.round.number))
        records.append(KeyRecord(key, dealt))
    return records
