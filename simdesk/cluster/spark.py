"""The Spark engine: the cluster plan as Spark jobs, in client mode (`--engine spark --master URL`) or under
`spark-submit simdesk/cluster/__main__.py`. Executors run simdesk's own code per partition (read, decode,
fingerprint, shingle, score), so they need the package installed (docs/scale.md: a packed venv or an image).

- Fingerprints: `mapPartitions` over the listed items (or a dataset's rows), each through Source.document.
- Plain pairs: one representative per fingerprint searched (the first in path order, as the local engine
  and the desktop class identical fingerprints), by the permuted-key join (keys.py: 20 keys of ~32 bits at
  r = 3), each pair kept on the first key it shares, so no distinct() over candidates; distances with Spark's
  bit_count; the representatives' pairs then given to their copies (copies.with_copies' pairs, written the
  same): n copies of one page add n - 1 pairs, not n (n - 1) / 2.
- Verified mode: boilerplate lines counted in Spark with the desktop's document-frequency rule; each line's
  votes from its shortest document, whose texts the driver reads with the next ones fetched meanwhile
  (plan.read_boilerplate_votes, as the local engine); each document's boilerplate-free fingerprint
  (core.analysis.clean_fingerprint) on the executors; then the documents' small columns (~1 KB a
  document: fingerprints, length, content hash, the desktop's MinHash band keys) go to the driver, which
  finds the candidates by the desktop's rules (cluster.verified); each candidate's texts are profiled and
  scored on the executors (profiles shipped between stages pickled), the kept pairs given to every identical
  copy and grouped by core.groups on the driver: the pairs and groups of `simdesk scan`.
- Plain groups: under `ScanPlan.driver_pairs` pairs, core.groups on the driver; above, large-star/small-star
  labels (components.py) and core.groups per component on the executors.
"""

from __future__ import annotations

import os
import pickle
import sys
from dataclasses import replace
from functools import reduce
from pathlib import Path

import numpy as np

from simdesk.cluster.bundle import Bundle, BundleWriter, schemas, write_table
from simdesk.cluster.keys import key_layout
from simdesk.cluster.plan import (
    Collection,
    ScanPlan,
    fingerprint_items,
    groups_table,
    manifest_of,
    read_boilerplate_votes,
    shingle_items,
)
from simdesk.cluster.reuse import previous_documents, reused_documents, unchanged
from simdesk.cluster.sources import Source, SourceItem
from simdesk.cluster.verified import Candidates, candidates_of, verified_tables
from simdesk.core.fingerprint.features import FeatureSettings
from simdesk.core.fingerprint.simhash import to_signed, to_unsigned
from simdesk.core.index.documents import Snapshot
from simdesk.core.matching.analysis import clean_fingerprint
from simdesk.core.matching.groups import Grouper
from simdesk.core.matching.pair_scores import scored
from simdesk.core.reading.boilerplate import LineHashes, min_document_frequency, without_notices
from simdesk.core.records import Document, Problem

ITEMS_PER_PARTITION = 2000
MEMBER_COLUMNS = ["doc_id", "path", "size", "mtime_ns", "chars", "content_hash", "encoding", "clean_fp"]
LOCAL_SHUFFLE_PARTITIONS = "8"  # local mode: a few shuffle tasks, not Spark's 200


def session(master: str | None = None):
    """The Spark session: spark-submit's when running under it, else one on `master` (default local[*])."""
    from pyspark import SparkConf
    from pyspark.sql import SparkSession

    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)  # local executors run this interpreter (venv)
    builder = SparkSession.builder.appName("simdesk cluster-scan").config(
        "spark.python.daemon.module", "simdesk.cluster.spark_daemon"
    )
    conf = SparkConf()
    if master is None and not conf.contains("spark.master"):
        master = "local[*]"
    if master is not None:
        builder = builder.master(master)
    if (master or conf.get("spark.master", "")).startswith("local"):
        builder = builder.config("spark.sql.shuffle.partitions", LOCAL_SHUFFLE_PARTITIONS).config(
            "spark.ui.showConsoleProgress", "false"
        )
    return builder.getOrCreate()


def _doc_schema():
    from pyspark.sql import types as T

    return T.StructType(
        [
            T.StructField(n, t)
            for n, t in (
                ("path", T.StringType()),
                ("uri", T.StringType()),
                ("size", T.LongType()),
                ("mtime_ns", T.LongType()),
                ("version", T.StringType()),
                ("content_hash", T.StringType()),
                ("encoding", T.StringType()),
                ("chars", T.LongType()),
                ("fingerprint", T.LongType()),
                ("lines", T.BinaryType()),
                ("votes", T.BinaryType()),
                ("bands", T.BinaryType()),
                ("error", T.StringType()),
                ("text", T.StringType()),
            )
        ]
    )


def _row(item: SourceItem, r) -> tuple:
    """A fingerprint-stage row: a document (error None) or a problem. Dataset rows keep their text (verification
    reads it again from here rather than from the dataset)."""
    if isinstance(r, Document):
        return (
            r.path,
            item.uri,
            r.size,
            r.mtime_ns,
            item.version,
            r.content_hash,
            r.encoding,
            r.chars,
            to_signed(r.fingerprint),
            r.line_hashes,
            r.votes,
            r.bands,
            None,
            item.text,
        )
    return _problem_row(r.path, item.uri, item.size, item.mtime_ns, item.version, r.error)


def _problem_row(path: str, uri: str, size: int, mtime_ns: int, version: str, error: str) -> tuple:
    """A fingerprint-stage row of an item that could not be read."""
    return (path, uri, size, mtime_ns, version, None, None, None, None, None, None, None, error, None)


def _fingerprint_partitions(source: Source, settings: FeatureSettings, previous=None, reused=None):
    """The fingerprint stage of a partition. For a dataset, `previous` (a broadcast of reuse.previous_documents)
    gives the rows whose text hash is unchanged without fingerprinting them again, counted in `reused`."""

    def run(rows):
        rows = list(rows)
        if source.kind == "dataset":
            problems: list[Problem] = []
            items = list(source.dataset_rows([r[0] for r in rows], [r[1] for r in rows], problems.append))
            for p in problems:
                yield _problem_row(p.path, "", 0, 0, "", p.error)
            before = previous.value if previous is not None else {}
            kept = [(item, unchanged(before, item)) for item in items]
            for item, doc in kept:
                if doc is not None:
                    reused.add(1)
                    yield _row(item, doc)
            items = [item for item, doc in kept if doc is None]
        else:
            items = [SourceItem(*r) for r in rows]
        for item, r in fingerprint_items(source, items, settings):
            yield _row(item, r)

    return run


def _item_of(row) -> SourceItem:
    return SourceItem(row["path"], row["uri"], row["size"], row["version"], row["mtime_ns"], row["text"])


def spark_scan(
    source: Source, out: Path, plan: ScanPlan, prev: Bundle | None, master: str | None, settings: FeatureSettings
) -> dict:
    """Run the plan on Spark and write the bundle; returns the counts the manifest holds."""
    from pyspark import StorageLevel
    from pyspark.sql import functions as F

    spark = session(master)
    sc = spark.sparkContext
    listing: list[Problem] = []
    reused: dict[str, Document] = {}
    reused_rows = sc.accumulator(0)
    if source.kind == "dataset":
        # the previous documents go to every executor (as a folder's listing sits on the driver): a row whose
        # path and text hash are the same is not fingerprinted again
        previous = sc.broadcast(previous_documents(prev)) if prev is not None else None
        fingerprint = _fingerprint_partitions(source, settings, previous, reused_rows)
        reader = spark.read.parquet if source.files[0].endswith(".parquet") else spark.read.json
        rdd = reader(*source.files).select("path", "text").rdd.map(tuple).mapPartitions(fingerprint)
    else:
        fingerprint = _fingerprint_partitions(source, settings)
        items = list(source.items(listing.append))
        reused = reused_documents(prev, items)
        todo = [(i.path, i.uri, i.size, i.version, i.mtime_ns, None) for i in items if i.path not in reused]
        slices = max(sc.defaultParallelism, -(-len(todo) // ITEMS_PER_PARTITION))
        rdd = sc.parallelize(todo, slices).mapPartitions(fingerprint)
        kept = [_row(i, reused[i.path]) for i in items if i.path in reused]
        rdd = rdd.union(sc.parallelize(kept, max(1, len(kept) // ITEMS_PER_PARTITION))) if kept else rdd
        rdd = (
            rdd.union(sc.parallelize([_problem_row(p.path, "", 0, 0, "", p.error) for p in listing], 1))
            if listing
            else rdd
        )
    rows = spark.createDataFrame(rdd, _doc_schema()).persist(StorageLevel.MEMORY_AND_DISK)
    problems = rows.where(F.col("error").isNotNull()).select("path", "uri", "error")
    ordered = rows.where(F.col("error").isNull()).drop("error").orderBy("fingerprint", "path")
    from pyspark.sql import types as T

    with_id = T.StructType([T.StructField("doc_id", T.LongType()), *ordered.schema.fields])
    docs = spark.createDataFrame(ordered.rdd.zipWithIndex().map(lambda t: (t[1], *t[0])), with_id).persist(
        StorageLevel.MEMORY_AND_DISK
    )
    n = docs.count()

    with BundleWriter(out) as w:
        if plan.verified:
            docs, pairs, groups = _verified(spark, source, docs, plan, settings)
            write_table(w.folder, "pairs", pairs)
            write_table(w.folder, "groups", groups)
            counted = (pairs.num_rows, len(set(groups.column("group").to_pylist())))
        else:
            docs = docs.withColumn("clean_fp", F.col("fingerprint")).withColumn("short", F.lit(None).cast("byte"))
            classed = _with_classes(docs).persist(StorageLevel.MEMORY_AND_DISK)
            reps = classed.where(F.col("doc_id") == F.col("rep"))
            plain = _with_copies(classed, _plain_pairs(reps, plan.radius)).persist(StorageLevel.MEMORY_AND_DISK)
            counted = (plain.count(), _groups(spark, classed, plain, plan, w.folder))
            _write(plain.orderBy("a", "b"), w.folder, "pairs")
        counts = {
            "documents": n,
            "problems": problems.count(),
            "pairs": counted[0],
            "groups": counted[1],
            "reused": len(reused) + reused_rows.value,
        }
        _write(docs.drop("text").orderBy("fingerprint", "doc_id"), w.folder, "documents")
        _write(problems.orderBy("path"), w.folder, "problems")
        w.commit(manifest_of(source, plan, settings, "spark", counts))
    rows.unpersist()
    return counts


def _write(df, folder: Path, name: str) -> None:
    """A table as a folder of Parquet part files, in the bundle's schema; documents' ids and fingerprints
    (sorted) delta-encoded (Parquet v2 pages, no dictionary for them)."""
    from pyspark.sql import types as T

    spark_types = {
        "int64": T.LongType(),
        "int32": T.IntegerType(),
        "int8": T.ByteType(),
        "string": T.StringType(),
        "binary": T.BinaryType(),
        "double": T.DoubleType(),
    }
    schema = schemas()[name]
    df = df.select(*[df[f.name].cast(spark_types[str(f.type)]).alias(f.name) for f in schema])
    writer = df.write.option("compression", "zstd")
    if name == "documents":
        writer = (
            writer.option("parquet.writer.version", "v2")
            .option("parquet.enable.dictionary#fingerprint", "false")
            .option("parquet.enable.dictionary#doc_id", "false")
        )
    writer.parquet(str(folder / f"{name}.parquet"))


def _with_classes(docs):
    """The documents' fingerprints and MEMBER_COLUMNS (not their texts' blobs, which a shuffle would carry) with
    `rep`: the doc_id of the first (in path order) of the documents of their fingerprint, as the local engine's
    plain mode classes them (copies.identical_copies of the fingerprints). Ids number the documents by
    fingerprint, then path, so a class's first document has its least id."""
    from pyspark.sql import Window, functions as F

    return docs.select("fingerprint", *MEMBER_COLUMNS).withColumn(
        "rep", F.min("doc_id").over(Window.partitionBy("fingerprint"))
    )


def _pair_columns(a, b, d):
    """A plain pairs-table row: ids a < b, distance and scaled distance d, no score or shares."""
    from pyspark.sql import functions as F

    return (
        a.alias("a"),
        b.alias("b"),
        d.cast("byte").alias("distance"),
        d.cast("byte").alias("scaled"),
        F.lit(None).cast("double").alias("score"),
        F.lit(None).cast("double").alias("a_in_b"),
        F.lit(None).cast("double").alias("b_in_a"),
    )


def _with_copies(docs, rep_pairs):
    """The representatives' pairs given to their classes, as copies.with_copies gives them: each pair (a, b)
    stays, each other copy m of a's class gets (m, b) and of b's (a, m), at the pair's distance, and each copy
    pairs with its representative at distance 0. A class of c copies with r relations adds c - 1 + r (c - 1)
    pairs, not c (c - 1) / 2 + r c^2."""
    from pyspark.sql import functions as F

    copies = docs.where(F.col("doc_id") != F.col("rep")).select(F.col("doc_id").alias("m"), "rep")
    m, d = F.col("m"), F.col("distance")
    of_a = rep_pairs.join(copies, F.col("a") == F.col("rep")).select(
        *_pair_columns(F.least(m, F.col("b")), F.greatest(m, F.col("b")), d)
    )
    of_b = rep_pairs.join(copies, F.col("b") == F.col("rep")).select(
        *_pair_columns(F.least(F.col("a"), m), F.greatest(F.col("a"), m), d)
    )
    star = copies.select(*_pair_columns(F.col("rep"), m, F.lit(0)))  # a class's first document has its least id
    return rep_pairs.unionByName(of_a).unionByName(of_b).unionByName(star)


def _plain_pairs(docs, radius: int):
    """Pairs within `radius` by the permuted-key join, each on the first key the two share."""
    from pyspark.sql import functions as F

    layout = key_layout(radius)
    masks = [F.lit(to_signed(m)) for m in layout.masks]
    keyed = docs.select(
        "doc_id",
        "fingerprint",
        F.posexplode(F.array(*[F.col("fingerprint").bitwiseAND(m) for m in masks])).alias("k", "v"),
    )
    a, b = keyed.alias("a"), keyed.alias("b")
    joined = a.join(
        b, (F.col("a.k") == F.col("b.k")) & (F.col("a.v") == F.col("b.v")) & (F.col("a.doc_id") < F.col("b.doc_id"))
    )
    x = F.col("a.fingerprint").bitwiseXOR(F.col("b.fingerprint"))
    first = reduce(
        lambda acc, km: acc.when(x.bitwiseAND(km[1]) == 0, F.lit(km[0])),
        list(enumerate(masks))[1:],
        F.when(x.bitwiseAND(masks[0]) == 0, F.lit(0)),
    ).otherwise(len(masks))
    d = F.bit_count(x)
    return joined.where((d <= radius) & (first == F.col("a.k"))).select(
        *_pair_columns(F.col("a.doc_id"), F.col("b.doc_id"), d)
    )


def _verified(spark, source: Source, docs, plan: ScanPlan, settings: FeatureSettings):
    """(documents with clean_fp, pairs table, groups table) of verified mode: boilerplate counted in Spark,
    each document's boilerplate-free fingerprint on the executors, the candidates and the rules that keep them
    on the driver (cluster.verified: the desktop's analysis, over the documents' small columns), and each
    candidate's texts profiled and scored on the executors."""
    import pyarrow as pa
    from pyspark import StorageLevel
    from pyspark.sql import functions as F, types as T

    def explode_lines(batches):
        for batch in batches:
            ids, blobs = batch.column("doc_id").to_pylist(), batch.column("lines").to_pylist()
            hashes = [np.frombuffer(b, dtype="<u4") for b in blobs]
            yield pa.record_batch(
                {
                    "doc_id": pa.array(np.repeat(ids, [len(h) for h in hashes]).astype(np.int64)),
                    "h": pa.array(np.concatenate(hashes + [np.empty(0, "<u4")]).astype(np.int64)),
                }
            )

    lines = docs.select("doc_id", "lines").mapInArrow(explode_lines, "doc_id long, h long")
    # identical copies count once (boilerplate.class_boilerplate): one document per content hash, any one of
    # them (identical texts have identical line hashes), and the collection's size is the number of classes
    classes = docs.select("doc_id", "content_hash", "lines").dropDuplicates(["content_hash"]).select("doc_id", "lines")
    frequency = min_document_frequency(classes.count())
    counted = classes.mapInArrow(explode_lines, "doc_id long, h long")
    common = counted.groupBy("h").count().where(F.col("count") >= frequency).select("h")
    boilerplate = frozenset(r["h"] for r in common.collect())
    line_votes: dict[int, np.ndarray] = {}
    if boilerplate:
        holders = lines.join(F.broadcast(common), "h").join(docs.select("doc_id", "chars", "path"), "doc_id")
        shortest = holders.groupBy("h").agg(F.min(F.struct("chars", "path", "doc_id")).alias("m"))
        chosen = docs.join(shortest.select(F.col("m.doc_id").alias("doc_id")).distinct(), "doc_id").collect()
        chosen.sort(key=lambda r: r["path"])
        line_votes = read_boilerplate_votes(
            source,
            [_item_of(r) for r in chosen],
            set(boilerplate),
            LineHashes.of([np.frombuffer(r["lines"], dtype="<u4") for r in chosen]),
            np.array([r["chars"] for r in chosen], dtype=np.int64),
            settings,
        )
    dropped = without_notices(boilerplate)  # notices stay in fingerprints
    bp = np.fromiter(dropped, dtype=np.uint32, count=len(dropped))
    columns = docs.columns

    def with_clean(rows):
        for r in rows:
            hashes = np.frombuffer(r["lines"], dtype="<u4")
            hits = hashes[np.isin(hashes, bp)]
            clean = (
                to_signed(clean_fingerprint(r["votes"], hits, line_votes, to_unsigned(r["fingerprint"])))
                if len(hits) and len(r["votes"])
                else r["fingerprint"]
            )
            yield (*[r[c] for c in columns], clean)

    schema = T.StructType(docs.schema.fields + [T.StructField("clean_fp", T.LongType())])
    full = spark.createDataFrame(docs.rdd.mapPartitions(with_clean), schema).persist(StorageLevel.MEMORY_AND_DISK)
    col = _driver_collection(full)
    found = candidates_of(col, plan.verify)
    scores, held, short = _scores(spark, source, full, col, found, boilerplate)
    pairs, groups = verified_tables(col, found, scores, held, plan)
    # whether each text verification read is short (null for the others): a clean-up of the groups reads no text
    full = full.join(short, "doc_id", "left") if short is not None else full.withColumn("short", F.lit(None))
    return full, pairs, groups


def _scores(spark, source: Source, docs, col: Collection, found: Candidates, boilerplate: frozenset[int]):
    """(scores, held) of the candidates (pair_scores.scored), their texts profiled and scored on the
    executors, and (doc_id, short) of the texts profiled (reread.measured_short; None without candidates)."""
    import pyarrow as pa
    from pyspark import StorageLevel
    from pyspark.sql import functions as F

    scores = np.full(len(found), np.nan)
    held = np.full((len(found), 2), np.nan)
    if not len(found):
        return scores, held, None
    rows = np.unique(np.concatenate([found.i, found.j]))
    involved = spark.createDataFrame(pa.table({"doc_id": col.doc_ids[rows]}))

    def profiled(part):
        part = list(part)
        for r, (prof, short) in zip(part, shingle_items(source, [_item_of(r) for r in part], boilerplate)):
            yield (r["doc_id"], pickle.dumps(prof, protocol=5), None if short is None else int(short))

    # kept: the pairs join it twice and the documents table takes its short flags (each text read once)
    profiles = spark.createDataFrame(
        docs.join(involved, "doc_id").rdd.mapPartitions(profiled), "doc_id long, profile binary, short byte"
    ).persist(StorageLevel.MEMORY_AND_DISK)
    pairs = spark.createDataFrame(
        pa.table(
            {
                "k": np.arange(len(found), dtype=np.int64),
                "a": col.doc_ids[found.i],
                "b": col.doc_ids[found.j],
                "band_only": found.band_only,
                "plain_near": found.plain_near,
            }
        )
    )
    pa_, pb = profiles.alias("pa"), profiles.alias("pb")
    joined = (
        pairs.join(pa_, F.col("a") == F.col("pa.doc_id"))
        .join(pb, F.col("b") == F.col("pb.doc_id"))
        .select("k", "band_only", "plain_near", F.col("pa.profile").alias("left"), F.col("pb.profile").alias("right"))
    )

    def score(batches):
        for batch in batches:
            s, held = scored(
                [pickle.loads(x) for x in batch.column("left").to_pylist()],
                [pickle.loads(x) for x in batch.column("right").to_pylist()],
                batch.column("band_only").to_numpy(zero_copy_only=False),
                batch.column("plain_near").to_numpy(zero_copy_only=False),
            )
            yield pa.record_batch(
                {
                    "k": batch.column("k"),
                    "score": pa.array(s),
                    "a_in_b": pa.array(held[:, 0]),
                    "b_in_a": pa.array(held[:, 1]),
                }
            )

    result = joined.mapInArrow(score, "k long, score double, a_in_b double, b_in_a double").toArrow()
    k = result.column("k").to_numpy()
    scores[k] = result.column("score").to_numpy(zero_copy_only=False)
    held[k, 0] = result.column("a_in_b").to_numpy(zero_copy_only=False)
    held[k, 1] = result.column("b_in_a").to_numpy(zero_copy_only=False)
    return scores, held, profiles.select("doc_id", "short")


def _driver_collection(docs) -> Collection:
    """The documents' small columns on the driver, as the local engine's collection (path order), with their
    bundle ids and clean fingerprints: what the candidate search and the groups need (~1 KB a document)."""
    rows = docs.select(
        "doc_id",
        "path",
        "uri",
        "size",
        "mtime_ns",
        "version",
        "content_hash",
        "encoding",
        "chars",
        "fingerprint",
        "clean_fp",
        "bands",
    ).collect()
    rows.sort(key=lambda r: r["path"])
    col = Collection(
        [SourceItem(r["path"], r["uri"], r["size"], r["version"], r["mtime_ns"]) for r in rows],
        [
            Document(
                r["path"],
                r["size"],
                r["mtime_ns"],
                r["content_hash"],
                r["encoding"],
                r["chars"],
                to_unsigned(r["fingerprint"]),
                bands=r["bands"] or b"",
            )
            for r in rows
        ],
    )
    col.doc_ids = np.array([r["doc_id"] for r in rows], dtype=np.int64)  # Spark's numbering (the same order)
    col.clean = np.array([r["clean_fp"] for r in rows], dtype=np.int64).view(np.uint64)
    return col


def _member_snapshot(rows: list) -> tuple[Snapshot, dict[int, int]]:
    """A snapshot of the given documents (path order) keyed by doc_id, with their clean fingerprints (the
    ones their pairs were found with, as on the desktop) and each one's class representative (copy_of: every
    copy is paired with its representative, so the representative is among the rows)."""
    rows = sorted(rows, key=lambda r: r["path"])
    snap = Snapshot(
        np.array([r["doc_id"] for r in rows], dtype=np.int64),
        np.array([r["clean_fp"] for r in rows], dtype=np.int64).view(np.uint64),
        np.array([r["size"] for r in rows], dtype=np.int64),
        np.array([r["mtime_ns"] for r in rows], dtype=np.int64),
        np.array([r["chars"] for r in rows], dtype=np.int64),
        [r["path"] for r in rows],
        [r["content_hash"] for r in rows],
        [r["encoding"] for r in rows],
    )
    row_of = {int(doc): row for row, doc in enumerate(snap.ids.tolist())}
    copy_of = np.array([row_of[int(r["rep"])] for r in rows], dtype=np.int64)
    return replace(snap, copy_of=copy_of), row_of


def _grouping(snap: Snapshot, row_of: dict[int, int], pairs: list, plan: ScanPlan):
    """core.groups' grouping of the member snapshot at plain mode's radius."""
    i = np.array([row_of[p["a"]] for p in pairs], dtype=np.int64)
    j = np.array([row_of[p["b"]] for p in pairs], dtype=np.int64)
    d = np.array([p["distance"] for p in pairs], dtype=np.int64)
    return Grouper(snap, i, j, d, max_threshold=plan.radius).at(plan.radius)


def _groups(spark, docs, pairs, plan: ScanPlan, folder: Path) -> int:
    """Write the groups table of the plain `pairs` of `docs` (_with_classes); returns the number of groups."""
    from pyspark.sql import functions as F

    if pairs.count() <= plan.driver_pairs:
        rows = pairs.collect()
        ids = spark.createDataFrame([(int(x),) for x in {r["a"] for r in rows} | {r["b"] for r in rows}], "doc_id long")
        members = docs.join(ids, "doc_id").select(*MEMBER_COLUMNS, "rep").collect()
        snap, row_of = _member_snapshot(members)
        grouping = _grouping(snap, row_of, rows, plan)
        write_table(folder, "groups", groups_table(grouping))
        return len(grouping)
    from simdesk.cluster.components import component_labels

    labels = component_labels(pairs.select(F.col("a").alias("u"), F.col("b").alias("v")))
    members = docs.join(labels.withColumnRenamed("node", "doc_id"), "doc_id").select("label", *MEMBER_COLUMNS, "rep")
    edges = pairs.join(labels.withColumnRenamed("node", "a"), "a")
    by_label = members.rdd.map(lambda r: (r["label"], ("m", r.asDict()))).union(
        edges.rdd.map(lambda r: (r["label"], ("p", r.asDict())))
    )

    def one_component(kv):
        label, parts = kv
        parts = list(parts)
        snap, row_of = _member_snapshot([p for kind, p in parts if kind == "m"])
        grouping = _grouping(snap, row_of, [p for kind, p in parts if kind == "p"], plan)
        for g in grouping:  # one group: the component
            yield (
                len(g.members),
                min(m.path for m in g.members),
                [(m.doc_id, rank, m.distance, m.score) for rank, m in enumerate(g.members)],
            )

    comps = by_label.groupByKey().flatMap(one_component)
    ranked = comps.sortBy(lambda c: (-c[0], c[1])).zipWithIndex()
    flat = ranked.flatMap(lambda t: [(t[1] + 1, doc, rank, dist, sc) for doc, rank, dist, sc in t[0][2]])
    groups = spark.createDataFrame(flat, "group long, doc_id long, rank int, distance byte, score double")
    _write(groups, folder, "groups")
    return ranked.count()
