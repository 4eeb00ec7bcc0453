"""The simdesk engine: reading folders, fingerprints, the SQLite index, pairs, verified groups, diffs, the
editor's review (decisions, clean-up, undo, export). Imports no Qt.

The names below are the engine's public surface: the window, the command line and the benchmarks import
them from `simdesk.core` and nothing from its modules (an import-linter contract in pyproject.toml keeps it
so). Each is loaded when first used, so `import simdesk.core` costs nothing at start-up.

    from simdesk.core import Index, ReviewSettings, open_review
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

_WHERE = {
    # one folder's review: the orchestrator, its settings, the editor's decisions
    "review.review": (
        "Review",
        "ReviewSettings",
        "Scope",
        "action_scope",
        "open_review",
        "pair_to_compare",
        "undo_last",
    ),
    "review.decisions": ("Decisions",),
    # the review in a process of its own (the window's scans): events relayed, never the caller's lock held
    "review.process": ("ReviewProcess", "ReviewRequest", "run_review"),
    # a comparison or a batch of headlines in a helper process (the window's): its lock never held for them
    "review.helper": ("HelperProcess",),
    "paths": ("action_log", "data_dir", "demo_dir", "index_path"),
    "records": ("Document", "Group", "Member", "Problem", "Progress", "Relation", "ScanOptions", "ScanStats"),
    "index.scan": ("ScanResult",),
    # the workers' fork server started before the engine is loaded, when a scan will use them (the command line)
    "index.pooling": ("start_workers_before_scan",),
    "timeleft": ("TimeLeft",),
    "workers": ("CancelToken", "map_chunks", "process_pool", "worker_count"),
    "index.store": ("Index",),
    "index.connection": ("BUSY_MESSAGE", "IndexError_", "damaged_prefix"),
    "index.documents": ("Snapshot",),
    # a damaged index rebuilt with the editor's decisions it still yields
    "index.rescue": ("Rescue", "readable_decisions", "rebuild_index"),
    "matching.groups": ("DEFAULT_THRESHOLD", "Grouper", "Grouping", "grouper_for"),
    "matching.radius": ("MAX_THRESHOLD",),  # imports nothing: the command line's options use it
    # the similarity of two texts, defined once (verify.similarity); analysis.text_similarity gives it for two
    # texts without the collection's boilerplate, as verification scores them and the window shows them
    "fingerprint.similarity": ("DEFAULT_MIN_SIMILARITY", "Profile", "profile", "similarity"),
    # the candidate search's pairs (benchmarks time it, compiled and in numpy)
    "matching.analysis": (
        "VerifySettings",
        "analyse",
        "band_flags",
        "candidate_pairs",
        "collection_boilerplate",
        "text_similarity",
    ),
    # the rule that scores and keeps a candidate pair (benchmarks score candidate pairs as verification does)
    "matching.pair_scores": ("candidate_relation",),
    # the profile verification scores a text on (benchmarks score candidate pairs as verification does)
    "matching.reread": ("verification_profile",),
    "cleanup.plan": (
        "GOES",
        "KEEP",
        "KEEP_RULES",
        "STAYS",
        "CleanupPlan",
        "CleanupReport",
        "Fate",
        "KeepChain",
        "keep_by_rule",
        "member_fates",
    ),
    # how figures and a clean-up's reasons are written (the command line; the window translates the same)
    "review.figures": ("contained", "fate_reason", "measured", "percent", "share_text"),
    "cleanup.undo": ("PendingUndo", "UndoReport", "can_undo_cleanup", "cleanup_to_undo"),
    "review.report": ("printable", "safe_cell"),
    "review.diff": (
        "DEFAULT_DIFF_MODE",
        "DIFF_MODES",
        "FIRST_VIEW_BUDGET_S",
        "Row",
        "SideBySide",
        "compare_files",
        "compare_texts",
        "refine",
    ),
    "reading.documents": ("DecodeError", "decode_bytes", "encoding_name", "read_source_file", "read_text_file", "walk"),
    "reading.markup": ("markup_kind", "page_heading", "visible_text"),
    "reading.texts": ("Texts", "read_uri"),
    # what an editor reads first of a document (title, date, source), for group members only, and their search
    "reading.headline": ("HEADLINE_KEYS", "Headline", "Headlines", "headline_of", "search_form"),
    "fingerprint.features": ("DEFAULT_FEATURES", "FeatureSettings", "segment", "weighted_terms"),
    "reading.normalize": ("normalize",),
    "fingerprint.simhash": ("similarity_percent", "simhash"),
    "matching.pairs": ("brute_force_pairs", "pairs_within"),
    "fingerprint.segmenter": ("default_segmenter", "segmenter_choice"),
    "evaluation": (
        "ClassScores",
        "CleanupScores",
        "Scores",
        "files_left",
        "load_truth",
        "score_classes",
        "score_cleanup",
        "score_groups",
    ),
    "demo": ("ensure_demo",),
    "resources": ("resource",),
}
_MODULE_OF = {name: module for module, names in _WHERE.items() for name in names}
# the scan function is public as scan_folder: an attribute named `scan` would be replaced by the submodule of
# that name as soon as it is imported
_RENAMED = {"scan_folder": ("index.scan", "scan")}
_MODULE_OF.update({public: module for public, (module, _) in _RENAMED.items()})

__all__ = sorted(_MODULE_OF)


# type checkers and editors read the names from their modules (so each has its real type); at run time each is
# imported when first asked for. tests/test_architecture.py keeps these imports and the table above in step.
if TYPE_CHECKING:
    from simdesk.core.cleanup.plan import (
        GOES,
        KEEP,
        KEEP_RULES,
        STAYS,
        CleanupPlan,
        CleanupReport,
        Fate,
        KeepChain,
        keep_by_rule,
        member_fates,
    )
    from simdesk.core.cleanup.undo import PendingUndo, UndoReport, can_undo_cleanup, cleanup_to_undo
    from simdesk.core.demo import ensure_demo
    from simdesk.core.evaluation import (
        ClassScores,
        CleanupScores,
        Scores,
        files_left,
        load_truth,
        score_classes,
        score_cleanup,
        score_groups,
    )
    from simdesk.core.fingerprint.features import DEFAULT_FEATURES, FeatureSettings, segment, weighted_terms
    from simdesk.core.fingerprint.segmenter import default_segmenter, segmenter_choice
    from simdesk.core.fingerprint.simhash import simhash, similarity_percent
    from simdesk.core.fingerprint.similarity import DEFAULT_MIN_SIMILARITY, Profile, profile, similarity
    from simdesk.core.index.connection import BUSY_MESSAGE, IndexError_, damaged_prefix
    from simdesk.core.index.documents import Snapshot
    from simdesk.core.index.pooling import start_workers_before_scan
    from simdesk.core.index.rescue import Rescue, readable_decisions, rebuild_index
    from simdesk.core.index.scan import ScanResult, scan as scan_folder
    from simdesk.core.index.store import Index
    from simdesk.core.matching.analysis import (
        VerifySettings,
        analyse,
        band_flags,
        candidate_pairs,
        collection_boilerplate,
        text_similarity,
    )
    from simdesk.core.matching.groups import DEFAULT_THRESHOLD, Grouper, Grouping, grouper_for
    from simdesk.core.matching.pair_scores import candidate_relation
    from simdesk.core.matching.pairs import brute_force_pairs, pairs_within
    from simdesk.core.matching.radius import MAX_THRESHOLD
    from simdesk.core.matching.reread import verification_profile
    from simdesk.core.paths import action_log, data_dir, demo_dir, index_path
    from simdesk.core.reading.documents import (
        DecodeError,
        decode_bytes,
        encoding_name,
        read_source_file,
        read_text_file,
        walk,
    )
    from simdesk.core.reading.headline import HEADLINE_KEYS, Headline, Headlines, headline_of, search_form
    from simdesk.core.reading.markup import markup_kind, page_heading, visible_text
    from simdesk.core.reading.normalize import normalize
    from simdesk.core.reading.texts import Texts, read_uri
    from simdesk.core.records import Document, Group, Member, Problem, Progress, Relation, ScanOptions, ScanStats
    from simdesk.core.resources import resource
    from simdesk.core.review.decisions import Decisions
    from simdesk.core.review.diff import (
        DEFAULT_DIFF_MODE,
        DIFF_MODES,
        FIRST_VIEW_BUDGET_S,
        Row,
        SideBySide,
        compare_files,
        compare_texts,
        refine,
    )
    from simdesk.core.review.figures import contained, fate_reason, measured, percent, share_text
    from simdesk.core.review.helper import HelperProcess
    from simdesk.core.review.process import ReviewProcess, ReviewRequest, run_review
    from simdesk.core.review.report import printable, safe_cell
    from simdesk.core.review.review import (
        Review,
        ReviewSettings,
        Scope,
        action_scope,
        open_review,
        pair_to_compare,
        undo_last,
    )
    from simdesk.core.timeleft import TimeLeft
    from simdesk.core.workers import CancelToken, map_chunks, process_pool, worker_count
else:

    def __getattr__(name: str) -> object:
        module = _MODULE_OF.get(name)
        if module is None:
            raise AttributeError(f"simdesk.core has no public name {name!r}")
        value = getattr(importlib.import_module(f"simdesk.core.{module}"), _RENAMED.get(name, (module, name))[1])
        globals()[name] = value
        return value


def __dir__() -> list[str]:
    return __all__
