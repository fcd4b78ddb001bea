"""How forms draw their widgets: Django's own form templates (``django/forms/…``) through
Jinja2, every other form template (the admin's) through Django's template engine.

Django's engine drew each widget, each option of a select and each list of attributes as a
template of its own; a scorer's table page spent two thirds of its time there. Jinja2 draws
the same HTML from the same templates (Django ships them for both engines; only the blank
lines between a select's options differ) in half the time. The admin's widget templates
exist for Django's engine only, hence the two."""

from __future__ import annotations

from django.forms.renderers import BaseRenderer, DjangoTemplates, Jinja2


class FormRenderer(BaseRenderer):
    def __init__(self):
        self._jinja2 = Jinja2()
        self._django = DjangoTemplates()

    def get_template(self, template_name):
        if template_name.startswith("django/forms/"):
            return self._jinja2.get_template(template_name)
        return self._django.get_template(template_name)
