"""The ``irshape`` command: a thin shell over the library.

Exit codes: 0 no error findings, 1 error findings, 2 usage error or an irshape failure.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path

import click

from irshape import __version__, rules
from irshape.api import check_file
from irshape.report import REPORTERS
from irshape.results import FileReport

EXIT_OK, EXIT_FINDINGS, EXIT_ABNORMAL = 0, 1, 2

_paths = click.argument(
    "paths", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=True, path_type=Path)
)
_format = click.option(
    "--format",
    "output_format",
    type=click.Choice(sorted(REPORTERS)),
    default="text",
    show_default=True,
    help="Output format.",
)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="irshape")
def main() -> None:
    """Validate OpenVINO IR convolution layers and infer their output shapes."""


def _xml_files(paths: Sequence[Path]) -> Iterator[Path]:
    for path in paths:
        if path.is_dir():
            yield from sorted(p for p in path.rglob("*.xml") if p.is_file())
        else:
            yield path


def _check_all(paths: Sequence[Path], debug: bool) -> list[FileReport]:
    return [check_file(path, debug=debug) for path in _xml_files(paths)]


@main.command()
@_paths
@_format
@click.option("--debug", is_flag=True, help="Show tracebacks of irshape's own failures.")
def check(paths: tuple[Path, ...], output_format: str, debug: bool) -> None:
    """Check IR files (and directories of .xml files) and report every finding."""
    reports = _check_all(paths, debug)
    click.echo(REPORTERS[output_format]().render_check(reports))
    if any(d.code == rules.INTERNAL_ERROR.code for r in reports for d in r.diagnostics):
        raise SystemExit(EXIT_ABNORMAL)
    raise SystemExit(EXIT_FINDINGS if any(r.errors for r in reports) else EXIT_OK)


@main.command()
@_paths
@_format
def infer(paths: tuple[Path, ...], output_format: str) -> None:
    """Print the inferred output shape of every layer irshape knows."""
    reports = _check_all(paths, debug=False)
    click.echo(REPORTERS[output_format]().render_infer(reports))


@main.command(name="rules")
@click.option("--markdown", is_flag=True, help="Print the table the README carries.")
def list_rules(markdown: bool) -> None:
    """List every diagnostic code with its summary."""
    if markdown:
        click.echo(rules.markdown_table())
        return
    for rule in rules.RULES.values():
        click.echo(f"{rule.code}  {rule.severity.value:<7}  {rule.name:<26}  {rule.summary}")


@main.command()
@click.argument("code")
def rule(code: str) -> None:
    """Document one diagnostic code: what it means, why, an example and the fix."""
    found = rules.RULES.get(code.upper())
    if found is None:
        raise click.BadParameter(f"no such code {code!r}; `irshape rules` lists them", param_hint="CODE")
    click.echo(f"{found.code} {found.name} ({found.severity.value})\n")
    click.echo(f"What: {found.summary}\n\nWhy: {found.why}\n")
    if found.example:
        click.echo(f"Example: {found.example}\n")
    click.echo(f"Fix: {found.fix}")
