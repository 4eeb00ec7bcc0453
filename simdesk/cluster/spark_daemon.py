"""Spark's Python daemon (`spark.python.daemon.module`) with jieba's dictionary, the IDF table and the checked
segmenter loaded before it forks its workers, as the desktop's fork server does: each worker then starts
fingerprinting at once instead of loading them (~1.2 s per worker)."""
from __future__ import annotations

import simdesk.core.segmenter_preload  # noqa: F401  (loads the segmenter; imported for that effect)
from pyspark.daemon import manager

if __name__ == "__main__":
    manager()
