"""The key of a table screen's queue of commands not sent yet (entry_queue.js; docs/results.md,
"When the network drops").

The queue is kept in the browser's local storage encrypted (Web Crypto, AES-GCM) under a
key the server puts only into pages it renders for the account, and under a name of the
account's own: another account logged in on the same browser gets other pages, with
another key and another name, and can neither read the queue nor send it. Both are
derived here from ``SECRET_KEY`` and the account's id with HMAC-SHA256 (Django's
``salted_hmac``, a salt each), so nothing is stored on the server and nothing of the
account shows in the storage's names.

The key does not change with the account's password or device token, on purpose: when a
director makes the table devices again while a device is offline, the device's session
ends (a new password ends every session of the account), and what it kept must be sent
once the device logs in again with its new slip. What keeps the queue to its account is
that its key reaches only a page of a logged-in session of that account: an old
password no longer opens one. The key changes with ``SECRET_KEY`` (a queue kept then can
no longer be read, and is not sent).
"""

from __future__ import annotations

import base64

from django.utils.crypto import salted_hmac

_NAME_SALT = "tournament.queue_keys.name"
_KEY_SALT = "tournament.queue_keys.key"


def queue_name(user) -> str:
    """The account's queue's name in the browser's storage: opaque, the same on every page
    of the account, another for another account ("" for no account)."""
    if user is None or not user.is_authenticated:
        return ""
    return salted_hmac(_NAME_SALT, f"user:{user.pk}", algorithm="sha256").hexdigest()[:32]


def queue_key(user) -> str:
    """The account's 256-bit AES-GCM key, in base64, for its pages only."""
    if user is None or not user.is_authenticated:
        return ""
    digest = salted_hmac(_KEY_SALT, f"user:{user.pk}", algorithm="sha256").digest()
    return base64.b64encode(digest).decode("ascii")
