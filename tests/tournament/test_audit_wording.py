"""Audit entries keep their action and data; the sentence is written when shown, in the
reader's language (issue 27, tournament/audit_wording/). Entries recorded before keep
their English sentence, shown marked as such; the tournament file carries both kinds."""

import ast
import importlib
from pathlib import Path

import pytest
from django.urls import reverse
from django.utils import translation

from tournament import audit_wording
from tournament.audit_wording import WORDING, WordingError, phrase, sentence
from tournament.exchange.export import export_text, export_tournament
from tournament.exchange.import_ import import_tournament
from tournament.exchange.read import read_document
from tournament.models import AuditEntry
from tournament.services.base import audit
from tournament.services.rounds import publish_round, start_round

ROOT = Path(__file__).resolve().parents[2]
SOURCES = ROOT / "tournament"


@pytest.fixture(autouse=True)
def english():
    """English unless a test says otherwise (a Chinese request leaves its language active
    in the thread)."""
    with translation.override("en"):
        yield


# Every action has its wording --------------------------------------------------------------

def _module_of(path: Path) -> str:
    return ".".join(path.relative_to(ROOT).with_suffix("").parts)


def _actions(node: ast.expr, path: Path) -> set[str]:
    """The action strings an ``audit(...)`` call's third argument can be."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return {node.value}
    if isinstance(node, ast.IfExp):
        return _actions(node.body, path) | _actions(node.orelse, path)
    if isinstance(node, ast.Name):  # a module constant, here or imported
        value = getattr(importlib.import_module(_module_of(path)), node.id)
        assert isinstance(value, str), f"{path}: {node.id} is not a text"
        return {value}
    raise AssertionError(f"{path}:{node.lineno}: an action the test cannot read: "
                         f"{ast.unparse(node)}")


def audit_calls() -> list[tuple[Path, int, set[str], int]]:
    """Every call of ``audit`` (the service, not a method of that name) in the code:
    where it is, its actions and how many positional arguments it gives."""
    calls = []
    for path in sorted(SOURCES.rglob("*.py")):
        if "migrations" in path.parts:
            continue
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                    and node.func.id == "audit"):
                assert len(node.args) >= 3, f"{path}:{node.lineno}: audit() without an action"
                calls.append((path, node.lineno, _actions(node.args[2], path), len(node.args)))
    return calls


def test_every_action_an_audit_call_records_has_its_wording():
    calls = audit_calls()
    actions = {action for _path, _line, found, _n in calls for action in found}
    assert len(calls) >= 50 and len(actions) >= 45  # the walk found the services' calls
    missing = sorted(f"{path.relative_to(ROOT)}:{line} {action}"
                     for path, line, found, _n in calls for action in found
                     if action not in WORDING)
    assert not missing, f"audit actions without wording in tournament/audit_wording/: {missing}"


def test_no_audit_call_stores_a_sentence():
    """The sentence is written when shown: a call gives actor, tournament, action and data
    by name, never a ready sentence."""
    extra = [f"{path.relative_to(ROOT)}:{line}" for path, line, _found, n in audit_calls()
             if n != 3]
    assert not extra, f"audit() given a sentence: {extra}"


# English and Chinese -----------------------------------------------------------------------

def entry(action: str, actor_name: str = "lin", **data) -> AuditEntry:
    return AuditEntry(action=action, actor_name=actor_name, data=data)


SWISS_2 = {"stage": "Swiss", "number": 2, "slots": None}
FINAL = {"stage": "Knockout", "number": 3, "slots": 2}


def test_the_english_sentences_read_as_they_always_did():
    assert sentence(entry("round.start", round_name=SWISS_2)) == \
        "lin started play in Swiss, Round 2"
    assert sentence(entry("round.start", round_name=SWISS_2, without_deals=True)) == \
        "lin started play in Swiss, Round 2 without deals (the boxes dealt elsewhere)"
    assert sentence(entry("round.close", round_name=FINAL)) == "lin closed Knockout, Final"
    assert sentence(entry("result.change", hand=3, table_number=2, reason="", cleared=1,
                          entry={"outcome": "knock", "declarer_seat": 1,
                                 "declarer_deadwood": 4, "opponent_deadwood": 12,
                                 "false_knock_seat": None, "false_knock_deadwood": None},
                          before={"outcome": "gin", "declarer_seat": 2,
                                  "declarer_deadwood": 0, "opponent_deadwood": 30,
                                  "false_knock_seat": 1, "false_knock_deadwood": 14},
                          score={"outcome": "knock", "declarer_deadwood": 4,
                                 "opponent_deadwood": 12, "points": 23,
                                 "draw_rule": "stock_exhausted",
                                 "false_knock_deadwood": None})) == (
        "lin changed hand 3 at table 2: gin by seat 2 vs 30, false knock by seat 1 at 14 → "
        "knock by seat 1 4 vs 12 (Knock 4 vs 12: 15 + 8 = 23); the players' signatures "
        "were cleared")
    assert sentence(entry("result.device", table_number=3, round_name=SWISS_2)) == \
        "lin's device scores table 3 in Swiss, Round 2"
    assert sentence(entry("pin.failure", seat=2, table_number=5, player_name="Ann",
                          team_code="ITA", device="", failures=3)) == (
        "wrong PIN for seat 2 at table 5 (Ann, ITA), device unknown, ip unknown; 3 wrong in "
        "a row")
    assert sentence(entry("round.generate", round_name=SWISS_2, matches=4, byes=["T9"],
                          notes=[phrase("withdrawn, left out: %(teams)s", teams=["T3", "T4"]),
                                 phrase("swaps of an undone round reverted: %(pairs)s",
                                        pairs=[phrase("%(a)s and %(b)s", a="T1", b="T2")])])
                    ) == ("lin drew Swiss, Round 2: 4 matches, bye: T9; withdrawn, left out: "
                          "T3, T4; swaps of an undone round reverted: T1 and T2")


def test_the_sentence_is_written_with_the_readers_translations(monkeypatch):
    """Every word comes through gettext when shown, with the entry's data put in: a
    translation marked here by « » stands for the catalogue's Chinese."""
    real = audit_wording.gettext
    monkeypatch.setattr(audit_wording, "gettext", lambda text: f"«{real(text)}»")
    shown = sentence(entry("round.swap", team_codes=["CHN", "ITA"], round_name=SWISS_2,
                           follows=phrase("the later rounds of %(group)s follow", group="A"),
                           warnings=[phrase("%(team)s would have a second bye", team="CHN")]))
    assert shown == ("«lin swapped CHN and ITA in «Swiss, «Round 2»»»« («the later rounds of A "
                     "follow»)»« despite: «CHN would have a second bye»»")


def test_in_chinese_the_catalogues_words_are_used_at_once():
    """The catalogue already has the round's name and the printouts: an entry reads them in
    Chinese as soon as it is shown in Chinese (its own template until the lead translates
    it), and in English again for an English reader: nothing was stored in a language."""
    download = entry("deals.download", printout="deal-sheet", paper="A4", round_name=SWISS_2)
    with translation.override("zh-hans"):
        chinese = sentence(download)
        final = sentence(entry("round.close", round_name=FINAL))
    assert "第 2 轮" in chinese and "发牌单" in chinese and "Round 2" not in chinese
    assert "决赛" in final
    with translation.override("en"):
        assert sentence(download) == "lin downloaded the deal sheet (A4) of Swiss, Round 2"


def test_no_person_reads_as_system_in_the_readers_language(monkeypatch):
    real = audit_wording.gettext
    monkeypatch.setattr(audit_wording, "gettext", lambda text: f"«{real(text)}»")
    shown = sentence(entry("deals.reveal", actor_name="system", key=1))
    assert shown == "««system» revealed deal key 1»"


def test_an_entry_without_wording_or_with_broken_data_still_reads(caplog):
    assert sentence(entry("something.new", table=3, note="x")) == "something.new: note x, table 3"
    assert sentence(entry("round.start")) == "round.start"  # no data at all
    with pytest.raises(WordingError):
        sentence(entry("round.start", round=5), strict=True)
    with pytest.raises(WordingError):
        sentence(entry("something.new"), strict=True)


# Entries recorded before --------------------------------------------------------------------

def test_an_older_entry_keeps_its_recorded_english_sentence():
    old = AuditEntry(action="round.start", actor_name="lin", data={"round": 4},
                     summary="lin started play in Swiss, Round 2")
    assert old.recorded_in_english and old.recorded_summary == old.summary
    with translation.override("zh-hans"):
        assert old.summary == "lin started play in Swiss, Round 2"
    new = entry("round.start", round_name=SWISS_2)
    assert not new.recorded_in_english and new.recorded_summary == ""


@pytest.mark.django_db
def test_the_audit_page_marks_older_entries_and_writes_new_ones_in_the_readers_language(
        client, tournament, staff_user, actor):
    director = staff_user(tournament, "director", username="lin")
    AuditEntry.objects.create(tournament=tournament, action="round.start", actor_name="lin",
                              summary="lin started play in Swiss, Round 1 <b>")
    audit(actor(director), tournament, "round.close", round_name=SWISS_2)
    client.force_login(director)
    url = reverse("director:audit", args=[tournament.slug])
    english = client.get(url).content.decode()
    assert "lin closed Swiss, Round 2" in english
    assert ('<span lang="en">lin started play in Swiss, Round 1 &lt;b&gt;</span> '
            '<span class="muted">(recorded in English)</span>') in english
    chinese = client.get(url, HTTP_ACCEPT_LANGUAGE="zh-Hans").content.decode()
    assert "第 2 轮" in chinese and "Swiss, Round 2" not in chinese
    assert '<span lang="en">lin started play in Swiss, Round 1 &lt;b&gt;</span>' in chinese


# The tournament file ------------------------------------------------------------------------

@pytest.mark.django_db
def test_the_file_carries_both_kinds_of_entry_and_reads_them_back(
        tournament, director_actor, teams):
    from tournament.services.draw import generate_round
    from tournament.services.stages import create_stage, enter_teams

    stage = create_stage(director_actor, tournament, name="Swiss", kind="swiss", swiss_rounds=3)
    enter_teams(director_actor, stage, teams(4))
    round_ = generate_round(director_actor, stage)
    publish_round(director_actor, round_)
    start_round(director_actor, round_)
    AuditEntry.objects.create(tournament=tournament, action="team.create",
                              actor_name="director", summary="director added team Old (OLD)",
                              data={"team": None})
    sentences = {e.action: e.summary for e in tournament.audit_entries.all()}

    document = export_tournament(tournament)
    by_action = {e["action"]: e for e in document["audit"]}
    assert by_action["round.start"]["summary"] == ""
    assert by_action["round.start"]["data"]["round_name"] == {
        "stage": "Swiss", "number": 1, "slots": None}
    assert by_action["team.create"]["summary"] == "director added team Old (OLD)"

    text = export_text(tournament)
    copy_ = import_tournament(read_document(text.encode()), slug="copy",
                              map_users={p["username"]: p["username"]
                                         for p in document["people"]})
    again = {e.action: e.summary for e in copy_.audit_entries.exclude(action="tournament.import")}
    assert again == sentences
    assert sentences["round.start"] == ("director started play in Swiss, Round 1 without deals "
                                        "(the boxes dealt elsewhere)")
    assert copy_.audit_entries.get(action="team.create").recorded_in_english
    assert export_text(copy_).replace('"slug": "copy"', '"slug": "world-cup"') == text
