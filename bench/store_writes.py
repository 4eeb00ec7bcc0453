"""`python -m bench.store_writes [--documents 1000000]`: the index's writes of a first scan alone, as it grows.

Synthetic documents shaped as the large collection's (a path in walk order, a random fingerprint, ~85 B of
line hashes for most, 16 band keys, 132 B of SimHash votes, where the scan pass stored the text; one in twenty
an identical copy of an earlier one) are written as a scan writes them: `upsert_documents` and
`keep_stored_texts` of a batch per transaction (--batch, a scan's one commit a second at ~3,000 documents a
second). Prints the CPU and wall seconds and the bytes this process wrote to the disk (/proc/self/io) of each
--every documents, so a cost that grows with the index shows as a rising column; then the whole file's size per
document.

    python -m bench.store_writes --documents 200000 --every 50000
"""

from __future__ import annotations

import argparse
import hashlib
import os
import random
import tempfile
import time
from pathlib import Path

import numpy as np

from simdesk.core import Document, Index


def documents(n: int, seed: int = 7) -> list[Document]:
    """n synthetic documents in walk order (paths sorted by folder, then name)."""
    rng = random.Random(seed)
    out = []
    for k in range(n):
        copy_of = rng.randrange(k) if k and rng.random() < 0.05 else k
        digest = hashlib.blake2b(str(copy_of).encode(), digest_size=16).hexdigest()
        lines = np.sort(np.frombuffer(rng.randbytes(4 * rng.randrange(0, 44)), dtype=np.uint32)).tobytes()
        out.append(
            Document(
                f"seed-{7 + k // 200_000}/part-{(k // 1000) % 200:03d}/doc-{k:07d}.txt",
                1200 + rng.randrange(200),
                1_700_000_000_000_000_000 + k,
                digest,
                "utf-8",
                500 + rng.randrange(100),
                rng.getrandbits(64),
                lines,
                rng.randbytes(132),
                rng.randbytes(64),
            )
        )
    return out


def written_bytes() -> int:
    """Bytes this process has caused to be written to the disk so far (0 where /proc/self/io is missing)."""
    try:
        with open("/proc/self/io") as f:
            return next(int(line.split()[1]) for line in f if line.startswith("write_bytes"))
    except (OSError, StopIteration):
        return 0


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="python -m bench.store_writes", description=__doc__)
    ap.add_argument("--documents", type=int, default=1_000_000)
    ap.add_argument("--batch", type=int, default=3000, help="documents per transaction")
    ap.add_argument("--every", type=int, default=100_000, help="documents per printed line")
    ap.add_argument("--work", type=Path, default=Path(tempfile.gettempdir()))
    args = ap.parse_args(argv)
    docs = documents(args.documents)
    db = args.work / f"store-writes-{os.getpid()}.sqlite"
    indexed: set[str] = set()
    cpu0, wall0, io0 = time.process_time(), time.perf_counter(), written_bytes()
    cpu_all, wall_all, io_all = cpu0, wall0, io0
    try:
        with Index(db) as index:
            with index.segmented_after(len(docs)):  # as a first scan writes them
                for start in range(0, len(docs), args.batch):
                    batch = docs[start : start + args.batch]
                    with index.transaction():
                        index.upsert_documents(batch, indexed)
                        index.keep_stored_texts((d.path, 1, 3000 * k, 3000) for k, d in enumerate(batch, start))
                    indexed.update(d.content_hash for d in batch)
                    end = start + len(batch)
                    if end % args.every < args.batch or end == len(docs):
                        cpu, wall, io = time.process_time(), time.perf_counter(), written_bytes()
                        print(
                            f"{end:>9,} documents: {cpu - cpu0:6.2f} CPU-s {wall - wall0:6.2f} s "
                            f"{(io - io0) / 1e6:6.0f} MB written (load {os.getloadavg()[0]:.1f})",
                            flush=True,
                        )
                        cpu0, wall0, io0 = cpu, wall, io
            print(
                f"total {time.process_time() - cpu_all:.1f} CPU-s {time.perf_counter() - wall_all:.1f} s "
                f"{(written_bytes() - io_all) / 1e6:.0f} MB written; "
                f"{sum(p.stat().st_size for p in db.parent.glob(db.name + '*')) / len(docs):.1f} B/document",
                flush=True,
            )
    finally:
        for p in db.parent.glob(db.name + "*"):
            p.unlink()


if __name__ == "__main__":
    main()
