"""Folders of bad input for the reliability suite: every bad-input case, built in a temporary folder.

`build_bad_folder(root)` writes them and returns {case name: relative path that must show up in `problems`
(or, for cases that are indexed, in the documents)}; sparse and generated, so it costs neither disk nor time.
"""

from __future__ import annotations

import io
import os
import random
import struct
import zipfile
import zlib
from pathlib import Path

POEM = "床前明月光，疑是地上霜。举头望明月，低头思故乡。"
ARTICLE = (
    "近日，多地出台政策支持新能源汽车消费，业内人士认为这将进一步推动产业发展。"
    "专家表示，充电基础设施建设仍需加快，电池回收体系也有待完善。"
)
HUGE_BYTES = 500 * 1024 * 1024
LONG_LINE_BYTES = 10 * 1024 * 1024
DEEP_LEVELS = 120  # well within PATH_MAX: indexed
TOO_DEEP_LEVELS = 25  # 25 folders of 200-letter names: 5,025 characters, past PATH_MAX (4,096): reported


def png_bytes() -> bytes:
    """A real 16x16 PNG (signature, IHDR, compressed IDAT, IEND)."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    rng = random.Random(1)
    raw = b"".join(b"\x00" + bytes(rng.randrange(256) for _ in range(48)) for _ in range(16))
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", struct.pack(">IIBBBBB", 16, 16, 8, 2, 0, 0, 0))
        + chunk(b"IDAT", zlib.compress(raw))
        + chunk(b"IEND", b"")
    )


def zip_bytes() -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("article.txt", ARTICLE * 20)
        z.writestr("poem.txt", POEM * 20)
    return out.getvalue()


def pdf_bytes() -> bytes:
    """A one-page PDF whose content stream is Flate-compressed, as real PDFs are."""
    stream = zlib.compress(b"BT /F1 12 Tf 72 712 Td (Hello, near-duplicates) Tj ET" * 30)
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>",
        b"<< /Length %d /Filter /FlateDecode >>\nstream\n" % len(stream) + stream + b"\nendstream",
    ]
    out = b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n"
    for k, body in enumerate(objects, 1):
        out += b"%d 0 obj\n" % k + body + b"\nendobj\n"
    return out + b"trailer\n<< /Root 1 0 R >>\n%%EOF\n"


def make_deep(root: Path, levels: int, name: str = "dd") -> str:
    """`levels` nested folders made relative to an open folder (so paths past PATH_MAX can be made)."""
    fd = os.open(root, os.O_RDONLY | os.O_DIRECTORY)
    try:
        for _ in range(levels):
            os.mkdir(name, dir_fd=fd)
            nfd = os.open(name, os.O_RDONLY | os.O_DIRECTORY, dir_fd=fd)
            os.close(fd)
            fd = nfd
        leaf = os.open("bottom.txt", os.O_WRONLY | os.O_CREAT, 0o644, dir_fd=fd)
        os.write(leaf, (ARTICLE + "深处的文件。").encode("utf-8"))
        os.close(leaf)
    finally:
        os.close(fd)
    return "/".join([name] * levels) + "/bottom.txt"


def build_bad_folder(root: Path, long_line: bool = True) -> dict[str, str]:
    """Write every bad-input case under `root` (plus two good documents); return {case: relative path}.
    `long_line=False` leaves out the 10 MB line (seconds of segmenting) where it is not the point."""
    root.mkdir(parents=True, exist_ok=True)
    (root / "good.txt").write_text(ARTICLE * 3, encoding="utf-8")
    (root / "good-copy.txt").write_text(ARTICLE * 3 + "（转载）", encoding="utf-8")
    cases: dict[str, str] = {}

    def put(case: str, rel: str, data: bytes) -> None:
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_bytes(data)
        cases[case] = rel

    put("empty", "empty.txt", b"")
    put("blank", "blank.txt", b" \n\t\r\n  \n")
    put("png renamed .txt", "image.txt", png_bytes())
    put("zip renamed .txt", "archive.txt", zip_bytes())
    put("pdf renamed .txt", "paper.txt", pdf_bytes())
    put("NUL bytes", "nul.txt", ARTICLE.encode("utf-8") + b"\x00" * 64 + ARTICLE.encode("utf-8"))
    rng = random.Random(3)
    put("undecodable bytes", "undecodable.txt", bytes(rng.randrange(128, 256) for _ in range(4000)))
    # UTF-8 text with invalid bytes in it (a truncated copy, a disk error)
    put(
        "corrupt UTF-8",
        "corrupt.txt",
        (ARTICLE * 4).encode("utf-8")[:100] + b"\xff\xfe\xc0" + (ARTICLE * 4).encode("utf-8")[100:],
    )
    # a file of two halves in two encodings: read as one encoding (GB18030 accepts the UTF-8 bytes too)
    put("mixed encodings", "mixed.txt", (ARTICLE * 3).encode("utf-8") + (POEM * 3).encode("gbk"))
    huge = root / "huge.txt"
    with open(huge, "wb") as fh:  # sparse: no disk, and the size cap must skip it without reading it
        fh.truncate(HUGE_BYTES)
    cases["500 MB file"] = "huge.txt"
    if long_line:
        line = (ARTICLE.replace("。", "，") * (LONG_LINE_BYTES // len(ARTICLE.encode("utf-8")) + 1)).encode("utf-8")
        put("10 MB single line", "long-line.txt", line[:LONG_LINE_BYTES].decode("utf-8", "ignore").encode("utf-8"))
    bad_name = os.fsencode(root) + b"/caf\xe9-\xff.txt"
    with open(bad_name, "wb") as fh:
        fh.write(ARTICLE.encode("utf-8"))
    cases["file name not UTF-8"] = "caf\\xe9-\\xff.txt"
    (root / "deep").mkdir()
    cases["deep nesting"] = "deep/" + make_deep(root / "deep", DEEP_LEVELS)
    (root / "too-deep").mkdir()
    make_deep(root / "too-deep", TOO_DEEP_LEVELS, "d" * 200)
    cases["nesting past PATH_MAX"] = "too-deep/"  # the first folder whose path is too long is reported
    (root / "loop").mkdir()
    (root / "loop" / "note.txt").write_text(POEM * 4, encoding="utf-8")
    os.symlink("..", root / "loop" / "parent")  # a folder loop
    cases["symlink loop (folder)"] = "loop/parent/"
    os.symlink("self-loop.txt", root / "self-loop.txt")  # a link to itself
    cases["symlink loop (file)"] = "self-loop.txt"
    os.symlink("nowhere.txt", root / "dangling.txt")
    cases["dangling symlink"] = "dangling.txt"
    return cases
