"""Whether a scan reads its files in worker processes, and starting their fork server before the scan when it
will. The server loads the engine (~1 s of CPU); started before the scanning process loads its own (~0.7 s)
and lists the folder, it loads on the other core meanwhile instead of being waited for once the folder is
listed. This module loads little (the folder walk, the workers' start), so that a caller can start the server
before it imports the rest of the engine:

    start_workers_before_scan(root, index_file, options)   # then import and run the scan
"""

from __future__ import annotations

import sys
from itertools import count
from pathlib import Path

from simdesk.core.reading.documents import walk
from simdesk.core.records import ScanOptions
from simdesk.core.workers import start_worker_server, worker_count

IN_PROCESS_BELOW = 64  # fewer files to read than this: no worker processes (their start-up costs more)...
IN_PROCESS_BYTES = 1024 * 1024  # ...unless they are large: a worker can be killed on cancel, this process's read cannot
LOOK_AHEAD_FOLDERS = 64  # start_workers_before_scan lists at most this many folders to find the files that decide


def pooled(files: int, size: int, workers: int) -> bool:
    """Whether `files` files of `size` bytes in all are read in worker processes (else in this process)."""
    return workers > 1 and (files >= IN_PROCESS_BELOW or size >= IN_PROCESS_BYTES)


def start_workers_before_scan(root: Path, index_file: Path, options: ScanOptions) -> bool:
    """Start the fork server of the scan's workers now (workers.start_worker_server; Linux, where workers are
    forked from it) when the scan of `root` into `index_file` with `options` will read its files in them,
    and say whether it was started: a first scan (with no index file yet it reads every file it lists) whose
    first files listed already decide it, as the scan itself does once it has listed them (`pooled`).
    Otherwise it is left to the scan, which starts it as it lists the files to read: a rescan reads only the
    files changed since, and a folder of few files is read in the scanning process. Call it on the thread
    that runs the scan, which the server dies with (parent_watch); the walk stops after LOOK_AHEAD_FOLDERS
    folders (a tree of files not to index)."""
    workers = worker_count(options.jobs)
    if not sys.platform.startswith("linux") or workers <= 1 or index_file.exists():
        return False
    folders = count()
    files = size = 0
    for entry in walk(
        root,
        options.includes,
        options.max_bytes,
        options.follow_symlinks,
        is_cancelled=lambda: next(folders) >= LOOK_AHEAD_FOLDERS,
    ):
        files += 1
        size += entry.size
        if pooled(files, size, workers):
            start_worker_server()
            return True
    return False
