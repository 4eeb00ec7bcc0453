"""How long a small pair's diff takes to show when the editor clicks it while a 1 MB comparison is still being
computed, in the window driven offscreen, one `name value unit` line each:

- diff_1mb_alone_s: the 1 MB pair (raw, its re-flowed copy: the slowest comparison) from selecting it until
  its diff is painted, nothing else asked for;
- diff_small_alone_s: the small pair, nothing under way (the helper process already started);
- helper_start_s: a new helper process's first call (os.getpid), what a dropped comparison costs the next;
- diff_small_after_1mb_waiting_s: the small pair selected SETTLE_S after the 1 MB one, until its diff is painted,
  with a helper process that serves comparisons in turn (the newer waits for the one under way: the baseline);
- diff_small_after_1mb_s: the same with the window's helper (a newer comparison ends the process of the one
  under way and runs in a new one); target < 1 s;
- their ratio. Rounds alternate between the two, so a loaded machine weighs on both alike.

A helper process imports the main module again (multiprocessing's start of a process): this module imports Qt
and the window only inside its functions, as the `simdesk` command's module does, so that a new helper costs
here what it costs the window.

    QT_QPA_PLATFORM=offscreen .venv/bin/python -m bench.diff_supersede /tmp/c_medium [--rounds 3]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from simdesk.core import HelperProcess

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

T = TypeVar("T")
SETTLE_S = 0.3  # the 1 MB comparison is under way in the helper by then
SMALL = "国务院新闻办公室今日举行新闻发布会，介绍今年前三季度经济运行情况。发言人表示，国民经济总体保持恢复态势。" * 20


class WaitingHelper(HelperProcess):
    """A helper that serves comparisons in turn, a newer one after the one under way (the baseline)."""

    def run(self, call: Callable[[], T], here: bool = False, supersede: int | None = None) -> T:
        return super().run(call, here)


def spin(seconds: float) -> None:
    from PySide6.QtWidgets import QApplication

    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        QApplication.processEvents()
        time.sleep(0.005)


def shown(window, a: str, b: str, timeout_s: float = 120) -> float:
    """Select the pair a, b; seconds until the diff of that pair is painted."""
    from bench.gui_bench import wait_for

    t0 = time.perf_counter()
    window.selection.select_members([window.selection.member_index(a), window.selection.member_index(b)])
    while True:
        wait_for(window.diff_shown, timeout_s)
        titles = window.diff_view.left_title.toolTip() + window.diff_view.right_title.toolTip()
        titles += window.diff_view.left_title.text() + window.diff_view.right_title.text()
        if Path(b).name in titles:
            window.diff_view.grab()
            return time.perf_counter() - t0
        if time.perf_counter() - t0 > timeout_s:
            raise TimeoutError(b)


def settle(window) -> None:
    """Nothing compared and nothing under way."""
    from PySide6.QtWidgets import QApplication

    window.groups_view.selectionModel().clear()
    for _ in range(3):
        window.background.wait(300_000)
        QApplication.processEvents()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path, help="a collection the 1 MB pair is made from")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args(argv)
    from bench.gui_bench import bench_app, bench_settings, one_megabyte_pair, open_window, wait_for

    with bench_app("simdesk-diff-supersede-") as workdir:
        pair = one_megabyte_pair(args.folder, workdir / "pair")
        (pair / "edited.txt").unlink()
        (pair / "small.txt").write_text(SMALL, encoding="utf-8")
        (pair / "small-copy.txt").write_text(SMALL.replace("经济", "金融", 3), encoding="utf-8")
        window = open_window(bench_settings(workdir / "settings.ini"), workdir / "data")
        window.open_folder(pair)
        wait_for(window.review_ready)
        window.set_threshold(12)
        window.diff_view.set_mode("raw")
        settle(window)
        own = window.diff.helper
        alone = shown(window, "reference.txt", "reflowed.txt")
        settle(window)
        times: dict[str, list[float]] = {"waiting": [], "superseding": [], "alone": [], "start": []}
        for _ in range(args.rounds):
            times["alone"].append(shown(window, "small.txt", "small-copy.txt"))
            settle(window)
            fresh, t0 = HelperProcess(), time.perf_counter()
            fresh.run(os.getpid)
            times["start"].append(time.perf_counter() - t0)
            fresh.close()
            for name, helper in (("waiting", WaitingHelper()), ("superseding", own)):
                window.diff.helper = helper
                window.selection.select_members(
                    [window.selection.member_index("reference.txt"), window.selection.member_index("reflowed.txt")]
                )
                spin(SETTLE_S)
                times[name].append(shown(window, "small.txt", "small-copy.txt"))
                settle(window)
                if helper is not own:
                    helper.close()
        window.diff.helper = own
        waiting, superseding = statistics.median(times["waiting"]), statistics.median(times["superseding"])
        rounds = lambda k: ", ".join(f"{t:.2f}" for t in times[k])  # noqa: E731
        print(f"diff_1mb_alone_s {alone:.2f} s  # raw, the re-flowed copy")
        print(f"diff_small_alone_s {statistics.median(times['alone']):.2f} s  # median of {rounds('alone')}")
        print(f"helper_start_s {statistics.median(times['start']):.3f} s  # median of {rounds('start')}")
        print(f"diff_small_after_1mb_waiting_s {waiting:.2f} s  # median of {rounds('waiting')}")
        print(f"diff_small_after_1mb_s {superseding:.2f} s  # target < 1 s; median of {rounds('superseding')}")
        print(f"diff_small_after_1mb_ratio {superseding / waiting:.3f}  # to the baseline, same run")
        window.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
