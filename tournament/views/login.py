"""``/accounts/login/``: Django's log-in page, sending a table's device to its terminal
(issue 57). A device's account logged in by hand, with no page asked for, lands on
``/device/`` (its table's steps), never on a list of tournaments, rounds and tables it may
not open; everyone else on "Your tournaments", as before."""

from __future__ import annotations

from django.contrib.auth import views as auth_views
from django.urls import reverse

from tournament.models import TableDevice


class LoginView(auth_views.LoginView):
    def get_default_redirect_url(self):
        if TableDevice.objects.filter(user=self.request.user).exists():
            return reverse("terminal")
        return super().get_default_redirect_url()
