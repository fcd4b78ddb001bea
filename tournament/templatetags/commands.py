"""``{% load commands %}``: what a form that sends a command carries (services.commands)."""

import uuid

from django import template
from django.utils.html import format_html

register = template.Library()


@register.simple_tag
def request_token() -> str:
    """A hidden request token: the same form sent twice does its command once."""
    return format_html('<input type="hidden" name="request_token" value="{}">', uuid.uuid4())
