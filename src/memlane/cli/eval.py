"""``memlane eval``: benchmarks over public data sets, a thin shell over :mod:`memlane.eval`.

``memlane eval locomo`` ingests every LoCoMo conversation into a fresh temporary database, asks each
scorable question and prints evidence recall, store size and latencies. With ``--llm`` the
conversations go through the LLM stages of the endpoint that ``MEMLANE_LLM_*`` describes, and what
they cost is reported by stage; without it the rules alone run.
"""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

import click
from rich.console import Console
from rich.progress import Progress

from memlane.cli.numbers import PROGRESS, json_option, split_option, written
from memlane.errors import MemlaneError

if TYPE_CHECKING:
    from memlane.llm import ChatClient

LOCOMO_SOURCE = "https://github.com/snap-research/locomo (data/locomo10.json)"


def _fail(message: str) -> NoReturn:
    click.echo(f"error: {message}", err=True)
    sys.exit(2)


def _client() -> ChatClient:
    """The client ``MEMLANE_LLM_*`` describes; exits with one line when there is no endpoint."""
    from memlane.llm import ChatClient
    from memlane.settings import Settings

    settings = Settings()
    if not settings.llm_base_url:
        _fail("--llm needs an endpoint: set MEMLANE_LLM_BASE_URL and MEMLANE_LLM_MODEL (see docs/llm.md)")
    try:
        return ChatClient.from_settings(settings)
    except MemlaneError as exc:
        _fail(str(exc))


@click.group(name="eval")
def eval_group() -> None:
    """Measure memlane on public benchmarks (nothing is written to your memory database)."""


@eval_group.command()
@click.option(
    "--data",
    type=click.Path(dir_okay=False, path_type=Path),
    help=f"LoCoMo-format JSON file (required): {LOCOMO_SOURCE}.",
)
@split_option("dev: the first 3 conversations (for tuning); test: the others.")
@click.option("--conversations", type=click.IntRange(min=1), help="Use only the first N conversations.")
@click.option("--limit", type=click.IntRange(min=1), help="Ask at most N questions per conversation.")
@json_option("Write the numbers as JSON (and a PNG plot next to it).")
@click.option(
    "--plot", "plot_out", type=click.Path(dir_okay=False, path_type=Path), help="PNG of R@k curves."
)
@click.option("--details", is_flag=True, help="Add every question's evidence ranks and top hits to the JSON.")
@click.option(
    "--db",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Keep the benchmark's memories in this new SQLite file (default: a temporary one).",
)
@click.option(
    "--context-tokens",
    type=click.IntRange(min=1),
    default=800,
    show_default=True,
    help="Token budget of the context() block measured for each question.",
)
@click.option(
    "--llm",
    "use_llm",
    is_flag=True,
    help="Run the LLM stages on the endpoint MEMLANE_LLM_BASE_URL and MEMLANE_LLM_MODEL name (docs/llm.md).",
)
def locomo(
    data: Path | None,
    split: str,
    conversations: int | None,
    limit: int | None,
    json_out: Path | None,
    plot_out: Path | None,
    details: bool,
    db: Path | None,
    context_tokens: int,
    use_llm: bool,
) -> None:
    """Turn-level evidence recall on LoCoMo: R@1/5/10/25/50 overall and per category, with costs."""
    from memlane.eval import dataset, locomo, report

    if data is None:
        _fail(f"memlane eval locomo needs the data: pass --data PATH, the LoCoMo file from {LOCOMO_SOURCE}")
    path = data
    if not path.is_file():
        _fail(f"no LoCoMo data at {path} (pass --data PATH)")
    llm = _client() if use_llm else None
    console = Console()
    if not console.is_terminal:  # rich assumes 80 columns for a pipe, too narrow for the store table
        console = Console(width=140)
    try:
        samples = dataset.load(path)
        with Progress(*PROGRESS, console=Console(stderr=True), transient=True) as progress:
            run = locomo.evaluate(
                samples,
                db=db,
                split=split,
                conversations=conversations,
                limit=limit,
                context_tokens=context_tokens,
                progress=progress,
                llm=llm,
            )
    except MemlaneError as exc:
        _fail(str(exc))
    finally:
        if llm is not None:
            llm.close()
    sha256 = hashlib.sha256(path.read_bytes()).hexdigest()
    full = split == "all" and conversations is None and limit is None
    if full and sha256 == dataset.LOCOMO_SHA256 and len(run.answers) != dataset.SCORABLE_QUESTIONS:
        raise RuntimeError(f"{len(run.answers)} scorable questions, expected {dataset.SCORABLE_QUESTIONS}")
    summary = report.summary(run, data=str(path), sha256=sha256, context_max_tokens=context_tokens)
    # files first: a long run's results must survive a console that goes away (a closed pipe)
    document = summary | ({"details": report.details(run)} if details else {})
    files = written(document, json_out, plot_out, lambda out: report.plot(summary, out))
    console.print(
        f"{summary['questions']} scorable questions from {len(run.stored)} conversations "
        f"(split {split}) of {path.name}"
    )
    for table in (report.recall_table(summary), report.store_table(summary), report.cost_table(summary)):
        console.print(table)
    usage = report.usage_table(summary)
    if usage is not None:
        console.print(usage)
    files.show(console)


@eval_group.command()
@split_option("dev: the cases the write path was built against; test: the held-out half.")
@json_option()
@click.option("--failures", is_flag=True, help="Print every failing case and what memory held instead.")
def writes(split: str, json_out: Path | None, failures: bool) -> None:
    """What the write path keeps: supersede, merge, keep-apart, channel and profile cases scored on both
    halves and both languages, and the share of clauses that get a decision."""
    from rich.table import Table

    from memlane.eval import writes as scored

    cases = [c for c in scored.load_cases() if split in ("all", c["split"])]
    console = Console()
    with Progress(*PROGRESS, console=Console(stderr=True), transient=True) as progress:
        task = progress.add_task("cases", total=len(cases))
        report = scored.evaluate(cases, progress=lambda n, _: progress.update(task, completed=n))
    kinds = sorted({c["kind"] for c in cases})
    table = Table(title="Cases passed (exactly the memories, supersedes and profile slots expected)")
    table.add_column("half")
    table.add_column("language")
    for kind in kinds:
        table.add_column(kind, justify="right")
    table.add_column("all", justify="right")
    for half in ("dev", "test"):
        for lang in ("zh", "en"):
            if not report.passed(half, lang)[1]:
                continue
            cells = [f"{p}/{n}" for p, n in (report.passed(half, lang, k) for k in kinds)]
            table.add_row(half, lang, *cells, "{}/{}".format(*report.passed(half, lang)))
    console.print(table)
    cover = Table(title="Clauses with a decision (judge corpus, both halves)")
    for name in ("language", "clauses of each message", "labelled clauses covered"):
        cover.add_column(name, justify="right" if name != "language" else "left")
    for lang, shares in report.coverage.items():
        cover.add_row(lang, f"{shares['clauses']:.3f}", f"{shares['labelled']:.3f}")
    console.print(cover)
    if failures:
        for result in report.results:
            if not result.passed:
                console.print(f"[bold]{result.case['id']}[/] " + "; ".join(result.wrong), markup=True)
    written(report.to_dict(), json_out, None, lambda out: scored.plot(report, out)).show(console)


@eval_group.command()
@split_option("dev: the half that may be tuned on; test: the held-out half.")
@click.option("--max-tokens", type=click.IntRange(min=1), help="Token budget of each block (default: 800).")
@json_option()
@click.option("--failures", is_flag=True, help="Print every question that missed an item or leaked one.")
@click.option(
    "--floors",
    "calibrate",
    is_flag=True,
    help="Instead, print the relevance floor of each language and kind of hit, calibrated on the dev half.",
)
def context(
    split: str, max_tokens: int | None, json_out: Path | None, failures: bool, calibrate: bool
) -> None:
    """Whether context blocks hold what a model needs and nothing it must not see: bilingual scenarios
    over multi-session histories, scored by coverage and junk rate on both halves."""
    from rich.table import Table

    from memlane.eval import context as scenarios
    from memlane.read.admit import FLOORS

    if calibrate:
        with Console(stderr=True).status("replaying the dev scenarios"):
            found = scenarios.floors()
        table = Table(title="Relevance floors (9 in 10 needed hits reach them, dev half)")
        for name in ("language", "kind", "calibrated", "shipped"):
            table.add_column(name, justify="left" if name in ("language", "kind") else "right")
        for (language, kind), value in found.items():
            shipped = FLOORS.get((language, kind))
            table.add_row(language, kind.value, f"{value:.2f}", "-" if shipped is None else f"{shipped:.2f}")
        Console().print(table)
        return

    chosen = [s for s in scenarios.load() if split in ("all", s["split"])]
    console = Console()
    with Progress(*PROGRESS, console=Console(stderr=True), transient=True) as progress:
        task = progress.add_task("scenarios", total=len(chosen))
        report = scenarios.evaluate(
            chosen, max_tokens=max_tokens, progress=lambda n, _: progress.update(task, completed=n)
        )
    table = Table(title="Context blocks (coverage: must items present; junk: blocks with a forbidden item)")
    for name in ("half", "language", "questions", "coverage", "junk rate", "memory lines", "tokens"):
        table.add_column(name, justify="left" if name in ("half", "language") else "right")
    for half in ("dev", "test"):
        for lang in ("zh", "en", None):
            n = report.numbers(half, lang)
            if not n["questions"]:
                continue
            table.add_row(
                half,
                lang or "both",
                str(n["questions"]),
                f"{n['coverage']:.3f}",
                f"{n['junk_rate']:.3f}",
                f"{n['memory_lines']:.1f}",
                f"{n['tokens']:.0f}",
            )
    console.print(table)
    by_category = Table(title="By category (coverage / junk rate)")
    by_category.add_column("category")
    for half in ("dev", "test"):
        by_category.add_column(half, justify="right")
    for category in sorted({a.category for a in report.answers}):
        cells = []
        for half in ("dev", "test"):
            n = report.numbers(half, category=category)
            cells.append(f"{n['coverage']:.2f} / {n['junk_rate']:.2f}" if n["questions"] else "-")
        by_category.add_row(category, *cells)
    console.print(by_category)
    if failures:
        for a in report.answers:
            if a.junk or a.missing:
                what = "; ".join([*(f"missing {m!r}" for m in a.missing), *(f"leaked {j!r}" for j in a.junk)])
                console.print(f"{a.scenario} {a.question} ({a.category}): {what}", markup=False)
    written(report.to_dict(), json_out, None, lambda out: scenarios.plot(report, out)).show(console)


@eval_group.command()
@split_option(
    "test: the held-out half (never tuned on); train: the half the models learn from, scored out of fold "
    "(each fold said with models fitted without it).",
    ("train", "test"),
    "test",
)
@click.option("--limit", type=click.IntRange(min=1), help="Use only the first N messages of the split.")
@json_option("Write the numbers as JSON (and a PNG of the confusion table next to it).")
@click.option(
    "--train",
    "retrain",
    is_flag=True,
    help="First rebuild the shipped models (n-grams, and the second look over e5 vectors) from the train "
    "split (5-fold cross-validation picks their settings).",
)
def judge(split: str, limit: int | None, json_out: Path | None, retrain: bool) -> None:
    """How the write path's judge decides on the labelled judge corpus: rules alone and rules with
    the learned models, per label, tier and language, with the mistakes that matter most."""
    from memlane.eval import judge as scored

    console = Console()
    if not console.is_terminal:  # rich assumes 80 columns for a pipe, too narrow for the confusion table
        console = Console(width=150)
    if retrain:
        from memlane.write.judge import train

        chosen = train.rebuild(progress=lambda line: console.print(f"cv {line}"))
        console.print(
            f"chose {chosen.features}, penalty {chosen.penalty:g}, temperature {chosen.temperature}, "
            f"threshold {chosen.threshold} (keep {chosen.keep}): "
            f"out-of-fold label accuracy {chosen.accuracy:.4f}"
        )
    with Progress(*PROGRESS, console=Console(stderr=True), transient=True) as progress:
        tasks: dict[str, object] = {}

        def tick(name: str, n: int, total: int) -> None:
            if name not in tasks:
                tasks[name] = progress.add_task(name, total=total)
            progress.update(tasks[name], completed=n)  # type: ignore[arg-type]

        report = scored.evaluate(split, limit=limit, progress=tick)
    files = written(report.to_dict(), json_out, None, lambda out: scored.plot(report, out))
    for table in scored.tables(report):
        console.print(table)
    files.show(console)
