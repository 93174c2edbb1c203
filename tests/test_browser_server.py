"""The browser tests' web server (tests/browser.py) takes a client hanging up early as normal.

A browser cancels requests and closes connections whenever it likes; the server then writes
to a closed socket. That must print nothing (a test run's output is read by people), while
any other error in a request still prints its traceback.
"""

from __future__ import annotations

import http.server
import socket
import struct
import sys
import threading
import time
from urllib.parse import urlsplit

import pytest
from browser import LOCAL_HOST, QuietServer, serve_folder

#: Far more than a loopback socket buffers, so the server is still writing when the client resets.
BIG_FILE_BYTES = 16 * 2**20


def _request_threads() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if "process_request_thread" in t.name]


def _hang_up_mid_download(base_url: str) -> None:
    """Ask for the big file, read a little of it, and reset the connection (as a closed tab does)."""
    port = urlsplit(base_url).port
    with socket.create_connection((LOCAL_HOST, port), timeout=10) as client:
        client.sendall(b"GET /big.bin HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        assert client.recv(4096).startswith(b"HTTP/1.0 200")
        # SO_LINGER with a zero timeout: close() sends a reset instead of a polite FIN.
        client.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    deadline = time.monotonic() + 20
    while _request_threads() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _request_threads(), "the server is still handling the request after 20 s"


@pytest.fixture
def big_folder(tmp_path):
    (tmp_path / "big.bin").write_bytes(bytes(BIG_FILE_BYTES))
    return tmp_path


def test_the_scenario_makes_a_plain_server_print_a_traceback(big_folder, capfd):
    """The control: without QuietServer the same hang-up prints socketserver's traceback."""
    with serve_folder(big_folder, http.server.ThreadingHTTPServer) as url:
        _hang_up_mid_download(url)
    err = capfd.readouterr().err
    assert "Traceback" in err and ("BrokenPipeError" in err or "ConnectionResetError" in err), err


def test_a_client_hanging_up_early_prints_nothing(big_folder, capfd):
    with serve_folder(big_folder) as url:
        _hang_up_mid_download(url)
        _hang_up_mid_download(url)
    captured = capfd.readouterr()
    assert captured.err == "" and captured.out == ""


def test_any_other_error_in_a_request_still_prints_its_traceback(tmp_path, capfd):
    server = QuietServer((LOCAL_HOST, 0), http.server.BaseHTTPRequestHandler)
    try:
        try:
            raise KeyError("a bug in a handler")
        except KeyError:
            server.handle_error(None, (LOCAL_HOST, 1))
        try:
            raise ConnectionResetError(104, "Connection reset by peer")
        except ConnectionResetError:
            server.handle_error(None, (LOCAL_HOST, 2))
    finally:
        server.server_close()
    err = capfd.readouterr().err
    assert "KeyError: 'a bug in a handler'" in err and "Connection reset" not in err
    assert sys.exc_info() == (None, None, None)
