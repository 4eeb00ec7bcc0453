"""The members list on a class of thousands of identical copies: showing it folded, unfolding and folding
it, as ratios to showing as many distinct files, measured in the same run.

    QT_QPA_PLATFORM=offscreen python -m bench.members_copies [COPIES]
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable

ROUNDS = 3


def main(n: int = 5000) -> None:
    from PySide6.QtWidgets import QApplication, QTableView

    from simdesk.core import Group, Member
    from simdesk.gui.groups_model import GroupsModel, MembersModel

    app = QApplication.instance() or QApplication([])
    copies = tuple(Member(k, f"crawl/page-{k:05d}.txt", 0, 3000, "utf-8", k, "same") for k in range(n))
    distinct = tuple(Member(k, f"crawl/page-{k:05d}.txt", 0, 3000, "utf-8", k, f"h{k}") for k in range(n))
    groups = GroupsModel()
    members = MembersModel(groups)
    view = QTableView()
    view.setModel(members)
    view.resize(900, 400)
    view.show()

    def timed(step: Callable[[], object]) -> float:
        started = time.perf_counter()
        step()
        app.processEvents()  # the view paints what changed
        return time.perf_counter() - started

    for round_ in range(ROUNDS):
        base = timed(lambda: members.set_group(Group(1, False, distinct)))
        folded = timed(lambda: members.set_group(Group(2, True, copies)))
        rows = members.rowCount()
        unfolded = timed(lambda: members.expand(0))
        refolded = timed(lambda: members.collapse(0))
        print(
            f"round {round_}: {n:,} distinct files {base * 1e3:.1f} ms; {n:,} copies folded "
            f"({rows} row) {folded / base:.2f}x, unfolded {unfolded / base:.2f}x, folded again {refolded / base:.2f}x"
        )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 5000)
