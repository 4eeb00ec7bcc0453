"""Fill simdesk_zh_CN.ts from the table below after `pyside6-lupdate` (keeps the .ts the one source of truth
for Qt Linguist; this table is how the first translation was entered). Then build the .qm:

    .venv/bin/pyside6-lupdate -no-obsolete simdesk/gui/*.py -ts simdesk/resources/translations/simdesk_zh_CN.ts
    .venv/bin/python tools/fill_zh_CN.py
    .venv/bin/pyside6-lrelease simdesk/resources/translations/simdesk_zh_CN.ts
"""
from __future__ import annotations

import sys
import xml.etree.ElementTree as ET
from pathlib import Path

TS_FILE = Path(__file__).resolve().parents[1] / "simdesk" / "resources" / "translations" / "simdesk_zh_CN.ts"

ZH = {
    "◀ Previous change": "◀ 上一处改动",
    "Next change ▶": "下一处改动 ▶",
    "Previous change (P)": "上一处改动 (P)",
    "Next change (N)": "下一处改动 (N)",
    "Select a group, or two members, to compare them side by side.": "选择一个组，或组中的两个文档，即可并排比较。",
    "Reference: %1": "参照：%1",
    "Candidate: %1": "对比：%1",
    "1 change": "1 处改动",
    "%1 changes": "%1 处改动",
    " · change %1 of %2": " · 第 %1 处，共 %2 处",
    " · long text: some changed lines are marked whole": " · 长文本：部分改动行整行标出",
    "Document": "文档",
    "Members": "成员",
    "Size": "大小",
    "Distance": "距离",
    "Similarity": "相似度",
    "Modified": "修改时间",
    "Encoding": "编码",
    "Status": "状态",
    "Group %1: %2": "第 %1 组：%2",
    "identical": "完全相同",
    "similar": "近似",
    ", %1 kept": "，保留 %1 份",
    "keep": "保留",
    "to trash": "移入废纸篓",
    "representative": "代表",
    "%1 bits: %2 pairs": "%1 位：%2 对",
    "simdesk — near-duplicate documents": "simdesk — 近似重复文档",
    "simdesk — %1": "simdesk — %1",
    "Find near-duplicate documents": "查找近似重复的文档",
    "Open a folder of text documents (or drop it on this window). simdesk indexes it, groups the documents that "
    "are nearly the same, and lets you compare them side by side and clean up safely.":
        "打开一个文本文档文件夹（或把它拖到本窗口）。simdesk 会为它建立索引，把几乎相同的文档分组，"
        "让你并排比较并安全地清理。",
    "Open the demo collection": "打开示例文集",
    "Open a folder…": "打开文件夹…",
    "Recent folders": "最近的文件夹",
    "Filter by path": "按路径筛选",
    "Groups": "分组",
    "Problems (%1)": "问题 (%1)",
    "Cancel": "取消",
    "&Open folder…": "打开文件夹(&O)…",
    "Open the &demo collection": "打开示例文集(&D)",
    "&Rescan": "重新扫描(&R)",
    "&Cancel scan": "取消扫描(&C)",
    "Export groups as &JSON…": "导出分组为 &JSON…",
    "Export groups as C&SV…": "导出分组为 C&SV…",
    "&Settings…": "设置(&S)…",
    "&Quit": "退出(&Q)",
    "&Keep this copy": "保留这一份(&K)",
    "&Queue for the trash": "加入待删除(&Q)",
    "Keep the &oldest": "保留最早的(&O)",
    "Keep the &newest": "保留最新的(&N)",
    "Keep the &largest": "保留最大的(&L)",
    "Keep the &shortest path": "保留路径最短的(&S)",
    "&Not duplicates": "不是重复(&N)",
    "Move the others to the &trash…": "把其余的移到废纸篓(&T)…",
    "Move the others to a &folder…": "把其余的移到文件夹(&F)…",
    "&Open in the default application": "用默认程序打开(&O)",
    "&Reveal in the file manager": "在文件管理器中显示(&R)",
    "&Copy path": "复制路径(&C)",
    "&Next change": "下一处改动(&N)",
    "&Previous change": "上一处改动(&P)",
    "&Filter by path": "按路径筛选(&F)",
    "&About simdesk": "关于 simdesk(&A)",
    "The two selected documents never group together again": "选中的两个文档以后不再分到同一组",
    "&File": "文件(&F)",
    "Open &recent": "最近打开(&R)",
    "&Review": "审阅(&R)",
    "Keep in this group": "本组保留规则",
    "Keep in every group": "所有组保留规则",
    "&Undo last clean-up": "撤销上一次清理(&U)",
    "Undo last clean-up": "撤销上一次清理",
    "Nothing to undo.": "没有可撤销的清理。",
    "%1 files restored, %2 not restored.": "已恢复 %1 个文件，%2 个未能恢复。",
    "Waiting for another scan of this folder to end…": "正在等待这个文件夹的另一次扫描结束…",
    "Similarity of the texts, checked character by character": "逐字核对得到的文本相似度",
    "Share of the 64 fingerprint bits that agree (approximate)": "64 位指纹中相同位的比例（近似值）",
    "Reading the texts of candidate pairs: %1 / %2": "正在读取候选文本：%1 / %2",
    "about %1 left": "约剩 %1",
    "%1 s": "%1 秒",
    "%1 min": "%1 分钟",
    "%1 / %2 files · %3 files/s": "%1 / %2 个文件 · 每秒 %3 个",
    "Checking candidate pairs on their texts: %1 / %2": "正在逐一核对候选文本对：%1 / %2",
    "the engine's default": "引擎默认值",
    "Check each candidate pair on its text": "逐对核对候选文本",
    "Verification": "核对",
    "Least similarity of the texts": "文本最低相似度",
    "Each pair checked on its text: at least %1% alike": "每一对都核对过文本：相似度至少 %1%",
    "One copy marked to keep in each of %1 groups": "已在 %1 个组中各标记保留一份",
    "&Document": "文档(&D)",
    "&View": "查看(&V)",
    "&Help": "帮助(&H)",
    "Open a folder of documents": "打开文档文件夹",
    "Opening the index…": "正在打开索引…",
    "Cancelling…": "正在取消…",
    "Scan cancelled: %1 documents indexed so far are kept": "扫描已取消：已索引的 %1 个文档均已保存",
    "Scanned %1 files in %2 s: %3 new, %4 changed, %5 deleted, %6 problems":
        "用 %2 秒扫描了 %1 个文件：新增 %3，修改 %4，删除 %5，问题 %6",
    "The scan failed: %1": "扫描失败：%1",
    "The scan failed": "扫描失败",
    "Listing files… %1 found": "正在列出文件… 已找到 %1 个",
    "about %1 s left": "约剩 %1 秒",
    "%1 / %2 files · %3 files/s · %4": "%1 / %2 个文件 · 每秒 %3 个 · %4",
    "Grouping…": "正在分组…",
    "Comparing…": "正在比较…",
    "Cannot compare: %1": "无法比较：%1",
    "%1 and %2 will not be grouped together again": "%1 和 %2 以后不会再分到同一组",
    "Could not save the decision: %1": "无法保存这个决定：%1",
    "Move the duplicates to…": "把重复文档移到…",
    "%1 groups are left alone because every copy in them is queued: mark one copy to keep.":
        "有 %1 个组未作处理，因为组内每一份都被加入了待删除：请标记一份保留。",
    "Clean up": "清理",
    "Nothing to remove. Mark the copy to keep in a group (Space) and the others go, or queue single copies (Delete).":
        "没有要删除的文件。在组中标记要保留的一份（空格键），其余的会被清理；或逐个加入待删除（Delete 键）。",
    "Move %1 files (%2) to the trash?": "把 %1 个文件（%2）移到废纸篓？",
    "Move %1 files (%2) to %3?": "把 %1 个文件（%2）移到 %3？",
    "Each file is checked to be unchanged since the scan first; changed files are skipped.":
        "每个文件都会先核对自扫描以来没有改动；改动过的文件会跳过。",
    "Cleaning up…": "正在清理…",
    "%1 files sent to the trash (%2).": "%1 个文件已移到废纸篓（%2）。",
    "%1 files moved (%2).": "已移动 %1 个文件（%2）。",
    "%1 skipped.": "跳过 %1 个。",
    "%1 failed.": "失败 %1 个。",
    "Clean-up finished": "清理完成",
    "Clean-up failed": "清理失败",
    "Export groups": "导出分组",
    "Exported to %1": "已导出到 %1",
    "Export failed": "导出失败",
    "About simdesk": "关于 simdesk",
    "simdesk finds near-duplicate text documents (Chinese first) with 64-bit SimHash fingerprints kept in a SQLite "
    "index, and helps you clean them up safely.":
        "simdesk 用保存在 SQLite 索引中的 64 位 SimHash 指纹查找近似重复的文本文档（中文优先），并帮助你安全地清理。",
    "File": "文件",
    "Problem": "问题",
    "Settings": "设置",
    "File name patterns to index, separated by spaces, e.g. *.txt *.md": "要索引的文件名模式，用空格分隔，例如 *.txt *.md",
    " bits": " 位",
    "one per core": "每核一个",
    "Follow the system": "跟随系统",
    "File patterns": "文件模式",
    "Skip files larger than": "跳过大于此值的文件",
    "Default threshold": "默认阈值",
    "Worker processes": "工作进程数",
    "Language": "语言",
    "Threshold": "阈值",
    "Largest Hamming distance between near-duplicates (bits of 64)": "近似重复之间允许的最大汉明距离（64 位中的位数）",
    "%1 groups · %2 documents in groups · %3 redundant copies · %4 documents indexed":
        "%1 组 · 组内文档 %2 个 · 多余副本 %3 份 · 已索引 %4 个文档",
    "≤ %1 bits (~%2% similar)": "≤ %1 位（约 %2% 相似）",
    "≥ %1% similar · reach %2/12": "≥ %1% 相似 · 范围 %2/12",
    "%1/12: %2 pairs": "%1/12：%2 对",
    "Every pair shown is at least %1% similar on its text. The slider limits how far apart their fingerprints "
    "may be, scaled to the length of the texts: 12 takes every checked candidate.":
        "显示的每一对文字相似度至少为 %1%。滑块限制两者指纹的差距（按文本长度折算）：12 表示所有已核对的候选。",
    "The index was updated": "索引已更新",
    "Without verification: bits of Hamming distance. With verification: the distance scaled to the length of "
    "the texts (12: every checked candidate).": "不核对时：汉明距离（位）。核对时：按文本长度折算的距离（12 表示所有已核对的候选）。",
    "As normalised": "按规范化比较",
    "On: compare the texts as the similarity does (line wrapping, spaces, full/half-width forms and boilerplate "
    "lines are not changes). Off: compare the raw lines.":
        "打开：按相似度的方式比较文本（换行、空格、全角/半角和套话行都不算改动）。关闭：比较原始行。",
    "Reference text": "参照文本",
    "Candidate text": "对比文本",
    "The first document of the pair, with its changes highlighted": "两个文档中的第一个，改动处高亮显示",
    "The second document of the pair, with its changes highlighted": "两个文档中的第二个，改动处高亮显示",
    "Comparison summary": "比较摘要",
    "Compare as normalised": "按规范化比较",
    "[boilerplate] ": "[套话] ",
    "Similarity %1": "相似度 %1",
    " · boilerplate lines greyed: %1": " · 灰色显示的套话行：%1",
    "The file name, then its folder; a group row names its first document": "先文件名，后所在文件夹；组行显示组中第一个文档",
    "How many documents the group holds": "组中的文档数",
    "The size of the file, or of the whole group": "文件大小，或整个组的大小",
    "Fingerprint bits that differ from the group's first document (advanced)": "与组中第一个文档指纹不同的位数（高级）",
    "How much of the text the document shares with the group's first document, checked character by character "
    "(the figure the comparison shows)": "该文档与组中第一个文档逐字比较后共有的文字比例（与比较视图显示的数字相同）",
    "When the file was last modified": "文件最后修改的时间",
    "The text encoding the file was read in": "读取文件所用的文本编码",
    "Keep, to trash, or the group's representative": "保留、移入废纸篓，或组的代表",
    "simdesk &manual": "simdesk 使用说明(&M)",
    "simdesk manual": "simdesk 使用说明",
    "Similarity threshold": "相似度阈值",
    "Moves the least similarity a pair needs to be grouped; the groups follow at once": "调整两个文档归为一组所需的最低相似度；分组随即更新",
    "Filter groups": "筛选分组",
    "Groups of similar documents": "相似文档的分组",
    "One row per group; its documents are listed below. A rule keeps one copy in each selected group":
        "每行一个组，其文档列在下方。规则会在每个选中的组中保留一份副本",
    "Documents of the current group": "当前组的文档",
    "Space keeps the selected copies, Delete queues them for the trash": "空格保留选中的副本，Delete 把它们放入待删除队列",
    "Files that could not be read": "无法读取的文件",
    "Side-by-side comparison": "并排比较",
    "Keep in every group shown (or selected)": "在显示（或选中）的每个组中保留",
    "Undo the last &marks": "撤销上次标记(&M)",
    "The last change of marks was undone": "已撤销上次对标记的更改",
    "No change of marks to undo": "没有可撤销的标记更改",
    "Next &undecided group": "下一个未决定的组(&U)",
    "Every group shown is decided": "显示的每个组都已决定",
    'Keep by rules': '按规则保留',
    'In each group, the first criterion chooses the copy to keep; each next one decides between the copies the ones before leave tied.': '在每个组中，第一个条件决定保留哪个副本；后面的每个条件在前面条件打平的副本之间再作选择。',
    'Criteria': '条件',
    'Criteria in order': '按顺序排列的条件',
    'Add →': '添加 →',
    'Remove': '移除',
    'Up': '上移',
    'Down': '下移',
    'Folder': '文件夹',
    'Reference folder: keep only a copy under this folder, and leave alone the groups with none there': '参照文件夹：只保留此文件夹下的副本，组内没有时整组不动',
    'In this order': '依次为',
    'Folder:': '文件夹：',
    'Oldest (modification time)': '最早（修改时间）',
    'Newest (modification time)': '最新（修改时间）',
    'Largest': '最大',
    'Shortest path': '路径最短',
    'In the folder below': '位于下面的文件夹',
    'In folder %1': '位于文件夹 %1',
    'On the command line: simdesk clean FOLDER %1': '命令行：simdesk clean 文件夹 %1',
    '; %1 groups left alone (no copy in the reference folder)': '；%1 个组未改动（参照文件夹中没有副本）',
    '; %1 of them still have copies below the threshold to the copy kept': '；其中 %1 个组仍有副本与所保留的一份相似度低于阈值',
    'Applies to every group (%1)': '作用于所有组（%1 个）',
    'Applies to the %1 selected groups': '作用于选中的 %1 个组',
    'Applies to the %1 groups the filter shows': '作用于筛选后显示的 %1 个组',
    'Reviewed %1 of %2 groups': '已审阅 %1 / %2 组',
    'By &rules (criteria in order, reference folder)…': '按规则(&R)（按顺序的条件、参照文件夹）…',
    'Groups in which every copy is kept, queued for the trash, or was shown beside a copy marked to keep; counted from the decisions the index keeps, so the count is back when the review resumes': '组中每个副本都已保留、已放入待删除队列，或曾与标为保留的副本一起显示过，即为已审阅；按索引中保存的决定计算，继续审阅时照样显示',
    '%1 other copies in these groups are still undecided: they stay where they are.': '这些组中另有 %1 个副本尚未决定：它们留在原处。',
    'Filter by path, title or text': '按路径、标题或正文筛选',
    '&Filter by path, title or text': '按路径、标题或正文筛选(&F)',
    'All groups': '全部组',
    'Undecided groups': '未决定的组',
    'Decided groups': '已决定的组',
    'Show every group, or only the groups with copies no decision covers yet, or only the decided ones': '显示全部组，或只显示还有副本未决定的组，或只显示已决定的组',
    'Decided or undecided groups': '已决定或未决定的组',
    'Title': '标题',
    'Date': '日期',
    'Source': '来源',
    "The document's first meaningful line (a web page's own title), not a repost notice or a byline; a group row shows its first document's": '文档第一行有意义的文字（网页取其自身标题），不取转载声明或署名行；组行显示组中第一个文档的标题',
    "The date written in the text; in italics, the file's modification date (the text carries none)": '正文中写明的日期；斜体表示文件的修改日期（正文中没有日期）',
    'Where the text says it comes from (来源, 转载, Source…), else the repost notice it shares with many documents': '正文注明的出处（来源、转载、Source…），否则取它与许多文档共有的转载声明',
    'The date written in the text': '正文中写明的日期',
    "No date in the text: the file's modification date": '正文中没有日期：这是文件的修改日期',
    'Sorted on the titles, dates and sources read so far: the groups not read yet come last, and the list is '
    'sorted again once every one is read': '已按目前读到的标题、日期和来源排序：尚未读取的组排在最后，全部读完后列表会重新排序',
}


def main(path: Path) -> int:
    tree = ET.parse(path)
    missing = []
    for message in tree.iter("message"):
        source = message.find("source").text or ""
        translation = message.find("translation")
        if source in ZH:
            translation.text = ZH[source]
            translation.attrib.pop("type", None)
        else:
            missing.append(source)
    tree.write(path, encoding="utf-8", xml_declaration=True)
    for source in missing:
        print(f"untranslated: {source!r}", file=sys.stderr)
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]) if len(sys.argv) > 1 else TS_FILE))
