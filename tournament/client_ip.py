"""The client's address, as login throttling and the audit log see it.

Without a proxy it is the connection's address (REMOTE_ADDR). Behind proxies it comes from
the header they set (settings.TRUSTED_PROXY_HEADER, e.g. HTTP_X_FORWARDED_FOR), read from
the right: each of the TRUSTED_PROXY_COUNT proxies appends the address it was connected
from, so the entry that many places from the end was written by our outermost proxy, and
anything to its left is whatever the client chose to send. A header is never read unless
it is configured, because without a proxy that overwrites it a client can put any address
in it.
"""

from __future__ import annotations

import ipaddress

from django.conf import settings


def _address(value: str) -> str | None:
    try:
        return str(ipaddress.ip_address(value.strip()))
    except ValueError:
        return None


def client_ip(request) -> str | None:
    """The client's IP address, or None when the request carries none that is valid."""
    remote = _address(request.META.get("REMOTE_ADDR") or "")
    header = settings.TRUSTED_PROXY_HEADER
    if not header:
        return remote
    hops = [hop for hop in request.META.get(header, "").split(",") if hop.strip()]
    count = settings.TRUSTED_PROXY_COUNT
    if len(hops) < count:
        # Not (or not fully) through our proxies, e.g. straight to the application server:
        # the connection's own address is the client's.
        return remote
    return _address(hops[-count]) or remote
