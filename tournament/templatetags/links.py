"""``{% url_around %}``: a page's URL reversed once for a list of hundreds of rows.

``{% url %}`` reverses the route again for every row (a 256-match round's pages reversed
1,300 URLs); ``{% url_around 'director:match_page' tournament.slug as match_url %}`` gives
the text before and after the last argument, and each row writes
``{{ match_url.0 }}{{ match.pk }}{{ match_url.1 }}``: the same address, built once.
"""

from django import template
from django.urls import reverse

register = template.Library()

# An id no row has, so that it is found in the reversed URL exactly where the row's goes.
_MARK = 2_147_483_646


@register.simple_tag
def url_around(name: str, *args) -> tuple[str, str]:
    url = reverse(name, args=[*args, _MARK])
    before, mark, after = url.rpartition(str(_MARK))
    if not mark:
        raise template.TemplateSyntaxError(f"{name} does not end in an id")
    return before, after
