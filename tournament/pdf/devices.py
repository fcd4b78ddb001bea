"""The slips of the table devices (issue 21): for each table of a round, the account its
device logs in with, its password and its API token, and a QR code that opens the table's
terminal signed in (issue 57: ``/device/#u=…&p=…``; the part after "#" never reaches the
server, terminal_start.js signs the device in with it). Four
slips a page, to be cut apart and each taken to its device only: a player who could log in
as another table's device could read that table's results of boxes still to be played."""

from __future__ import annotations

from urllib.parse import urlencode

from django.utils.translation import gettext as _
from reportlab.lib.units import mm

from tournament.pdf.base import Document, fit_text
from tournament.pdf.qr import QrEncoder, draw_modules
from tournament.services.devices import DeviceSlip

PER_PAGE = 4


class DeviceSlips(Document):
    def __init__(self, slips: list[DeviceSlip], *, login_url: str, round_name: str,
                 **kwargs):
        super().__init__(**kwargs)
        self.slips = slips
        self.login_url = login_url
        self.round_name = round_name
        self.qr = QrEncoder()

    def draw_pages(self) -> None:
        height = (self.height - 2 * self.margin) / PER_PAGE
        for index, slip in enumerate(self.slips):
            if index % PER_PAGE == 0:
                self.new_page()
            top = self.height - self.margin - (index % PER_PAGE) * height
            self._slip(slip, top, height)

    def _slip(self, slip: DeviceSlip, top: float, height: float) -> None:
        c = self.canvas
        left, width = self.margin, self.width - 2 * self.margin
        c.setDash(3, 3)
        c.setLineWidth(0.4)
        c.rect(left, top - height + 2 * mm, width, height - 4 * mm)
        c.setDash()
        x, y = left + 5 * mm, top - 10 * mm
        self.text(x, y, _("Table %(n)d · scoring device") % {"n": slip.table}, size=15,
                  bold=True)
        self.text(x, y - 6 * mm, f"{self.title} · {self.round_name}", size=9, colour=0.3)
        lines = [(_("Log in at"), self.login_url), (_("User name"), slip.username),
                 (_("Password"), slip.password), (_("API token"), slip.token)]
        room = width - 60 * mm
        for n, (label, value) in enumerate(lines):
            row = y - 16 * mm - n * 7 * mm
            self.text(x, row, label, size=9, colour=0.35)
            self.text(x + 28 * mm, row, value, bold=label != _("Log in at"),
                      size=fit_text(value, 11, room - 28 * mm, bold=True))
        warning = _("For this table's device only: never show it to players or leave it "
                    "on the table. A new set of slips makes this one stop working.")
        self.text(x, top - height + 7 * mm, warning,
                  size=fit_text(warning, 8, width - 10 * mm), colour=0.3)
        size = min(height - 16 * mm, 40 * mm)
        draw_modules(c, self.qr.modules(qr_link(self.login_url, slip)),
                     left + width - size - 5 * mm, top - size - 8 * mm, size)


def qr_link(terminal_url: str, slip: DeviceSlip) -> str:
    """The address a slip's QR code opens: the terminal, with the device's account in the
    fragment (never sent to the server, nor kept in its logs)."""
    return f"{terminal_url}#{urlencode({'u': slip.username, 'p': slip.password})}"
