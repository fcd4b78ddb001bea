"""``{% language_addresses as choices %}``: the language switch a page offers
(tournament/language.py). On a public page, the same page at each language's address; on
the API's pages (its docs), which follow the browser's languages, none; elsewhere ``None``,
and the page keeps the language form (a cookie)."""

from django import template

from tournament.language import API_PREFIX, is_public
from tournament.language import language_addresses as addresses

register = template.Library()


@register.simple_tag(takes_context=True)
def language_addresses(context) -> list[dict] | None:
    request = context.get("request")
    if request is None:
        return None
    if request.path_info.startswith(API_PREFIX):
        return []
    return addresses(request) if is_public(request.path_info) else None
