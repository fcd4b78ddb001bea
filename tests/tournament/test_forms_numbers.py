"""Numbers are typed with the ASCII digits 0-9 on every form (issue 21, item 4): "٣"
(Arabic-Indic three), U+FF13 (full-width three), "1_0", "5 0" and "+5" are refused with a
message naming the field, as the CSV import refuses them; Django's own IntegerField takes
all but "5 0"."""

import uuid

import pytest
from django import forms
from django.urls import reverse

from tournament.forms import (
    HandResultForm,
    QualificationForm,
    SnakeGroupsForm,
    StageForm,
    TournamentForm,
    WholeNumberField,
)
from tournament.models import HandResult
from tournament.views.director.penalties import PenaltyForm

BAD = ["٣", "\uff13", "1_0", "5 0", "+5", "-0", "٣٣"]
FORMS = [HandResultForm, TournamentForm, StageForm, QualificationForm, SnakeGroupsForm,
         PenaltyForm]


def number_fields():
    for form in FORMS:
        for name, field in form.base_fields.items():
            if isinstance(field, forms.IntegerField):
                yield form.__name__, name, field


def test_every_number_field_of_every_form_is_a_whole_number_field():
    found = list(number_fields())
    assert len(found) >= 25
    assert all(isinstance(field, WholeNumberField) for _form, _name, field in found)


@pytest.mark.parametrize("value", BAD)
@pytest.mark.parametrize(("form", "name", "field"), list(number_fields()),
                         ids=[f"{f}.{n}" for f, n, _field in number_fields()])
def test_every_number_field_refuses_what_is_not_ascii_digits(form, name, field, value):
    with pytest.raises(forms.ValidationError) as refused:
        field.clean(value)
    message = refused.value.messages[0]
    assert str(field.label) in message and "digits 0–9" in message, message
    assert field.clean(" 7 ") == 7 if (field.max_value is None or field.max_value >= 7) \
        else True


@pytest.fixture
def table_in_play(round_in_play):
    return round_in_play(2).tables.order_by("number").first()


@pytest.mark.parametrize("value", BAD)
def test_the_hand_page_saves_nothing_typed_in_other_digits(client, tournament, staff_user,
                                                           table_in_play, value):
    client.force_login(staff_user(tournament, "referee", username="ref"))
    response = client.post(
        reverse("director:hand_save", args=[tournament.slug, table_in_play.pk, 1]),
        {"h1-outcome": "knock", "h1-declarer_seat": "1", "h1-declarer_deadwood": value,
         "h1-opponent_deadwood": "12", "h1-seen_version": "0",
         "h1-request_token": str(uuid.uuid4())})
    assert response.status_code == 200
    assert "Declarer&#x27;s deadwood: type a whole number with the digits 0–9" in \
        response.content.decode()
    assert not HandResult.objects.exists()
