"""The pair stage at scale (the classic question: among N 64-bit fingerprints, every pair within 3 bits), on
synthetic fingerprints (bench.pairs_bench.synthetic_fingerprints: random, a tenth near-duplicates of others,
1% in small clusters):

- `local`: the local engine's pair search (simdesk.core.pairs_within, numpy multi-index probing),
- `keys`: the permuted-key join of the Spark engine (simdesk.cluster.keys: 20 keys of ~32 bits), in numpy,
- `spark`: the same join in Spark local mode (--spark N: only for N up to what the machine holds).

Every engine's pair count is checked equal to the local engine's. Prints `name value unit` lines.

    python -m bench.cluster_pairs --sizes 1000000 10000000 --spark 1000000
"""
from __future__ import annotations

import argparse
import gc
import time

import numpy as np

from bench.pairs_bench import synthetic_fingerprints
from simdesk.cluster.keys import pairs_by_keys
from simdesk.core import pairs_within


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
    parser.add_argument("--spark", type=float, nargs="*", default=[], help="sizes to run on Spark local mode")
    parser.add_argument("--master", default="local[2]")
    parser.add_argument("--no-keys", action="store_true", help="skip the numpy key join (memory at 100M)")
    args = parser.parse_args()
    for size in args.sizes:
        n = int(size)
        fps = synthetic_fingerprints(n)
        started = time.perf_counter()
        i, _, _ = pairs_within(fps, args.radius)
        local_s = time.perf_counter() - started
        pairs = len(i)
        del i
        gc.collect()
        print(f"cluster_pairs_local_{n} {local_s:.1f} s ({pairs} pairs, {n / local_s / 1e6:.2f} M fingerprints/s)",
              flush=True)
        if not args.no_keys:
            started = time.perf_counter()
            k, _, _ = pairs_by_keys(fps, args.radius)
            keys_s = time.perf_counter() - started
            assert len(k) == pairs, (len(k), pairs)
            del k
            gc.collect()
            print(f"cluster_pairs_keys_{n} {keys_s:.1f} s (ratio to local {keys_s / local_s:.2f})", flush=True)
        if size in args.spark:
            got, spark_s = spark_pairs(fps, args.radius, args.master)
            assert got == pairs, (got, pairs)
            print(f"cluster_pairs_spark_{n} {spark_s:.1f} s ({args.master}; ratio to local {spark_s / local_s:.2f})",
                  flush=True)
        del fps
        gc.collect()


if __name__ == "__main__":
    main()
