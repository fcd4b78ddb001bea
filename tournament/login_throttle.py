"""Login throttling on top of django-axes (settings: AXES_* and LOGIN_ADDRESS_FAILURE_LIMIT).

Axes counts failed log-ins per account and per client address (AXES_LOCKOUT_PARAMETERS);
this module gives the address its own, larger allowance, renders the lock-out page and
tells the staff page which accounts are locked. Directors unlock an account with
tournament.services.accounts.unlock_account.
"""

from __future__ import annotations

from axes.backends import AxesStandaloneBackend
from axes.handlers.database import AxesDatabaseHandler
from axes.helpers import get_cool_off, get_failure_limit, get_lockout_parameters
from axes.models import AccessAttempt
from django.conf import settings
from django.db.models import Sum
from django.shortcuts import render
from django.utils import timezone


class AccountAndAddressHandler(AxesDatabaseHandler):
    """Axes' database handler, with a separate failure limit for a client address.

    The stations of a venue often share one public address, so an address may fail
    LOGIN_ADDRESS_FAILURE_LIMIT times before it is locked, an account AXES_FAILURE_LIMIT
    times. Axes compares a single number with AXES_FAILURE_LIMIT, so the address's failures
    are scaled onto it: they reach that limit exactly when they reach the address limit.
    """

    def get_failures(self, request, credentials=None) -> int:
        account_limit = get_failure_limit(request, credentials)
        address_limit = settings.LOGIN_ADDRESS_FAILURE_LIMIT
        counts = [0]
        parameters = get_lockout_parameters(request, credentials)
        attempts_list = self.get_user_attempts(request, credentials)
        for parameter, attempts in zip(parameters, attempts_list, strict=True):
            failures = attempts.aggregate(total=Sum("failures_since_start"))["total"] or 0
            if parameter == "ip_address":
                failures = failures * account_limit // address_limit
            counts.append(failures)
        return max(counts)


class RequestOptionalAxesBackend(AxesStandaloneBackend):
    """For the test suite only: axes' check, but an ``authenticate()`` without a request
    (the test client's ``login()``) goes on to the next backend unthrottled.

    Production uses axes' own backend, which refuses such calls so that no login view can
    skip the throttle by forgetting the request; Django's login views always pass it.
    """

    def authenticate(self, request, username=None, password=None, **kwargs):
        if request is None:
            return None
        return super().authenticate(request, username, password, **kwargs)


def lockout_response(request, original_response=None, credentials=None):
    """The page a locked-out login gets (AXES_LOCKOUT_CALLABLE): why, until when, whom to ask."""
    cool_off = get_cool_off(request)
    minutes = max(1, round(cool_off.total_seconds() / 60)) if cool_off else None
    return render(request, "registration/locked_out.html", {"minutes": minutes},
                  status=settings.AXES_HTTP_RESPONSE_CODE)


def locked_usernames(usernames) -> set[str]:
    """Which of these user names (a list or a values_list queryset) axes has locked now.

    Only the account's own failures count here, not those of an address it shares.
    """
    attempts = AccessAttempt.objects.filter(username__in=usernames)
    cool_off = get_cool_off()
    if cool_off is not None:
        attempts = attempts.filter(attempt_time__gte=timezone.now() - cool_off)
    return set(
        attempts.order_by().values("username")
        .annotate(total=Sum("failures_since_start"))
        .filter(total__gte=settings.AXES_FAILURE_LIMIT)
        .values_list("username", flat=True)
    )
