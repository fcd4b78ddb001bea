"""axe-core, the accessibility engine, run inside a Playwright page (issue 27).

axe-core comes from the npm registry, pinned by ``tests/package.json`` and its lock file,
and is installed into ``tests/node_modules`` by the README's test command and by .ci/run
(``npm ci --prefix tests``). Without it the axe tests skip on a laptop and fail in CI
(``require_part``), never pass silently.

The script is evaluated through the DevTools protocol (``page.evaluate``), which the page's
Content-Security-Policy does not govern: the policy stays in force for the page itself, so
the axe tests still fail on any violation the page commits (tests/conftest.py).
"""

from __future__ import annotations

from pathlib import Path

from tests.conftest import require_part

AXE_JS = Path(__file__).parent / "node_modules" / "axe-core" / "axe.min.js"

# Every WCAG 2.x A and AA rule and axe's best practices (landmarks, heading order, …): the
# rules the issue found broken on /api/docs are best practices, not WCAG criteria.
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]

_RUN = """async (tags) => {
  const results = await axe.run(document, {runOnly: {type: "tag", values: tags},
                                           resultTypes: ["violations"]});
  return results.violations.map(v => ({
    id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.map(n => ({target: n.target.join(" "),
                              summary: n.failureSummary, html: n.html.slice(0, 200)}))}));
}"""


def axe_source() -> str:
    require_part(AXE_JS.exists(), f"axe-core at {AXE_JS} (npm ci --prefix tests)")
    return AXE_JS.read_text(encoding="utf-8")


def axe_violations(page, source: str | None = None) -> list[dict]:
    """axe's violations on the page as it is now (its script injected if not there yet)."""
    if not page.evaluate("typeof window.axe === 'object'"):
        page.evaluate(source or axe_source())
    return page.evaluate(_RUN, TAGS)


def describe(violations: list[dict]) -> str:
    lines = []
    for violation in violations:
        lines.append(f"{violation['id']} ({violation['impact']}): {violation['help']}")
        for node in violation["nodes"][:6]:
            summary = " ".join((node["summary"] or "").split())
            lines.append(f"    {node['target']}: {summary[:300]}")
            lines.append(f"        {node['html']}")
        if len(violation["nodes"]) > 6:
            lines.append(f"    … and {len(violation['nodes']) - 6} more")
    return "\n".join(lines)


def assert_no_violation(page, where: str = "", source: str | None = None) -> None:
    violations = axe_violations(page, source)
    assert not violations, f"axe-core finds on {where or page.url}:\n" + describe(violations)
