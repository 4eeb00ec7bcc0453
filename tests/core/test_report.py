"""The JSON report's text is json.dumps(..., ensure_ascii=False, indent=2) of the whole document, written group by
group: every kind of value a report holds (names with quotes, line breaks, controls and other scripts, numbers,
null, booleans, empty lists) and nesting beyond what a report holds."""

from __future__ import annotations

import io
import json

import pytest

from simdesk.core.records import Group, Member, Problem
from simdesk.core.review.report import indented_json, write_groups_json

ODD = ['a "quoted" name', "line\nbreak", "tab\there", "\u2028\u202e", "中文/稿件.txt", "\\", "", "}", "},\n  {"]


@pytest.mark.parametrize(
    "value",
    [
        {"members": [{"path": p, "distance": k, "score": None, "ok": k % 2 == 0} for k, p in enumerate(ODD)]},
        [{"a": 1}, {"b": 2.5, "c": [1, 2]}, {}, [], [[]], {"x": {}}],
        {"groups": [{"id": 1, "members": [{"path": "a"}]}, {"id": 2, "members": []}], "n": 1.0e-7},
        [{"path": "one"}],
        "scalar",
        [],
        {},
        3,
    ],
)
@pytest.mark.parametrize("pad", ["", "  ", "    "])
def test_indented_json_is_json_dumps_with_indent_2(value, pad):
    assert indented_json(value, pad) == json.dumps(value, ensure_ascii=False, indent=2).replace("\n", "\n" + pad)


def test_the_report_is_the_whole_document_dumped_at_once():
    groups = [
        Group(1, False, tuple(Member(k, p, k, 10 * k, "utf-8", 0, "h", 0.5 + k / 100) for k, p in enumerate(ODD))),
        Group(2, True, (Member(20, "x", 0, 1, "gb18030", 0, "h"), Member(21, "y", 3, 2, "utf-8", 0, "h", 1.0))),
    ]
    problems = [Problem('bad "name"\n', "cannot be read"), Problem("b", "empty")]
    out = io.StringIO()
    write_groups_json(out, "/root", 12, 99, groups, problems, 0.8, {"x": "keep"}, [("x", "y")])
    expected = {
        "root": "/root",
        "threshold": 12,
        "min_similarity": 0.8,
        "documents": 99,
        "groups": [
            {
                "id": g.id,
                "identical": g.identical,
                "members": [
                    {"path": m.path, "distance": m.distance, "size": m.size, "encoding": m.encoding}
                    | {"similarity": None if m.score is None else round(m.score, 4)}
                    | ({"decision": "keep"} if m.path == "x" else {})
                    for m in g.members
                ],
            }
            for g in groups
        ],
        "problems": [{"path": p.path, "error": p.error} for p in problems],
        "not_duplicates": [["x", "y"]],
    }
    assert out.getvalue() == json.dumps(expected, ensure_ascii=False, indent=2)
