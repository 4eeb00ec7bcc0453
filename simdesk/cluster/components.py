"""Connected components of a pair graph too large for the driver, in Spark: alternating large-star and
small-star (Kiveris, Lattanzi, Mirrokni, Rastogi, Vassilvitskii, "Connected Components in MapReduce and
Beyond", SoCC 2014), O(log^2 n) rounds of joins, no graph library (GraphFrames' jar is not needed).

Each round rewires every node to the smallest node of its neighbourhood; when a round changes nothing, every
component is a star around its smallest node, which becomes every member's label.
"""

from __future__ import annotations

MAX_ROUNDS = 100


def _large_star(edges):
    """Each node's larger neighbours are linked to the smallest node of its closed neighbourhood."""
    from pyspark.sql import functions as F

    both = edges.union(edges.select(F.col("v").alias("u"), F.col("u").alias("v")))
    least = both.groupBy("u").agg(F.min("v").alias("m")).select("u", F.least("u", "m").alias("m"))
    return (
        both.join(least, "u")
        .where(F.col("v") > F.col("u"))
        .select(F.col("v").alias("u"), F.col("m").alias("v"))
        .distinct()
    )


def _small_star(edges):
    """Each node and its smaller neighbours are linked to the smallest of them."""
    from pyspark.sql import functions as F

    down = edges.select(F.greatest("u", "v").alias("u"), F.least("u", "v").alias("v"))
    least = down.groupBy("u").agg(F.min("v").alias("m"))
    linked = down.join(least, "u").select(F.col("v").alias("u"), F.col("m").alias("v"))
    linked = linked.union(least.select("u", F.col("m").alias("v")))
    return linked.where(F.col("u") != F.col("v")).distinct()


def _canonical(edges):
    from pyspark.sql import functions as F

    return edges.select(F.least("u", "v").alias("u"), F.greatest("u", "v").alias("v")).distinct()


def component_labels(edges):
    """(node, label) for every node of `edges` (a DataFrame of long columns u, v): label is the smallest node
    of its connected component."""
    from pyspark.sql import functions as F

    current = _canonical(edges).localCheckpoint()
    for _ in range(MAX_ROUNDS):
        nxt = _canonical(_small_star(_large_star(current))).localCheckpoint()
        changed = nxt.exceptAll(current).limit(1).count() + current.exceptAll(nxt).limit(1).count()
        current = nxt
        if not changed:
            break
    else:
        raise RuntimeError(f"connected components did not converge in {MAX_ROUNDS} rounds")
    star = current.union(current.select(F.col("v").alias("u"), F.col("u").alias("v")))
    least = star.groupBy("u").agg(F.min("v").alias("m"))
    return least.select(F.col("u").alias("node"), F.least("u", "m").alias("label"))
