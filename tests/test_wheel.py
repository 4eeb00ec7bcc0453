"""The built wheel runs on its own: `pip wheel .` of this checkout, installed into a fresh virtual environment
(dependencies from pip's configured index and cache), carries every shipped file and the compiled kernels, and its `simdesk` command
scans a folder and writes the demo collection without Qt installed (the engine's install), then, with the
`gui` extra, opens the window on a folder (its scan in a process of its own), from a working folder outside
the checkout."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
RESOURCES = REPO / "simdesk" / "resources"

ARTICLE = (
    "城市的清晨总是从菜市场开始。摊主们把新鲜的蔬菜摆上台面，老人提着竹篮慢慢挑选，"
    "孩子们背着书包从旁边跑过。街角的早点铺冒着热气，油条和豆浆的香味飘满整条街道。"
    "这样的日常看似平凡，却构成了一座城市最真实的面貌。\n"
)
OTHER = (
    "量子计算利用叠加和纠缠来处理信息。与经典比特不同，量子比特可以同时处于多个状态，"
    "这使得某些问题的求解速度大大提高。研究人员正在努力降低错误率并扩大系统规模。\n"
)

pytestmark = pytest.mark.slow  # ~1 minute: installing numpy, scipy and then PySide6 into a new environment


def run(args: list[str], cwd: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    done = subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, f"{args} exited {done.returncode}:\n{done.stdout}\n{done.stderr}"
    return done


def shipped_files() -> set[str]:
    """Every file under simdesk/resources that the program reads (the .ts translation sources are not)."""
    return {
        p.relative_to(RESOURCES).as_posix()
        for p in RESOURCES.rglob("*")
        if p.is_file() and p.suffix != ".ts" and "__pycache__" not in p.parts
    }


def test_installed_wheel_carries_its_resources_and_scans(tmp_path: Path, private_home: Path) -> None:
    wheels = tmp_path / "wheels"
    run([sys.executable, "-m", "pip", "wheel", str(REPO), "--no-deps", "-q", "-w", str(wheels)], cwd=tmp_path)
    (wheel,) = wheels.glob("simdesk-*.whl")

    # nothing of the checkout on the path, for pip either (a build leaves simdesk.egg-info in it, which pip
    # would take for an installed simdesk)
    env = {**os.environ, "HOME": str(private_home), "QT_QPA_PLATFORM": "offscreen", "PYTHONPATH": ""}
    venv = tmp_path / "venv"
    run([sys.executable, "-m", "venv", str(venv)], cwd=tmp_path)
    python = venv / "bin" / "python"
    run([str(python), "-m", "pip", "install", "-q", str(wheel)], cwd=tmp_path, env=env)  # the engine: no gui extra

    work = tmp_path / "elsewhere"  # not the checkout: nothing may be imported or read from it
    work.mkdir()
    located = run(
        [
            str(python),
            "-c",
            "import importlib.util, simdesk; from simdesk.core.resources import resource; "
            "from simdesk.core.compiled import KERNELS; "
            "print(simdesk.__file__); print(resource()); print(importlib.util.find_spec('PySide6')); "
            "print(KERNELS and KERNELS.__file__)",
        ],
        cwd=work,
        env=env,
    ).stdout.splitlines()
    package_file, resource_root = Path(located[0]), Path(located[1])
    assert located[2] == "None", "the engine's install pulled in Qt"
    assert Path(located[3]).is_relative_to(venv), f"the compiled kernels are not installed: {located[3]}"
    assert package_file.is_relative_to(venv), f"simdesk imported from {package_file}, not the installed wheel"
    installed = {p.relative_to(resource_root).as_posix() for p in resource_root.rglob("*") if p.is_file()}
    assert shipped_files() <= installed, f"missing from the wheel: {sorted(shipped_files() - installed)}"

    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "morning.txt").write_text(ARTICLE, encoding="utf-8")
    (folder / "morning-copy.txt").write_text(ARTICLE.replace("。", "。\n"), encoding="gb18030")
    (folder / "quantum.txt").write_text(OTHER, encoding="utf-8")
    simdesk = str(venv / "bin" / "simdesk")
    out = json.loads(run([simdesk, "scan", str(folder), "--format", "json"], cwd=work, env=env).stdout)
    groups = [sorted(m["path"] for m in g["members"]) for g in out["groups"]]
    assert groups == [["morning-copy.txt", "morning.txt"]]

    demo = Path(run([simdesk, "demo", str(tmp_path / "demo")], cwd=work, env=env).stdout.strip())
    assert len(list(demo.rglob("*.txt"))) > 300  # written from the shipped poems

    # without Qt the window is refused in one line that names the extra (exit 2), never a traceback
    refused = subprocess.run(
        [simdesk, "gui", str(folder)], cwd=work, env=env, capture_output=True, text=True, timeout=600
    )
    assert refused.returncode == 2 and "simdesk[gui]" in refused.stderr and "Traceback" not in refused.stderr

    # the desktop install: the gui extra brings Qt; the window's scan runs in a process of its own, started by
    # the installed `simdesk` command
    run([str(python), "-m", "pip", "install", "-q", f"{wheel}[gui]"], cwd=tmp_path, env=env)
    qm = Path(
        run(
            [str(python), "-c", "from simdesk.gui.resources import translation_file; print(translation_file('zh_CN'))"],
            cwd=work,
            env=env,
        ).stdout.strip()
    )
    assert qm.is_file() and qm.is_relative_to(venv)
    shot = tmp_path / "window.png"
    run([simdesk, "gui", str(folder), "--screenshot", str(shot)], cwd=work, env=env)
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and shot.stat().st_size > 10_000
