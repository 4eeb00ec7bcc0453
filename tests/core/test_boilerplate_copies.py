"""Identical copies count once in a line's boilerplate frequency (boilerplate.class_boilerplate): a page copied
hundreds of times keeps its own lines, its near-copies group with it and their comparison greys none of them;
a footer under many distinct texts is boilerplate whatever copies the folder holds."""

from __future__ import annotations

import random
from pathlib import Path

from simdesk.core.index.scan import scan
from simdesk.core.index.store import Index
from simdesk.core.matching.analysis import VerifySettings, analyse, collection_boilerplate
from simdesk.core.reading.boilerplate import line_hashes
from simdesk.core.records import ScanOptions
from simdesk.core.review.diff import compare_texts

COPIES = 300
WORDS = (
    "river harbour lantern orchard meadow copper violet thunder pepper saddle marble whisper candle ferry "
    "glacier parrot velvet timber hollow quarry bramble falcon cobalt ember juniper kettle ledger mosaic "
    "nectar oyster pebble quiver rafter sorrel tundra umber vessel walnut yonder zephyr"
).split()
FOOTER = "Reposted from the Evening Herald with permission, all rights reserved"


def _article(rng: random.Random, lines: int = 12) -> str:
    return "\n".join(" ".join(rng.choice(WORDS) for _ in range(10)).capitalize() + "." for _ in range(lines))


def _write(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")


def _analysed(root: Path, db: Path) -> tuple[list[list[str]], frozenset[int], frozenset[int]]:
    """(groups as sorted paths, the grouper's boilerplate, collection_boilerplate of the index)."""
    with Index(db) as index:
        scan(root, index, ScanOptions(jobs=1))
        grouper = analyse(root, index, verify=VerifySettings(jobs=1))
        groups = sorted(sorted(m.path for m in g.members) for g in grouper.at(grouper.max_threshold))
        return groups, frozenset(grouper.boilerplate), collection_boilerplate(index)


def test_a_page_copied_hundreds_of_times_keeps_its_own_lines(tmp_path: Path) -> None:
    rng = random.Random(3)
    page = _article(rng)
    lines = page.splitlines()
    near = "\n".join([*lines[:4], _article(rng, 1), *lines[5:]])  # one line rewritten
    files = {f"copies/page{k:03d}.txt": page for k in range(COPIES)}
    files["edited/near.txt"] = near
    files.update({f"other/a{k:02d}.txt": _article(rng) for k in range(30)})
    root = tmp_path / "docs"
    _write(root, files)
    groups, boilerplate, stored = _analysed(root, tmp_path / "i.sqlite")
    assert boilerplate == stored
    assert not set(line_hashes(page).tolist()) & boilerplate  # one text, however many copies
    page_group = [g for g in groups if "copies/page000.txt" in g]
    assert page_group == [sorted(p for p in files if not p.startswith("other/"))]  # the near-copy with the page
    result = compare_texts(page, near, boilerplate=boilerplate)
    assert [r for r in result.rows if r.kind == "boilerplate"] == [] and result.boilerplate == 0
    assert 0.8 < result.similarity / 100 < 1.0


def test_a_footer_of_many_distinct_texts_stays_boilerplate_beside_copies(tmp_path: Path) -> None:
    rng = random.Random(4)
    articles = [_article(rng) + "\n" + FOOTER for _ in range(20)]
    files = {f"site/a{k:02d}.txt": text for k, text in enumerate(articles)}
    files.update({f"copies/a00-{k:03d}.txt": articles[0] for k in range(COPIES)})
    root = tmp_path / "docs"
    _write(root, files)
    groups, boilerplate, stored = _analysed(root, tmp_path / "i.sqlite")
    assert boilerplate == stored
    footer = set(line_hashes(FOOTER).tolist())
    assert footer <= boilerplate  # 20 distinct texts carry it
    assert not (set(line_hashes(articles[0]).tolist()) - footer) & boilerplate  # the copied text's own lines
    assert groups == [sorted(p for p in files if p == "site/a00.txt" or p.startswith("copies/"))]
