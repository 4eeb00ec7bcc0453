"""The pair stage at scale (the classic question: among N 64-bit fingerprints, every pair within 3 bits), on
synthetic fingerprints (bench.pairs_bench.synthetic_fingerprints: random, a tenth near-duplicates of others,
1% in small clusters):

- `local`: the desktop's pair search (simdesk.core.pairs_within, numpy multi-index probing, in memory),
- `keys`: the permuted-key join (simdesk.cluster.keys.pairs_by_keys: 20 keys of ~32 bits, each key's packed
  values sorted in slices of bounded memory), what the local engine runs above KEY_JOIN_FROM fingerprints,
- `duckdb`: the same key join as SQL in DuckDB (20 equi-joins, UNION ALL, each pair kept on its first key),
- `spark`: the same join in Spark local mode.

Every engine's pair count is checked equal to the first engine's. Prints `name value unit` lines: wall time,
CPU time of the process's threads (what a shared machine's load does not inflate), and the peak resident
memory (an engine's own when it runs alone in the process: --engines one, --load a saved file).

    python -m bench.cluster_pairs --sizes 1000000 10000000 --engines local keys duckdb
    python -m bench.cluster_pairs --sizes 100000000 --save /tmp/fp100m.npy --engines none
    nice /usr/bin/time -v python -m bench.cluster_pairs --load /tmp/fp100m.npy --engines keys
"""

from __future__ import annotations

import argparse
import gc
import resource
import time

import numpy as np

from bench.pairs_bench import synthetic_fingerprints
from simdesk.cluster.keys import key_layout, pairs_by_keys
from simdesk.core import pairs_within

ENGINES = ("local", "keys", "duckdb", "spark")


def duckdb_pairs(fps: np.ndarray, radius: int, threads: int, memory: str) -> int:
    """The number of pairs within `radius` found by the key join in DuckDB (spilling past `memory`)."""
    import duckdb
    import pyarrow as pa

    layout = key_layout(max(radius, 3))
    con = duckdb.connect()
    con.execute(f"SET threads = {threads}; SET memory_limit = '{memory}'; SET preserve_insertion_order = false")
    con.register("fingerprints", pa.table({"id": np.arange(len(fps), dtype=np.int64), "fp": fps}))
    con.execute("CREATE TABLE f AS SELECT * FROM fingerprints")
    parts = []
    for k, mask in enumerate(layout.masks):
        earlier = " AND ".join(f"(xor(a.fp, b.fp) & {m}::UBIGINT) <> 0" for m in layout.masks[:k]) or "true"
        parts.append(
            f"SELECT count(*) AS n FROM f a JOIN f b ON (a.fp & {mask}::UBIGINT) = (b.fp & {mask}::UBIGINT)"
            f" AND a.id < b.id WHERE bit_count(xor(a.fp, b.fp)) <= {radius} AND {earlier}"
        )
    n = con.execute(f"SELECT sum(n) FROM ({' UNION ALL '.join(parts)})").fetchall()[0][0]
    con.close()
    return int(n)


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def spark_pairs(fps: np.ndarray, radius: int, master: str) -> tuple[int, float]:
    """(pairs, seconds) of the Spark engine's key join on `fps`, from a DataFrame already cached."""
    from pyspark.sql import functions as F

    from simdesk.cluster.spark import _plain_pairs, session

    spark = session(master)
    import pyarrow as pa

    table = pa.table({"doc_id": np.arange(len(fps), dtype=np.int64), "fingerprint": fps.view(np.int64)})
    docs = spark.createDataFrame(table.to_pandas()).repartition(spark.sparkContext.defaultParallelism * 4).cache()
    docs.count()
    started = time.perf_counter()
    n = _plain_pairs(docs.select("doc_id", "fingerprint"), radius).agg(F.count("*")).collect()[0][0]
    return n, time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=float, nargs="+", default=[1e6, 1e7])
    parser.add_argument("--radius", type=int, default=3)
    parser.add_argument("--engines", nargs="+", default=["local", "keys", "duckdb"], choices=ENGINES + ("none",))
    parser.add_argument("--master", default="local[2]")
    parser.add_argument("--threads", type=int, default=2, help="DuckDB's and the key join's threads")
    parser.add_argument("--duckdb-memory", default="4GB")
    parser.add_argument("--save", help="write the fingerprints of the (one) size to this .npy file")
    parser.add_argument("--load", help="read the fingerprints from this .npy file instead of making them")
    args = parser.parse_args()
    sets = [np.load(args.load)] if args.load else [synthetic_fingerprints(int(size)) for size in args.sizes[:1]]
    sizes = [len(sets[0])] + [int(size) for size in ([] if args.load else args.sizes[1:])]
    for k, n in enumerate(sizes):
        fps = sets[0] if k == 0 else synthetic_fingerprints(n)
        if args.save:
            np.save(args.save, fps)
        print(f"cluster_pairs_input_{n} {peak_mb():.0f} MB peak resident before the pair stage", flush=True)
        first: tuple[str, int, float] | None = None
        for engine in args.engines:
            if engine == "none":
                continue
            started, cpu = time.perf_counter(), time.process_time()
            if engine == "local":
                pairs = len(pairs_within(fps, args.radius)[0])
            elif engine == "keys":
                pairs = len(pairs_by_keys(fps, args.radius, threads=args.threads)[0])
            elif engine == "duckdb":
                pairs = duckdb_pairs(fps, args.radius, args.threads, args.duckdb_memory)
            if engine == "spark":  # the join alone, its DataFrame cached before
                pairs, seconds = spark_pairs(fps, args.radius, args.master)
            else:
                seconds = time.perf_counter() - started
            cpu = time.process_time() - cpu  # every thread of this process (not Spark's JVM)
            gc.collect()
            ratio = f"; ratio to {first[0]} {seconds / first[2]:.2f}" if first else ""
            print(
                f"cluster_pairs_{engine}_{n} {seconds:.1f} s ({pairs} pairs, {n / seconds / 1e6:.2f} M fingerprints/s"
                f"{ratio}; {cpu:.1f} CPU s; process peak {peak_mb():.0f} MB)",
                flush=True,
            )
            if first is None:
                first = (engine, pairs, seconds)
            assert pairs == first[1], (engine, pairs, first)
        del fps
        gc.collect()


if __name__ == "__main__":
    main()
