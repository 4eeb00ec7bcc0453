"""`spark-submit simdesk/cluster/__main__.py SOURCE --out BUNDLE [...]` (or `python -m simdesk.cluster`): the
`simdesk cluster-scan` command, run by Spark's launcher with the Spark engine by default."""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> None:
    from simdesk.cli import main as simdesk

    args = list(sys.argv[1:] if argv is None else argv)
    if not any(a == "--engine" or a.startswith("--engine=") for a in args):
        args += ["--engine", "spark"]
    simdesk(["cluster-scan", *args], prog_name="simdesk")


if __name__ == "__main__":
    main()
