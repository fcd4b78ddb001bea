"""Filters of the public pages."""

from decimal import Decimal

from django import template

from tournament.tables import minus_signs
from tournament.templatetags.scores import signed as signed_text

register = template.Library()


@register.filter
def signed(value):
    """+7, −7 or 0 (a real minus sign); nothing for None."""
    if value is None:
        return ""
    if isinstance(value, Decimal):
        return minus_signs(f"{value:+.2f}") if value else "0.00"
    return signed_text(int(value))


@register.inclusion_tag("public/includes/nav.html", takes_context=True)
def public_nav(context):
    """``{% public_nav %}``: the navigation of the page's ``tournament`` (every template
    extending ``public/page.html`` has it)."""
    from tournament.views.public.base import public_nav as items

    tournament = context.get("tournament")
    request = context.get("request")
    if tournament is None or request is None:
        return {"items": []}
    return {"tournament": tournament,
            "items": items(tournament, request.path, context.get("nav_active", ""))}
