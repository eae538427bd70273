"""Voila's configuration for the course, read when ``voila lessons`` starts from the
repository root (``./dev serve``). Each setting says why it is here."""

# mypy: ignore-errors
# ruff: noqa
import re

from jupyter_server.services.kernels.websocket import KernelWebsocketHandler
from voila.handler import VoilaHandler
from voila.shutdown_kernel_handler import VoilaShutdownKernelHandler

c = get_config()  # noqa: F821 — provided by traitlets when Voila loads this file

# Local only, and no browser window on a server.
c.Voila.ip = "127.0.0.1"
c.Voila.open_browser = False

# Learners see the lesson, never its code, and a friendly notice instead of a traceback.
c.VoilaConfiguration.strip_sources = True
c.VoilaConfiguration.show_tracebacks = False

# The course is drawn by Voila's lab template only. A link's ?template= would otherwise
# pick another one by name: an unknown name starts a kernel, then leaves the page loading
# forever (the render task dies, Voila keeps sending heartbeats), and a name with a path
# in it is a 500. ?theme= stays: the course follows the light and the dark theme.
c.VoilaConfiguration.allow_template_override = "NO"

# Every page in the learner's language (tutor/localize.py): the link's ?lang=, else the
# language this browser chose before (remembered in a cookie for a year), else the
# browser's own. The notebook is translated before it is rendered and its kernel starts
# in that language.
def _localize(handler, notebook, cwd):
    from pathlib import PurePosixPath
    from urllib.parse import unquote

    from tutor.localize import COOKIE, choose_language, link_language, localize

    query = handler.request.query
    language = choose_language(query, handler.get_cookie(COOKIE), handler.request.headers.get("Accept-Language"))
    if link_language(query):
        handler.set_cookie(COOKIE, language, path="/", expires_days=365, samesite="Lax")
    handler._qd_language = language
    # The notebook's name: Voila's own in single-notebook mode, else the page's path.
    name = handler.notebook_path or (handler.path_args[0] if handler.path_args else handler.request.path)
    return localize(notebook, PurePosixPath(unquote(name)).stem, language, query)


c.VoilaConfiguration.prelaunch_hook = _localize

# The 4 s default drops widget output when the machine is busy (STACK-NOTES).
c.VoilaExecutor.iopub_timeout = 30

# Kernels must not pile up. Closing or reloading a page shuts its kernel down (see the
# shutdown handler below); a kernel whose page vanished without saying so (a crashed tab,
# a laptop that slept) is culled after 5 idle minutes without a connection. A page that
# is still open keeps its kernel however long the learner reads.
c.MappingKernelManager.cull_idle_timeout = 300
c.MappingKernelManager.cull_interval = 60
c.MappingKernelManager.cull_connected = False
c.MappingKernelManager.cull_busy = False


# Voila's page asks the server to shut its kernel down when the page unloads, with a
# beacon that cannot carry the XSRF token, so the server refuses it (403, Voila issue
# #1458) and every page view leaves a kernel behind. XSRF protection stays on for every
# other request; this one endpoint only shuts down the kernel whose random id it names,
# which only that page knows.
def _no_xsrf_for_kernel_shutdown(self):
    return None


VoilaShutdownKernelHandler.check_xsrf_cookie = _no_xsrf_for_kernel_shutdown


# Feedback must feel instant. Jupyter Server leaves Nagle's algorithm on for kernel
# websockets, so a reply written just after the kernel's "busy" status waits ~40 ms for
# the browser's delayed acknowledgement. TCP_NODELAY sends it at once.
_open = KernelWebsocketHandler.open


async def _open_without_delay(self, *args, **kwargs):
    self.set_nodelay(True)
    return await _open(self, *args, **kwargs)


KernelWebsocketHandler.open = _open_without_delay


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


VoilaHandler.write = _write_offline


# The course's home is its landing page (lessons/index.ipynb, with each learner's
# progress), so the address a teacher shares is simply the server's root. A folder
# without an index.ipynb keeps Voila's file list.
from jupyter_core.utils import ensure_async  # noqa: E402
from voila.tornado.treehandler import TornadoVoilaTreeHandler  # noqa: E402

_tree_get = TornadoVoilaTreeHandler.get


async def _home_is_the_course(self, path=""):
    if path.strip("/") == "" and await ensure_async(self.contents_manager.file_exists("index.ipynb")):
        query = self.request.query
        target = self.base_url + "voila/render/index.ipynb" + (f"?{query}" if query else "")
        return self.redirect(target)
    return await _tree_get(self, path)


TornadoVoilaTreeHandler.get = _home_is_the_course


# Every bad request gets its 4xx status and a one-line warning in the log, never a 500 or
# a traceback; a genuine server error still logs its traceback (Tornado's log_exception).
import errno  # noqa: E402
from html import escape  # noqa: E402

from jupyter_server.auth.decorator import allow_unauthenticated  # noqa: E402
from jupyter_server.auth.logout import LogoutHandler  # noqa: E402
from jupyter_server.base.handlers import JupyterHandler  # noqa: E402
from tornado.web import HTTPError, StaticFileHandler  # noqa: E402
from voila.handler import BaseVoilaHandler  # noqa: E402
from voila.static_file_handler import TemplateStaticFileHandler  # noqa: E402
from voila.tornado.contentshandler import VoilaContentsHandler  # noqa: E402

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


JupyterHandler.write_error = _error_page_that_renders


# /logout drew Jupyter Server's logout page (a 500, see above). The course has no
# accounts, so there is nothing to log out of: 404. Started with a token, it logs out
# and goes home.
class _Logout(LogoutHandler):
    @allow_unauthenticated
    def get(self):
        if not self.identity_provider.login_available:
            raise HTTPError(404)
        self.identity_provider.clear_login_cookie(self)
        self.redirect(self.base_url)


c.IdentityProvider.logout_handler_class = _Logout


# A file name never holds a NUL byte, and the OS calls behind every static file handler
# raise ValueError on one (/voila/files/%00.png was a 500): no such file.
_parse_static_url = StaticFileHandler.parse_url_path


def _no_nul_in_file_names(self, url_path):
    if "\0" in url_path:
        raise HTTPError(404)
    return _parse_static_url(self, url_path)


StaticFileHandler.parse_url_path = _no_nul_in_file_names


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


TemplateStaticFileHandler.parse_url_path = _template_asset_or_404


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


VoilaContentsHandler.get = _contents_or_404
