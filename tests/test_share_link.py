"""A link to share (``widgets.views.link_view``, on the positions page): the link in a
read-only field that wraps it anywhere, a Copy button, a link to open it — and a small
script that makes the link whole from the page's own address, since the kernel does not
know the host. Run in a real page by ``tests/browser/test_teacher_browser.py``; here, the
markup: what the page is given, escaped, and what it is without the script."""

from __future__ import annotations

import re
from html import unescape

from tutor.core.i18n import Translator
from widgets.views import SHARE_CSS, link_view

HREF = 'positions.ipynb?position=kind%3A+trick&x="<b>"'


def test_the_link_is_in_a_read_only_field_that_wraps_it() -> None:
    view = link_view(HREF)
    box = re.search(r'<div class="qd-share qd-position-link" data-qd="share-link" data-href="([^"]*)"', view)
    assert box and unescape(box.group(1)) == HREF and "<b>" not in view  # escaped wherever it stands
    field = re.search(r'<textarea id="(qd-share-\d+)" class="qd-share-field" data-qd="share-field" readonly[^>]*>'
                      r'([^<]*)</textarea>', view)
    assert field and unescape(field.group(2)) == HREF  # without the script: the relative link, whole
    assert f'<label class="qd-share-label" for="{field.group(1)}">The link to share:</label>' in view
    assert re.search(r"\.qd-share-field\{[^}]*overflow-wrap:anywhere", SHARE_CSS)
    assert re.search(r"\.qd-share-field\{[^}]*white-space:pre-wrap", SHARE_CSS)


def test_copy_is_a_button_shown_once_the_page_made_the_link_whole() -> None:
    view = link_view(HREF)
    assert '<button type="button" class="qd-share-copy" data-qd="share-copy" hidden>Copy</button>' in view
    assert 'role="status" aria-live="polite"' in view and 'data-copied="Copied."' in view
    script = view[view.index("<script>"):]
    assert "new URL(box.dataset.href, window.location.href)" in script  # the page's own origin and path
    assert "navigator.clipboard" in script and 'execCommand("copy")' in script  # and a fallback
    assert "copy.hidden = false" in script


def test_each_link_has_a_field_of_its_own() -> None:
    first, second = link_view("a"), link_view("b")
    ids = [re.search(r'id="(qd-share-\d+)"', view).group(1) for view in (first, second)]  # type: ignore[union-attr]
    assert ids[0] != ids[1]


def test_the_link_is_said_in_the_pages_language() -> None:
    view = link_view("x", lang="zh-Hant")
    tr = Translator("zh-Hant")
    assert f">{tr('The link to share:')}</label>" in view and f">{tr('Copy')}</button>" in view
    assert f'data-copied="{tr("Copied.")}"' in view
