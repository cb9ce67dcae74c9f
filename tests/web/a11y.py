"""axe-core in a Playwright page: the accessibility audit the browser tests run, light and dark.

axe-core is vendored (``vendor/axe.min.js``, 4.10.3 from the npm registry, MPL-2.0), so the audit runs in a
clean clone with nothing downloaded. The page must be opened with ``bypass_csp=True``: the display's policy
refuses a script it did not serve, which is what injecting axe is.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

AXE = Path(__file__).parent / "vendor" / "axe.min.js"
BLOCKING = ("serious", "critical")
SCHEMES = ("light", "dark")

_RUN = """async () => {
  const result = await axe.run(document, { resultTypes: ["violations"] });
  return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.slice(0, 4).map((n) => n.target.join(" ") + ": " + (n.failureSummary || "").split("\\n").slice(1, 2).join("")) }));
}"""


def audit(page: Any, where: str) -> list[str]:
    """The serious and critical violations on the page as it is now, in each colour scheme, as readable lines."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.add_script_tag(path=str(AXE))
    found = []
    for scheme in SCHEMES:
        page.emulate_media(color_scheme=scheme)
        for v in page.evaluate(_RUN):
            if v["impact"] in BLOCKING:
                found.append(f"{where} ({scheme}): {v['impact']} {v['id']} — {v['help']}: {v['nodes']}")
    page.emulate_media(color_scheme="light")
    return found


def contrast(page: Any, selector: str) -> list[float]:
    """The contrast ratio (WCAG) of each element's text against the first opaque background behind it."""
    return page.evaluate("""(selector) => {
      const rgb = (c) => (c.match(/[\\d.]+/g) || []).map(Number);
      const lum = ([r, g, b]) => [r, g, b].map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; })
        .reduce((s, v, i) => s + v * [0.2126, 0.7152, 0.0722][i], 0);
      const background = (el) => {
        for (let e = el; e; e = e.parentElement) {
          const c = rgb(getComputedStyle(e).backgroundColor);
          if (c.length >= 3 && (c.length === 3 || c[3] === 1)) return c;
        }
        return [255, 255, 255];
      };
      return [...document.querySelectorAll(selector)].map((el) => {
        const a = lum(rgb(getComputedStyle(el).color)), b = lum(background(el));
        return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
      });
    }""", selector)
