"""Queries built once per connection (tournament.prepared): the same models as the QuerySet,
what it brings and its annotations included; one statement a call and no SQL built again;
any shape whose SQL does not take its parameters by position alone runs as the QuerySet.
Writes the same way: the rows Django's create and bulk_create write, one statement each."""

import uuid

import pytest
from django.db import DatabaseError, connection
from django.db.models import OuterRef, Q, Subquery, Value
from django.db.models.signals import post_save
from django.db.models.sql.compiler import SQLCompiler, SQLInsertCompiler
from django.test.utils import CaptureQueriesContext

from tournament.models import Approval, AuditEntry, HandResult, SeatTally, Stage, Table
from tournament.prepared import delete, insert, prepared_rows, update, upsert
from tournament.services.approvals import approve_hand
from tournament.services.draw import generate_round
from tournament.services.entry import record_hand_result
from tournament.services.hands import HandEntry
from tournament.services.rounds import publish_round, start_round
from tournament.services.stages import create_stage, enter_teams


@pytest.fixture
def played(round_in_play, director_actor):
    """A round in play of two matches: at each table hands 1 to 3 entered, hand 2 twice,
    hand 1 approved by seat 1, hand 2 (its second version) by both seats."""
    round_ = round_in_play(4, hands=4)
    for table in Table.objects.filter(round=round_):
        for hand, version in ((1, 0), (2, 0), (2, 1), (3, 0)):
            result = record_hand_result(director_actor, table, hand,
                                        HandEntry("knock", 1 + version, 4, 20),
                                        seen_version=version, request_token=uuid.uuid4())
        for hand, seat in ((1, 1), (2, 1), (2, 2)):
            result = HandResult.objects.get(table=table, hand=hand, is_current=True)
            approve_hand(director_actor, result, seat)
    return round_


def with_approval(table: int, hand: int, seat: int):
    return (HandResult.objects.filter(table_id=table, hand=hand, is_current=True)
            .annotate(approved=Subquery(Approval.objects.filter(result=OuterRef("pk"),
                                                                seat=seat).values("pk")[:1]))
            .order_by())


def with_parents(pk: int):
    return Table.objects.select_related("match__round__stage__tournament").filter(pk=pk)


def same(found, expected) -> bool:
    """Equal models with equal field values, annotations and related rows read."""
    def seen(row):
        values = {f.attname: getattr(row, f.attname) for f in row._meta.concrete_fields}
        return type(row), values, getattr(row, "approved", "-")
    return [seen(row) for row in found] == [seen(row) for row in expected]


def compiled(monkeypatch) -> list:
    calls = []
    original = SQLCompiler.as_sql

    def as_sql(self, *args, **kwargs):
        calls.append(self.query.model)
        return original(self, *args, **kwargs)

    monkeypatch.setattr(SQLCompiler, "as_sql", as_sql)
    monkeypatch.setattr(SQLInsertCompiler, "as_sql", as_sql)
    return calls


def test_the_rows_are_the_querysets_with_what_they_bring(played, monkeypatch):
    tables = list(Table.objects.filter(round=played).order_by("pk"))
    for table in tables:
        for hand, seat, approved in ((1, 1, True), (1, 2, False), (2, 2, True),
                                     (3, 1, False), (4, 1, None)):
            found = prepared_rows("test-approval", with_approval, [table.pk, hand, seat])
            assert same(found, list(with_approval(table.pk, hand, seat))), (table, hand)
            if approved is None:
                assert found == []
            else:
                assert (found[0].approved is not None) == approved, (hand, seat)
        [read] = prepared_rows("test-table", with_parents, [table.pk])
        expected = with_parents(table.pk).get()
        assert same([read], [expected])
        # The related rows came with it: no query to reach the tournament.
        with CaptureQueriesContext(connection) as queries:
            assert read.match.round.stage.tournament == expected.match.round.stage.tournament
        assert not queries.captured_queries


def test_after_the_first_call_each_call_is_one_statement_and_nothing_is_built(
        played, monkeypatch):
    tables = list(Table.objects.filter(round=played).order_by("pk"))
    prepared_rows("test-built-once", with_approval, [tables[0].pk, 1, 1])
    calls = compiled(monkeypatch)
    for table in tables:
        with CaptureQueriesContext(connection) as queries:
            found = prepared_rows("test-built-once", with_approval, [table.pk, 3, 2])
        assert len(queries.captured_queries) == 1 and found[0].table_id == table.pk
    assert calls == []


def by_token_or_hand(token, table: int, hand: int):
    return HandResult.objects.filter(
        Q(request_token=token) | Q(table_id=table, hand=hand, is_current=True)).order_by("pk")


def test_a_uuid_is_a_parameter_where_the_database_takes_it_as_it_is(played, monkeypatch):
    """A save looks for its request token (a UUID) and the hand's current version in one
    query: on PostgreSQL (a uuid column) its SQL is built once, on SQLite (the UUID's text)
    it runs as the QuerySet. The same rows either way."""
    table = Table.objects.filter(round=played).order_by("pk").first()
    results = list(HandResult.objects.filter(table=table).order_by("pk"))
    tokens = [result.request_token for result in results[:3]] + [uuid.uuid4()]
    for token in tokens:
        for hand in (1, 2, 7):
            found = prepared_rows("test-token", by_token_or_hand, [token, table.pk, hand])
            assert same(found, list(by_token_or_hand(token, table.pk, hand))), (token, hand)
    calls = compiled(monkeypatch)
    with CaptureQueriesContext(connection) as queries:
        [found] = prepared_rows("test-token", by_token_or_hand, [tokens[0], table.pk, 99])
    assert found.request_token == tokens[0] and len(queries.captured_queries) == 1
    assert (calls == []) == (connection.vendor == "postgresql")


@pytest.mark.parametrize("make", [
    # A value written into the SQL's text (a limit) rather than passed as a parameter.
    lambda table, count: HandResult.objects.filter(table_id=table).order_by("hand")[:count],
    # A parameter Django receives transformed.
    lambda table, hand: HandResult.objects.filter(table_id=table, hand=hand + 1).order_by(),
    # A fixed value equal to the first build's stand-in for the hand: told apart by the
    # second build (taken for the hand, it would find nothing for hand 1).
    lambda table, hand: HandResult.objects.filter(table_id=table, hand=hand,
                                                  version__lt=32_002).order_by(),
], ids=["limit-in-the-text", "transformed", "a-value-like-a-stand-in"])
def test_a_shape_that_is_not_parameters_by_position_runs_as_the_queryset(played, make,
                                                                          monkeypatch):
    tables = list(Table.objects.filter(round=played).order_by("pk"))
    for table in tables:
        for second in (1, 2, 5):
            assert same(prepared_rows(("test-fallback", id(make)), make, [table.pk, second]),
                        list(make(table.pk, second)))
    calls = compiled(monkeypatch)
    prepared_rows(("test-fallback", id(make)), make, [tables[0].pk, 2])
    assert calls, "the QuerySet was built again"


def test_values_out_of_a_columns_range_are_left_to_django(played):
    table = Table.objects.filter(round=played).first()
    for hand in (-1, 40_000, 2**40):
        assert prepared_rows("test-range", with_approval, [table.pk, hand, 1]) == []
    assert prepared_rows("test-range", with_parents, [2**63 + 1]) == []


def test_a_started_round_reads_the_same_through_both(director_actor, tournament, teams):
    """A table before any hand: related rows and no annotation to speak of."""
    stage = create_stage(director_actor, tournament, name="Swiss", kind=Stage.Kind.SWISS,
                         swiss_rounds=3)
    enter_teams(director_actor, stage, teams(4))
    round_ = generate_round(director_actor, stage)
    publish_round(director_actor, round_)
    start_round(director_actor, round_)
    for table in Table.objects.filter(round=round_):
        assert same(prepared_rows("test-table", with_parents, [table.pk]),
                    [with_parents(table.pk).get()])
        assert prepared_rows("test-approval", with_approval, [table.pk, 1, 1]) == []


def test_a_values_list_gives_its_tuples_and_flat_or_named_ones_run_as_the_queryset(played):
    def hands(table: int):
        return (HandResult.objects.filter(table_id=table, is_current=True)
                .order_by("hand").values_list("hand", "version", "seat1_points"))

    def flat(table: int):
        return HandResult.objects.filter(table_id=table).order_by("pk").values_list(
            "version", flat=True)

    def named(table: int):
        return HandResult.objects.filter(table_id=table).order_by("pk").values_list(
            "hand", "version", named=True)

    for table in Table.objects.filter(round=played):
        for make in (hands, flat, named):
            for _ in range(2):
                assert prepared_rows(("test-values", make.__name__), make, [table.pk]) == \
                    list(make(table.pk))
        assert [hand for hand, _v, _p in prepared_rows(("test-values", "hands"), hands,
                                                       [table.pk])] == [1, 2, 3]


def stored(model, pk: int, *, apart=("id",)) -> dict:
    return {name: value for name, value in model.objects.filter(pk=pk).values().get().items()
            if name not in apart}


def test_an_insert_writes_the_row_create_writes_and_keeps_its_sql(played, director_actor,
                                                                  monkeypatch):
    director = director_actor.user
    table = Table.objects.filter(round=played).first()

    def hand(version: int, **values) -> HandResult:
        return HandResult(table=table, hand=4, version=version, is_current=False,
                          outcome="gin", declarer_seat=2, declarer_deadwood=0,
                          opponent_deadwood=31, seat1_points=-56, seat2_points=56,
                          explanation="Gin vs 31", cards={"declarer": ["AS", "2S"], "二": 1},
                          entered_by=director, ip_address="10.0.0.9", device="phone",
                          request_token=uuid.uuid4(), **values)

    made = HandResult.objects.create(**{f.attname: getattr(hand(7), f.attname)
                                        for f in HandResult._meta.concrete_fields
                                        if f.attname != "id"})
    inserted = insert(hand(8))
    # The revision is the database's own for each row (migration 0026, PostgreSQL).
    apart = ("id", "version", "request_token", "entered_at", "revision")
    assert inserted.pk and not inserted._state.adding
    assert stored(HandResult, inserted.pk, apart=apart) == stored(HandResult, made.pk,
                                                                  apart=apart)
    assert stored(HandResult, inserted.pk)["entered_at"] == inserted.entered_at

    calls = compiled(monkeypatch)
    again = []
    for version in (9, 10):
        with CaptureQueriesContext(connection) as queries:
            again.append(insert(hand(version)))
        assert len(queries.captured_queries) == 1
    assert calls == []
    assert [HandResult.objects.get(pk=row.pk).version for row in again] == [9, 10]


def test_an_audit_entry_with_no_actor_and_json_in_two_scripts(played, tournament):
    values = dict(tournament=tournament, actor=None, actor_name="system", action="x.test",
                  data={"names": ["中国红队", "O'Brien"], "n": 3, "none": None},
                  ip_address=None)
    made = AuditEntry.objects.create(**values)
    inserted = insert(AuditEntry(**values))
    apart = ("id", "created_at")
    assert stored(AuditEntry, inserted.pk, apart=apart) == stored(AuditEntry, made.pk,
                                                                  apart=apart)


def test_a_value_that_is_an_expression_is_left_to_django(played, tournament):
    entry = insert(AuditEntry(tournament=tournament, actor_name=Value("by an expression"),
                              action="x.test"))
    assert AuditEntry.objects.get(pk=entry.pk).actor_name == "by an expression"


def tallies(table) -> list[SeatTally]:
    return [SeatTally(table_id=table.pk, seat=seat, hands=3, points=10 * seat + table.pk,
                      gins=1, knocks=seat) for seat in (1, 2)]


@pytest.mark.parametrize("tables", [1, 3], ids=["kept-statement", "many-rows-to-django"])
def test_an_upsert_updates_the_rows_there_and_inserts_the_others(played, tables):
    chosen = list(Table.objects.filter(round=played).order_by("pk")[:tables])
    figures = ("hands", "points", "gins", "knocks")
    SeatTally.objects.filter(table=chosen[0], seat=2).delete()
    before = SeatTally.objects.count()
    rows = [tally for table in chosen for tally in tallies(table)]
    with CaptureQueriesContext(connection) as queries:
        upsert(rows, unique_fields=["table", "seat"], update_fields=list(figures))
    assert len(queries.captured_queries) == 1
    assert SeatTally.objects.count() == before + 1  # seat 2 of the first table inserted
    for row in rows:
        assert (SeatTally.objects.filter(table_id=row.table_id, seat=row.seat)
                .values_list(*figures).get()) == tuple(getattr(row, f) for f in figures)


def test_an_update_writes_the_fields_and_a_missing_row_is_refused_as_django_does(played):
    result = HandResult.objects.filter(table__round=played, is_current=True).first()
    result.is_current, result.reason = False, "set aside"
    with CaptureQueriesContext(connection) as queries:
        update(result, ["is_current"])
    assert len(queries.captured_queries) == 1
    row = HandResult.objects.get(pk=result.pk)
    assert (row.is_current, row.reason) == (False, "")  # only the field named
    gone = HandResult(pk=10**6, is_current=False)
    with pytest.raises(DatabaseError, match="did not affect any rows"):
        update(gone, ["is_current"])


def test_a_delete_removes_the_rows_matched_and_says_how_many(played):
    table = Table.objects.filter(round=played).first()
    tallies_before = SeatTally.objects.count() - 4
    assert delete(SeatTally, table_id=table.pk) == 2
    assert delete(SeatTally, table_id=table.pk) == 0
    other = Table.objects.filter(round=played).exclude(pk=table.pk).first()
    assert delete(SeatTally, table=other.pk) == 2  # not a column's name: Django deletes
    assert not SeatTally.objects.filter(table=table).exists()
    assert SeatTally.objects.count() == tallies_before


def test_a_delete_that_cascades_is_left_to_django(played):
    table = Table.objects.filter(round=played).first()
    results = HandResult.objects.filter(table=table).count()
    approvals = Approval.objects.filter(result__table=table).count()
    assert results and approvals
    # Django follows the approvals (and counts them), as the plain SQL would not.
    assert delete(HandResult, table_id=table.pk) == results + approvals
    assert not Approval.objects.filter(result__table=table).exists()
    assert not HandResult.objects.filter(table=table).exists()


def test_a_model_someone_listens_to_is_saved_by_django_with_its_signals(played, tournament):
    heard = []

    def listener(sender, instance, created, **kwargs):
        heard.append((instance.action, created))

    post_save.connect(listener, sender=AuditEntry)
    try:
        entry = insert(AuditEntry(tournament=tournament, action="x.heard"))
        entry.action = "x.heard-again"
        update(entry, ["action"])
    finally:
        post_save.disconnect(listener, sender=AuditEntry)
    assert heard == [("x.heard", True), ("x.heard-again", False)]
    assert AuditEntry.objects.get(pk=entry.pk).action == "x.heard-again"


@pytest.mark.postgres
def test_only_the_kept_statements_are_prepared_by_postgresql(played):
    """The scorers' statements are planned once; every other query of Django's is planned
    for its values each time (a generic plan made it up to 200 ms slower on reports)."""
    table = Table.objects.filter(round=played).first()
    for _ in range(4):
        prepared_rows("test-kept-prepared", with_parents, [table.pk])
        list(HandResult.objects.filter(table_id=table.pk, hand=3).order_by("pk"))

    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        statements = [row[0] for row in cursor.fetchall()]
    kept = with_parents(table.pk).query.get_compiler(using="default").as_sql()[0]
    assert any(kept.split(" WHERE ")[0] in statement for statement in statements)
    assert not any('"tournament_handresult"."hand" = ' in statement
                   and "ORDER BY" in statement for statement in statements)


def test_the_query_log_names_every_kept_statement_with_its_values(played):
    """psycopg forgets a statement's text once it runs it prepared; the log (what
    ``assertNumQueries`` prints, the debug toolbar) still names each with its values."""
    table = Table.objects.filter(round=played).first()
    with CaptureQueriesContext(connection) as queries:
        for _ in range(4):
            prepared_rows("test-kept-logged", with_parents, [table.pk])
    logged = [query["sql"] for query in queries.captured_queries]
    assert len(logged) == 4
    assert all(sql and '"tournament_table"' in sql and str(table.pk) in sql for sql in logged)
