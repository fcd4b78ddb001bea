"""CSV import of teams: all or nothing, every bad line named."""

import pytest

from tournament.models import AuditEntry, Player, Team
from tournament.services.team_import import import_teams, read_team_csv

HEADER = "code,name,country,seed,player1,player1_id,player2,player2_id,reserve,reserve_id\n"
GOOD = (
    HEADER
    + "CHN1,China Red,China,1,Li Wei,CN001,Zhang Min,CN002,Wang Fang,CN003\n"
    + "ITA,Italia,Italy,2,Marco Rossi,,Giulia Bianchi,,,\n"
    + "BRA,Brasil,Brazil,,João Silva,,Ana Souza,,,\n"
)


@pytest.fixture
def director(tournament, staff_user, actor):
    return actor(staff_user(tournament, "director"))


def run(director, tournament, text, *, dry_run=False, encoding="utf-8"):
    data = text.encode(encoding) if isinstance(text, str) else text
    return import_teams(director, tournament, data, dry_run=dry_run, filename="teams.csv")


def messages(report):
    return [str(problem) for problem in report.problems]


def test_good_file_imports_every_team_with_players(director, tournament):
    report = run(director, tournament, GOOD)
    assert report.imported and report.problems == []
    china = Team.objects.get(tournament=tournament, code="CHN1")
    assert (china.name, china.country, china.seed) == ("China Red", "China", 1)
    players = list(china.players.values_list("name", "federation_id", "number", "is_reserve"))
    assert players == [("Li Wei", "CN001", 1, False), ("Zhang Min", "CN002", 2, False),
                       ("Wang Fang", "CN003", 3, True)]
    assert Team.objects.get(code="BRA").players.get(number=1).name == "João Silva"
    entry = AuditEntry.objects.get(action="team.import")
    assert "imported 3 teams from teams.csv" in entry.summary


def test_dry_run_previews_without_saving(director, tournament):
    report = run(director, tournament, GOOD, dry_run=True)
    assert report.ok and not report.imported
    assert [entry.code for _line, entry in report.teams] == ["CHN1", "ITA", "BRA"]
    assert [line for line, _entry in report.teams] == [2, 3, 4]
    assert not Team.objects.exists()


def test_excel_style_semicolons_bom_and_lower_case_codes(director, tournament):
    text = "\ufeffCode;Name;Player1;Player2\nchn2;China Blue;甲;乙\n"
    report = run(director, tournament, text)
    assert report.imported
    assert Team.objects.get().code == "CHN2"


@pytest.mark.parametrize(("text", "expected"), [
    ("code,name,player1\nA,Alpha,x\n", "line 1: missing column(s): player2"),
    ("code,name,player1,player2,coach\nA,Alpha,x,y,z\n", "line 1: unknown column(s): coach"),
    ("code,name,player1,player2,name\n", "line 1: column(s) given twice: name"),
    ("", "line 1: the file is empty"),
    ("code,name,player1,player2\n", "line 1: the file has a header but no teams"),
])
def test_wrong_columns_are_named(director, tournament, text, expected):
    report = run(director, tournament, text)
    assert any(message.startswith(expected) for message in messages(report))
    assert not report.imported and not Team.objects.exists()


def test_duplicate_team_codes_name_both_lines(director, tournament):
    text = HEADER + "ABC,Alpha,,,a1,,a2,,,\nXYZ,Xray,,,x1,,x2,,,\nabc,Bravo,,,b1,,b2,,,\n"
    report = run(director, tournament, text)
    assert messages(report) == ["line 4: team code ABC is already used"]
    assert not Team.objects.exists()


def test_code_already_in_the_tournament_is_rejected(director, tournament, make_team):
    make_team(tournament, code="ITA", name="Old Italy")
    report = run(director, tournament, GOOD)
    assert messages(report) == ["line 3: team code ITA is already used"]
    assert Team.objects.count() == 1


def test_team_with_one_player(director, tournament):
    text = HEADER + "ABC,Alpha,,,Solo,,,,,\n"
    report = run(director, tournament, text)
    assert messages(report) == ["line 2: player 2 is empty"]


def test_empty_names(director, tournament):
    text = HEADER + "ABC,   ,,,a,,b,,,\nDEF,Delta,,,,,d,,,\n"
    report = run(director, tournament, text)
    assert messages(report) == ["line 2: team name is empty", "line 3: player 1 is empty"]


def test_non_utf8_bytes_name_the_line(director, tournament):
    data = (HEADER + "ABC,Alpha,,,a,,b,,,\n").encode() + "DEF,Café,,,c,,d,,,\n".encode("cp1252")
    report = run(director, tournament, data)
    (problem,) = messages(report)
    assert problem.startswith("line 3: byte 0xe9 is not UTF-8")
    assert not Team.objects.exists()


def test_nul_byte_is_refused(director, tournament):
    report = run(director, tournament, HEADER + "ABC,Al\x00pha,,,a,,b,,,\n")
    assert messages(report) == ["line 2: contains a NUL character; is this a CSV file?"]


def test_every_bad_line_is_reported_and_nothing_is_saved(director, tournament):
    text = (HEADER
            + "GOOD,Good Team,,,a,,b,,,\n"
            + "B@D,Bad Code,,,a,,b,,,\n"
            + "SEED,Seedy,,zero,a,,b,,,\n"
            + "TWIN,Twins,,,Same,,same,,,\n"
            + "LONG,Long,,,a,,b,,,,extra\n"
            + "DUPS,Dups,,1,a,X1,b,X1,,\n")
    report = run(director, tournament, text)
    lines = [problem.line for problem in report.problems]
    assert lines == [3, 4, 5, 6, 7]
    assert "team code 'B@D' must be 1 to 10 letters, digits or hyphens" in messages(report)[0]
    assert "seed 'zero' is not a whole number" in messages(report)[1]
    assert "the same player is named twice" in messages(report)[2]
    assert "11 values but the header has 10 columns" in messages(report)[3]
    assert "the same federation id is given twice" in messages(report)[4]
    assert not Team.objects.exists() and not Player.objects.exists()


def test_duplicate_seeds_and_federation_ids_across_lines(director, tournament):
    text = HEADER + "A,Alpha,,1,a,F1,b,,,\nB,Bravo,,1,c,F1,d,,,\n"
    assert messages(run(director, tournament, text)) == [
        "line 3: seed 1 is already given to another team",
        "line 3: federation id F1 is already registered",
    ]


def test_quoted_fields_spanning_lines_keep_their_starting_line(director, tournament):
    text = HEADER + 'A,"Alpha\nTeam",,,a,,b,,,\nB,Bravo,,,,,d,,,\n'
    report = run(director, tournament, text)
    assert messages(report) == ["line 2: team name contains a line break (U+000A)",
                                "line 4: player 1 is empty"]


def test_blank_lines_are_skipped(director, tournament):
    report = run(director, tournament, HEADER + "\nA,Alpha,,,a,,b,,,\n,,,,,,,,,\n")
    assert report.imported and Team.objects.count() == 1


def test_too_large_file_is_refused(director, tournament):
    report = read_team_csv(b"x" * 1_000_001)
    assert "larger than" in messages(report)[0]


def test_the_documented_sample_file_imports(director, tournament):
    from pathlib import Path

    root = Path(__file__).resolve().parents[3]
    sample = root / "tournament" / "static" / "tournament" / "teams-sample.csv"
    report = run(director, tournament, sample.read_bytes())
    assert report.imported and len(report.teams) == 8
    assert Team.objects.get(code="JPN").players.get(number=1).name == "佐藤健"


def test_invisible_characters_and_odd_seeds_name_their_line(director, tournament):
    text = (HEADER + "CHN,China,,①,张伟,,李娜,,,\n"
            + "ITA,Ital\u200bia,,,Marco,,Giulia,,,\n"
            + "BRA,Brasil,,,\u202eJoão,,Ana,,,\n")
    report = run(director, tournament, text)
    assert messages(report) == [
        "line 2: seed '①' is not a whole number of 1 or more written with the digits 0-9",
        "line 3: team name contains an invisible character (U+200B)",
        "line 4: player 1 contains an invisible text-direction character (U+202E)",
    ]
    assert not report.imported and not Team.objects.exists()
