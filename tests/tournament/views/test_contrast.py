"""WCAG AA contrast (issue 12, item 7): text at least 4.5:1 against its background, large
text (24 px, or 18.66 px bold) at least 3:1. First the stylesheet's colour pairs worked out
from site.css itself; then every text on the staff and public pages as the browser draws it
(computed colours, the background found by walking up to the first opaque ancestor)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.urls import reverse

from tests.tournament.views.public_event import build_event
from tests.tournament.views.test_browser_staff import PHONE, director_pages, log_in
from tournament.models import Match, Stage
from tournament.services.stages import create_stage

CSS = Path(__file__).resolve().parents[3] / "tournament/static/tournament/site.css"


def luminance(hex_colour: str) -> float:
    hex_colour = hex_colour.lstrip("#")
    if len(hex_colour) == 3:
        hex_colour = "".join(c * 2 for c in hex_colour)
    channels = [int(hex_colour[i:i + 2], 16) / 255 for i in (0, 2, 4)]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def ratio(one: str, two: str) -> float:
    light, dark = sorted((luminance(one), luminance(two)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def test_ratio_matches_known_values():
    assert round(ratio("#000", "#fff"), 1) == 21.0
    assert round(ratio("#777777", "#ffffff"), 2) == 4.48


def variables() -> dict[str, str]:
    root = re.search(r":root\s*{(.*?)}", CSS.read_text(), re.S).group(1)
    return dict(re.findall(r"--([\w-]+):\s*(#[0-9a-fA-F]{3,6})", root))


def rule_colours(selector: str) -> dict[str, str]:
    """The colour and background of the first rule written for ``selector`` exactly."""
    text = CSS.read_text()
    match = re.search(r"(?m)^" + re.escape(selector) + r"\s*{([^}]*)}", text)
    assert match, selector
    found = {}
    for prop, value in re.findall(r"(background|color):\s*([^;]+);", match.group(1)):
        value = value.strip()
        colour = variables().get(value[6:-1]) if value.startswith("var(") else value
        found[prop] = colour
    return found


def test_the_colour_variables_pass_on_every_background_they_are_used_on():
    v = variables()
    backgrounds = {"card": v["card"], "page": v["bg"], "th": "#f9fafb",
                   "provisional row": "#fffbeb", "qualified row": "#f0fdf4",
                   "reader row": "#ecfdf5"}
    low = []
    for name in ("ink", "muted", "felt", "red", "amber", "ok"):
        for where, background in backgrounds.items():
            if ratio(v[name], background) < 4.5:
                low.append(f"--{name} {v[name]} on {where} {background}: "
                           f"{ratio(v[name], background):.2f}")
    # White text on the filled buttons, the top bar and the current tab.
    for name in ("felt", "felt-dark", "red"):
        if ratio("#ffffff", v[name]) < 4.5:
            low.append(f"white on --{name}: {ratio('#ffffff', v[name]):.2f}")
    assert not low, "\n".join(low)


@pytest.mark.parametrize("selector", [
    ".badge-running", ".badge-setup", ".badge-finished", ".badge-provisional",
    ".badge-forfeited", ".badge-active", ".badge-correcting", ".badge-undone",
])
def test_every_badge_passes(selector):
    colours = rule_colours(selector)
    text = colours.get("color", variables()["ink"])
    assert ratio(text, colours["background"]) >= 4.5, (selector, colours,
                                                        ratio(text, colours["background"]))


# In the browser --------------------------------------------------------------------------

LOW_CONTRAST = """() => {
  const parse = c => { const m = c.match(/[\\d.]+/g); return m ? m.map(Number) : [0, 0, 0, 0]; };
  const lum = ([r, g, b]) => {
    const f = c => { c /= 255; return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  };
  const over = (top, below) => {  // alpha blending of one colour over an opaque one
    const a = top.length > 3 ? top[3] : 1;
    return [0, 1, 2].map(i => top[i] * a + below[i] * (1 - a));
  };
  const background = e => {
    const layers = [];
    for (let n = e; n; n = n.parentElement) {
      const c = parse(getComputedStyle(n).backgroundColor);
      const a = c.length > 3 ? c[3] : 1;
      if (a > 0) { layers.push(c); if (a >= 1) break; }
    }
    let colour = [255, 255, 255];
    for (const layer of layers.reverse()) colour = over(layer, colour);
    return colour;
  };
  const low = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const seen = new Set();
  while (walker.nextNode()) {
    const e = walker.currentNode.parentElement;
    if (!walker.currentNode.textContent.trim() || seen.has(e)) continue;
    seen.add(e);
    if (e.closest('[aria-hidden="true"], .visually-hidden, .skip, option, [disabled], noscript'))
      continue;
    const style = getComputedStyle(e);
    if (style.visibility === 'hidden' || !(e.offsetWidth || e.offsetHeight)) continue;
    let opacity = 1;
    for (let n = e; n; n = n.parentElement) opacity *= +getComputedStyle(n).opacity;
    const back = background(e);
    const fore = over([...parse(style.color).slice(0, 3), (parse(style.color)[3] ?? 1) * opacity],
                      back);
    const [l1, l2] = [lum(fore), lum(back)].sort((a, b) => b - a);
    const ratio = (l1 + 0.05) / (l2 + 0.05);
    const size = parseFloat(style.fontSize), bold = +style.fontWeight >= 700;
    const large = size >= 24 || (bold && size >= 18.66);
    if (ratio < (large ? 3 : 4.5))
      low.push(`${ratio.toFixed(2)} "${walker.currentNode.textContent.trim().slice(0, 30)}" `
               + `(${e.tagName.toLowerCase()}.${e.className}: ${style.color} `
               + `on rgb(${back.map(Math.round)}))`);
  }
  return low;
}"""


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_every_text_on_the_staff_and_public_pages_has_aa_contrast(page, live_server,
                                                                  tournament, director_actor,
                                                                  make_team):
    tournament.anomaly_threshold = 1
    tournament.save()
    event = build_event(director_actor, tournament, make_team, closed=1)
    create_stage(director_actor, tournament, name="Final", kind=Stage.Kind.KNOCKOUT,
                 qualify_from=event.stage, qualifiers_per_group=2)
    page.set_viewport_size(PHONE)
    found = {}
    match = Match.objects.filter(round=event.closed[0]).first()
    public = [reverse("public:home"), reverse("public:tournament", args=[tournament.slug]),
              reverse("public:standings", args=[tournament.slug]),
              reverse("public:match", args=[tournament.slug, match.pk]),
              reverse("public:round", args=[tournament.slug, event.closed[0].pk]),
              reverse("public:penalties", args=[tournament.slug]), reverse("login")]
    for path in public:
        page.goto(live_server.url + path)
        if low := page.evaluate(LOW_CONTRAST):
            found[path] = low
    log_in(page, live_server, director_actor.user)
    for key, path in director_pages(tournament, event):
        page.goto(live_server.url + path)
        if low := page.evaluate(LOW_CONTRAST):
            found[key] = low
    assert not found, "\n".join(f"{key}: {low}" for key, low in found.items())
    # The check finds grey on white when there is some.
    page.evaluate("""() => { const p = document.createElement('p'); p.textContent = 'faint';
        p.style.color = '#aaaaaa'; document.querySelector('main').append(p); }""")
    assert any('"faint"' in line for line in page.evaluate(LOW_CONTRAST))
