"""The Space's server for the benchmarks of the Space (benchmarks/space.py, benchmarks/space_browser.py): `python
app.py` of a checkout started in a process of its own, its resident memory and CPU seconds read from /proc, each
call timed."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


def cpu_seconds(pid: int) -> float:
    """The server's CPU time so far (user and system): unlike a request's wall time, the machine's other load
    does not inflate it."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Sampler(threading.Thread):
    """The server's largest RSS since the last `reset`, sampled every 20 ms."""

    def __init__(self, pid: int) -> None:
        super().__init__(daemon=True)
        self.pid, self.peak, self.running = pid, 0.0, True

    def run(self) -> None:
        while self.running:
            self.peak = max(self.peak, rss_mb(self.pid))
            time.sleep(0.02)

    def reset(self) -> None:
        self.peak = rss_mb(self.pid)


def start_server(checkout: Path) -> tuple[subprocess.Popen, str]:
    port = free_port()
    environment = {**os.environ, "GRADIO_SERVER_NAME": "127.0.0.1", "GRADIO_SERVER_PORT": str(port)}
    process = subprocess.Popen(
        [sys.executable, "app.py"], cwd=checkout, env=environment, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    url = f"http://127.0.0.1:{port}/"
    for _ in range(600):
        if process.poll() is not None:
            raise RuntimeError("python app.py exited")
        try:
            with urllib.request.urlopen(url + "config", timeout=5):
                return process, url
        except OSError:
            time.sleep(0.2)
    raise RuntimeError("python app.py did not answer within two minutes")


def timed(call: Callable[[], Any]) -> tuple[float, Any]:
    start = time.perf_counter()
    try:
        answer = call()
    except Exception as error:  # Gradio's bare error, which is what the issue measured
        answer = (f"ERROR {type(error).__name__}: {error}",)
    return time.perf_counter() - start, answer


def verdict(good: bool) -> str:
    return "PASS" if good else "MISS"
