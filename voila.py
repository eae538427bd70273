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
