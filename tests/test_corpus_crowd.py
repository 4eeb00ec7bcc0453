"""The generator's large copy groups (`bench.corpus.build(..., crowd=(N, K))`): N groups of K files among
the others, counted in the documents, every copy a changed text of its original, every file with a class."""

from __future__ import annotations

import json
from collections import Counter

from bench.corpus import build


def test_crowd_groups_have_the_size_asked_for_and_copies_differ_from_their_original(tmp_path):
    summary = build(tmp_path, "small", seed=3, crowd=(3, 7), documents=60)
    files = json.loads((tmp_path / "truth.json").read_text("utf-8"))["files"]
    assert summary.documents == len(files) >= 60
    crowd = {path: v for path, v in files.items() if v["class"] == "crowd"}
    assert sorted(Counter(v["group"] for v in crowd.values()).values()) == [7, 7, 7]
    assert {v["class"] for v in files.values()} == {"crowd", "standard"}
    assert not {v["group"] for v in crowd.values()} & {v["group"] for p, v in files.items() if p not in crowd}
    text = {path: (tmp_path / path).read_bytes().decode(v["encoding"]) for path, v in crowd.items()}
    original = {v["group"]: text[p] for p, v in crowd.items() if v["role"] == "original"}
    assert len(original) == 3 and all(len(t) >= 2000 for t in original.values())
    copies = [(text[p], original[v["group"]], v["edits"]) for p, v in crowd.items() if v["role"] == "variant"]
    assert all(copy != source and "typo" in edits for copy, source, edits in copies)
    rewrapped = [copy for copy, _, edits in copies if "rewrap" in edits]
    assert 0 < len(rewrapped) < len(copies)  # most reposts keep the original's lines
    assert all(max(map(len, copy.splitlines())) <= 50 for copy in rewrapped)  # re-wrapped at 20-50 characters
