"""``irshape infer``."""

from __future__ import annotations

import click

from irshape.cli.group import Command
from irshape.cli.inputs import check_reports
from irshape.cli.options import INPUT_OPTIONS, apply_options, require_paths, settings_for
from irshape.report import INFER_FORMATS, REPORTERS, ReportOptions
from irshape.report.text import format_diagnostic
from irshape.selection import infer_exit_code, rejections


@click.command(cls=Command)
@apply_options(*INPUT_OPTIONS)
@click.option(
    "--format", "output_format", type=click.Choice(INFER_FORMATS), default="text", show_default=True
)
@click.option("-v", "--verbose", count=True, help="Also name the op types irshape does not infer.")
@click.option("-q", "--quiet", is_flag=True, help="No summary line.")
@click.pass_context
def infer(
    ctx: click.Context,
    paths: tuple[str, ...],
    exclude: tuple[str, ...],
    stdin_filename: str | None,
    jobs: int,
    config_file: str | None,
    isolated: bool,
    output_format: str,
    verbose: int,
    quiet: bool,
) -> None:
    """Print the inferred output shape of every layer irshape knows.

    Each output is shown with its port id, shape and element type, and a summary counts the
    layers and op types inferred (-v names the types that are not). A layer OpenVINO rejects
    is shown as such, with the first finding why; findings that make
    OpenVINO reject a file or another layer (an unparsable file) go to stderr. Exit 0: OpenVINO
    rejects nothing; 1: it rejects a layer or a file; 2: usage, configuration or irshape error.
    """
    require_paths(paths)
    settings = settings_for(config_file, isolated, exclude=exclude or None, output_format=output_format)
    reports = check_reports(
        paths, settings, stdin_filename=stdin_filename, jobs=jobs, verbosity=0, check_options={}
    )
    options = ReportOptions(verbosity=-1 if quiet else min(verbose, 1))
    text = REPORTERS[output_format](options).render_infer(reports)
    if text:
        click.echo(text)
    for report in reports:
        for finding in rejections(report)[1]:
            click.echo(format_diagnostic(finding), err=True)
    ctx.exit(infer_exit_code(reports))
