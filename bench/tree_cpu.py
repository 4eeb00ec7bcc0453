"""The CPU of a whole command's process tree, workers and fork server included: `python -m bench.tree_cpu
[--slices] -- COMMAND...` runs COMMAND, looks at its processes every 20 ms (psutil) and prints its wall time,
the CPU of every process it started (each process's last reading: up to 20 ms of a process's CPU can be
missed when it ends between two looks) and their sum. With `--slices`, each 0.25 s slice's share of a core
used by each process, numbered in the order they were first seen (0: the command itself), shows when cores
idle. What the system's accounting cannot give: a fork server's workers are not waited for by the command."""

from __future__ import annotations

import argparse
import subprocess
import time


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--slices", action="store_true", help="print each 0.25 s slice's use of a core by process")
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    import psutil

    started = time.perf_counter()
    child = subprocess.Popen(command, stdout=subprocess.DEVNULL)
    root = psutil.Process(child.pid)
    cpu: dict[tuple[int, float], float] = {}  # (pid, start time) -> CPU seconds
    order: dict[tuple[int, float], int] = {}
    slices: list[tuple[float, dict[int, float]]] = []
    last_slice, at_slice = started, dict(cpu)
    while child.poll() is None:
        try:
            procs = [root, *root.children(recursive=True)]
        except psutil.NoSuchProcess:
            break
        for proc in procs:
            try:
                key = (proc.pid, proc.create_time())
                times = proc.cpu_times()
            except psutil.Error:
                continue
            cpu[key] = times.user + times.system
            order.setdefault(key, len(order))
        now = time.perf_counter()
        if args.slices and now - last_slice >= 0.25:
            used = {order[k]: (c - at_slice.get(k, 0.0)) / (now - last_slice) for k, c in cpu.items()}
            slices.append((now - started, {n: u for n, u in used.items() if u > 0.01}))
            last_slice, at_slice = now, dict(cpu)
        time.sleep(0.02)
    wall = time.perf_counter() - started
    for at, used in slices:
        print(f"{at:6.2f} s  " + "  ".join(f"{n}:{u:4.2f}" for n, u in sorted(used.items())))
    print(f"wall {wall:.2f} s, CPU of the process tree {sum(cpu.values()):.2f} s over {len(cpu)} processes")
    for key, n in sorted(order.items(), key=lambda item: item[1]):
        print(f"  process {n}: {cpu[key]:.2f} s")


if __name__ == "__main__":
    main()
