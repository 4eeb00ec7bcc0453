"""The `simdesk` command: scan a folder for near-duplicates, query it, or open the window. Thin over core.

simdesk scan ~/articles --threshold 3 --format json > groups.json
simdesk query ~/articles draft.txt
simdesk                       # the window, on the demo collection
"""

from __future__ import annotations

import errno
import json
import math
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, NoReturn, TypeVar

import click

from simdesk.core import MAX_THRESHOLD, Progress, ScanOptions

if TYPE_CHECKING:
    from simdesk.core import Grouping, Index, KeepChain, Review, ReviewSettings

Command = TypeVar("Command", bound=Callable[..., Any])

FORMATS = click.Choice(["text", "json", "csv"])


class UsageFailure(click.ClickException):
    """A one-line error and exit code 2 (bad usage or an unreadable folder), never a traceback."""

    exit_code = 2

    def show(self, file: IO[Any] | None = None) -> None:
        click.echo(f"simdesk: error: {self.format_message()}", err=True)


class OutputFailure(click.ClickException):
    """The work is done but its output could not be written (a full device): one line, exit code 1."""

    exit_code = 1

    @classmethod
    def of(cls, exc: BaseException) -> OutputFailure:
        """The failure of a write or flush that raised `exc`."""
        return cls(f"the output could not be written ({getattr(exc, 'strerror', None) or exc})")

    def line(self) -> str:
        return f"simdesk: error: {self.format_message()}"

    def show(self, file: IO[Any] | None = None) -> None:
        click.echo(self.line(), err=True)


class Number(click.ParamType):
    """A finite number, parsed strictly: `nan`, `inf` and values outside [low, high] are refused (greater
    than `low` when `low_open`)."""

    name = "number"

    def __init__(self, low: float, high: float = math.inf, low_open: bool = False) -> None:
        self.low, self.high, self.low_open = low, high, low_open

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> float:
        try:
            number = float(value)
        except (TypeError, ValueError):
            self.fail(f"{value!r} is not a number", param, ctx)
        if not math.isfinite(number):
            self.fail(f"{value!r} is not a finite number", param, ctx)
        if number < self.low or (self.low_open and number == self.low) or number > self.high:
            bound = f"greater than {self.low:g}" if self.low_open else f"at least {self.low:g}"
            limit = bound if math.isinf(self.high) else f"{bound} and at most {self.high:g}"
            self.fail(f"{value} is out of range: give a number {limit}", param, ctx)
        return number


MEGABYTES = Number(0, low_open=True)  # --max-size


class KeepRule(click.ParamType):
    """`--keep`: one criterion or a comma-separated chain of them (core.KeepChain), checked before any scan."""

    name = "criteria"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> KeepChain:
        from simdesk.core import KeepChain

        try:
            return KeepChain.parse(value)
        except ValueError as exc:
            self.fail(str(exc), param, ctx)


class SimdeskGroup(click.Group):
    """The command group: a failure to write the output (stdout on a full device), and a failure of the index
    file (not an index, damaged, read-only, a full disk) from whichever call meets it, are one line, not a
    traceback. Exit codes (README): 0 done, 1 done with failures or output lost, 2 refused."""

    def main(self, args: Sequence[str] | None = None, *rest: Any, **kwargs: Any) -> Any:
        if args is None:  # the real command line (a test's CliRunner passes its arguments)
            command = next((a for a in sys.argv[1:] if not a.startswith("-")), None)
            if command not in (None, "gui"):  # the window saves the editor's decisions on its own way out
                stop_on_signals()
            if command in LEAVE_AT_ONCE:
                try:
                    return super().main(args, *rest, **kwargs)
                except SystemExit as end:  # how click ends every command it ran to the end or refused
                    leave_at_once(end.code)
        return super().main(args, *rest, **kwargs)

    def invoke(self, ctx: click.Context) -> Any:
        from simdesk.core import IndexError_

        try:
            return super().invoke(ctx)
        except IndexError_ as exc:
            raise UsageFailure(str(exc)) from None
        except OSError as exc:
            if exc.errno not in (errno.ENOSPC, errno.EIO, errno.EDQUOT, errno.EFBIG):
                raise
            try:  # nothing more can reach that device: later flushes (at exit) write to /dev/null instead
                os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            except (OSError, ValueError):
                pass
            raise OutputFailure.of(exc) from None


# The commands whose process ends at once when they are done (leave_at_once): not the window (Qt saves its
# settings on the way out), nor the cluster commands (a Spark driver stops its JVM on the way out).
LEAVE_AT_ONCE = frozenset({"scan", "query", "evaluate", "clean", "undo", "demo"})


def leave_at_once(code: object) -> NoReturn:
    """End the process with the exit status SystemExit(`code`) gives, once stdout and stderr are flushed,
    without tearing down its objects one by one (~0.09 s after a scan of 20,000 files, more after a million):
    by then a command has committed everything it writes (the index in transactions, a clean-up's action log
    line by line, synced) and closed its index. An output that cannot be flushed ends with status 1: with one
    line (a full device), as when a write fails earlier (SimdeskGroup.invoke), or quietly when its reader has
    gone, as click ends a write that meets a closed pipe."""
    if isinstance(code, str):  # sys.exit("message"), as Python ends it: the message on stderr, status 1
        print(code, file=sys.stderr)
    status = code if isinstance(code, int) else 0 if code is None else 1
    try:
        sys.stdout.flush()
    except BrokenPipeError:  # its reader has gone (`| head`): quiet, as click ends a write that meets it
        status = status or 1
    except (OSError, ValueError) as exc:
        os.write(2, f"{OutputFailure.of(exc).line()}\n".encode())
        status = status or 1
    try:
        sys.stderr.flush()
    except (OSError, ValueError):
        status = status or 1
    os._exit(status)


STOPPED = (
    "simdesk: stopped ({how}): what was indexed is kept, and every file moved so far is in the action log "
    "(simdesk undo puts it back)\n"
)


def stop_on_signals() -> None:
    """Ctrl-C (SIGINT) and SIGTERM end the command within a moment, in every phase: one line on stderr, then
    the process ends at once (exit 130 or 143). That is as safe as a kill -9 (the index commits in
    transactions, a clean-up writes each file's intent ahead of its move, both tested under kill loops), and
    the worker processes, their fork server and the resource tracker end with it (parent_watch) instead of
    finishing their chunks. The resource tracker's note about the semaphores it then frees is not shown."""
    import signal

    sys.warnoptions.append("ignore:resource_tracker:UserWarning")  # passed on to the tracker when it starts

    def stop(signum: int, frame: object) -> None:
        how = "interrupted" if signum == signal.SIGINT else "terminated"
        try:
            os.write(2, STOPPED.format(how=how).encode())
        finally:
            os._exit(128 + signum)

    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, stop)


def demo_dir() -> Path:
    from simdesk.core import demo_dir as data_demo_dir, ensure_demo

    return ensure_demo(data_demo_dir())


def check_folder(folder: str) -> Path:
    path = Path(folder)
    if not path.exists():
        raise UsageFailure(f"{folder}: no such folder")
    if not path.is_dir():
        raise UsageFailure(f"{folder}: not a folder")
    try:
        next(iter(path.iterdir()), None)
    except OSError as exc:
        raise UsageFailure(f"{folder}: cannot be read ({exc.strerror or exc})") from None
    return path


def check_writable(path: Path) -> None:
    """Refuse at once a file that cannot be written (rather than work for a minute and fail silently)."""
    existed = path.exists()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(path, "ab"):
            pass
        if not existed:
            path.unlink()
    except OSError as exc:
        raise UsageFailure(f"{path}: cannot be written ({exc.strerror or exc})") from None


def open_index(folder: Path, db: str | None) -> Index:
    from simdesk.core import Index, IndexError_, index_path

    path = Path(db) if db else index_path(folder)
    try:
        index = Index(path)
    except IndexError_ as exc:
        raise UsageFailure(str(exc)) from None
    if index.rebuilt:
        click.echo(f"simdesk: {index.rebuilt_reason}", err=True)
    return index


def progress_printer(verified: bool = True) -> tuple[Callable[[Progress], None] | None, Callable[[], None]]:
    """A progress bar on stderr when it is a terminal (tqdm), with the whole scan's time left; nothing
    otherwise."""
    if not sys.stderr.isatty():
        return None, lambda: None
    from tqdm import tqdm

    from simdesk.core import TimeLeft

    bar = tqdm(total=0, unit=" files", file=sys.stderr, dynamic_ncols=True, leave=False)
    time_left = TimeLeft(verified)

    def update(p: Progress) -> None:
        bar.set_description(p.phase)
        if p.total and bar.total != p.total:
            bar.reset(total=p.total)
        bar.n = p.done
        if (left := time_left.update(p)) is not None:
            bar.set_postfix_str(f"about {left:.0f} s left", refresh=False)
        bar.refresh()

    return update, bar.close


def include_option(f: Command) -> Command:
    return click.option(
        "--include",
        "includes",
        multiple=True,
        metavar="GLOB",
        help="File name patterns to index (repeatable). Default: *.txt, *.md, *.markdown, *.html, *.htm, *.xhtml.",
    )(f)


MAX_SIZE_MB = ScanOptions().max_bytes / (1024 * 1024)


def scan_options(jobs: int, includes: tuple[str, ...], max_size_mb: float) -> ScanOptions:
    return ScanOptions(includes=includes or ScanOptions().includes, max_bytes=int(max_size_mb * 1024 * 1024), jobs=jobs)


def review_options(f: Command) -> Command:
    """The options `scan` and `clean` share: the grouping mode and threshold, the index, what is read."""
    for option in reversed(
        (
            click.option(
                "--threshold",
                "-t",
                type=click.IntRange(0, MAX_THRESHOLD),
                default=None,
                help=f"Largest distance of a grouping pair, 0..{MAX_THRESHOLD}. Alone: plain SimHash groups within N bits "
                "(unverified). With verification: the bits scaled to the pair's candidate radius "
                f"(shorter texts get a wider one), {MAX_THRESHOLD} (the default) taking every verified candidate.",
            ),
            click.option(
                "--similarity",
                "-s",
                type=Number(0.0, 1.0),
                default=None,
                help="Verified mode's least similarity (the verified similarity: shingles, edit similarity for short texts; 0..1; default 0.7). "
                "0 turns verification off.",
            ),
            click.option(
                "--db", type=click.Path(dir_okay=False), help="Index file (default: in the user's data folder)."
            ),
            click.option(
                "--jobs",
                "-j",
                type=click.IntRange(0, 256),
                default=0,
                help="Worker processes for reading and verifying (0: one per core).",
            ),
            include_option,
            click.option(
                "--max-size",
                "max_size_mb",
                type=MEGABYTES,
                default=MAX_SIZE_MB,
                show_default=True,
                help="Files larger than this many MB are skipped and reported.",
            ),
        )
    ):
        f = option(f)
    return f


def open_folder_review(
    folder: str,
    threshold: int | None,
    similarity: float | None,
    db: str | None,
    jobs: int,
    includes: tuple[str, ...],
    max_size_mb: float,
) -> tuple[Index, Review]:
    """Scan FOLDER and group it as the options say (core.open_review); returns (index, review)."""
    path, options = check_folder(folder), scan_options(jobs, includes, max_size_mb)
    start_workers_early(path, db, options)
    from simdesk.core import ReviewSettings

    return review_of(path, db, ReviewSettings.from_options(threshold, similarity, options, regroup=False))


def start_workers_early(folder: Path, db: str | None, options: ScanOptions) -> None:
    """Before the engine is loaded: start the fork server of the scan's worker processes when the scan will
    use them (core.start_workers_before_scan), so that it loads the engine on another core while this
    process loads its own and lists the folder."""
    from simdesk.core import index_path, start_workers_before_scan

    start_workers_before_scan(folder, Path(db) if db else index_path(folder), options)


def print_scan_stats(review: Review) -> None:
    """The scan's counts on stderr; nothing for a review read from its index without a scan (a bundle's)."""
    if review.result is None:
        return
    s = review.result.stats
    click.echo(
        f"scanned {s.listed} files in {s.seconds:.1f} s: {s.new} new, {s.changed} changed, "
        f"{s.moved} moved, {s.deleted} deleted, {s.unchanged} unchanged, {s.problems} problems",
        err=True,
    )


def review_of(folder: Path, db: str | None, settings: ReviewSettings) -> tuple[Index, Review]:
    """Scan `folder` into its index and group it as `settings` (ReviewSettings) say: (index, the Review of
    core.open_review). Errors become one-line usage failures."""
    from simdesk.core import IndexError_, open_review

    index = open_index(folder, db)
    update, close = progress_printer(settings.verified)
    try:
        return index, open_review(folder, index, settings, on_progress=update)
    except IndexError_ as exc:
        index.close()
        raise UsageFailure(str(exc)) from None
    except OSError as exc:
        index.close()
        raise UsageFailure(f"{folder}: cannot be read ({exc.strerror or exc})") from None
    finally:
        close()


@click.group(cls=SimdeskGroup, invoke_without_command=True)
@click.version_option(package_name="simdesk")
@click.pass_context
def main(ctx: click.Context) -> None:
    """Find near-duplicate text documents (Chinese, English, mixed) in a folder.

    With no command, opens the window on the demo collection.
    """
    if ctx.invoked_subcommand is None:
        ctx.invoke(gui)


@main.command()
@click.argument("folder")
@click.option("--format", "fmt", type=FORMATS, default="text", show_default=True)
@review_options
def scan(
    folder: str,
    threshold: int | None,
    similarity: float | None,
    fmt: str,
    db: str | None,
    jobs: int,
    includes: tuple[str, ...],
    max_size_mb: float,
) -> None:
    """Index FOLDER (incrementally) and print its groups of near-duplicates.

    By default candidates found by SimHash are verified on the texts (boilerplate lines ignored) and group
    when their similarity reaches 0.7. `--threshold N` alone gives plain SimHash groups at distance <= N.

    Example: simdesk scan articles --format json > groups.json
    """
    index, review = open_folder_review(folder, threshold, similarity, db, jobs, includes, max_size_mb)
    with index:
        review.export_to(sys.stdout, fmt)  # written as it is made: a million documents' report is ~250 MB
        if fmt == "json":
            sys.stdout.write("\n")
    print_scan_stats(review)


@main.command()
@click.argument("folder")
@click.option(
    "--keep",
    "rule",
    required=True,
    type=KeepRule(),
    metavar="CRITERIA",
    help="Which copy of each group stays: oldest or newest (modification time), largest, "
    "shortest-path, or in:FOLDER (a copy under FOLDER, relative to the scanned folder); several, "
    "comma-separated, form a chain: the first decides, the next breaks its ties "
    "(e.g. in:news,oldest,largest).",
)
@click.option(
    "--keep-in",
    "keep_in",
    metavar="FOLDER",
    help="Reference folder: keep a copy under FOLDER (relative to the scanned folder): the rule chooses "
    "among the members there, and a group with no member there is left alone.",
)
@click.option("--dry-run", is_flag=True, help="Say what would go to the trash; touch nothing.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@review_options
def clean(
    folder: str,
    rule: KeepChain,
    keep_in: str | None,
    dry_run: bool,
    fmt: str,
    threshold: int | None,
    similarity: float | None,
    db: str | None,
    jobs: int,
    includes: tuple[str, ...],
    max_size_mb: float,
) -> None:
    """Keep one copy of each group of FOLDER by RULE and send the others to the trash.

    The groups are those `simdesk scan` prints with the same options. Each file is checked unchanged since
    the scan before it goes; a group whose kept copy is gone from disk is left alone; only files verified
    gone from their place are reported done. Every action is logged: `simdesk undo` puts them back.
    Exits 1 when some files were skipped or failed (each is listed with the reason).

    Examples: simdesk clean articles --keep oldest --dry-run
              simdesk clean articles --keep in:originals,oldest,largest
    """
    from simdesk.core import STAYS, fate_reason, measured

    index, review = open_folder_review(folder, threshold, similarity, db, jobs, includes, max_size_mb)
    with index:
        left_alone = review.keep_by_rule_everywhere(rule, keep_in=keep_in)
        plan = review.plan_cleanup()
        try:
            done = None if dry_run else review.clean_up(plan, "trash")
        except OSError as exc:  # the action log cannot be opened: nothing was moved
            raise UsageFailure(exc.strerror or str(exc)) from None
    print_scan_stats(review)
    removals = [{"path": r.path, "group": r.group_id, "size": r.size} for r in plan.removals]
    refused = [{"group": r.group_id, "reason": r.reason} for r in (done.refused_groups if done else plan.refusals)]
    refused += [{"group": g, "reason": f"no copy under {keep_in}"} for g in left_alone]
    least = review.min_similarity
    undecided = [
        {
            "group": g,
            "path": f.path,
            "reason": fate_reason(f, least),
            "why": f.why,
            "keeper": f.keeper,
            "held": measured(f.held),
            "holds": measured(f.holds),
        }
        for g, f in plan.fates
        if f.fate == STAYS
    ]
    if fmt == "json":
        out = {
            "root": folder,
            "rule": str(rule),
            "dry_run": dry_run,
            "kept": sorted(review.decisions.keep),
            "planned": removals,
            "refused_groups": refused,
            "undecided": undecided,
        }
        if done is not None:
            out.update(
                done=done.done,
                bytes_done=done.bytes_done,
                skipped=[{"path": p, "reason": why} for p, why in done.skipped],
                failed=[{"path": p, "reason": why} for p, why in done.failed],
            )
        click.echo(json.dumps(out, ensure_ascii=False, indent=2))
    else:
        from simdesk.core import printable

        if done is None:
            reasons = {(g, f.path): fate_reason(f, least) for g, f in plan.fates}
            for r in plan.removals:
                why = reasons.get((r.group_id, r.path))
                click.echo(f"would trash  {printable(r.path)}" + (f": {printable(why)}" if why else ""))
        else:
            for p in done.done:
                click.echo(f"trashed  {printable(p)}")
            for p, why in done.skipped:
                click.echo(f"skipped  {printable(p)}: {printable(why)}")
            for p, why in done.failed:
                click.echo(f"failed  {printable(p)}: {printable(why)}")
        for refusal in refused:
            click.echo(f"left alone  group {refusal['group']}: {printable(refusal['reason'])}")
        for u in undecided:
            click.echo(f"left alone  {printable(u['path'])} (group {u['group']}): {printable(u['reason'])}")
    if done is None:
        click.echo(f"simdesk: dry run: {plan.files} files ({plan.bytes:,} bytes) would go to the trash", err=True)
    else:
        click.echo(f"simdesk: {done.summary()}", err=True)
        if done.skipped or done.failed:
            sys.exit(1)


@main.command()
@click.argument("folder")
@click.argument("file", required=False, type=click.Path(dir_okay=False))
@click.option("--text", help="Text to look up instead of a file.")
@click.option("--threshold", "-t", type=click.IntRange(0, 16), default=3, show_default=True)
@click.option("--format", "fmt", type=FORMATS, default="text", show_default=True)
@click.option("--db", type=click.Path(dir_okay=False))
@click.option("--jobs", "-j", type=click.IntRange(0, 256), default=0)
@include_option
@click.option("--max-size", "max_size_mb", type=MEGABYTES, default=MAX_SIZE_MB, show_default=True)
def query(
    folder: str,
    file: str | None,
    text: str | None,
    threshold: int,
    fmt: str,
    db: str | None,
    jobs: int,
    includes: tuple[str, ...],
    max_size_mb: float,
) -> None:
    """List the documents of FOLDER within THRESHOLD bits of FILE (or of --text).

    Example: simdesk query articles --text "今天天气很好" --threshold 6
    """
    from simdesk.core import DecodeError, read_text_file

    if (file is None) == (text is None):
        raise UsageFailure("give either a FILE or --text, not both and not neither")
    if file is not None:
        try:
            text = read_text_file(Path(file), int(max_size_mb * 1024 * 1024)).text
        except (OSError, DecodeError) as exc:
            raise UsageFailure(f"{file}: {exc}") from None
    path, options = check_folder(folder), scan_options(jobs, includes, max_size_mb)
    start_workers_early(path, db, options)
    from simdesk.core import ReviewSettings, simhash, similarity_percent, weighted_terms

    # the index brought up to date; plain pairs at distance 0 only, which costs nothing
    index, _ = review_of(path, db, ReviewSettings(min_similarity=0, threshold=0, regroup=False, scan=options))
    fp = simhash(weighted_terms(text or ""))
    with index:
        hits = index.near(fp, threshold)
    rows = [
        {
            "path": doc.path,
            "distance": d,
            "similarity": round(similarity_percent(d), 1),
            "size": doc.size,
            "encoding": doc.encoding,
        }
        for doc, d in hits
    ]
    if fmt == "json":
        click.echo(
            json.dumps(
                {"root": folder, "threshold": threshold, "fingerprint": f"{fp:016x}", "matches": rows},
                ensure_ascii=False,
                indent=2,
            )
        )
    elif fmt == "csv":
        from simdesk.core import safe_cell

        click.echo("path,distance,similarity_percent,size,encoding")
        for r in rows:
            click.echo(
                ",".join(
                    [
                        json.dumps(safe_cell(r["path"]), ensure_ascii=False),
                        str(r["distance"]),
                        str(r["similarity"]),
                        str(r["size"]),
                        str(r["encoding"]),
                    ]
                )
            )
    else:
        from simdesk.core import printable

        click.echo(f"{len(rows)} documents within {threshold} bits of fingerprint {fp:016x}")
        for r in rows:
            click.echo(f"  d={r['distance']:<2d} {r['similarity']:5.1f}%  {printable(r['path'])}")


@main.command()
@click.argument("folder")
@click.option("--db", type=click.Path(dir_okay=False))
@click.option("--jobs", "-j", type=click.IntRange(0, 256), default=0)
@click.option(
    "--sweep/--no-sweep",
    default=True,
    show_default=True,
    help="Also print the precision/recall curve over thresholds and similarities.",
)
def evaluate(folder: str, db: str | None, jobs: int, sweep: bool) -> None:
    """Scan FOLDER, a collection with a truth.json, and score simdesk's groups against it.

    Prints `name value` lines (pairwise precision, recall, F1; the same for short texts; recall per edit
    kind) for the default settings, then, with --sweep, one line per setting:
    `sweep MODE SETTING precision recall f1 short_precision short_recall`.

    Example: simdesk evaluate corpus/medium
    """
    from simdesk.core import load_truth

    path = check_folder(folder)
    try:
        truth = load_truth(path)
    except (OSError, ValueError, KeyError) as exc:
        raise UsageFailure(f"{folder}: no usable truth.json ({exc})") from None
    options = scan_options(jobs, (), MAX_SIZE_MB)
    start_workers_early(path, db, options)
    from simdesk.core import ReviewSettings, grouper_for, score_groups

    index, review = review_of(path, db, ReviewSettings(scan=options))
    with index:
        verified = review.grouper
        plain = grouper_for(index)

    def paths(grouping: Grouping) -> list[list[str]]:
        return [[m.path for m in g.members] for g in grouping]

    default = score_groups(truth, paths(verified.at(verified.max_threshold)))
    click.echo("\n".join(default.lines()))
    if not sweep:
        return
    rows = [
        ("verified", f"min_similarity={s:.2f}", verified.at(verified.max_threshold, min_similarity=s))
        for s in (0.5, 0.6, 0.7, 0.8, 0.9)
    ]
    rows += [("verified", f"scaled_distance<={t}", verified.at(t)) for t in range(0, 13, 2)]
    rows += [("plain", f"distance<={t}", plain.at(t)) for t in range(0, 13)]
    for mode, setting, grouping in rows:
        s = score_groups(truth, paths(grouping))
        click.echo(
            f"sweep {mode} {setting} {s.precision:.4f} {s.recall:.4f} {s.f1:.4f} "
            f"{s.short_precision:.4f} {s.short_recall:.4f}"
        )


@main.command()
@click.argument("dest", required=False, type=click.Path(file_okay=False))
def demo(dest: str | None) -> None:
    """Write the built-in demo collection (to DEST, or the user's data folder) and print where it is."""
    from simdesk.core import ensure_demo

    click.echo(str(ensure_demo(Path(dest)) if dest else demo_dir()))


@main.command("cluster-scan")
@click.argument("source")
@click.option("--out", required=True, type=click.Path(file_okay=False), help="The bundle folder to write.")
@click.option("--engine", type=click.Choice(["local", "spark"]), default="local", show_default=True)
@click.option("--master", help="Spark master URL (default: spark-submit's, else local[*]).")
@click.option("--threshold", "-t", type=click.IntRange(0, MAX_THRESHOLD), default=None, help="As for `simdesk scan`.")
@click.option("--similarity", "-s", type=click.FloatRange(0.0, 1.0), default=None, help="As for `simdesk scan`.")
@click.option(
    "--previous",
    type=click.Path(file_okay=False, exists=True),
    help="An earlier bundle of the same source: unchanged objects (size, mtime/ETag) are not read again.",
)
@click.option("--jobs", "-j", type=click.IntRange(0, 256), default=0, help="Worker processes (local engine).")
@include_option
@click.option("--max-size", "max_size_mb", type=MEGABYTES, default=MAX_SIZE_MB, show_default=True)
def cluster_scan(
    source: str,
    out: str,
    engine: str,
    master: str | None,
    threshold: int | None,
    similarity: float | None,
    previous: str | None,
    jobs: int,
    includes: tuple[str, ...],
    max_size_mb: float,
) -> None:
    """Scan SOURCE (a folder, a glob, a Parquet/JSONL dataset with path and text columns, or an object-store
    URL) with the desktop's features and checks, on this machine or on Spark, into the bundle --out.

    Example: simdesk cluster-scan s3://archive/2026/ --out archive.bundle --engine spark --threshold 3
    """
    try:
        from simdesk.cluster.bundle import BundleError
        from simdesk.cluster.plan import ScanPlan
        from simdesk.cluster.run import cluster_scan as run
        from simdesk.cluster.sources import open_source
    except ImportError as exc:
        raise UsageFailure(f"cluster scans need the cluster extra ({exc}): pip install 'simdesk[cluster]'") from None
    max_bytes = int(max_size_mb * 1024 * 1024)
    try:
        src = open_source(source, includes or ScanOptions().includes, max_bytes)
        result = run(
            src,
            Path(out),
            ScanPlan(threshold, similarity, jobs, max_bytes),
            engine,
            Path(previous) if previous else None,
            master,
        )
    except (BundleError, ValueError) as exc:
        raise UsageFailure(str(exc)) from None
    click.echo(f"simdesk: {result.summary()}", err=True)


@main.command("import")
@click.argument("bundle", type=click.Path(file_okay=False, exists=True))
@click.option(
    "--db",
    type=click.Path(dir_okay=False),
    help="Index file (default: the bundle's folder's, in the user's data folder: the one the window opens).",
)
@click.option(
    "--decisions",
    type=click.Path(dir_okay=False),
    help="Instead: write the editor's decisions on the imported bundle to this Parquet file.",
)
def import_(bundle: str, db: str | None, decisions: str | None) -> None:
    """Load the groups of a cluster-scan BUNDLE into the index of its folder, for the window to review
    (`simdesk gui BUNDLE` imports and opens it); with --decisions, export the decisions taken on it.

    Example: simdesk import archive.bundle && simdesk gui archive.bundle
    """
    root, report = import_into_index(bundle, db, decisions)
    click.echo(f"simdesk: {report}", err=True)


def import_into_index(bundle: str, db: str | None, decisions: str | None = None) -> tuple[Path, str]:
    try:
        from simdesk.cluster.bundle import BundleError, open_bundle
        from simdesk.cluster.importer import bundle_root, export_decisions, import_bundle
    except ImportError as exc:
        raise UsageFailure(f"bundles need the cluster extra ({exc}): pip install 'simdesk[cluster]'") from None
    try:
        b = open_bundle(bundle)
        root = bundle_root(b)
        with open_index(root, db) as index:
            if decisions:
                from simdesk.core import ReviewSettings, open_review

                settings = ReviewSettings.from_options(similarity=None if b.verified else 0)
                plan = open_review(root, index, settings, rescan=False).plan_cleanup()
                out = export_decisions(index, b, Path(decisions), (r.path for r in plan.removals))
                return root, f"decisions written to {out} ({plan.files} copies the copies kept hold go)"
            return root, import_bundle(b, index).summary()
    except BundleError as exc:
        raise UsageFailure(str(exc)) from None


@main.command("cluster-apply")
@click.argument("bundle", type=click.Path(exists=True, file_okay=False))
@click.option("--decisions", type=click.Path(dir_okay=False), help="decisions.parquet (simdesk import --decisions).")
@click.option(
    "--move-to", help="Where the documents decided 'trash' go (a URL prefix or a folder), keeping their paths."
)
@click.option("--dry-run", is_flag=True, help="Only say what would move.")
@click.option(
    "--log",
    "log_path",
    type=click.Path(dir_okay=False),
    help="The JSON-lines log of the moves (default: beside the decisions, .apply.jsonl).",
)
@click.option(
    "--undo",
    "undo_log",
    type=click.Path(exists=True, dir_okay=False),
    help="Instead: put back what the moves in this log took away.",
)
def cluster_apply(
    bundle: str, decisions: str | None, move_to: str | None, dry_run: bool, log_path: str | None, undo_log: str | None
) -> None:
    """Carry out the editor's decisions on a cluster-scan BUNDLE where its documents are: each document decided
    'trash' is moved (copied, checked, then removed) under --move-to, never deleted, logged for --undo.

    Example: simdesk cluster-apply archive.bundle --decisions decisions.parquet --move-to s3://archive-trash/
    """
    try:
        from simdesk.cluster import apply
        from simdesk.cluster.bundle import BundleError, open_bundle
    except ImportError as exc:
        raise UsageFailure(f"bundles need the cluster extra ({exc}): pip install 'simdesk[cluster]'") from None
    if undo_log:
        try:
            report = apply.undo_apply(Path(undo_log))
        except BundleError as exc:
            raise UsageFailure(str(exc)) from None
        click.echo(report.summary())
        if report.failed:
            sys.exit(1)
        return
    if not decisions or not move_to:
        raise UsageFailure("give --decisions and --move-to (with --dry-run to only see what would move)")
    log = Path(log_path) if log_path else Path(decisions).with_suffix(".apply.jsonl")
    try:
        click.echo(apply.cluster_apply(open_bundle(bundle), Path(decisions), move_to, log, dry_run))
    except BundleError as exc:
        raise UsageFailure(str(exc)) from None


@main.command()
@click.argument("folder", required=False)
@click.option(
    "--screenshot",
    type=click.Path(dir_okay=False),
    help="Scan, show the largest group's diff, save a PNG of the window and exit.",
)
def gui(folder: str | None, screenshot: str | None) -> None:
    """Open the window (on FOLDER, or offering the demo collection). FOLDER may be a cluster-scan bundle: it is
    imported (`simdesk import`), then its folder opened."""
    if folder is not None and (Path(folder) / "manifest.json").is_file():
        root, report = import_into_index(folder, None)
        click.echo(f"simdesk: {report}", err=True)
        folder = str(root)
    if folder is not None:
        check_folder(folder)
        try:  # an index that cannot be opened is said here in one line; the window offers its rebuild
            open_index(Path(folder), None).close()
        except UsageFailure as exc:
            if screenshot is not None:  # no one to answer the window's dialog
                raise
            click.echo(f"simdesk: {exc.format_message()}", err=True)
    if screenshot is not None:
        check_writable(Path(screenshot))
    try:
        from simdesk.gui.app import run_app
    except ImportError as exc:
        raise UsageFailure(
            f"the window is not available ({exc}): install it with `pip install 'simdesk[gui]'`, or use `simdesk scan`"
        ) from None
    sys.exit(run_app(folder, screenshot=screenshot, demo=demo_dir))


@main.command()
@click.option(
    "--log",
    "log_path",
    type=click.Path(dir_okay=False),
    help="Action log (default: the user's, which the window and `simdesk clean` write).",
)
@click.option(
    "--dry-run",
    is_flag=True,
    help="Only list the files the last clean-up would put back; move nothing and write nothing.",
)
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
def undo(log_path: str | None, dry_run: bool, fmt: str) -> None:
    """Undo the last clean-up: put its files back from the trash (or from where they were moved).

    A file now standing at the original place is never overwritten. Exits 1 when some files could not be
    put back (each is listed with the reason). With --dry-run, lists the clean-up's files still away and
    touches nothing (whether each can be put back is found out only by undoing).

    Example: simdesk undo --dry-run
    """
    from simdesk.core import undo_last

    if log_path and not Path(log_path).is_file():  # a mistyped path is not "nothing to undo"
        raise UsageFailure(f"{log_path}: no such action log")
    if dry_run:
        _undo_dry_run(log_path, fmt)
        return
    try:
        report = undo_last(Path(log_path) if log_path else None)
    except OSError as exc:
        raise UsageFailure(f"{log_path or 'the action log'}: {exc.strerror or exc}") from None
    if fmt == "json":
        click.echo(
            json.dumps(
                {
                    "run": report.run,
                    "restored": report.restored,
                    "not_restored": [{"path": p, "reason": why} for p, why in report.not_restored],
                },
                ensure_ascii=False,
                indent=2,
            )
        )
    else:
        from simdesk.core import printable

        for p in report.restored:
            click.echo(f"restored  {printable(p)}")
        for p, why in report.not_restored:
            click.echo(f"not restored  {printable(p)}: {printable(why)}")
    click.echo(f"simdesk: {report.summary()}", err=True)
    if report.not_restored:
        sys.exit(1)


def _undo_dry_run(log_path: str | None, fmt: str) -> None:
    """`simdesk undo --dry-run`: the last clean-up's files an undo would put back, nothing moved."""
    from simdesk.core import action_log, cleanup_to_undo, printable

    log = Path(log_path) if log_path else action_log()
    if log_path:
        try:
            with open(log, "rb"):
                pass
        except OSError as exc:  # an unreadable log is not "nothing to undo"
            raise UsageFailure(f"{log_path}: {exc.strerror or exc}") from None
    pending = cleanup_to_undo(log)
    if fmt == "json":
        body = {"run": pending.run, "action": pending.action or None, "would_restore": pending.paths}
        click.echo(json.dumps(body, ensure_ascii=False, indent=2))
    else:
        for p in pending.paths:
            click.echo(f"would restore  {printable(p)}")
    if pending.run is None:
        click.echo("simdesk: nothing to undo", err=True)
    else:
        where = "the trash" if pending.action == "trash" else "where they were moved"
        click.echo(
            f"simdesk: undo would put back {len(pending.paths)} file(s) from {where}; nothing was changed", err=True
        )


if __name__ == "__main__":
    main()
