"""axe-core, the accessibility engine, run in a page under test (WCAG 2.1 A and AA).

axe-core comes from npm (``npm pack``, pinned by version and sha256, as the static site's build
fetches Pyodide) into the repository's ``.cache/axe``, once; the page is given the script
itself, so nothing is fetched from elsewhere at run time.

Axe judges only what is on screen, and a Voila or Voici page scrolls inside a box of its own:
:func:`audit` first makes the window as tall as the page's tallest scrolling content.
"""

from __future__ import annotations

import hashlib
import io
import shutil
import subprocess
import tarfile
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from collections.abc import Callable
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[2]
CACHE = REPO / ".cache" / "axe"
AXE = "4.14.1"
AXE_SHA256 = "e6b0ce02b84d892e2e33e403485e7f3d6c29e2be6df65daf44d89ba564139745"
"""The npm tarball's sha256: every run audits with the same rules."""
TAGS = ("wcag2a", "wcag2aa", "wcag21a", "wcag21aa")
"""The rules run: WCAG 2.0 and 2.1, levels A and AA."""
BLOCKING = ("critical", "serious")
"""The impacts a page may not have (the rest are listed in the README)."""
TALLEST = 20_000
"""The tallest window an audit opens (CSS px): Chromium draws no larger surface."""


@cache
def axe_script() -> str:
    """``axe.min.js`` of axe-core :data:`AXE`, fetched with npm the first time."""
    tarball = CACHE / f"axe-core-{AXE}.tgz"
    if not tarball.exists():
        npm = shutil.which("npm")
        if npm is None:
            pytest.fail("npm is needed to fetch axe-core (apt-get install -y npm)")
        CACHE.mkdir(parents=True, exist_ok=True)
        subprocess.run([npm, "pack", f"axe-core@{AXE}", "--pack-destination", str(CACHE), "--silent"], check=True,
                       stdout=subprocess.DEVNULL)
    data = tarball.read_bytes()
    digest = hashlib.sha256(data).hexdigest()
    if digest != AXE_SHA256:
        tarball.unlink()
        pytest.fail(f"axe-core@{AXE} from npm has sha256 {digest}, not {AXE_SHA256}")
    with tarfile.open(fileobj=io.BytesIO(data)) as archive:
        member = archive.extractfile("package/axe.min.js")
        assert member is not None
        return member.read().decode("utf-8")


@dataclass(frozen=True)
class Violation:
    """One rule a page broke: axe's rule id, its impact, what it asks, and where (CSS selectors)."""

    rule: str
    impact: str
    help: str
    targets: tuple[str, ...]
    html: tuple[str, ...]

    def __str__(self) -> str:
        return f"{self.impact} {self.rule} ({self.help}) ×{len(self.targets)}: {', '.join(self.targets[:4])} " \
               f"{' | '.join(h[:160] for h in self.html[:2])}"


FULL_HEIGHT = """() => {
  let tallest = document.documentElement.scrollHeight;
  for (const node of document.querySelectorAll('*')) {
    const style = getComputedStyle(node);
    if (/(auto|scroll)/.test(style.overflowY) && node.scrollHeight > node.clientHeight) {
      tallest = Math.max(tallest, node.scrollHeight + node.getBoundingClientRect().top + 40);
    }
  }
  return Math.ceil(tallest);
}"""

RUN = """async (tags) => {
  const result = await window.axe.run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] });
  return result.violations.map((v) => ({ rule: v.id, impact: v.impact || '', help: v.help,
    targets: v.nodes.map((n) => n.target.join(' ')), html: v.nodes.map((n) => n.html) }));
}"""


def audit(page: Any, tall: Callable[[Any], None] | None = None) -> list[Violation]:
    """Every WCAG 2.1 A/AA violation axe finds on ``page`` as it is now, the window made as tall
    as the page (its size put back after); ``tall(page)`` is called while it is (a screenshot
    of the whole page)."""
    size = page.viewport_size
    height = min(TALLEST, max(size["height"], int(page.evaluate(FULL_HEIGHT))))
    page.set_viewport_size({"width": size["width"], "height": height})
    try:
        page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
        if not page.evaluate("() => !!window.axe"):
            page.add_script_tag(content=axe_script())
        found: list[dict[str, Any]] = page.evaluate(RUN, list(TAGS))
        if tall is not None:
            tall(page)
    finally:
        page.set_viewport_size(size)
    return [Violation(v["rule"], v["impact"], v["help"], tuple(v["targets"]), tuple(v["html"])) for v in found]


def blocking(violations: list[Violation]) -> list[Violation]:
    """The critical and serious ones."""
    return [v for v in violations if v.impact in BLOCKING]
