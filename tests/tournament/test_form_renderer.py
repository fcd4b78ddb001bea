"""Forms draw their widgets through Jinja2 (tournament/form_renderer.py): the HTML of every
field of every form of the project is the HTML Django's own template engine draws, but for
the white space between tags; the admin's widgets still come from Django's engine."""

import copy
import inspect
import re

import pytest
from django import forms
from django.forms.renderers import DjangoTemplates

import tournament.forms
import tournament.views.director.deals
import tournament.views.director.penalties
from tournament.form_renderer import FormRenderer

MODULES = (tournament.forms, tournament.views.director.deals,
           tournament.views.director.penalties)


def project_fields() -> dict[str, forms.Field]:
    """Every field declared by a form class of the project, named after its form."""
    fields = {}
    for module in MODULES:
        for name, form_class in inspect.getmembers(module, inspect.isclass):
            if issubclass(form_class, forms.BaseForm) and form_class.__module__ == \
                    module.__name__:
                for field_name, field in form_class.base_fields.items():
                    fields[f"{name}_{field_name}"] = copy.deepcopy(field)
    return fields


def between_tags(html: str) -> str:
    """The HTML as a browser reads it: each run of white space one space, none between a
    tag's end and the next tag."""
    html = html.replace("&#39;", "&#x27;").replace("&#34;", "&quot;")  # the same characters
    return re.sub(r">\s+<", "><", re.sub(r"\s+", " ", html)).strip()


@pytest.mark.parametrize("bound", [False, True], ids=["unbound", "bound with errors"])
def test_every_field_is_drawn_as_djangos_engine_draws_it(bound):
    fields = project_fields()
    assert len(fields) > 40  # the forms were found
    form_class = type("EveryField", (forms.Form,), dict(fields))
    data = {name: "not valid ✗" for name in fields} if bound else None
    kinds = set()
    ours_form = form_class(data, renderer=FormRenderer())
    djangos_form = form_class(data, renderer=DjangoTemplates())
    for name in fields:
        ours, djangos = ours_form[name], djangos_form[name]
        kinds.add(type(ours.field.widget).__name__)
        assert between_tags(str(ours)) == between_tags(str(djangos)), name
        if bound:
            assert between_tags(str(ours.errors)) == between_tags(str(djangos.errors)), name
    assert {"Select", "TextInput", "HiddenInput"} <= kinds


def test_a_form_drawn_whole_is_the_same():
    from tournament.forms import HandResultForm

    initial = {"outcome": "gin", "declarer_seat": 2, "opponent_deadwood": 31}
    ours = HandResultForm(initial=initial, prefix="h3", renderer=FormRenderer())
    djangos = HandResultForm(initial=initial, prefix="h3", renderer=DjangoTemplates())
    assert between_tags(ours.as_div()) == between_tags(djangos.as_div())
    assert 'value="gin" selected' in ours.as_div()


@pytest.mark.django_db
def test_the_admin_still_draws_its_widgets(client, admin_user):
    from django.urls import reverse

    client.force_login(admin_user)
    page = client.get(reverse("admin:auth_user_change", args=[admin_user.pk]))
    assert page.status_code == 200
    assert "related-widget-wrapper" in page.content.decode()
