"""Deal sheets, box labels and packing lists, read back from the real PDFs."""

import io

import pytest
from pypdf import PdfReader

from scoring import seating
from tournament.models import Stage
from tournament.pdf.deals import BoxLabels, DealSheet, PackingList
from tournament.selectors.boxes import round_boxes
from tournament.services.deals import generate_deals, replace_deal
from tournament.services.draw import generate_round
from tournament.services.stages import create_stage, enter_teams


def pdf_pages(data: bytes) -> list[str]:
    return [page.extract_text() for page in PdfReader(io.BytesIO(data)).pages]


@pytest.fixture
def boxes(director_actor, tournament, make_team):
    chinese = make_team(tournament, code="CHN", name="中国红队", player1="李伟", player2="张敏")
    others = [make_team(tournament, code=f"T{i}", name=f"Team {i}") for i in range(3)]
    stage = create_stage(director_actor, tournament, name="Swiss", kind=Stage.Kind.SWISS,
                         swiss_rounds=3)
    enter_teams(director_actor, stage, [chinese, *others])
    round_ = generate_round(director_actor, stage)
    generate_deals(director_actor, round_)
    return round_boxes(round_)


def test_round_needs_a_box_per_hand_and_table(boxes):
    assert len(boxes.boxes) == 8 * 4
    assert all(boxes.copies(deal) == 4 for deal in boxes.deals)
    for box in boxes.boxes:
        assert box.dealer.seat == seating.dealer_seat(box.hand)


def test_deal_sheet_lists_every_deal_in_dealing_order(boxes):
    pages = pdf_pages(DealSheet(boxes).render())
    assert len(pages) == 4  # two deals a page
    text = "\n".join(pages)
    for deal in boxes.deals:
        assert f"Hand {deal.hand} · set 1" in text
        assert deal.cards in text.replace("\n", " ")  # the check line, canonical order


def test_deal_sheet_prints_the_stock_in_order_without_a_form_per_card(boxes):
    page = PdfReader(io.BytesIO(DealSheet(boxes).render())).pages[0]
    stock = boxes.cards_of(boxes.deals[0]).stock
    ranks = ["10" if card.rank == 10 else "A23456789TJQK"[card.rank - 1] for card in stock]
    # The stock's 31 ranks come last before the check line, top card first.
    assert page.extract_text().split("Check:")[0].split()[-31:] == ranks
    # A page names the forms it shows: the suit symbols at two sizes and the two half
    # pages' furniture, not a form per card (issue 59: with one, reportlab spent a sixth of
    # a 2,048-deal sheet's time writing 50,000 names of forms).
    assert len(page["/Resources"]["/XObject"]) <= 10


def test_box_labels_name_dealer_and_non_dealer_in_chinese_too(boxes):
    pages = pdf_pages(BoxLabels(boxes, paper_name="a4").render())
    assert len(pages) == 2  # 32 labels, 24 a sheet
    text = "\n".join(pages)
    assert "李伟" in text and "张敏" in text
    first = boxes.boxes[0]
    assert f"Hand 1 · Table {first.table.number}" in text
    # Text runs in another font come out on their own lines; join them back.
    joined = text.replace("\n", "")
    assert (f"Dealer (11): seat {first.dealer.seat} · {first.dealer.player.name} "
            f"({first.dealer.team.code})") in joined


def test_letter_labels_use_thirty_a_sheet(boxes):
    assert len(pdf_pages(BoxLabels(boxes, paper_name="letter").render())) == 2


def test_packing_list_counts_copies(boxes):
    text = "\n".join(pdf_pages(PackingList(boxes).render()))
    assert "32 boxes" in text
    assert text.count("1–4") == 8  # every deal goes to tables 1 to 4


def test_reserve_deal_is_what_gets_packed(director_actor, boxes):
    old = boxes.deals[2]
    new = replace_deal(director_actor, old, "leaked")
    fresh = round_boxes(boxes.plan.round)
    assert new.pk in {d.pk for d in fresh.deals} and old.pk not in {d.pk for d in fresh.deals}
    text = "\n".join(pdf_pages(BoxLabels(fresh).render()))
    assert "reserve deal 1" in text
