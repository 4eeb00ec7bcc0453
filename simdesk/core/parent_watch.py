"""Makes a helper process die with the process that started it, so no fork server or scan worker outlives
a scan that was killed (Linux: PR_SET_PDEATHSIG; elsewhere spawned workers notice their closed pipes).

Called first thing in the scan's fork server (segmenter_preload, so it dies with the scanning process
even while still loading) and in each worker process as it starts (which then dies with the fork server).
Never called in the scanning process itself, which belongs to whoever started it.
"""

from __future__ import annotations

import os
import signal
import sys

PR_SET_PDEATHSIG = 1
PARENT_ENV = "SIMDESK_SCAN_PROCESS"  # the scanning process's id, for the fork server it starts
SERVER_ENV = "SIMDESK_FORK_SERVER"  # the fork server's id, for the workers it forks


def mark_scanning_process() -> None:
    """Called in the scanning process before its fork server starts: the server, started with this
    environment, can then tell whether its parent died before it could ask to die with it."""
    os.environ[PARENT_ENV] = str(os.getpid())


def scanning_process() -> int | None:
    """In the fork server: the id of the scanning process that started it (None when not marked)."""
    value = os.environ.get(PARENT_ENV, "")
    return int(value) if value.isdigit() else None


def mark_fork_server() -> None:
    """Called in the fork server once it dies with the scanning process: the workers it forks inherit its
    id, and so can tell whether it died before they could ask to die with it."""
    os.environ[SERVER_ENV] = str(os.getpid())


def die_with_fork_server() -> None:
    """A worker's first step: die with the fork server that forked it, or exit now if it has already ended
    (a kill -9 of the scan during the pool's start-up). A worker left running would hold the resource
    tracker's pipe open, and the tracker would outlive the scan too."""
    value = os.environ.get(SERVER_ENV, "")
    die_with_parent(int(value) if value.isdigit() else None)


def die_with_parent(expected_parent: int | None = None) -> None:
    """Ask the kernel to SIGKILL this process when its parent ends; exit now if the parent has already
    ended (it is not `expected_parent`, or it changed while asking). Ctrl-C, which a terminal sends to every
    process of the command, is ignored here: the command answers it and this process ends with it, without
    a traceback of its own."""
    if not sys.platform.startswith("linux"):
        return
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    import ctypes

    parent = os.getppid()
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):
        return
    if os.getppid() != parent or (expected_parent is not None and parent != expected_parent):
        os._exit(1)
