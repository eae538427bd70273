"""Fixes to Voila and Jupyter Server that the course needs, each with its reason.

:func:`install` applies them to the classes (once, however often it is called); the
course's configuration (:func:`tutor.server.configure`) calls it, so they hold under
``./dev serve`` and in a JupyterHub user's server alike.
"""

# mypy: ignore-errors
from __future__ import annotations

import errno
import re
from functools import cache
from html import escape
from pathlib import Path

from jinja2 import pass_context
from jinja2.bccache import Bucket, BytecodeCache
from jupyter_core.utils import ensure_async
from jupyter_server.auth.decorator import allow_unauthenticated
from jupyter_server.auth.logout import LogoutHandler
from jupyter_server.base.handlers import JupyterHandler
from jupyter_server.services.kernels.websocket import KernelWebsocketHandler
from nbconvert.exporters.templateexporter import TemplateExporter
from nbformat.v4 import nbbase
from tornado.web import HTTPError, StaticFileHandler

import voila.paths
from voila.exporter import VoilaExporter
from voila.handler import BaseVoilaHandler, VoilaHandler
from voila.shutdown_kernel_handler import VoilaShutdownKernelHandler
from voila.static_file_handler import TemplateStaticFileHandler
from voila.tornado.contentshandler import VoilaContentsHandler
from voila.tornado.treehandler import TornadoVoilaTreeHandler

# Voila's page asks the server to shut its kernel down when the page unloads, with a
# beacon that cannot carry the XSRF token, so the server refuses it (403, Voila issue
# #1458) and every page view leaves a kernel behind. XSRF protection stays on for every
# other request; this one endpoint only shuts down the kernel whose random id it names,
# which only that page knows.
def _no_xsrf_for_kernel_shutdown(self):
    return None


# Feedback must feel instant. Jupyter Server leaves Nagle's algorithm on for kernel
# websockets, so a reply written just after the kernel's "busy" status waits ~40 ms for
# the browser's delayed acknowledgement. TCP_NODELAY sends it at once.
_open = KernelWebsocketHandler.open


async def _open_without_delay(self, *args, **kwargs):
    self.set_nodelay(True)
    return await _open(self, *args, **kwargs)


# Lessons work offline: Voila's page template links Font Awesome from a CDN; the course
# uses no icons from it, so those links are left out of the page.
_EXTERNAL = re.compile(r'<link[^>]+href="https?://[^"]*"[^>]*>|<script[^>]+src="https?://[^"]*"[^>]*>\s*</script>')
_HTML = re.compile(r'<html(?:\s+lang="[^"]*")?(?=[\s>])([^>]*)')
_write = VoilaHandler.write


def _write_offline(self, chunk):
    if isinstance(chunk, str):
        chunk = _EXTERNAL.sub("", chunk)
        language = getattr(self, "_qd_language", None)
        if language and "<html" in chunk:  # the page's language, for screen readers and CJK fonts
            chunk = _HTML.sub(f'<html lang="{language}"\\1', chunk, count=1)
            self._qd_language = None
    return _write(self, chunk)


# The course's home is its landing page (lessons/index.ipynb, with each learner's
# progress), so the address a teacher shares is simply the server's root. A folder
# without an index.ipynb keeps Voila's file list.

_tree_get = TornadoVoilaTreeHandler.get


async def _home_is_the_course(self, path=""):
    if path.strip("/") == "" and await ensure_async(self.contents_manager.file_exists("index.ipynb")):
        query = self.request.query
        target = self.base_url + "voila/render/index.ipynb" + (f"?{query}" if query else "")
        return self.redirect(target)
    return await _tree_get(self, path)


# Every bad request gets its 4xx status and a one-line warning in the log, never a 500 or
# a traceback; a genuine server error still logs its traceback (Tornado's log_exception).


# Error pages that render. Jupyter Server's write_error draws its own templates, which
# need a static_path Voila does not have (the page for a missing kernel, theme or
# labextension asset, or for /logout, was itself an exception); and a request refused
# before prepare() named its user (an unknown method, a path or argument that is not
# UTF-8) made the page ask for a user Jupyter Server refuses to look up then. Voila's own
# pages keep Voila's error page (nobody is logged in before prepare()); the others, which
# no learner opens, get a plain one. If Voila's page still cannot be drawn, the plain
# page is sent and the log says why in one line (the error it reports was logged before).
_write_error = JupyterHandler.write_error


def _plain_error_page(handler, status_code):
    reason = escape(getattr(handler, "_reason", "") or "Error")
    handler.set_header("Content-Type", "text/html; charset=UTF-8")
    handler.write(f"<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>{status_code} {reason}</title>"
                  f"</head><body><h1>{status_code} {reason}</h1></body></html>\n")


def _error_page_that_renders(self, status_code, **kwargs):
    if not hasattr(self, "_current_user"):  # refused before prepare(): nobody is logged in
        self._current_user = None
    if isinstance(self, BaseVoilaHandler):
        try:
            return _write_error(self, status_code, **kwargs)
        except Exception as error:
            self.log.warning("The %d page of %s could not be drawn: %r", status_code, self.request.path, error)
    return _plain_error_page(self, status_code)


# /logout drew Jupyter Server's logout page (a 500, see above). The course has no
# accounts, so there is nothing to log out of: 404. Started with a token, it logs out
# and goes home.
class Logout(LogoutHandler):
    @allow_unauthenticated
    def get(self):
        if not self.identity_provider.login_available:
            raise HTTPError(404)
        self.identity_provider.clear_login_cookie(self)
        self.redirect(self.base_url)


# A file name never holds a NUL byte, and the OS calls behind every static file handler
# raise ValueError on one (/voila/files/%00.png was a 500): no such file.
_parse_static_url = StaticFileHandler.parse_url_path


def _no_nul_in_file_names(self, url_path):
    if "\0" in url_path:
        raise HTTPError(404)
    return _parse_static_url(self, url_path)


# Voila's template assets are /voila/templates/<template>/static/<file>; its handler
# asserts that shape, so any other path (/voila/templates/, …/lab, …/lab/static/, a
# ../ or %2e%2e that leaves the template's static folder) was a 500 with a traceback.
# Such a path names no asset: 404.
_parse_template_url = TemplateStaticFileHandler.parse_url_path


def _template_asset_or_404(self, path):
    parts = path.split("/")
    if len(parts) < 3 or parts[1] != "static" or any(part in ("", ".", "..") for part in parts):
        raise HTTPError(404)
    return _parse_template_url(self, path)


# The contents API looked up a 10,000-character name on disk, and the OS's "file name too
# long" was a 500. No file has such a name: 404, like any other missing file.
_contents_get = VoilaContentsHandler.get


async def _contents_or_404(self, path=""):
    try:
        return await _contents_get(self, path)
    except OSError as error:
        if error.errno != errno.ENAMETOOLONG:
            raise
        raise HTTPError(404, "file or directory does not exist") from None


# Voila makes a new exporter, so a new Jinja environment, for every page, and Jinja then
# parses and compiles the page's templates again: a third of the server's CPU per page
# view. The compiled templates are kept in memory for every environment of this process
# (Jinja's bytecode cache, keyed by template, file, async mode and extensions, and checked
# against the template's source, so an edited template is compiled afresh).
class _CompiledTemplates(BytecodeCache):
    def __init__(self):
        self._code = {}

    def get_bucket(self, environment, name, filename, source):
        mode = f"{environment.is_async}:{','.join(sorted(environment.extensions))}"
        bucket = Bucket(environment, f"{self.get_cache_key(name, filename)}:{mode}",
                        self.get_source_checksum(source))
        self.load_bytecode(bucket)
        return bucket

    def load_bytecode(self, bucket):
        code = self._code.get(bucket.key)
        if code is not None:
            bucket.bytecode_from_string(code)

    def dump_bytecode(self, bucket):
        self._code[bucket.key] = bucket.bytecode_to_string()


_COMPILED = _CompiledTemplates()
_create_environment = TemplateExporter._create_environment


def _environment_with_compiled_templates(self):
    environment = _create_environment(self)
    environment.bytecode_cache = _COMPILED
    return environment


# Voila renders each lesson's markdown cells with mistune on every page view: a sixth of
# the server's CPU per view, for text that is the same for every learner of a language.
# A cell without attachments renders the same every time, so each rendering is kept.
_markdown2html = VoilaExporter.markdown2html


@pass_context  # as Voila's own: Jinja hands it the cell's context
def _markdown_once(self, context, source):
    if context["cell"].get("attachments"):
        return _markdown2html(self, context, source)
    key = (source, self.anchor_link_text, self.markdown_renderer_class)
    html = _MARKDOWN.get(key)
    if html is None:
        html = _markdown2html(self, context, source)
        if len(_MARKDOWN) >= MAX_MARKDOWN:
            _MARKDOWN.pop(next(iter(_MARKDOWN)))
        _MARKDOWN[key] = html
    return html


_MARKDOWN = {}
MAX_MARKDOWN = 4096  # the course has ~200 markdown cells in each of 3 languages


# Every output a kernel sends is checked against the notebook format's JSON schema as
# nbclient records it (nbformat's new_output; so is every node nbformat's constructors make
# in this process): a tenth of the server's CPU per page view, for outputs of the course's
# own kernels that Voila renders without the schema anyway. The notebooks themselves are
# still validated when they are read.
def _output_unchecked(node, ref=None):
    return None


# The course's own Voila template (tutor.server.TEMPLATE) lives in a Jupyter data folder
# beside this module, searched before Jupyter's own. Not through JUPYTER_PATH: a JupyterHub
# user server started with disable_user_config fixes Jupyter's data path before any config
# file runs, so only Voila's own search can be told.
SHARE = Path(__file__).resolve().parent / "share" / "jupyter"
_root_dirs = voila.paths._default_root_dirs


def _root_dirs_with_the_course():
    return [str(SHARE), *_root_dirs()]


@cache  # once: the fixes wrap the classes' own methods, captured above
def install() -> None:
    """Apply every fix above to Voila's and Jupyter Server's classes (idempotent)."""
    VoilaShutdownKernelHandler.check_xsrf_cookie = _no_xsrf_for_kernel_shutdown
    KernelWebsocketHandler.open = _open_without_delay
    VoilaHandler.write = _write_offline
    TornadoVoilaTreeHandler.get = _home_is_the_course
    JupyterHandler.write_error = _error_page_that_renders
    StaticFileHandler.parse_url_path = _no_nul_in_file_names
    TemplateStaticFileHandler.parse_url_path = _template_asset_or_404
    VoilaContentsHandler.get = _contents_or_404
    TemplateExporter._create_environment = _environment_with_compiled_templates
    VoilaExporter.markdown2html = _markdown_once
    voila.paths._default_root_dirs = _root_dirs_with_the_course
    nbbase.validate = _output_unchecked
