"""What the translation layer costs: loading a language's catalogs once per kernel,
putting a lesson into a language once per page view (the Voila hook), and making and
checking a drill in each language (the feedback a learner waits for).
Run: python benchmarks/i18n.py"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
from collections.abc import Callable

import nbformat

from tools.catalogs import lesson_notebooks
from tutor.teach.drills import KINDS, generate
from tutor.teach.localize import lesson_text, localize

LANGUAGES = ("en", "zh-Hans", "zh-Hant")


def timed(action: Callable[[], object], count: int) -> tuple[float, float]:
    """Median and worst of ``count`` runs, in ms."""
    samples = []
    for _ in range(count):
        start = time.perf_counter()
        action()
        samples.append((time.perf_counter() - start) * 1000)
    return statistics.median(samples), max(samples)


def main() -> int:
    print("catalogs loaded in a fresh process (a kernel's first translation), ms:")
    for language in LANGUAGES:
        code = ("import time; from tutor.core.i18n import Translator; s = time.perf_counter(); "
                f"Translator({language!r}); print((time.perf_counter() - s) * 1000)")
        runs = [float(subprocess.check_output([sys.executable, "-c", code], text=True)) for _ in range(5)]
        print(f"  {language:8} median {statistics.median(runs):6.1f}")

    print("a lesson put into a language (per page view; catalog cached after the first), ms:")
    for language in LANGUAGES:
        pages = [(path.stem, nbformat.read(path, as_version=4)) for path in lesson_notebooks()]
        start = time.perf_counter()
        for slug, page in pages:
            lesson_text(slug, language)
        first = (time.perf_counter() - start) * 1000 / len(pages)
        median, worst = timed(lambda: [localize(page, slug, language, "seed=1") for slug, page in pages], 20)
        print(f"  {language:8} first {first:5.1f} (reading the .po)   then median {median / len(pages):5.2f}"
              f"  worst {worst / len(pages):5.2f}")

    print("a drill made and a wrong answer checked, all kinds, 300 per kind, ms:")
    for language in LANGUAGES:
        samples = []
        for kind in KINDS:
            for seed in range(300):
                start = time.perf_counter()
                drill = generate(kind, 20_000 + seed, 1 + seed % 3, lang=language)
                drill.check("0" if drill.answer.value == "number" else drill.choices[0].key if drill.choices
                            else [str(c) for c in drill.hand[: drill.pick or 1]])
                samples.append((time.perf_counter() - start) * 1000)
        samples.sort()
        print(f"  {language:8} median {statistics.median(samples):5.2f}  p95 {samples[int(len(samples) * .95)]:5.2f}"
              f"  worst {samples[-1]:6.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
