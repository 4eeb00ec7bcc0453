"""`python -m bench.table figures.json`: the figures of a `python -m bench --json` run against the performance targets,
as the Markdown table docs/performance.md carries."""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path

# (target, figure, how it is judged, shown beside it)
ROWS: tuple[tuple[str, str, str, list[str]], ...] = (
    (
        "1 scan vs bare jieba.lcut (default segmenter)",
        "scan_default_vs_jieba_lcut",
        ">=0.8",
        ["scan_default_chars_per_s", "jieba_lcut_chars_per_s", "scan_default_docs_per_s"],
    ),
    (
        "1 scan vs bare jieba.lcut (jieba segmenter)",
        "scan_jieba_vs_jieba_lcut",
        ">=0.8",
        ["scan_jieba_chars_per_s", "jieba_lcut_chars_per_s", "scan_jieba_docs_per_s"],
    ),
    (
        "1 the rest costs < 1/4 (CPU, jieba segmenter)",
        "scan_jieba_cpu_vs_jieba_lcut",
        ">=0.8",
        ["jieba_lcut_cpu_seconds", "scan_jieba_cpu_seconds"],
    ),
    (
        "2 rjieba vs jieba scan",
        "scan_rjieba_vs_jieba_speedup",
        "report",
        ["scan_default_seconds", "scan_jieba_seconds"],
    ),
    ("3 pairs r=3 among 1,000,000", "pairs_r3_seconds", "<3", ["pairs_r3_found"]),
    ("3 pairs r=8 among 1,000,000", "pairs_r8_seconds", "<30", ["pairs_r8_found"]),
    ("3 identical to brute force", "pairs_identical_to_brute_force", "==1", ["pairs_verified_rows"]),
    (
        "3 vs SimhashIndex, medium, k=3",
        "pairs_vs_simhashindex_speedup",
        ">=50",
        ["pairs_simdesk_k3_seconds", "pairs_simhashindex_k3_seconds"],
    ),
    (
        "3 vs numpy all-pairs XOR-popcount",
        "pairs_vs_numpy_allpairs_speedup",
        "report",
        ["pairs_numpy_allpairs_k3_seconds"],
    ),
    (
        "3 vs datasketch MinHashLSH (search only)",
        "pairs_vs_minhashlsh_speedup",
        "report",
        [
            "pairs_minhashlsh_seconds",
            "minhash_datasketch_docs_per_s",
            "fingerprint_simdesk_docs_per_s",
            "fingerprint_simhash_pkg_docs_per_s",
        ],
    ),
    (
        "4 rescan unchanged / first scan",
        "rescan_unchanged_share",
        "<=0.05",
        ["rescan_unchanged_seconds", "large_first_scan_seconds"],
    ),
    (
        "4 rescan, 1% changed / first scan",
        "rescan_changed_share",
        "<=0.06",
        ["rescan_changed_seconds", "rescan_changed_files"],
    ),
    (
        "5 regroup at 200,000, median of 20 moves",
        "regroup_median_ms",
        "<=50",
        ["regroup_max_ms", "regroup_first_screen_median_ms", "pairs_r12_index_seconds"],
    ),
    ("6 peak RSS, full scan of large", "large_scan_peak_rss_mb", "<=1536", ["large_scan_peak_rss_main_mb"]),
    ("6 index bytes per document, segment index", "index_segment_bytes_per_document", "<=200", ["large_documents"]),
    ("6 index bytes per document, whole file", "index_bytes_per_document", "<=200", ["large_documents"]),
    ("7 GUI longest tick gap", "gui_longest_tick_gap_ms", "n/a", []),
    ("benchmark run time", "bench_seconds", "<600", []),
)


def judge(value: float, rule: str) -> str:
    if rule in ("report", "n/a") or (isinstance(value, float) and math.isnan(value)):
        return rule if rule == "n/a" else "reported"
    for op in (">=", "<=", "==", "<", ">"):
        if rule.startswith(op):
            bound = float(rule[len(op) :])
            ok = {
                ">=": value >= bound,
                "<=": value <= bound,
                "==": value == bound,
                "<": value < bound,
                ">": value > bound,
            }[op]
            return "met" if ok else "**missed**"
    raise ValueError(rule)


def shown(value: float) -> str:
    if isinstance(value, float):
        return "n/a" if math.isnan(value) else f"{value:.3g}" if abs(value) < 1000 else f"{value:,.0f}"
    return f"{value:,}"


def table(figures: dict) -> str:
    lines = ["| target | figure | value | target | verdict | beside it |", "|---|---|---|---|---|---|"]
    for label, name, rule, beside in ROWS:
        if name not in figures:
            continue
        f = figures[name]
        extra = "; ".join(
            f"{b} {shown(figures[b]['value'])} {figures[b]['unit'].split(' (')[0]}" for b in beside if b in figures
        )
        unit = "" if isinstance(f["value"], float) and math.isnan(f["value"]) else " " + f["unit"].split(" (")[0]
        lines.append(
            f"| {label} | `{name}` | {shown(f['value'])}{unit} | {rule} | {judge(f['value'], rule)} | {extra} |"
        )
    return "\n".join(lines)


def main() -> None:
    figures = json.loads(Path(sys.argv[1]).read_text())
    print(table(figures))


if __name__ == "__main__":
    main()
