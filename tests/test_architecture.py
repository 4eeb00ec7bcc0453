"""The boundary is checked, not hoped for: the engine and the CLI load no Qt."""

from __future__ import annotations

import ast
import subprocess
import sys
import tomllib
from pathlib import Path

from tests.conftest import REPO


def test_core_cluster_and_cli_import_no_qt():
    code = (
        "import sys, pkgutil, importlib, simdesk.core, simdesk.cluster, simdesk.cli\n"
        "for m in pkgutil.walk_packages(simdesk.core.__path__, 'simdesk.core.'): importlib.import_module(m.name)\n"
        "for m in pkgutil.iter_modules(simdesk.cluster.__path__): importlib.import_module('simdesk.cluster.' + m.name)\n"
        "bad = sorted(m for m in sys.modules if m.startswith(('PySide6', 'shiboken6', 'simdesk.gui')))\n"
        "print(','.join(bad))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    assert out == ""


def test_worker_code_loads_no_index():
    # the scan's and verification's worker processes run these modules; the index's sqlite-utils (and pandas)
    # cost each worker ~1 s of CPU before its first text
    code = (
        "import sys, simdesk.core.index.scan, simdesk.core.matching.reread\n"
        "print(','.join(sorted(m for m in sys.modules if m.startswith(('sqlite_utils', 'pandas', 'simdesk.core.index.store', 'simdesk.core.index.documents', 'simdesk.core.index.schema', 'simdesk.core.matching.analysis')))))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    assert out == ""


def test_a_scan_loads_no_scipy_before_its_workers_read():
    # scipy's sparse graphs (~0.2 s of CPU) are imported where the analysis uses them, loaded on a thread while
    # the scan's workers read (review.load_while_reading): the command line and the engine a scan starts with
    # load none of it
    code = (
        "import sys, simdesk.cli\n"
        "from simdesk.core import Index, ReviewSettings, open_review, scan_folder, start_workers_before_scan\n"
        "print(','.join(sorted(m for m in sys.modules if m.startswith('scipy'))))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    assert out == ""


def test_import_linter_contract_holds():
    lint_imports = Path(sys.executable).parent / "lint-imports"
    proc = subprocess.run([str(lint_imports)], capture_output=True, text=True, cwd=REPO)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    contracts = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"][
        "contracts"
    ]
    assert f"{len(contracts)} kept, 0 broken" in proc.stdout


def test_the_public_surface_resolves_and_loads_lazily():
    code = (
        "import sys, simdesk.core as core\n"
        "before = sorted(m for m in sys.modules if m.startswith('simdesk.core.'))\n"
        "missing = [n for n in core.__all__ if getattr(core, n, None) is None]\n"
        "print(before, missing)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    assert out == "[] []"  # nothing loaded by the import itself; every public name is there when asked for


def test_the_public_surface_is_typed_by_the_same_table():
    # type checkers read simdesk.core's names from the imports under `if TYPE_CHECKING:`; the run time from the
    # lazy table: both name every public name, each from the same module
    import simdesk.core as core

    tree = ast.parse((REPO / "simdesk" / "core" / "__init__.py").read_text(encoding="utf-8"))
    typed = {}
    for node in tree.body:
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            for imported in node.body:
                assert isinstance(imported, ast.ImportFrom), ast.unparse(imported)
                for alias in imported.names:
                    typed[alias.asname or alias.name] = (imported.module, alias.name)
    lazy = {name: (f"simdesk.core.{module}", name) for module, names in core._WHERE.items() for name in names}
    lazy.update({name: (f"simdesk.core.{module}", real) for name, (module, real) in core._RENAMED.items()})
    assert typed == lazy
    assert sorted(typed) == core.__all__


def test_scan_loads_no_pandas(tmp_path: Path):
    # sqlite-utils imports pandas when it is installed (~0.3-1 s of CPU before a scan's first file) for a column
    # type the index never stores; the index imports it without, and pandas still imports afterwards
    (tmp_path / "a.txt").write_text("今天天气很好，我们去公园散步。", encoding="utf-8")
    code = (
        "import sys, importlib.util, simdesk.cli\n"
        "from pathlib import Path\n"
        "from simdesk.core.index.scan import scan\n"
        "from simdesk.core.index.store import Index\n"
        "from simdesk.core.records import ScanOptions\n"
        f"root = Path({str(tmp_path)!r})\n"
        "with Index(root / 'i.sqlite') as index: scan(root, index, ScanOptions())\n"
        "print('pandas' in sys.modules)\n"
        "if importlib.util.find_spec('pandas'): import pandas; print(pandas.Timestamp(0).year)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out[0] == "False"
    assert out[1:] in ([], ["1970"])


def test_jieba_loads_without_pkg_resources():
    # jieba opens its own files through pkg_resources when it can (~0.25 s of import in each process that loads
    # jieba); imported without, it opens the same files by path
    code = (
        "import sys\n"
        "from pathlib import Path\n"
        "from simdesk.core.fingerprint.jieba_library import jieba\n"
        "print('pkg_resources' in sys.modules)\n"
        "with jieba.get_dict_file() as fh: print(fh.read() == (Path(jieba.__file__).parent / 'dict.txt').read_bytes())\n"
        "jieba.setLogLevel(60)\n"
        "print('/'.join(jieba.lcut('他来到了网易杭研大厦', HMM=True)))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out == ["False", "True", "他/来到/了/网易/杭研/大厦"]
