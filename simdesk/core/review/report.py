"""Exports of a grouping, shared by the CLI and the window: the JSON other tools read, CSV, and plain text.

CSV cells that a spreadsheet would run as a formula (starting with = + - @, tab or carriage return) are
prefixed with a quote so that opening an export never executes anything.
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import cache
from typing import TextIO

from simdesk.core.fingerprint.simhash import similarity_percent
from simdesk.core.matching.groups import Grouping
from simdesk.core.reading.headline import Headline
from simdesk.core.records import Group, Member, Problem

FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
# a cell starting with a sign is a formula to a spreadsheet only when, past its signs and spaces, something a
# formula is made of follows (a number, a name, a bracket, a reference, a quote): '-1+1', '+cmd|…', '- A1';
# '-- 理查德·马修·斯托曼' (an attribution, a dash before a name in another script) is text and stays as written
SIGNED_FORMULA = re.compile(r"[+-][+\-\s]*[0-9A-Za-z_(.$@=\"'!:\\|&{]")


def write_groups_json(
    out: TextIO,
    root: str,
    threshold: int,
    documents: int,
    groups: Iterable[Group],
    problems: Iterable[Problem],
    min_similarity: float | None = None,
    decisions: Mapping[str, str] | None = None,
    not_duplicates: Sequence[tuple[str, str]] = (),
    headlines: Mapping[str, Headline] | None = None,
) -> None:
    """Write the `simdesk scan --format json` document to `out`, one group at a time (the text equals
    json.dumps(..., ensure_ascii=False, indent=2) of the whole document, never held whole: a million
    documents' report is ~250 MB of text). Verified groupings add `min_similarity` and, per member,
    `similarity` (its verified score against the representative, null when that pair was not compared).
    The editor's decisions, when there are any: a member's `decision` ("keep" or "queued") and the pairs
    marked `not_duplicates`. With `headlines`, each member's `title`, `date`, `dated_by` ("text" or
    "modified") and `source` (headline.py); the mapping is looked up as each group is written, so a caller
    may fill it group block by group block."""
    decisions = decisions or {}
    headlines = headlines if headlines is not None else {}
    encode = _SCALAR
    head: dict = {"root": root, "threshold": threshold}
    if min_similarity is not None:
        head["min_similarity"] = min_similarity
    head["documents"] = documents
    out.write("{")
    for key, value in head.items():
        out.write(f"\n  {encode(key)}: {encode(value)},")
    out.write('\n  "groups": [')
    first = True
    for g in groups:
        members = [_member(m, min_similarity, decisions.get(m.path), headlines.get(m.path)) for m in g.members]
        out.write(("\n    " if first else ",\n    ") + _group_json(g.id, g.identical, members, "    "))
        first = False
    out.write("]" if first else "\n  ]")
    tail: dict = {"problems": [{"path": p.path, "error": p.error} for p in problems]}
    if not_duplicates:
        tail["not_duplicates"] = [list(pair) for pair in not_duplicates]
    for key, value in tail.items():
        out.write(f",\n  {encode(key)}: {indented_json(value, '  ')}")
    out.write("\n}")


_SCALAR = json.JSONEncoder(ensure_ascii=False).encode
_SCALARS = (str, int, float, bool, type(None))


def indented_json(value: object, pad: str = "") -> str:
    """json.dumps(value, ensure_ascii=False, indent=2), each line after the first indented by `pad` more. json's
    indented encoder is its pure-Python one (its C encoder writes no line breaks), so this one writes the
    lines itself and has dicts of scalars (a report's members, its problems) written by the C encoder with the
    line break and indent as its item separator, a whole list of them in one call."""
    inner = pad + "  "
    if isinstance(value, dict) and value:
        if _flat(value):
            return "{\n" + inner + _flat_encoder(inner)(value)[1:-1] + "\n" + pad + "}"
        items = (f"{inner}{_SCALAR(str(k))}: {indented_json(v, inner)}" for k, v in value.items())
        return "{\n" + ",\n".join(items) + "\n" + pad + "}"
    if isinstance(value, list | tuple) and value:
        if all(isinstance(v, dict) and v and _flat(v) for v in value):
            return _flat_dicts_json(value, pad)
        return "[\n" + ",\n".join(inner + indented_json(v, inner) for v in value) + "\n" + pad + "]"
    return _SCALAR(value)


def _flat(value: dict) -> bool:
    return all(isinstance(v, _SCALARS) for v in value.values())


def _flat_dicts_json(value: Sequence[dict], pad: str) -> str:
    """indented_json of a non-empty list of non-empty dicts of scalars: one call writes every dict, its fields
    a line each; the line breaks between two dicts are put in after (JSON text holds a raw line break only
    where the encoder puts its separator, and only the separator between two dicts is followed by a brace)."""
    inner = pad + "  "
    fields = inner + "  "
    text = _flat_encoder(fields)(value)[2:-2]
    text = text.replace("},\n" + fields + "{", "\n" + inner + "},\n" + inner + "{\n" + fields)
    return "[\n" + inner + "{\n" + fields + text + "\n" + inner + "}\n" + pad + "]"


def _group_json(group_id: int, identical: bool, members: list[dict], pad: str) -> str:
    """indented_json({"id": group_id, "identical": identical, "members": members}, pad) of a report's group,
    whose members (_member) are dicts of scalars: written without looking at every value's type (the checks
    took about a quarter of the medium collection's report, 16,141 members)."""
    inner = pad + "  "
    listed = _flat_dicts_json(members, inner) if members else "[]"
    return (
        f'{{\n{inner}"id": {_SCALAR(group_id)},\n{inner}"identical": {_SCALAR(identical)},\n'
        f'{inner}"members": {listed}\n{pad}}}'
    )


@cache
def _flat_encoder(pad: str) -> Callable[[object], str]:
    """The C encoder writing a line break and `pad` between two items (one a depth of indent)."""
    return json.JSONEncoder(ensure_ascii=False, separators=(",\n" + pad, ": ")).encode


def _member(m: Member, verified: float | None, decision: str | None, headline: Headline | None) -> dict:
    row = {"path": m.path, "distance": m.distance, "size": m.size, "encoding": m.encoding}
    if headline is not None:
        row.update(title=headline.title, date=headline.date, dated_by=headline.dated_by, source=headline.source)
    if verified is not None:
        row["similarity"] = None if m.score is None else round(m.score, 4)
    if decision is not None:
        row["decision"] = decision
    return row


_INVISIBLE_CONTROLS = {0x2028, 0x2029, *range(0x202A, 0x202F), *range(0x2066, 0x206A)}  # line breaks, bidi overrides
_ESCAPES = {
    c: (repr(chr(c))[1:-1] if c < 0x80 else f"\\u{c:04x}")
    for c in (*range(0x20), *range(0x7F, 0xA0), *_INVISIBLE_CONTROLS)
}


def printable(value: object) -> str:
    """`value` as text for a line of text output: control characters (a newline, an escape sequence, a
    carriage return) and Unicode line breaks and bidirectional overrides written as escapes (\\n, \\x1b,
    \\u2028), so a file's name can neither forge a line nor recolour or reorder the terminal."""
    return str(value).translate(_ESCAPES)


def safe_cell(value: object) -> str:
    """A CSV cell a spreadsheet will not run: a text it would read as a formula ('=…', '@…', a tab or a
    carriage return first, or a sign followed by what a formula is made of: SIGNED_FORMULA) gets an
    apostrophe first; other text is kept as written."""
    text = str(value)
    if not text.startswith(FORMULA_START):
        return text
    if text[0] in "+-" and not SIGNED_FORMULA.match(text):
        return text
    return "'" + text


CSV_COLUMNS = (
    "group",
    "identical",
    "path",
    "distance",
    "bits_agreeing_percent",
    "verified_similarity",
    "size",
    "encoding",
    "representative",
    "decision",
    "title",
    "date",
    "dated_by",
    "source",
)


def groups_csv(
    groups: Iterable[Group],
    problems: Iterable[Problem] = (),
    decisions: Mapping[str, str] | None = None,
    headlines: Mapping[str, Headline] | None = None,
) -> str:
    """write_groups_csv's text."""
    out = io.StringIO(newline="")
    write_groups_csv(out, groups, problems, decisions, headlines)
    return out.getvalue()


def write_groups_csv(
    out: TextIO,
    groups: Iterable[Group],
    problems: Iterable[Problem] = (),
    decisions: Mapping[str, str] | None = None,
    headlines: Mapping[str, Headline] | None = None,
) -> None:
    """One row per group member (with the editor's decision: keep, queued or empty; its title, date, where
    the date came from and source, empty without `headlines`); problems follow as rows with an empty group
    and the reason in `path`. Written group by group (`headlines` looked up as each is written)."""
    decisions = decisions or {}
    headlines = headlines if headlines is not None else {}
    # CRLF, as RFC 4180 has it: with a bare LF ending, csv leaves a cell holding a carriage return unquoted,
    # and a spreadsheet splits the row there (a file named '\r=HYPERLINK(…)' would start a row with a formula)
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(CSV_COLUMNS)
    for g in groups:
        for k, m in enumerate(g.members):
            h = headlines.get(m.path)
            writer.writerow(
                [
                    g.id,
                    int(g.identical),
                    safe_cell(m.path),
                    m.distance,
                    f"{similarity_percent(m.distance):.1f}",
                    "" if m.score is None else f"{m.score:.3f}",
                    m.size,
                    m.encoding,
                    int(k == 0),
                    decisions.get(m.path, ""),
                    *((safe_cell(h.title), h.date, h.dated_by, safe_cell(h.source)) if h else ("",) * 4),
                ]
            )
    problems = list(problems)
    if problems:
        out.write("\r\n")
        writer.writerow(("problem_path", "error"))
        for p in problems:
            writer.writerow([safe_cell(p.path), safe_cell(p.error)])


def write_groups_text(
    out: TextIO,
    root: str,
    grouping: Grouping,
    documents: int,
    problems: list[Problem],
    decisions: Mapping[str, str] | None = None,
    headlines: Mapping[str, Headline] | None = None,
    groups: Iterable[Group] | None = None,
) -> None:
    """A readable listing: each group headed by its representative's title, each member with its date.
    `groups`: the grouping's groups as the caller builds them (the grouping's own when None); `headlines`
    is looked up as each group is written."""
    decisions = decisions or {}
    headlines = headlines if headlines is not None else {}
    verified = f", verified similarity >= {grouping.min_similarity:.2f}" if grouping.min_similarity is not None else ""
    out.write(
        f"{documents} documents in {root}; {len(grouping)} groups at distance <= {grouping.threshold}"
        f"{verified} ({grouping.documents_in_groups} documents, {grouping.redundant} redundant copies)\n"
    )
    for g in grouping if groups is None else groups:
        flag = " identical" if g.identical else ""
        head = headlines.get(g.members[0].path)
        title = f": {printable(head.title)}" if head is not None and head.title else ""
        lines = [f"\ngroup {g.id}: {len(g.members)} members{flag}{title}"]
        for k, m in enumerate(g.members):
            mark = "*" if k == 0 else " "
            score = "" if m.score is None else f" s={m.score:.2f}"
            decision = f"  [{decisions[m.path]}]" if m.path in decisions else ""
            h = headlines.get(m.path)
            date = f"{h.date}{'' if h.dated_by == 'text' else '*'} " if h is not None else ""
            lines.append(
                f" {mark} d={m.distance:<2d}{score} {m.size:>9d} B  {m.encoding:<9s} {date}{printable(m.path)}{decision}"
            )
        out.write("\n".join(lines) + "\n")
    if problems:
        out.write(f"\n{len(problems)} problems:\n")
        out.write("".join(f"  {printable(p.path)}: {printable(p.error)}\n" for p in problems))
