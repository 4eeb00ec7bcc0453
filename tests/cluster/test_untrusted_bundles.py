"""Bundles, decisions files and apply logs are untrusted input: `cluster-apply` never replaces what stands at a
destination, refuses a trash prefix inside the bundle's folder, and refuses (one line naming the row, exit 2,
nothing moved or stored) a bundle whose rows name places outside its folder, a manifest or tables of the wrong
shape, and a decisions file of the wrong column types; its undo takes only complete log entries. Real files,
real Parquet bundles written by `cluster_scan`, then tampered with as an attacker would."""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from simdesk.cli import main
from simdesk.cluster.bundle import write_table
from simdesk.cluster.plan import ScanPlan
from simdesk.cluster.run import cluster_scan
from simdesk.cluster.sources import open_source
from simdesk.core.index.store import Index
from tests.cluster.test_apply import POEM_COPIES, write_decisions
from tests.folders import small_folder


def invoke(*args: str):
    return CliRunner().invoke(main, list(args))


def one_line_refusal(result, *words: str) -> None:
    """Exit 2 with one `simdesk: error:` line holding `words`, and no traceback."""
    assert result.exit_code == 2, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("simdesk: error:"), result.output
    assert all(w in lines[0] for w in words), lines[0]


@pytest.fixture
def scanned(tmp_path) -> tuple[Path, Path, dict[str, bytes]]:
    """(the folder, its bundle, every file's bytes)."""
    root = small_folder(tmp_path)
    cluster_scan(open_source(str(root)), tmp_path / "b", ScanPlan(threshold=3, jobs=1))
    return root, tmp_path / "b", {p.relative_to(root).as_posix(): p.read_bytes() for p in root.rglob("*.txt")}


def files(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


def test_a_file_at_the_destination_is_never_replaced(tmp_path, scanned):
    root, bundle, before = scanned
    trash = tmp_path / "trash"
    earlier = trash / POEM_COPIES[0]
    earlier.parent.mkdir(parents=True)
    earlier.write_bytes(b"an earlier apply's file")
    decisions = write_decisions(tmp_path / "d.parquet", POEM_COPIES, ["poem.txt"])
    out = invoke("cluster-apply", str(bundle), "--decisions", str(decisions), "--move-to", str(trash))
    assert out.exit_code == 0 and "2 moved, 0 failed" in out.output, out.output
    assert earlier.read_bytes() == b"an earlier apply's file"
    fresh = earlier.with_name("poem-copy (1).txt")
    assert fresh.read_bytes() == before[POEM_COPIES[0]]
    assert invoke("cluster-apply", str(bundle), "--undo", str(decisions.with_suffix(".apply.jsonl"))).exit_code == 0
    assert files(root) == before and earlier.read_bytes() == b"an earlier apply's file" and not fresh.exists()


def test_a_trash_prefix_inside_the_bundles_folder_is_refused(tmp_path, scanned):
    root, bundle, before = scanned
    decisions = write_decisions(tmp_path / "d.parquet", ["poem.txt"], ["copies/poem-copy.txt"])
    for inside in (root / "sub", root, f"file://{root}/x"):
        one_line_refusal(
            invoke("cluster-apply", str(bundle), "--decisions", str(decisions), "--move-to", str(inside)),
            "inside the bundle's folder",
        )
    assert files(root) == before


def tamper_documents(bundle: Path, which: str, **row: object) -> None:
    table = pq.read_table(bundle / "documents.parquet")
    docs = table.to_pydict()
    k = docs["path"].index(which)
    for column, value in row.items():
        docs[column][k] = value
    write_table(bundle, "documents", pa.table(docs))


def test_a_bundle_naming_a_file_outside_its_folder_is_refused_at_apply_and_import(tmp_path, scanned):
    root, bundle, before = scanned
    victim = tmp_path / "victim.txt"
    victim.write_bytes(b"not in the folder")
    tamper_documents(bundle, POEM_COPIES[0], path="../../escaped/b.txt", uri=str(victim))
    decisions = write_decisions(tmp_path / "d.parquet", ["../../escaped/b.txt"], ["poem.txt"])
    one_line_refusal(
        invoke("cluster-apply", str(bundle), "--decisions", str(decisions), "--move-to", str(tmp_path / "trash")),
        "'..'",
    )
    db = tmp_path / "i.sqlite"
    one_line_refusal(invoke("import", str(bundle), "--db", str(db)), "documents.parquet", "doc_id")
    with Index(db) as index:
        assert index.count() == 0
    tamper_documents(bundle, "../../escaped/b.txt", path=POEM_COPIES[0])  # a sound path, the URI elsewhere
    decisions = write_decisions(tmp_path / "d2.parquet", [POEM_COPIES[0]], ["poem.txt"])
    one_line_refusal(
        invoke("cluster-apply", str(bundle), "--decisions", str(decisions), "--move-to", str(tmp_path / "trash")),
        "not its path under the folder",
    )
    tamper_documents(bundle, POEM_COPIES[0], path=str(victim))  # an absolute path
    one_line_refusal(invoke("import", str(bundle), "--db", str(db)), "absolute path")
    assert victim.read_bytes() == b"not in the folder" and files(root) == before
    assert not (tmp_path / "trash").exists() and not (tmp_path / "escaped").exists()


@pytest.mark.parametrize("source", [None, 7, {"kind": "folder"}, {"kind": "folder", "spec": "x", "root": "rel"}])
def test_a_manifest_of_the_wrong_shape_is_one_line(tmp_path, scanned, source):
    root, bundle, before = scanned
    manifest = json.loads((bundle / "manifest.json").read_text())
    if source is None:
        del manifest["source"]
    else:
        manifest["source"] = source
    (bundle / "manifest.json").write_text(json.dumps(manifest))
    decisions = write_decisions(tmp_path / "d.parquet", POEM_COPIES, ["poem.txt"])
    one_line_refusal(
        invoke("cluster-apply", str(bundle), "--decisions", str(decisions), "--move-to", str(tmp_path / "trash")),
        "manifest",
    )
    one_line_refusal(invoke("import", str(bundle), "--db", str(tmp_path / "i.sqlite")), "manifest")
    assert files(root) == before


@pytest.mark.parametrize("value", [2, -1, 127])
def test_a_short_flag_other_than_0_1_or_null_is_refused_at_import(tmp_path, scanned, value):
    """A clean-up of an imported bundle decides whether a text is short from the bundle's `short` column
    without reading the text: a value that is no flag refuses the bundle, nothing imported."""
    root, bundle, before = scanned
    tamper_documents(bundle, POEM_COPIES[0], short=value)
    db = tmp_path / "i.sqlite"
    one_line_refusal(invoke("import", str(bundle), "--db", str(db)), "documents.parquet", "doc_id", "short")
    with Index(db) as index:
        assert index.count() == 0
    tamper_documents(bundle, POEM_COPIES[0], short=1)
    assert invoke("import", str(bundle), "--db", str(db)).exit_code == 0
    assert files(root) == before


def test_garbage_tables_and_decisions_of_the_wrong_types_are_one_line(tmp_path, scanned):
    root, bundle, before = scanned
    decisions = tmp_path / "d.parquet"
    pq.write_table(pa.table({"path": [1, 2], "decision": [3, 4]}), decisions)
    one_line_refusal(
        invoke("cluster-apply", str(bundle), "--decisions", str(decisions), "--move-to", str(tmp_path / "trash")),
        "column 'path'",
    )
    pq.write_table(pa.table({"path": POEM_COPIES, "decision": ["trash", "delete"]}), decisions)
    one_line_refusal(
        invoke("cluster-apply", str(bundle), "--decisions", str(decisions), "--move-to", str(tmp_path / "trash")),
        "row 1",
        "'delete'",
    )
    decisions.write_bytes(b"not parquet at all")
    one_line_refusal(
        invoke("cluster-apply", str(bundle), "--decisions", str(decisions), "--move-to", str(tmp_path / "trash")),
        "not a decisions file",
    )
    (bundle / "groups.parquet").write_bytes(b"PAR1 garbage PAR1")
    decisions = write_decisions(tmp_path / "d2.parquet", POEM_COPIES, ["poem.txt"])
    one_line_refusal(
        invoke("cluster-apply", str(bundle), "--decisions", str(decisions), "--move-to", str(tmp_path / "trash")),
        "groups.parquet",
    )
    pq.write_table(pa.table({"group": ["a"], "doc_id": ["b"]}), bundle / "groups.parquet")
    one_line_refusal(invoke("import", str(bundle), "--db", str(tmp_path / "i.sqlite")), "groups.parquet", "column")
    assert files(root) == before


def test_apply_undo_takes_only_complete_entries_of_its_own_moves(tmp_path, scanned):
    root, bundle, before = scanned
    trash = tmp_path / "trash"
    decisions = write_decisions(tmp_path / "d.parquet", POEM_COPIES, ["poem.txt"])
    log = tmp_path / "apply.jsonl"
    assert (
        invoke(
            "cluster-apply", str(bundle), "--decisions", str(decisions), "--move-to", str(trash), "--log", str(log)
        ).exit_code
        == 0
    )
    victim = tmp_path / "victim.txt"
    victim.write_bytes(b"someone else's file")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    good = [json.loads(line) for line in log.read_text().splitlines()]
    forged = {**good[-1], "uri": str(elsewhere / "stolen.txt"), "dest": str(victim)}
    no_uri = {k: v for k, v in good[-1].items() if k != "uri"}
    no_hash = {**good[-1], "sha256": None, "dest": str(victim), "uri": str(root / "x.txt"), "path": "x.txt"}
    with open(log, "a") as fh:
        for e in (forged, no_uri, no_hash):
            fh.write(json.dumps(e) + "\n")
        fh.write('{"action": "cluster-apply", "path": "cut')  # a line cut short
    out = invoke("cluster-apply", str(bundle), "--undo", str(log))
    assert out.exit_code == 0 and "2 moved, 0 failed (4 log lines skipped" in out.output, out.output
    assert victim.read_bytes() == b"someone else's file" and not (elsewhere / "stolen.txt").exists()
    assert files(root) == before


def test_apply_undo_leaves_a_changed_trash_copy_and_a_vanished_folder_alone(tmp_path, scanned):
    root, bundle, before = scanned
    trash = tmp_path / "trash"
    decisions = write_decisions(tmp_path / "d.parquet", POEM_COPIES, ["poem.txt"])
    log = tmp_path / "apply.jsonl"
    assert (
        invoke(
            "cluster-apply", str(bundle), "--decisions", str(decisions), "--move-to", str(trash), "--log", str(log)
        ).exit_code
        == 0
    )
    (trash / POEM_COPIES[1]).write_bytes(b"changed in the trash")
    (root / "copies").rename(root / "renamed")
    out = invoke("cluster-apply", str(bundle), "--undo", str(log))
    assert out.exit_code == 1, out.output
    assert "no longer exists" in out.output and "does not hold the bytes" in out.output
    assert not (root / "copies").exists() and (trash / POEM_COPIES[0]).read_bytes() == before[POEM_COPIES[0]]


def test_clean_on_an_index_imported_from_a_bundle_reports_what_it_did(tmp_path, scanned, trash_home):
    root, bundle, before = scanned
    db = tmp_path / "i.sqlite"
    assert invoke("import", str(bundle), "--db", str(db)).exit_code == 0
    out = invoke("clean", str(root), "--db", str(db), "--keep", "oldest", "-t", "3")
    assert out.exception is None or isinstance(out.exception, SystemExit), out.exception
    assert out.exit_code == 0 and "3 files sent to the trash" in out.output, out.output
    assert len(files(root)) == 2
