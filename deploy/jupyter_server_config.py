"""Jupyter Server's configuration for a learner's own server under JupyterHub.

``deploy/jupyterhub_config.py`` starts each learner's single-user server with
``--config=<this file>``; on Kubernetes the single-user image carries it (see
``deploy/README.md``). It does three things:

1. The course's own settings, the same as ``./dev serve`` (``deploy/voila.py``): sources
   stripped, no tracebacks, the page's language chosen before its kernel starts, the
   kernel of a closed or vanished page shut down, kernels forked from the course's
   zygote, the fixes of ``tutor.server.fixes``. Voila runs here as Jupyter Server's
   extension, so a lesson is ``/user/<name>/voila/render/05-following.ipynb`` and the
   home is ``/user/<name>/voila/render/index.ipynb``.

2. A learner's server is a Voila server and nothing more: a learner opens the lessons and
   answers their drills but gets no Python prompt of their own. No JupyterLab, no
   terminals, no language servers; the kernel websocket carries widget and kernel-info
   messages only (what Voila allows its own pages, ``voila/app.py``), so a kernel started
   through Jupyter Server's REST API runs no code either; the lessons cannot be written to
   through the server. This matters most with one OS account for everyone
   (``SimpleLocalProcessSpawner``, the one-machine trial), where the only code that runs
   is the lessons' own, as under ``./dev serve``. A teacher's server (``QD_SERVER_LAB=1``
   in its environment: the hub's ``QD_HUB_TEACHERS``) skips this part and has JupyterLab,
   in which the lessons can be edited: a lesson opens unchanged and is saved without
   outputs (nothing is written unless the teacher edited it), and no JupyterLite-only
   extension is loaded (``tutor/server/lab.py``). The same JupyterLab for a clone of the
   repository: ``./dev lab`` (``QD_SERVER_LAB=1 jupyter lab --config=deploy/jupyter_server_config.py``).

3. Stopping the server stops its kernels, however the hub stops it (see below).
"""

# mypy: ignore-errors
import os
import signal

from jupyter_server.services.contents.largefilemanager import AsyncLargeFileManager
from tornado.web import HTTPError

from tutor.server import configure
from tutor.server.forking import warm
from tutor.server.lab import configure_lab

c = get_config()  # type: ignore[name-defined]  # noqa: F821 - traitlets provides get_config

configure(c)  # the course's settings, as deploy/voila.py applies them for ./dev serve
warm()  # the kernel zygote preloads the course while the server starts

# Logging out is the hub's business: JupyterHub's identity provider keeps its own logout
# (``/user/<name>/logout`` goes to the hub's ``/hub/logout``). The course's logout fix is for
# the account-less ``./dev serve``, and JupyterHub's provider would only warn about it.
c.IdentityProvider.pop("logout_handler_class", None)


# Stopping a server must stop its kernels. JupyterHub's local spawners stop a server with
# SIGINT first; without a terminal, Jupyter Server takes SIGINT as a KeyboardInterrupt and
# exits without shutting its kernels down (only SIGTERM stops it cleanly, ServerApp.init_signal),
# leaving every kernel to notice on its own that its parent is gone. SIGINT is made a
# SIGTERM here; the server installs its SIGTERM handler after reading this file and does
# not replace this one (it only does when started from a terminal).
def _stop_cleanly(signum, frame):
    os.kill(os.getpid(), signal.SIGTERM)


signal.signal(signal.SIGINT, _stop_cleanly)


class ReadOnlyContents(AsyncLargeFileManager):
    """The lessons as Voila reads them; saving, renaming, deleting, copying, making new
    files and checkpoints are refused (403) through the server's contents API."""

    def _refuse(self, *args, **kwargs):
        raise HTTPError(403, "the course's lessons are read-only")

    save = delete_file = rename_file = copy = new = new_untitled = _refuse
    create_checkpoint = restore_checkpoint = delete_checkpoint = _refuse


if os.environ.get("QD_SERVER_LAB", "") != "1":
    c.ServerApp.jpserver_extensions = {
        "voila.server_extension": True,
        "jupyterlab": False,
        "notebook_shim": False,
        "jupyter_lsp": False,
        "jupyter_server_terminals": False,
    }
    c.ServerApp.terminals_enabled = False
    c.MappingKernelManager.allowed_message_types = [
        "comm_open", "comm_close", "comm_msg", "comm_info_request", "kernel_info_request", "shutdown_request",
    ]
    c.ServerApp.contents_manager_class = ReadOnlyContents
else:
    configure_lab(c)  # the lessons kept as the repository keeps them; no JupyterLite-only extension
