"""Exports of a grouping, shared by the CLI and the window: the JSON other tools read, CSV, and plain text.

CSV cells that a spreadsheet would run as a formula (starting with = + - @, tab or carriage return) are
prefixed with a quote so that opening an export never executes anything.
"""
from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable, Mapping, Sequence

from simdesk.core.fingerprint import similarity_percent
from simdesk.core.groups import Grouping
from simdesk.core.headline import Headline
from simdesk.core.records import Group, Problem

FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def groups_document(root: str, threshold: int, documents: int, groups: Iterable[Group],
                    problems: Iterable[Problem], min_similarity: float | None = None,
                    decisions: Mapping[str, str] | None = None,
                    not_duplicates: Sequence[tuple[str, str]] = (),
                    headlines: Mapping[str, Headline] | None = None) -> dict:
    """The `simdesk scan --format json` shape; verified groupings add `min_similarity` and, per member,
    `similarity` (its verified score against the representative, null when that pair was not compared).
    The editor's decisions, when there are any: a member's `decision` ("keep" or "queued") and the pairs
    marked `not_duplicates`. With `headlines`, each member's `title`, `date`, `dated_by` ("text" or
    "modified") and `source` (headline.py)."""
    decisions = decisions or {}
    headlines = headlines or {}
    out = {"root": root, "threshold": threshold}
    if min_similarity is not None:
        out["min_similarity"] = min_similarity
    out["documents"] = documents
    out["groups"] = [{"id": g.id, "identical": g.identical,
                      "members": [_member(m, min_similarity, decisions.get(m.path), headlines.get(m.path))
                                  for m in g.members]}
                     for g in groups]
    out["problems"] = [{"path": p.path, "error": p.error} for p in problems]
    if not_duplicates:
        out["not_duplicates"] = [list(pair) for pair in not_duplicates]
    return out


def _member(m, verified, decision: str | None, headline: Headline | None) -> dict:
    row = {"path": m.path, "distance": m.distance, "size": m.size, "encoding": m.encoding}
    if headline is not None:
        row.update(title=headline.title, date=headline.date, dated_by=headline.dated_by, source=headline.source)
    if verified is not None:
        row["similarity"] = None if m.score is None else round(m.score, 4)
    if decision is not None:
        row["decision"] = decision
    return row


def grouping_json(root: str, grouping: Grouping, documents: int, problems: Iterable[Problem],
                  decisions: Mapping[str, str] | None = None, not_duplicates: Sequence[tuple[str, str]] = (),
                  headlines: Mapping[str, Headline] | None = None) -> str:
    return json.dumps(groups_document(root, grouping.threshold, documents, grouping, problems, grouping.min_score,
                                      decisions, not_duplicates, headlines), ensure_ascii=False, indent=2)


def safe_cell(value: object) -> str:
    text = str(value)
    return "'" + text if text.startswith(FORMULA_START) else text


CSV_COLUMNS = ("group", "identical", "path", "distance", "bits_agreeing_percent", "verified_similarity", "size",
               "encoding", "representative", "decision", "title", "date", "dated_by", "source")


def groups_csv(groups: Iterable[Group], problems: Iterable[Problem] = (),
               decisions: Mapping[str, str] | None = None, headlines: Mapping[str, Headline] | None = None) -> str:
    """One row per group member (with the editor's decision: keep, queued or empty; its title, date, where
    the date came from and source, empty without `headlines`); problems follow as rows with an empty group
    and the reason in `path`."""
    decisions = decisions or {}
    headlines = headlines or {}
    out = io.StringIO()
    # CRLF, as RFC 4180 has it: with a bare LF ending, csv leaves a cell holding a carriage return unquoted,
    # and a spreadsheet splits the row there (a file named '\r=HYPERLINK(…)' would start a row with a formula)
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(CSV_COLUMNS)
    for g in groups:
        for k, m in enumerate(g.members):
            h = headlines.get(m.path)
            writer.writerow([g.id, int(g.identical), safe_cell(m.path), m.distance,
                             f"{similarity_percent(m.distance):.1f}", "" if m.score is None else f"{m.score:.3f}",
                             m.size, m.encoding, int(k == 0), decisions.get(m.path, ""),
                             *((safe_cell(h.title), h.date, h.dated_by, safe_cell(h.source)) if h else ("",) * 4)])
    problems = list(problems)
    if problems:
        out.write("\r\n")
        writer.writerow(("problem_path", "error"))
        for p in problems:
            writer.writerow([safe_cell(p.path), safe_cell(p.error)])
    return out.getvalue()


def groups_text(root: str, grouping: Grouping, documents: int, problems: list[Problem],
                decisions: Mapping[str, str] | None = None, headlines: Mapping[str, Headline] | None = None) -> str:
    """A readable listing: each group headed by its representative's title, each member with its date."""
    decisions = decisions or {}
    headlines = headlines or {}
    verified = f", verified similarity >= {grouping.min_score:.2f}" if grouping.min_score is not None else ""
    lines = [f"{documents} documents in {root}; {len(grouping)} groups at distance <= {grouping.threshold}{verified} "
             f"({grouping.documents_in_groups} documents, {grouping.redundant} redundant copies)"]
    for g in grouping:
        flag = " identical" if g.identical else ""
        head = headlines.get(g.members[0].path)
        title = f": {head.title}" if head is not None and head.title else ""
        lines.append(f"\ngroup {g.id}: {len(g.members)} members{flag}{title}")
        for k, m in enumerate(g.members):
            mark = "*" if k == 0 else " "
            score = "" if m.score is None else f" s={m.score:.2f}"
            decision = f"  [{decisions[m.path]}]" if m.path in decisions else ""
            h = headlines.get(m.path)
            date = f"{h.date}{'' if h.dated_by == 'text' else '*'} " if h is not None else ""
            lines.append(f" {mark} d={m.distance:<2d}{score} {m.size:>9d} B  {m.encoding:<9s} {date}{m.path}{decision}")
    if problems:
        lines.append(f"\n{len(problems)} problems:")
        lines.extend(f"  {p.path}: {p.error}" for p in problems)
    return "\n".join(lines) + "\n"
