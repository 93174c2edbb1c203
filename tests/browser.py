"""Shared helpers for the book and browser tests.

- which pages the book has, read from ``_toc.yml`` (so new chapters are tested without
  editing any test);
- a web server for a folder, on 127.0.0.1 only;
- JupyterLab on 127.0.0.1 with a throw-away configuration, stopped for sure afterwards;
- headless Chromium (the system one, driven by Playwright) that records every request
  and lets nothing leave 127.0.0.1;
- what every JupyterLab test does: write throw-away notebooks, open one, Run All, check
  that no cell raised and that no request left 127.0.0.1.

The fixtures that use these live in ``conftest.py``.
"""

from __future__ import annotations

import functools
import http.server
import json
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

import nbformat
import pytest
import yaml
from playwright.sync_api import TimeoutError as PlaywrightTimeout

REPO = Path(__file__).resolve().parent.parent
BUILD_HTML = REPO / "_build" / "html"
TOC_FILE = REPO / "_toc.yml"
CHROMIUM = Path("/usr/bin/chromium")
LOCAL_HOST = "127.0.0.1"

# Flags that keep Chromium from phoning home (updates, sync, QUIC probes) on its own:
# every request it makes should then come from the page under test.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
VIEWPORT = {"width": 1280, "height": 900}

# Schemes that never reach the network.
NON_NETWORK_SCHEMES = {"data", "blob", "about", "javascript"}


# ---------------------------------------------------------------------------- the book's pages


@dataclass(frozen=True)
class TocPage:
    """One page of the book as ``_toc.yml`` lists it.

    ``docname`` is the path from the repository root without suffix (``notebooks/02_bandits``);
    ``source`` is the file it is built from, or None when that file does not exist (yet).
    """

    docname: str
    source: Path | None

    @property
    def html(self) -> str:
        """Path of the built page, relative to ``_build/html``."""
        return f"{self.docname}.html"

    @property
    def is_notebook(self) -> bool:
        """True for chapter pages, which are built from a notebook."""
        return self.source is not None and self.source.suffix == ".ipynb"


def toc_docnames(toc_file: Path = TOC_FILE) -> list[str]:
    """Every page listed in a Jupyter Book 1.x table of contents, root first, in reading order."""
    toc = yaml.safe_load(toc_file.read_text(encoding="utf-8"))
    names = [_strip_suffix(toc["root"])]

    def walk(entries):
        for entry in entries or []:
            if "file" in entry:
                names.append(_strip_suffix(entry["file"]))
            walk(entry.get("sections"))

    walk(toc.get("chapters"))
    walk(toc.get("sections"))
    for part in toc.get("parts") or []:
        walk(part.get("chapters"))
    return names


def toc_pages(repo: Path = REPO) -> list[TocPage]:
    """The book's pages with the source file of each (None where it is missing)."""
    return [TocPage(name, _find_source(repo, name)) for name in toc_docnames(repo / "_toc.yml")]


def _strip_suffix(name: str) -> str:
    return re.sub(r"\.(ipynb|md|rst)$", "", str(name))


def _find_source(repo: Path, docname: str) -> Path | None:
    for suffix in (".ipynb", ".md", ".rst"):
        path = repo / f"{docname}{suffix}"
        if path.is_file():
            return path
    return None


# Output mime types in the order myst-nb picks one for HTML (myst_nb.core.render.get_mime_priority).
MYST_NB_HTML_PRIORITY = (
    "application/vnd.jupyter.widget-view+json",
    "application/javascript",
    "text/html",
    "image/svg+xml",
    "image/png",
    "image/gif",
    "image/jpeg",
    "text/markdown",
    "text/latex",
    "text/plain",
)
REMOVE_OUTPUT_TAGS = {"remove-output", "remove_output", "remove-cell", "remove_cell"}


def count_image_outputs(notebook: Path) -> int:
    """How many outputs of a notebook the book shows as an image (a figure)."""
    cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
    count = 0
    for cell in cells:
        if cell["cell_type"] != "code":
            continue
        if REMOVE_OUTPUT_TAGS & set(cell.get("metadata", {}).get("tags", [])):
            continue
        for output in cell.get("outputs", []):
            shown = next((m for m in MYST_NB_HTML_PRIORITY if m in output.get("data", {})), "")
            count += shown.startswith("image/")
            if shown == "text/html":  # pictures inside HTML (the tree explorer's static steps)
                html = output["data"]["text/html"]
                count += ("".join(html) if isinstance(html, list) else html).count("<img")
    return count


# ------------------------------------------------------------------------------ local servers


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as sock:
        sock.bind((LOCAL_HOST, 0))
        return sock.getsockname()[1]


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):  # keep pytest's output readable
        pass


class QuietServer(http.server.ThreadingHTTPServer):
    """A threading HTTP server that takes a client hanging up early as normal.

    A browser closes connections whenever it likes: it leaves a page, cancels
    a request it no longer needs, or is closed at the end of a test. The
    handler writing to such a connection gets BrokenPipeError or
    ConnectionResetError (both ConnectionError), which socketserver would print
    as a traceback on stderr. Any other error is still printed.
    """

    def handle_error(self, request, client_address):
        if isinstance(sys.exc_info()[1], ConnectionError):
            return
        super().handle_error(request, client_address)


@contextmanager
def serve_folder(folder: Path, server_class: type = QuietServer):
    """Serve ``folder`` over HTTP on 127.0.0.1 (a free port); yields the base URL, ending in /.

    ``server_class`` is for the test of :class:`QuietServer` itself, which compares it
    with the standard library's server.
    """
    handler = functools.partial(_QuietHandler, directory=str(folder))
    server = server_class((LOCAL_HOST, 0), handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://{LOCAL_HOST}:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


@dataclass
class LabServer:
    """A running JupyterLab: where it is, its token and its log file."""

    url: str
    token: str
    root_dir: Path
    log: Path

    def tail(self, chars: int = 3000) -> str:
        """The end of the server log, for failure messages."""
        return self.log.read_text(errors="replace")[-chars:] if self.log.exists() else ""


def _lab_settings(settings_dir: Path) -> None:
    """User settings that keep a fresh JupyterLab quiet and predictable for a test."""
    settings = {
        # No "Would you like to receive official Jupyter news?" pop-up and no update check.
        "@jupyterlab/apputils-extension/notification": {
            "fetchNews": "false",
            "checkForUpdates": False,
        },
        # Render every cell (no windowing), so the page holds the whole notebook.
        "@jupyterlab/notebook-extension/tracker": {"windowingMode": "none"},
        # The extension manager would ask PyPI for extensions.
        "@jupyterlab/extensionmanager-extension/plugin": {"enabled": False},
    }
    for plugin, values in settings.items():
        path = settings_dir / f"{plugin}.jupyterlab-settings"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(values), encoding="utf-8")


@contextmanager
def jupyterlab(notebooks: Path, work_dir: Path, startup_timeout: float = 60.0):
    """Start JupyterLab on a copy of ``notebooks``; yields a LabServer; always stops it.

    Everything JupyterLab writes (workspaces, settings, runtime files, the copy of the
    notebooks) goes under ``work_dir``. The server gets its own process group, so stopping
    it also stops anything it started.
    """
    root_dir = work_dir / "notebooks"
    shutil.copytree(notebooks, root_dir, ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
    _lab_settings(work_dir / "settings")
    port, token = free_port(), secrets.token_hex(16)
    env = dict(
        os.environ,
        JUPYTER_CONFIG_DIR=str(work_dir / "config"),
        JUPYTER_DATA_DIR=str(work_dir / "data"),
        JUPYTER_RUNTIME_DIR=str(work_dir / "runtime"),
        MCTSLIB_PROGRESS="1",  # a reader sees progress bars; they must not break anything
    )
    env.pop("MPLBACKEND", None)  # a reader's kernel draws inline figures
    command = [
        sys.executable, "-m", "jupyterlab", "--no-browser", "--allow-root",
        f"--ip={LOCAL_HOST}", f"--port={port}", f"--IdentityProvider.token={token}",
        f"--ServerApp.root_dir={root_dir}",
        f"--LabApp.workspaces_dir={work_dir / 'workspaces'}",
        f"--LabApp.user_settings_dir={work_dir / 'settings'}",
        "--LabApp.news_url=None",
        "--LabApp.check_for_updates_class=jupyterlab.handlers.announcements.NeverCheckForUpdate",
        # Lets the test read the notebook model (outputs, execution counts) in the page.
        "--LabApp.expose_app_in_browser=True",
    ]  # fmt: skip
    log = work_dir / "jupyterlab.log"
    with open(log, "w") as log_file:
        process = subprocess.Popen(
            command, cwd=root_dir, env=env, stdout=log_file, stderr=subprocess.STDOUT,
            start_new_session=True,
        )  # fmt: skip
    server = LabServer(f"http://{LOCAL_HOST}:{port}", token, root_dir, log)
    try:
        _wait_until_lab_answers(server, process, startup_timeout)
        yield server
    finally:
        _stop_lab(server, process)


def _wait_until_lab_answers(server: LabServer, process: subprocess.Popen, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(
                f"JupyterLab exited with code {process.returncode}:\n{server.tail()}"
            )
        try:
            _lab_api(server, "GET", "/api/status", timeout=2)
            return
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            time.sleep(0.2)
    raise RuntimeError(f"JupyterLab did not answer within {timeout:.0f} s:\n{server.tail()}")


def _lab_api(server: LabServer, method: str, path: str, timeout: float = 5):
    request = urllib.request.Request(
        server.url + path, method=method, headers={"Authorization": f"token {server.token}"}
    )
    with urllib.request.urlopen(request, timeout=timeout) as response:
        body = response.read()
    return json.loads(body) if body else None


def _stop_lab(server: LabServer, process: subprocess.Popen) -> None:
    """Shut the kernels down through the API, then stop the server's whole process group."""
    if process.poll() is None:
        try:
            for kernel in _lab_api(server, "GET", "/api/kernels") or []:
                _lab_api(server, "DELETE", f"/api/kernels/{kernel['id']}", timeout=10)
        except (OSError, ValueError):
            pass  # the server is going away anyway; the signals below make sure of it
    for sig, grace in ((signal.SIGTERM, 10), (signal.SIGKILL, 5)):
        try:
            os.killpg(process.pid, sig)
        except ProcessLookupError:
            break
        try:
            process.wait(timeout=grace)
            break
        except subprocess.TimeoutExpired:
            continue
    # Kernels run in process groups of their own, so killpg does not reach them: the API call
    # above (or the server's SIGTERM handler) stops them, and an orphaned ipykernel exits by
    # itself when it notices its parent is gone.


# ----------------------------------------------------------------------------------- Chromium


def is_local(url: str) -> bool:
    """True if loading ``url`` stays on this machine's 127.0.0.1 (or needs no network)."""
    parts = urlsplit(url)
    if parts.scheme in NON_NETWORK_SCHEMES:
        return True
    return parts.hostname == LOCAL_HOST


@dataclass
class NetworkLog:
    """Every request a browser context made; those that would leave 127.0.0.1 are blocked."""

    requests: list[str] = field(default_factory=list)
    blocked: list[str] = field(default_factory=list)

    def route(self, route) -> None:
        url = route.request.url
        self.requests.append(url)
        if is_local(url):
            route.continue_()
        else:
            # Recorded as a failure by the tests; aborting keeps a test from waiting on a
            # network that is not there.
            self.blocked.append(url)
            route.abort()

    def watch_websockets(self, page) -> None:
        page.on("websocket", lambda websocket: self._record_websocket(websocket.url))

    def _record_websocket(self, url: str) -> None:
        self.requests.append(url)
        if not is_local(url):
            self.blocked.append(url)


@contextmanager
def chromium(playwright, user_data_dir: Path):
    """Headless system Chromium with a fresh profile; yields (context, NetworkLog).

    Never calls ``playwright install``: Playwright drives /usr/bin/chromium.
    """
    context = playwright.chromium.launch_persistent_context(
        str(user_data_dir),
        executable_path=str(CHROMIUM),
        headless=True,
        args=CHROMIUM_ARGS,
        viewport=VIEWPORT,
    )
    network = NetworkLog()
    try:
        context.route("**/*", network.route)
        # WebSockets bypass routing: record them on every page, open now or later.
        for page in context.pages:
            network.watch_websockets(page)
        context.on("page", network.watch_websockets)
        yield context, network
    finally:
        context.close()


# ------------------------------------------------------------ JupyterLab pages (test_jupyterlab_*)

KERNEL_IDLE_JS = """() => {
  const panel = window.jupyterapp && window.jupyterapp.shell.currentWidget;
  const kernel = panel && panel.sessionContext && panel.sessionContext.session
    && panel.sessionContext.session.kernel;
  return kernel && kernel.status === 'idle';
}"""
# Run All is over when the kernel is idle and every code cell has an execution count (a
# queued or running cell has none: JupyterLab shows it as [*]), or when a cell raised (Run
# All stops there).
RUN_ALL_OVER_JS = """() => {
  const panel = window.jupyterapp.shell.currentWidget;
  const cells = panel.content.model.toJSON().cells.filter(c => c.cell_type === 'code');
  const raised = cells.some(c => c.outputs.some(o => o.output_type === 'error'));
  const allRan = cells.every(c => c.execution_count !== null);
  return panel.sessionContext.session.kernel.status === 'idle' && (allRan || raised);
}"""
NOTEBOOK_JSON_JS = "() => window.jupyterapp.shell.currentWidget.content.model.toJSON()"


def click_menu(page, menu: str, command: str) -> None:
    """Open a menu of JupyterLab's menu bar and click the item that runs ``command``."""
    page.locator(".lm-MenuBar-item", has_text=re.compile(rf"^{menu}$")).click()
    page.locator(f"li.lm-Menu-item[data-command='{command}']").click()


def wait_for(page, condition: str, timeout_ms: int, failure: str) -> None:
    """Wait until the JavaScript ``condition`` holds; fail with ``failure`` if it never does."""
    try:
        page.wait_for_function(condition, timeout=timeout_ms, polling=250)
    except PlaywrightTimeout:
        pytest.fail(f"{failure} (waited {timeout_ms / 1000:.0f} s)")


def code_notebook(code: str) -> nbformat.NotebookNode:
    """A notebook of one code cell holding ``code``, for the default Python kernel."""
    notebook = nbformat.v4.new_notebook()
    notebook.cells = [nbformat.v4.new_code_cell(code)]
    notebook.metadata["kernelspec"] = {
        "name": "python3", "display_name": "Python 3 (ipykernel)", "language": "python"}
    return notebook


@contextmanager
def jupyterlab_on(notebooks: dict[str, nbformat.NotebookNode], tmp_path_factory, name: str):
    """JupyterLab on a temporary folder holding only ``notebooks`` (file name: notebook).

    The folder, like everything JupyterLab writes, is a temporary one named after ``name``:
    a test never writes into the repository.
    """
    folder = tmp_path_factory.mktemp(f"{name}-notebooks")
    for filename, notebook in notebooks.items():
        nbformat.write(notebook, folder / filename)
    with jupyterlab(folder, tmp_path_factory.mktemp(f"jupyterlab-{name}")) as server:
        yield server


def open_and_run_all(context, lab: LabServer, notebook: str, run_timeout_ms: int,
                     clear_outputs: bool = False):
    """A new page showing ``notebook`` after Run All; fails if a cell raised.

    With ``clear_outputs`` the stored outputs are cleared first, so that only what this
    run produced counts.
    """
    page = context.new_page()
    # A workspace of its own: the default one would reopen another test's notebook too.
    workspace = notebook.removesuffix(".ipynb")
    page.goto(f"{lab.url}/lab/workspaces/{workspace}/tree/{notebook}?token={lab.token}")
    wait_for(page, KERNEL_IDLE_JS, 60_000, f"{notebook} did not open with an idle kernel")
    if clear_outputs:
        click_menu(page, "Edit", "editmenu:clear-all")
    click_menu(page, "Run", "runmenu:run-all")
    wait_for(page, RUN_ALL_OVER_JS, run_timeout_ms, f"Run All on {notebook} did not finish")
    errors = [
        f"cell {index}: {output['ename']}: {output['evalue']}"
        for index, cell in enumerate(page.evaluate(NOTEBOOK_JSON_JS)["cells"])
        for output in cell.get("outputs", [])
        if output["output_type"] == "error"
    ]
    assert not errors, f"{notebook} raised in JupyterLab:\n" + "\n".join(errors)
    return page


def assert_stayed_local(network: NetworkLog) -> None:
    """Fail, listing them, if any of the browser's requests left 127.0.0.1."""
    outside = [url for url in network.requests if not is_local(url)]
    assert not outside, "JupyterLab's page fetched from outside 127.0.0.1:\n" + "\n".join(outside)


def finish_page(page, network: NetworkLog, shot: Path, selector: str | None = None) -> None:
    """Screenshot the page (or the element ``selector``) to ``shot``, then close it.

    Fails first if any of the browser's requests left 127.0.0.1; the screenshot is taken
    before, so that it is there to look at either way.
    """
    (page.locator(selector) if selector else page).screenshot(path=str(shot))
    print(f"\nscreenshot: {shot}")
    assert_stayed_local(network)
    page.close()
