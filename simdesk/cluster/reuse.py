"""What a cluster scan reuses from the previous bundle (`--previous`): its documents whose item has the same
size and version (modification time, ETag, text hash) now, so they are not fingerprinted again."""

from __future__ import annotations

import numpy as np

from simdesk.cluster.bundle import Bundle
from simdesk.cluster.sources import SourceItem
from simdesk.core.records import Document


def previous_documents(previous: Bundle | None) -> dict[str, tuple[int, str, Document]]:
    """The previous bundle's documents by path, each with the size and version its item had then; none of a
    bundle written without band keys (its documents are fingerprinted again: verified mode pairs by them)."""
    if previous is None:
        return {}
    t = previous.table(
        "documents",
        [
            "path",
            "size",
            "version",
            "mtime_ns",
            "content_hash",
            "encoding",
            "chars",
            "fingerprint",
            "lines",
            "votes",
            "bands",
        ],
    ).to_pydict()
    return {
        path: (
            t["size"][k],
            t["version"][k],
            Document(
                path,
                t["size"][k],
                t["mtime_ns"][k],
                t["content_hash"][k],
                t["encoding"][k],
                t["chars"][k],
                int(np.int64(t["fingerprint"][k]).view(np.uint64)),
                t["lines"][k],
                t["votes"][k],
                t["bands"][k],
            ),
        )
        for k, path in enumerate(t["path"])
        if t["bands"][k] is not None
    }


def unchanged(previous: dict[str, tuple[int, str, Document]], item: SourceItem) -> Document | None:
    """The previous document of `item` when its size and version (mtime, ETag, text hash) are the same now."""
    before = previous.get(item.path)
    return before[2] if before is not None and before[0] == item.size and before[1] == item.version else None


def reused_documents(previous: Bundle | None, items: list[SourceItem]) -> dict[str, Document]:
    """The documents of the previous bundle whose item has the same size and version (mtime or ETag) now."""
    before = previous_documents(previous)
    found = ((it.path, unchanged(before, it)) for it in items)
    return {path: doc for path, doc in found if doc is not None}
