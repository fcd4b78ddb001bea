"""``{{ code|state_word }}`` and ``{{ code|state_meaning }}``: the word of a match's or
table's state and what it means, in the reader's language, from the one vocabulary
(``tournament.states``)."""

from django import template

from tournament import states

register = template.Library()


@register.filter
def state_word(code: str) -> str:
    return states.word(code)


@register.filter
def state_meaning(code: str) -> str:
    return states.meaning(code)
