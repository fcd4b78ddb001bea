"""Every font of every printout is embedded (issue 26): one file of each kind, fetched
through its view from the demo (Chinese names, and Latin Extended ones given to a few
players), checked with poppler's ``pdffonts`` and ``qpdf --check``. The demo is built once
for the module, in a transaction rolled back at the end."""

from __future__ import annotations

import shutil
import subprocess

import pytest
from django.contrib.auth import get_user_model
from django.db import transaction
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from tests.conftest import require_part
from tournament.demo import SLUG
from tournament.models import Player, Round, Stage, Team
from tournament.pdf import fonts
from tournament.selectors.bulletin import bulletin_days

# name: (URL name, what the address takes after the tournament, POST?)
PRINTOUTS = {
    "draw-by-table": ("director:round_pdf", ("closed", "draw-by-table"), False),
    "draw-by-team": ("director:round_pdf", ("closed", "draw-by-team"), False),
    "table-cards": ("director:round_pdf", ("closed", "table-cards"), False),
    "round-papers": ("director:round_papers", ("closed",), False),
    "scorecards": ("director:round_scorecards", ("closed", "scorecards"), False),
    "blank-scorecard": ("director:round_scorecards", ("closed", "blank-scorecard"), False),
    "result-slips": ("director:round_scorecards", ("closed", "result-slips"), False),
    "deal-sheet": ("director:round_deals_pdf", ("closed", "deal-sheet"), False),
    "box-labels": ("director:round_deals_pdf", ("closed", "box-labels"), False),
    "packing-list": ("director:round_deals_pdf", ("closed", "packing-list"), False),
    "standings": ("director:standings_download", ("groups", "pdf"), False),
    "group-standings": ("director:group_standings_download", ("groups", "group", "pdf"),
                        False),
    "bracket": ("director:bracket_pdf", ("knockout",), False),
    "device-slips": ("director:round_devices", ("live",), True),
    "bulletin": ("public:bulletin", (), False),
    "day-bulletin": ("public:day_bulletin", ("day",), False),
    "staff-bulletin": ("director:bulletin", (), False),
    "staff-day-bulletin": ("director:day_bulletin", ("day",), False),
}
LATIN_EXTENDED = {"Lukas Schneider": "Łukasz Wiśniewski", "Anna Becker": "Zsófia Erdős",
                  "Javier Ortega": "Ștefan Țurcanu"}
NOT_EMBEDDABLE = ("Helvetica", "Times", "Courier", "Symbol", "ZapfDingbats", "STSong")


def pdf_routes(resolver=None, namespace: str = "") -> set[str]:
    """The names of every address of the project that ends in ``.pdf``."""
    names = set()
    for pattern in (resolver or get_resolver()).url_patterns:
        if isinstance(pattern, URLResolver):
            inner = ":".join(filter(None, (namespace, pattern.namespace)))
            names |= pdf_routes(pattern, inner)
        elif isinstance(pattern, URLPattern) and str(pattern.pattern).endswith(".pdf"):
            names.add(f"{namespace}:{pattern.name}" if namespace else pattern.name)
    return names


@pytest.fixture(scope="module")
def printouts(live_demo, django_db_blocker, tmp_path_factory):
    """Each printout's file, by its name in PRINTOUTS (made in a savepoint of the demo's
    transaction, rolled back: the names changed here stay here)."""
    folder = tmp_path_factory.mktemp("printouts")
    with django_db_blocker.unblock(), transaction.atomic():
        tournament = live_demo
        for old, new in LATIN_EXTENDED.items():
            Player.objects.filter(team__tournament=tournament, name=old).update(name=new)
        Team.objects.filter(tournament=tournament, code="GER").update(name="Łódź Őrség")
        groups = tournament.stages.exclude(kind=Stage.Kind.KNOCKOUT).get()
        rounds = Round.objects.filter(stage__tournament=tournament)
        values = {
            "closed": rounds.filter(stage=groups, status=Round.Status.CLOSED)
            .order_by("number").first().pk,
            "live": rounds.exclude(status=Round.Status.CLOSED).get().pk,
            "groups": groups.pk, "group": groups.groups.order_by("pk").first().pk,
            "knockout": tournament.stages.get(kind=Stage.Kind.KNOCKOUT).pk,
            "day": bulletin_days(tournament)[0].isoformat(),
        }
        client = Client()
        client.force_login(get_user_model().objects.create_superuser(
            "printer", "printer@example.org", "a-Long-pass-123"))
        files = {}
        for name, (url_name, args, post) in PRINTOUTS.items():
            url = reverse(url_name, args=[SLUG, *(values.get(a, a) for a in args)])
            response = client.post(url) if post else client.get(url, follow=True)
            assert response.status_code == 200, (name, response.status_code)
            assert response["Content-Type"] == "application/pdf", name
            files[name] = folder / f"{name}.pdf"
            files[name].write_bytes(response.content)
        transaction.set_rollback(True)
    return files


# Printouts the demo, mid-event, cannot make, with the same checks (pdffonts, qpdf) where
# an event is finished.
CHECKED_ELSEWHERE = {
    "director:certificates_pdf": "tests/tournament/pdf/test_ranking_printouts.py",
}


def test_every_pdf_address_is_checked_here():
    """A new printout gets its line in PRINTOUTS (and so its fonts checked)."""
    assert pdf_routes() <= {url_name for url_name, _args, _post in PRINTOUTS.values()} | set(
        CHECKED_ELSEWHERE)


def fonts_in(path) -> list[dict[str, str]]:
    """pdffonts' rows: name, and emb (whether the font file is in the PDF)."""
    output = subprocess.run(["pdffonts", str(path)], capture_output=True, text=True,
                            check=True).stdout.splitlines()
    assert output[0].split()[:2] == ["name", "type"], output
    rows = []
    for line in output[2:]:  # after the heading and its rule
        cells = line.split()
        # The type and encoding may hold spaces; the last five columns do not.
        rows.append({"name": cells[0], "emb": cells[-5], "sub": cells[-4]})
    return rows


@pytest.mark.django_db  # the test database is made (the module's fixture fills it)
@pytest.mark.parametrize("name", PRINTOUTS)
def test_every_font_is_embedded(printouts, name):
    require_part(shutil.which("pdffonts") is not None,
                 "pdffonts (apt-get install poppler-utils)")
    rows = fonts_in(printouts[name])
    assert rows, f"{name}: no font at all"
    for row in rows:
        assert row["emb"] == "yes", (name, row)
        assert not row["name"].split("+")[-1].startswith(NOT_EMBEDDABLE), (name, row)
    # The Latin font, a subset of it, is in every printout (Vera where DejaVu is missing).
    latin = "DejaVuSans" if fonts.latin_fonts().complete else "BitstreamVeraSans"
    assert any(row["name"].split("+")[-1].startswith(latin) for row in rows), rows


@pytest.mark.django_db
@pytest.mark.parametrize("name", PRINTOUTS)
def test_every_printout_is_a_sound_pdf(printouts, name):
    require_part(shutil.which("qpdf") is not None, "qpdf (apt-get install qpdf)")
    result = subprocess.run(["qpdf", "--check", str(printouts[name])], capture_output=True,
                            text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "No syntax or stream encoding errors found" in result.stdout
