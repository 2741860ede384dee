"""``irshape infer``."""

from __future__ import annotations

from pathlib import Path

import click

from irshape.cli.inputs import check_reports
from irshape.cli.options import INPUT_OPTIONS, apply_options, require_paths, settings_for
from irshape.report import INFER_FORMATS, REPORTERS
from irshape.report.text import format_diagnostic
from irshape.selection import infer_exit_code, rejections


@click.command()
@apply_options(*INPUT_OPTIONS)
@click.option(
    "--format", "output_format", type=click.Choice(INFER_FORMATS), default="text", show_default=True
)
@click.pass_context
def infer(
    ctx: click.Context,
    paths: tuple[Path, ...],
    exclude: tuple[str, ...],
    stdin_filename: str | None,
    jobs: int,
    config_file: Path | None,
    isolated: bool,
    output_format: str,
) -> None:
    """Print the inferred output shape of every layer irshape knows.

    A layer OpenVINO rejects is shown as such, with the first finding why; findings that make
    OpenVINO reject a file or another layer (an unparsable file) go to stderr. Exit 0: OpenVINO
    rejects nothing; 1: it rejects a layer or a file; 2: usage, configuration or irshape error.
    """
    require_paths(paths)
    settings = settings_for(config_file, isolated, exclude=exclude or None, output_format=output_format)
    reports = check_reports(
        paths, settings, stdin_filename=stdin_filename, jobs=jobs, verbosity=0, check_options={}
    )
    text = REPORTERS[output_format]().render_infer(reports)
    if text:
        click.echo(text)
    for report in reports:
        for finding in rejections(report)[1]:
            click.echo(format_diagnostic(finding), err=True)
    ctx.exit(infer_exit_code(reports))
