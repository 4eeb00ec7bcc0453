"""The window on a cluster-scan bundle, as `simdesk gui BUNDLE` opens it, one `name value unit` line each:

- bundle_import_s: importing the bundle's group members into a fresh index (simdesk import);
- bundle_open_s: opening the folder in a new window until its groups are shown (review_ready), and the longest
  gap of a 10 ms timer on the GUI thread meanwhile;
- bundle_regroup_ms_*: moving the threshold over its range and back until the model is reset (and painted);
- bundle_diff_ms: selecting the first group until its diff is shown;
- a screenshot of the window (--screenshot PNG).

    python -m bench.corpus /tmp/big --size large && simdesk cluster-scan /tmp/big --out /tmp/big.bundle
    QT_QPA_PLATFORM=offscreen python -m bench.bundle_window /tmp/big.bundle --screenshot /tmp/big.png
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtWidgets import QApplication

from bench.gui_bench import StallMeter, bench_settings, open_window, wait_for
from simdesk.cli import import_into_index
from simdesk.core import index_path
from simdesk.gui import refcount_guard
from simdesk.gui.app import preload_native_segmenter


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("bundle", type=Path)
    parser.add_argument("--screenshot", type=Path)
    parser.add_argument("--plain", action="store_true", help="the window in plain SimHash mode (a --threshold bundle)")
    args = parser.parse_args()
    refcount_guard.install()
    app = QApplication.instance() or QApplication([])
    work = Path(tempfile.mkdtemp(prefix="bundle-window-"))
    settings = bench_settings(work / "settings.ini")
    settings.set("review/verify", not args.plain)
    data_dir = work / "data"

    started = time.perf_counter()
    root, summary = import_into_index(str(args.bundle), str(index_path(_root_of(args.bundle), data_dir)))
    print(f"bundle_import_s {time.perf_counter() - started:.1f} s  # {summary}")

    preload_native_segmenter()
    window = open_window(settings, data_dir)
    meter = StallMeter()
    meter.start()
    started = time.perf_counter()
    window.open_folder(root)
    wait_for(window.review_ready)
    QApplication.processEvents()
    open_s = time.perf_counter() - started
    stall, _ = meter.stop()
    review = window.review
    print(
        f"bundle_open_s {open_s:.2f} s  # {review.documents:,} documents in groups, "
        f"{window.groups_model.rowCount():,} groups shown; longest GUI-thread stall {stall * 1000:.0f} ms"
    )

    top = review.grouper.max_threshold
    steps = list(range(0, top + 1)) + list(range(top - 1, -1, -1))
    regroup, painted = [], []
    for threshold in steps:
        t0 = time.perf_counter()
        window.set_threshold(threshold)
        QApplication.processEvents()
        regroup.append(time.perf_counter() - t0)
        window.groups_view.grab()
        painted.append(time.perf_counter() - t0)
    print(
        f"bundle_regroup_ms_median {statistics.median(regroup) * 1000:.1f} ms  # {len(steps)} steps 0..{top}..0: "
        f"regroup, model reset, counts (max {max(regroup) * 1000:.1f} ms)"
    )
    fresh, core = review.grouper.without([]), []  # the same pairs, nothing memoised: the engine's share
    for threshold in steps:
        t0 = time.perf_counter()
        len(fresh.at(threshold))
        core.append(time.perf_counter() - t0)
    print(
        f"bundle_regroup_core_ms_median {statistics.median(core) * 1000:.1f} ms  # the regroup alone in core "
        f"(Grouper.at), the rest of a step is the groups model's reset and the view"
    )
    print(
        f"bundle_regroup_painted_ms_max {max(painted) * 1000:.1f} ms  # the same plus painting the groups list "
        f"(median {statistics.median(painted) * 1000:.1f} ms)"
    )
    window.set_threshold(review.settings.shown_threshold)
    QApplication.processEvents()

    model = window.groups_model
    first = model.index(0, 0)
    meter.start()
    t0 = time.perf_counter()
    window.groups_view.setCurrentIndex(first)
    wait_for(window.diff_shown, 60)
    diff_ms = (time.perf_counter() - t0) * 1000
    stall, _ = meter.stop()
    print(
        f"bundle_diff_ms {diff_ms:.0f} ms  # the first group's pair, until shown; longest stall {stall * 1000:.0f} ms"
    )
    if args.screenshot:
        QApplication.processEvents()
        window.grab().save(str(args.screenshot))
        print(f"bundle_screenshot {args.screenshot}")
    window.close()
    app.processEvents()
    shutil.rmtree(work, ignore_errors=True)  # the index the import made


def _root_of(bundle: Path) -> Path:
    from simdesk.cluster.bundle import open_bundle
    from simdesk.cluster.importer import bundle_root

    return bundle_root(open_bundle(bundle))


if __name__ == "__main__":
    main()
