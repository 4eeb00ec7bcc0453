"""Imported only by the fork server of the scan's worker processes, so that every worker starts with
jieba's dictionary, the IDF table, the checked segmenter (rjieba's sample check), the fold's OpenCC and tables,
and the code of the scan and of verification's re-reading and scoring (reread, pair_scores) already loaded
instead of loading them (~1 s, and 0.15 s for the check) itself; and with the scanning process's main script
already run (the `simdesk` command's: workers.run_main_script), which each would otherwise run first."""

from __future__ import annotations

from simdesk.core.parent_watch import die_with_parent, mark_fork_server, scanning_process

die_with_parent(scanning_process())  # before the seconds of loading below: a fork server never outlives a killed scan
mark_fork_server()
if scanning_process() is not None:  # not in another daemon that loads the engine (cluster.spark_daemon)
    from simdesk.core.workers import run_main_script

    run_main_script()

from simdesk.core.fingerprint import features  # noqa: E402 (the workers' fingerprint_file, profiles_of...)
from simdesk.core.fingerprint.jieba_library import jieba  # noqa: E402
from simdesk.core.fingerprint.segmenter import default_segmenter  # noqa: E402
from simdesk.core.index import scan  # noqa: E402,F401 (the workers' fingerprint_file, profiles_of...)
from simdesk.core.matching import pair_scores, reread  # noqa: E402,F401 (the workers' profiles_of, scored...)
from simdesk.core.reading.normalize import fold  # noqa: E402

jieba.setLogLevel(60)
features.idf_table()
features.stop_words()
fold("臺灣 \u0420ython\u00ad")  # OpenCC, its script triggers and the fold's tables: ~50 ms once, not in each worker
if default_segmenter().choice.name == "jieba":  # rjieba, checked against the recorded tokens, needs no dictionary
    jieba.initialize()
