"""Lesson 10's way to a table of classmates, served and static (widgets.course.tables_html), and
the static build's address of the served course (tools.static_site.served_course)."""

from __future__ import annotations

import json

import nbformat
import pytest

from tools.static_site import SERVED, page_script, served_course
from tutor.core.i18n import Translator
from tutor.teach.localize import localize
from widgets.course import tables_html


@pytest.mark.parametrize(("address", "kept"), [
    ("https://class.example/", "https://class.example/"), ("http://10.0.0.5:8866", "http://10.0.0.5:8866"),
    ("javascript:alert(1)", ""), ('https://x.example/"><script>', ""), ("", ""), ("ftp://x", ""),
])
def test_the_static_site_points_only_to_an_http_address(monkeypatch: pytest.MonkeyPatch, address: str,
                                                          kept: str) -> None:
    monkeypatch.setenv(SERVED, address)
    assert served_course() == kept
    facts, _ = json.JSONDecoder().raw_decode(page_script().split("const SITE = ", 1)[1])
    assert facts["served"] == kept


def test_served_hub_and_static_pages_each_say_where_the_tables_are() -> None:
    tr = Translator("zh-Hans")
    served = tables_html(tr, static=False, environ={})
    hub = tables_html(tr, static=False, environ={"JUPYTERHUB_SERVICE_PREFIX": "/user/ana/", "JUPYTERHUB_BASE_URL": "/"})
    alone = tables_html(tr, static=True, environ={})
    pointed = tables_html(tr, static=True, environ={"QD_SERVED_COURSE": "https://class.example"})
    assert 'href="../../tables/"' in served and 'href="/services/tables/"' in hub
    assert "<a " not in alone and 'href="https://class.example/tables/"' in pointed
    assert all(any("\u4e00" <= ch <= "\u9fff" for ch in page) for page in (served, hub, alone, pointed))


@pytest.mark.parametrize("language", ["en", "zh-Hans", "zh-Hant"])
def test_a_static_page_tells_learners_in_their_words_and_teachers_both_link_formats(language: str) -> None:
    """Issue 43 item 13: a learner on the static site is not told to run a developer's command, and
    the home page's teacher section gives the static site's link format beside the served one."""
    alone = tables_html(Translator(language), static=True, environ={})
    assert "./dev" not in alone
    index = localize(nbformat.read("lessons/index.ipynb", as_version=4), "index", language)
    teachers = next(cell.source for cell in index.cells if cell.get("id") == "for-teachers")
    assert "voila/render/05-following.ipynb" in teachers
    assert "voici/render/en/05-following.html" in teachers
