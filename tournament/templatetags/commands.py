"""``{% load commands %}``: what a form that sends a command carries (services.commands)."""

import uuid

from django import template
from django.utils.html import format_html

from tournament import queue_keys

register = template.Library()


@register.simple_tag
def request_token() -> str:
    """A hidden request token: the same form sent twice does its command once."""
    return format_html('<input type="hidden" name="request_token" value="{}">', uuid.uuid4())


@register.simple_tag(takes_context=True)
def queue_name(context) -> str:
    """The name of the logged-in account's queue of commands not sent yet in the browser's
    storage (``tournament.queue_keys``; entry_queue.js keeps it, site.js asks before a
    log-out that would leave it unsent)."""
    request = context.get("request")
    return queue_keys.queue_name(request.user if request is not None else None)
