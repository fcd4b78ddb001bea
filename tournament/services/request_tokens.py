"""What a request token was already used for (issue 48; docs/api.md, "Request tokens").

Every command at a table carries a token its screen or device made once (services.commands)
and keeps it on the row it makes: a hand's version (enter), an approval, a signature, a
sign-off's receipt. Each of those columns is unique in its own table only, so the four are
read together here: one statement, four look-ups by their unique index joined by UNION
ALL, its SQL written once per connection (tournament.prepared).

A token belongs to one command: its kind, the account that sent it and its target (the
table and hand of an entry; the table, hand and seat of an approval; the table and seat of
a signature; the match of a sign-off). Sent again for the same, the command answers what
the first did; for anything else it is refused (``TokenReused``: a 409 in the API, a
message on the pages), never a uniqueness error of the database.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from django.db import transaction
from django.utils.translation import gettext

from tournament.models import Approval, CommandReceipt, HandResult, TableSignature
from tournament.prepared import kept_sql_rows
from tournament.services.base import Stale

ENTER, APPROVE, SIGN, SIGN_OFF = "enter", "approve", "sign", "sign_off"
_KINDS = {1: ENTER, 2: APPROVE, 3: SIGN, 4: SIGN_OFF}


class TokenReused(Stale):
    """The request's token was used for another command (another kind, account or
    target): nothing was done. Like a stale screen, it is cured by reading again (a new
    screen makes new tokens)."""

    def __init__(self):
        super().__init__(gettext("this request token was used for another command; "
                                 "reload the page"))


@dataclass(frozen=True)
class Use:
    """A command that carried the token: its kind, account and target."""

    kind: str
    user_id: int
    target: tuple


def target(kind: str, *, table: int | None = None, hand: int | None = None,
           seat: int | None = None, match: int | None = None) -> tuple:
    """What a command of this kind acts on, as the token's uses are compared."""
    return {ENTER: (table, hand), APPROVE: (table, hand, seat), SIGN: (table, seat),
            SIGN_OFF: (match,)}[kind]


def uses_of(token: uuid.UUID) -> list[Use]:
    """Every command that carried this token (none, one, or more only when two requests
    of different kinds raced with it)."""
    connection = transaction.get_connection()
    value = HandResult._meta.get_field("request_token").get_db_prep_value(token, connection)
    rows = kept_sql_rows("request-token-uses", _uses_sql, [value] * 4)
    return [Use(_KINDS[kind], user, target(_KINDS[kind], table=table, hand=hand, seat=seat,
                                           match=match))
            for kind, user, table, hand, seat, match in rows]


def check_token(token: uuid.UUID, kind: str, user, target_: tuple) -> bool:
    """Whether this very command (kind, account, target) was already done with the token;
    ``TokenReused`` when the token was used for anything else."""
    done = False
    for use in uses_of(token):
        if (use.kind, use.user_id, use.target) != (kind, user.pk, target_):
            raise TokenReused()
        done = True
    return done


def _uses_sql(connection) -> str:
    """kind, account, table, hand, seat, match of each row carrying the token."""
    q = connection.ops.quote_name
    none = "CAST(NULL AS INTEGER)"

    def table(model) -> str:
        return q(model._meta.db_table)

    def column(model, name: str) -> str:
        return q(model._meta.get_field(name).column)

    result, approval = table(HandResult), table(Approval)
    signature, receipt = table(TableSignature), table(CommandReceipt)
    return " UNION ALL ".join([
        f"SELECT 1, {result}.{column(HandResult, 'entered_by')}, "
        f"{result}.{column(HandResult, 'table')}, {result}.{column(HandResult, 'hand')}, "
        f"{none}, {none} FROM {result} "
        f"WHERE {result}.{column(HandResult, 'request_token')} = %s",
        f"SELECT 2, {approval}.{column(Approval, 'recorded_by')}, "
        f"{result}.{column(HandResult, 'table')}, {result}.{column(HandResult, 'hand')}, "
        f"{approval}.{column(Approval, 'seat')}, {none} FROM {approval} "
        f"INNER JOIN {result} ON {result}.{q(HandResult._meta.pk.column)} = "
        f"{approval}.{column(Approval, 'result')} "
        f"WHERE {approval}.{column(Approval, 'request_token')} = %s",
        f"SELECT 3, {signature}.{column(TableSignature, 'recorded_by')}, "
        f"{signature}.{column(TableSignature, 'table')}, {none}, "
        f"{signature}.{column(TableSignature, 'seat')}, {none} FROM {signature} "
        f"WHERE {signature}.{column(TableSignature, 'request_token')} = %s",
        f"SELECT 4, {receipt}.{column(CommandReceipt, 'user')}, {none}, {none}, {none}, "
        f"{receipt}.{column(CommandReceipt, 'match')} FROM {receipt} "
        f"WHERE {receipt}.{column(CommandReceipt, 'request_token')} = %s",
    ])
