"""Texts filled from one template are different documents; a copy of one filled text is still its copy:
on pairs of real form texts (SMS notices, letters, invitations, product pages) and on a collection of them
made by the evaluation kit (bench/quality/templates.py), scanned and verified as the window does."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench.quality.kit import build
from simdesk.core.evaluation import load_truth, score_classes
from simdesk.core.fingerprint.similarity import FILL_SCORE, template_fill
from simdesk.core.index.scan import scan
from simdesk.core.index.store import Index
from simdesk.core.matching.analysis import analyse, text_similarity
from simdesk.core.matching.radius import MAX_THRESHOLD
from simdesk.core.reading.normalize import normalize
from simdesk.core.records import ScanOptions

HOSPITAL = (
    "【昆明人民医院】{name}您好，您预约的{date}{time}内科门诊已成功，就诊序号{no}号，请提前30分钟携带身份证及医保卡"
    "到门诊2楼自助机签到取号。如需取消请于就诊前一日回复QX{code}。"
)
INVITATION = (
    "邀请函\n\n尊敬的{name}：\n\n    值此新春佳节来临之际，云岭科技有限公司谨定于2025年1月18日（星期六）下午14:30"
    "在昆明市盘龙区北京路1088号如意大酒店三楼宴会厅举办“携手同行·共创未来”客户答谢会，届时将回顾一年来的合作成果，"
    "并发布新一年的产品规划。诚挚邀请您拨冗莅临。\n\n    敬请于1月15日前回复是否出席，联系人：行政部李静，"
    "电话0871-63318899。\n\n                                  云岭科技有限公司\n                                  2025年1月6日\n"
)
GALA = (
    "Dear {name},\n\nOn behalf of the Board of Trustees, it is my pleasure to invite you to the Riverside "
    "Community Foundation's Annual Spring Gala, to be held on Saturday, April 12, 2025, from 6:30 PM to 10:00 PM "
    "at the Grand Ballroom of the Hotel Marquette, 210 Lake Drive, Madison, WI.\n\nThe evening will celebrate "
    "twenty-five years of service to our community and will include dinner, live music and a silent auction "
    "benefiting the Youth Scholarship Fund.\n\nKindly RSVP by March 28, 2025 to (608) 555-0143.\n\n"
    "With warm regards,\n\nEleanor Whitfield\nChair, Board of Trustees\n"
)
WATER = (
    "停水通知\n\n尊敬的用户：\n\n    因供水管网改造需要，我公司定于{date}8:00至18:00对{district}人民路、解放路沿线及阳光花园等区域"
    "暂停供水，恢复供水时间视施工进度可能提前或推迟。\n\n    请受影响的用户提前做好储水准备，停水期间请关闭家中水龙头，"
    "以免来水时造成损失。恢复供水初期水质可能浑浊，请放水片刻后再使用。由此给您带来的不便，敬请谅解。\n\n"
    "    服务热线：0871-64151234\n\n                                  昆明市自来水有限公司\n"
)


def test_fills_of_one_template_are_not_copies_at_any_length():
    filled = [
        (
            HOSPITAL.format(name="郑刚", date="9月11日", time="17:30", no=12, code=3174),
            HOSPITAL.format(name="薛芳", date="9月11日", time="17:30", no=12, code=3174),
        ),  # the name alone
        (
            HOSPITAL.format(name="郑刚", date="9月11日", time="17:30", no=12, code=3174),
            HOSPITAL.format(name="郑刚", date="10月3日", time="9:15", no=12, code=3174),
        ),  # the date and time
        (INVITATION.format(name="欧阳建华先生"), INVITATION.format(name="龚娜女士")),  # a letter of 300 characters
        (INVITATION.format(name="罗娜老师"), INVITATION.format(name="廖娜女士")),  # one given name, two titles
        (INVITATION.format(name="皇甫敏雨教授"), INVITATION.format(name="覃雨桐先生")),  # names that share 雨
        (INVITATION.format(name="徐建国老师"), INVITATION.format(name="高国庆老师")),  # that share 国
        (INVITATION.format(name="钟浩然老也"), INVITATION.format(name="沈杰女士")),  # a typo'd copy's title
        (INVITATION.format(name="马一鸣先生"), INVITATION.format(name="钟一鸣先生")),  # the family name alone
        (GALA.format(name="Mrs. Hill"), GALA.format(name="Ms. King")),
        (GALA.format(name="Mr. White"), GALA.format(name="Mr. Wright")),
        (WATER.format(date="2024年7月9日", district="五华区"), WATER.format(date="2024年7月9日", district="盘龙区")),
        (WATER.format(date="2024年7月9日", district="五华区"), WATER.format(date="2024年8月2日", district="五华区")),
        (
            "Invoice #: INV-4417302\nTotal due: $1,280.00\n" + GALA.format(name="Sir"),
            "Invoice #: INV-9921735\nTotal due: $1,280.00\n" + GALA.format(name="Sir"),
        ),  # an id
    ]
    for a, b in filled:
        assert text_similarity(a, b) <= FILL_SCORE, (a[:40], b[:40])


def test_copies_of_one_filled_text_stay_copies():
    sms = HOSPITAL.format(name="郑刚", date="9月11日", time="17:30", no=12, code=3174)
    letter = INVITATION.format(name="罗娜老师")
    gala = GALA.format(name="Mr. Roberts")
    copies = [
        (sms, sms.replace("郑刚", "郑的")),  # a typo in the name: one character
        (sms, sms.replace("携带", "携着")),
        (sms, sms.replace("，", ",").replace("。", ".")),  # punctuation made half-width
        (sms, sms[:40] + "\n" + sms[40:80] + "\n" + sms[80:]),  # re-wrapped, a number cut at the line end
        (letter, letter.replace("日前回复", "着前回复")),
        (letter, letter.replace("\n", "\r\n")),
        (gala, gala.replace("Roberts", "Robrets")),  # two letters of the name swapped
        (gala, gala.replace("pleasure", "plaesure")),
        (gala, " ".join(gala.split(" ")[:30]) + "\n" + " ".join(gala.split(" ")[30:])),
    ]
    for a, b in copies:
        assert template_fill(normalize(a), normalize(b)) in ("", "word"), (a[:40], b[:60])
        assert text_similarity(a, b) >= 0.9, (a[:40], b[:60])


@pytest.fixture(scope="module")
def templates(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("templates") / "small"
    build(folder, "small", seed=5, classes=("template",))
    return folder


def test_a_template_collection_has_no_false_group_and_keeps_typod_copies(templates, tmp_path):
    data = json.loads((templates / "truth.json").read_text("utf-8"))
    files = data["files"]
    assert data["classes"] == ["template"]
    assert len({v["group"] for v in files.values()}) >= 50  # 18 templates, 3 fills each
    assert sum("typo" in v["edits"] for v in files.values()) >= 15
    with Index(tmp_path / "i.sqlite") as index:
        scan(templates, index, ScanOptions(jobs=1))
        grouping = analyse(templates, index).at(MAX_THRESHOLD)
        groups = [[m.path for m in g.members] for g in grouping]
    truth = load_truth(templates)
    assert [g for g in groups if len({truth[p].group for p in g}) > 1] == []
    found = {p: k for k, g in enumerate(groups) for p in g}
    originals = {v.group: p for p, v in truth.items() if v.role == "original"}
    typod = [p for p, v in truth.items() if "typo" in v.edits]
    kept = [p for p in typod if p in found and found.get(originals[truth[p].group]) == found[p]]
    assert len(kept) >= 0.95 * len(typod), sorted(set(typod) - set(kept))
    scores = score_classes(truth, groups)["template"]
    assert scores.precision == 1.0 and scores.recall >= 0.95, scores
