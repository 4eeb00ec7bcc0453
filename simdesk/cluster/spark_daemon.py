"""Spark's Python daemon (`spark.python.daemon.module`) with jieba's dictionary, the IDF table and the checked
segmenter loaded before it forks its workers, as the desktop scan's fork server is: each worker then starts
fingerprinting at once instead of loading them (~1.2 s per worker)."""

from __future__ import annotations

import os

from simdesk.core.parent_watch import PARENT_ENV

# The JVM that starts this daemon is not a simdesk scan, though it may have inherited a scan's mark from the
# driver's environment: without the mark the preload makes the daemon die with the JVM instead of exiting.
os.environ.pop(PARENT_ENV, None)

from pyspark.daemon import manager

import simdesk.core.worker_preload  # noqa: F401  (loads the segmenter: imported for that effect)

if __name__ == "__main__":
    manager()
