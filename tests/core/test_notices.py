"""Shared notices: different texts that carry the same long notice never group; copies in a large group,
whose untouched paragraphs are as frequent as a notice, still do (boilerplate.py, fingerprint/similarity.py)."""

from __future__ import annotations

import random

import numpy as np

from simdesk.core.index.scan import scan
from simdesk.core.index.store import Index
from simdesk.core.matching.analysis import VerifySettings, analyse, collection_boilerplate, text_similarity
from simdesk.core.reading.boilerplate import MAX_KEY_CHARS, is_notice, line_hash, line_hashes, without_frequent_lines
from simdesk.core.records import ScanOptions

# the GNU GPL's notice as a web page or a package description carries it: one paragraph per line
GPL_NOTICE = (
    "This program is free software; you can redistribute it and/or modify it under the terms of the GNU "
    "General Public License as published by the Free Software Foundation; either version 2 of the License, or "
    "(at your option) any later version.\n\n"
    "This program is distributed in the hope that it will be useful, but WITHOUT ANY WARRANTY; without even "
    "the implied warranty of MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE. See the GNU General Public "
    "License for more details.\n\n"
    "You should have received a copy of the GNU General Public License along with this program; if not, write "
    "to the Free Software Foundation, Inc., 51 Franklin Street, Fifth Floor, Boston, MA 02110-1301 USA."
)
# Debian package descriptions (short summary, then the long description on one line)
DESCRIPTIONS = [
    "support library providing __atomic built-in functions\nlibrary providing __atomic built-in functions. "
    "When an atomic call cannot be turned into lock-free instructions, GCC will make calls into this library.",
    "shared libraries for terminal handling\nThe ncurses library routines are a terminal-independent method of "
    "updating character screens with reasonable optimization.",
    "GCC OpenMP (GOMP) support library\nGOMP is an implementation of OpenMP for the C, C++, and Fortran "
    "compilers in the GNU Compiler Collection.",
    "Fast YAML 1.1 parser and emitter library\nLibYAML is a C library for parsing and emitting data in YAML "
    "1.1, a human-readable data serialization format.",
    "Assistive Technology Service Provider Interface - shared library\nThis package contains the shared "
    "library for applications that wish to use the at-spi interface.",
    "extra utilities from 4.4BSD-Lite\nThis package contains some extra BSD utilities: col, colcrt, colrm, "
    "column, hd, hexdump, look, ul and write.",
    "Vi IMproved - Common files\nVim is an almost compatible version of the UNIX editor Vi. This package "
    "contains files shared by all non GUI-enabled vim variants available in Debian.",
    "Chinese Data files for fortune\nThis package contains the Chinese data files for fortune in UTF-8 "
    "encoding: 300 Tang Poems, 100 Song Poems and a miscellaneous Chinese collection.",
    "library implementing HTTP/2 protocol (shared library)\nThis is an implementation of the Hypertext "
    "Transfer Protocol version 2 in C.",
    "Library for YUV scaling (shared library)\nlibyuv is an open source project that includes YUV scaling "
    "and conversion functionality.",
    "common error description library\nlibcomerr is an attempt to present a common error-handling mechanism "
    "to manipulate the most common form of error code.",
    "GNU privacy guard - localization files\nGnuPG is GNU's tool for secure communication and data storage. "
    "This package contains the translation files for the use of GnuPG in non-English locales.",
]
# paragraphs of the Debian Reference (zh-cn), one per line, each longer than MAX_KEY_CHARS key characters
REFERENCE = [
    "或者，你可以通过添加一行“auth optional pam_group.so”到“/etc/pam.d/common-auth”以及配置“/etc/security/"
    "group.conf”，使得在身份验证过程动态添加用户到组。这样做的好处是用户不必重新登录就能获得新的组权限，管理员也可以集中维护组的规则。",
    "在执行这里的命令之前，你应该用 mount(8) 命令来查看 USB 记忆棒的挂载位置。“/dev/sda”指向的设备可能是装有整个系统的 SCSI "
    "硬盘或者 serial-ATA 硬盘，写错设备名会毁掉整个系统上的数据，所以请再三确认设备的名字。",
    "从混合源档案库中安装软件包是不被 Debian 官方发行版所支持的，除了官方支持的档案库的特殊组合以外，例如 stable 的 security "
    "updates 和 bullseye-updates。混合使用不同发行版的软件包可能破坏依赖关系，让系统升级变得困难甚至无法完成。",
    "除非你知道自己做的是什么，否则不要备份 /proc、/sys、/tmp 和 /run 目录下的伪文件系统（参见 procfs 和 sysfs 以及 tmpfs 的"
    "说明）。它们是庞大且无用的数据，备份它们只会浪费时间和存储空间，恢复时还可能覆盖正在运行的系统的状态。",
]
HAN = "的一是在不了有和人这中大为上个国我以要他时来用们生到作地于出就分对成会可主发年动同工也能下过子说产种面而方后多定行学法所民得经"


def _typos(text: str, count: int, rng: random.Random) -> str:
    chars = list(text)
    spots = [k for k, c in enumerate(chars) if "\u4e00" <= c <= "\u9fff"]
    for k in rng.sample(spots, count):
        chars[k] = rng.choice(HAN)
    return "".join(chars)


def _write(root, files: dict[str, str]) -> None:
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")


def _groups(root, tmp_path) -> tuple[list[list[str]], object]:
    with Index(tmp_path / "i.sqlite") as index:
        scan(root, index, ScanOptions(jobs=1))
        grouper = analyse(root, index, verify=VerifySettings(jobs=1))
        grouping = grouper.at(grouper.max_threshold)
        return sorted(sorted(m.path for m in g.members) for g in grouping), grouper


def test_a_long_line_hash_says_it_is_long():
    assert line_hash("x" * MAX_KEY_CHARS) & 1 == 0
    assert line_hash("x" * (MAX_KEY_CHARS + 1)) & 1 == 1
    hashes = line_hashes(DESCRIPTIONS[0] + "\n\n" + GPL_NOTICE)
    assert is_notice(hashes).sum() == 4  # the long description and the notice's three paragraphs
    assert len(hashes) == 5  # and the summary line, a candidate boilerplate line


def test_package_descriptions_under_one_notice_do_not_group_but_their_copies_do(tmp_path):
    root = tmp_path / "packages"
    random.Random(3)
    files = {f"pkg/{k:02d}.txt": f"{d}\n\n{GPL_NOTICE}" for k, d in enumerate(DESCRIPTIONS)}
    files["copies/typo.txt"] = files["pkg/00.txt"].replace("lock-free", "lock free").replace("calls into", "calls in")
    files["copies/repost.txt"] = "Reposted from packages.debian.org\n" + files["pkg/01.txt"]
    _write(root, files)
    # before the notice gate, two of these descriptions scored 0.71-0.80 with the notice under them
    assert text_similarity(files["pkg/02.txt"], files["pkg/03.txt"]) >= 0.7
    groups, grouper = _groups(root, tmp_path)
    assert groups == [["copies/repost.txt", "pkg/01.txt"], ["copies/typo.txt", "pkg/00.txt"]]
    frequent = grouper.boilerplate
    assert sum(1 for h in frequent if h & 1) == 3  # the notice's paragraphs (in 14 of 14 texts)
    # the figure the diff header shows is the stored score, the gate included
    assert text_similarity(files["pkg/02.txt"], files["pkg/03.txt"], frequent) < 0.5
    grouping = grouper.at(grouper.max_threshold)
    for group in grouping:
        a, b = group.members
        assert text_similarity(files[a.path], files[b.path], frequent) == b.score >= 0.9


def test_a_text_that_is_all_notice_is_not_gated():
    frequent = frozenset(int(h) for h in line_hashes(GPL_NOTICE))
    stripped, rest = without_frequent_lines("License\n\n" + GPL_NOTICE, frequent)
    assert rest is None  # 7 key characters left: under MIN_REST_CHARS
    stripped, rest = without_frequent_lines(DESCRIPTIONS[1] + "\n\n" + GPL_NOTICE, frequent)
    assert stripped == DESCRIPTIONS[1] + "\n\n" + GPL_NOTICE and rest.strip() == DESCRIPTIONS[1]


def test_copies_in_a_large_group_share_frequent_paragraphs_and_still_group(tmp_path):
    """Sixteen copies of one text with a typo each, some without a paragraph: an untouched paragraph is held by
    ten copies or more, as frequent as a notice, and must not keep the copies apart."""
    root = tmp_path / "copies"
    rng = random.Random(5)
    original = "\n".join(REFERENCE)
    files = {"ref/original.txt": original}
    for k in range(16):
        paragraphs = list(REFERENCE)
        if k % 3 == 0:
            del paragraphs[rng.randrange(len(paragraphs))]
        files[f"ref/copy{k:02d}.txt"] = _typos("\n".join(paragraphs), 1, rng)
    files["other/saying.txt"] = "宁走十步远，不走一步险。病急乱投医，逢庙就烧香。"
    _write(root, files)
    groups, grouper = _groups(root, tmp_path)
    assert groups == [sorted(p for p in files if p.startswith("ref/"))]
    with Index(tmp_path / "i.sqlite") as index:
        frequent = collection_boilerplate(index)
    assert np.count_nonzero(is_notice(np.fromiter(frequent, dtype=np.uint32))) >= 1  # shared paragraphs
