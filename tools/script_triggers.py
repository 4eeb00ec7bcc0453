"""Write simdesk/resources/script_triggers.txt: the characters that can make OpenCC's traditional-to-simplified
conversion (normalize.SCRIPT_CONVERSION) change a line, for the installed OpenCC's dictionaries.

    python tools/script_triggers.py      # after an OpenCC upgrade (tests/core/test_text.py says when)

Every dictionary the conversion uses (its normalisation, segmentation and conversion chain) is dumped as text
with the `opencc_dict` program that OpenCC's wheel ships. A line holding no key of them converts to itself, and
a key that maps to itself changes nothing: a line changes only when it holds a key mapped to something else.
The file keeps every such key of one character, and one character of each such key of more (one already kept,
else its rarest by jieba's dictionary), and the dictionaries' hash (normalize.script_dictionaries_hash): fold
converts only the lines holding one of these characters while the installed dictionaries have that hash.
"""

from __future__ import annotations

import collections
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from simdesk.core.reading.normalize import (  # noqa: E402
    SCRIPT_TRIGGERS,
    script_dictionaries,
    script_dictionaries_hash,
)


def keys_changed(dictionary: Path, opencc_dict: Path) -> list[str]:
    """The keys of one OpenCC dictionary whose first value (the one OpenCC writes) is not the key."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "dict.txt"
        subprocess.run(
            [str(opencc_dict), "-i", str(dictionary), "-o", str(out), "-f", "ocd2", "-t", "text"], check=True
        )
        keys = []
        for line in out.read_text(encoding="utf-8").splitlines():
            key, values = line.split("\t")
            if values.split(" ")[0] != key:
                keys.append(key)
        return keys


def main() -> None:
    import jieba
    import opencc

    opencc_dict = Path(opencc.__file__).parent / "clib" / "bin" / "opencc_dict"
    keys = [k for d in script_dictionaries() for k in keys_changed(d, opencc_dict)]
    frequency: collections.Counter[str] = collections.Counter()
    with open(os.path.join(os.path.dirname(jieba.__file__), "dict.txt"), encoding="utf-8") as fh:
        for line in fh:
            word, count = line.split()[:2]
            for char in word:
                frequency[char] += int(count)
    triggers = {k for k in keys if len(k) == 1}
    for key in sorted((k for k in keys if len(k) > 1), key=lambda k: (len(k), k)):
        if not triggers.intersection(key):
            triggers.add(min(key, key=lambda c: (frequency[c], c)))
    target = ROOT / "simdesk" / "resources" / SCRIPT_TRIGGERS
    target.write_text(f"{script_dictionaries_hash()}\n{''.join(sorted(triggers))}\n", encoding="utf-8")
    print(f"{target}: {len(triggers)} characters from {len(keys)} keys")


if __name__ == "__main__":
    main()
