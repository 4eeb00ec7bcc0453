"""Titles, dates and sources of the group members, and the filter's search over their texts, one
`name value unit` line each:

- headlines_members: the members of the collection's groups (verified mode, the default threshold);
- headlines_read_baseline_s: reading and decoding those files alone (documents.read_text_file), the baseline;
- headlines_fill_s, headlines_fill_ms_per_doc, headlines_fill_ratio: Headlines.fill over the same members
  (read, fold, title, date, source, search form), and its ratio to the baseline, measured back to back;
- headlines_search_chars: characters kept for search (the memory the filter costs: 2 bytes a CJK character);
- headlines_query_ms_median / _max: Headlines.matching for queries typed one key at a time (Chinese, a
  traditional-script query, Latin letters, a miss), after the first search joined the texts;
- headlines_groups_of_hits_ms_max: turning the matching paths into the groups they belong to (bisect and
  Grouping.row_groups);
- gui_text_filter_key_ms_median / _max: each key of those queries typed into the groups list's filter (paths
  and texts, Review.matching, and the rows rearranged), with every member's text read; _painted_: until
  the list is painted as well (offscreen, 1200 x 700: the repaint of a screenful costs the same with or
  without a filter).

    python -m bench.headlines /tmp/c_medium        # scans it first when it has no index yet
"""

from __future__ import annotations

import argparse
import bisect
import statistics
import tempfile
import time
from pathlib import Path

import numpy as np

from simdesk.core import Headlines, Index, ReviewSettings, ScanOptions, open_review, read_text_file

QUERIES = ("新", "新闻", "子曰", "學而", "转载请注明", "the", "zzzq")


def measure(root: Path, db: Path) -> list[tuple[str, float, str]]:
    with Index(db) as index:
        review = open_review(
            root, index, ReviewSettings(scan=ScanOptions()), rescan=not db.exists() or index.count() == 0
        )
    grouping = review.grouping()
    members = [m for g in grouping for m in g.members]
    t = time.perf_counter()
    for m in members:
        try:
            read_text_file(root / m.path, review.settings.scan.max_bytes)
        except (OSError, ValueError):
            pass
    baseline = time.perf_counter() - t
    headlines = Headlines(review.texts, review.grouper.boilerplate)
    t = time.perf_counter()
    headlines.fill(members)
    fill = time.perf_counter() - t
    headlines.matching("")  # joins the texts once
    times, groups_times = [], []
    paths = review.grouper.snapshot.paths
    for query in QUERIES:
        for k in range(1, len(query) + 1):
            t = time.perf_counter()
            hits = headlines.matching(query[:k])
            times.append((time.perf_counter() - t) * 1000)
            t = time.perf_counter()
            rows = np.fromiter((bisect.bisect_left(paths, p) for p in hits), dtype=np.int64, count=len(hits))
            np.unique(grouping.row_groups[rows])
            groups_times.append((time.perf_counter() - t) * 1000)
    chars = headlines.search_chars
    review.headlines.adopt(headlines)
    review.headlines.prepare_search()  # as the window's reader does after each batch
    gui = gui_filter_ms(review, grouping)
    return [
        ("headlines_members", len(members), "documents"),
        ("headlines_read_baseline_s", baseline, "s"),
        ("headlines_fill_s", fill, "s"),
        ("headlines_fill_ms_per_doc", fill / max(len(members), 1) * 1000, "ms"),
        ("headlines_fill_ratio", fill / baseline if baseline else float("nan"), "x"),
        ("headlines_search_chars", chars, "characters"),
        ("headlines_query_ms_median", statistics.median(times), "ms"),
        ("headlines_query_ms_max", max(times), "ms"),
        ("headlines_groups_of_hits_ms_max", max(groups_times), "ms"),
        ("gui_text_filter_key_ms_median", statistics.median(gui[0]), "ms"),
        ("gui_text_filter_key_ms_max", max(gui[0]), "ms"),
        ("gui_text_filter_key_painted_ms_median", statistics.median(gui[1]), "ms"),
        ("gui_text_filter_key_painted_ms_max", max(gui[1]), "ms"),
    ]


def gui_filter_ms(review, grouping) -> tuple[list[float], list[float]]:
    """Each key of QUERIES typed into the groups list's filter: the filtering (GroupsModel.set_filter), and
    until the list is painted (offscreen, 1200 x 700)."""
    import os

    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtWidgets import QApplication, QTableView

    from simdesk.gui.groups_model import GroupsModel

    app = QApplication.instance() or QApplication([])
    model = GroupsModel()
    model.set_review(review)
    model.set_grouping(grouping, review.decisions)
    view = QTableView()
    view.setModel(model)
    view.resize(1200, 700)
    view.show()
    app.processEvents()
    filtering, painted = [], []
    for query in QUERIES:
        for k in range(1, len(query) + 1):
            t = time.perf_counter()
            model.set_filter(query[:k])
            filtered = time.perf_counter()
            view.viewport().repaint()
            app.processEvents()
            filtering.append((filtered - t) * 1000)
            painted.append((time.perf_counter() - t) * 1000)
        model.set_filter("")
    view.close()
    return filtering, painted


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("collection", type=Path)
    parser.add_argument("--db", type=Path, help="its index (default: a new one in a temporary folder)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = args.db or Path(tmp) / "index.sqlite"
        for name, value, unit in measure(args.collection, db):
            print(f"{name} {value:.4g} {unit}" if isinstance(value, float) else f"{name} {value} {unit}", flush=True)


if __name__ == "__main__":
    main()
