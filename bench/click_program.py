"""A click program with ``irshape check``'s command line and none of irshape: what click and lxml
cost a command of that shape, the part of ``irshape check``'s start-up that is not irshape's.

The group has ``--version`` and ``-h``, the command the same 30 parameters of the same click
types (the two files to write sharing one, as irshape's do); it parses each file with lxml,
prints one line and ends as irshape does, with the cyclic collector off from the start and
without the interpreter's teardown. ``bench/bench_startup.py`` times it beside
``irshape check``, imported (``import click_program; click_program.run()``, bench/ on the path)
so that its bytecode is cached as an installed program's is; ``python bench/click_program.py
check FILE...`` runs it too. Keep its parameters in step with ``irshape check --help``.
"""

from __future__ import annotations

import gc
import os
import sys
from typing import Any

gc.disable()

import click  # noqa: E402  (after gc.disable(), as irshape.cli.run imports it)
from lxml import etree  # noqa: E402

CODES = {"multiple": True, "metavar": "CODES", "callback": lambda ctx, param, value: value or None}
FILE_TO_WRITE = click.Path(dir_okay=False, writable=True)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option("0", prog_name="click-program")
def main() -> None:
    """A group of one command."""


@main.command()
@click.argument("paths", nargs=-1, required=False, type=click.Path(exists=True, allow_dash=True))
@click.option("--exclude", multiple=True, metavar="GLOB", help="Skip paths matching GLOB.")
@click.option("--stdin-filename", metavar="PATH", help="The name of stdin.")
@click.option("-j", "--jobs", type=click.IntRange(min=0), default=0, metavar="N", help="Processes.")
@click.option("--config", "config_file", type=click.Path(exists=True, dir_okay=False), help="A file.")
@click.option("--isolated", is_flag=True, help="Read no configuration file.")
@click.option("--format", "output_format", type=click.Choice(("text", "json", "sarif", "github", "junit")))
@click.option("-o", "--output-file", type=FILE_TO_WRITE, help="Write the report to this file.")
@click.option("--select", **CODES, help="Codes.")
@click.option("--ignore", **CODES, help="Codes.")
@click.option("--extend-select", **CODES, help="Codes.")
@click.option("--extend-ignore", **CODES, help="Codes.")
@click.option("--missing-weights", type=click.Choice(("info", "warning", "error")), default=None)
@click.option("--baseline", type=click.Path(dir_okay=False), metavar="FILE", help="A baseline.")
@click.option("--write-baseline", type=FILE_TO_WRITE, metavar="FILE", help="Write a baseline.")
@click.option("--strict/--no-strict", default=None, help="Warnings fail the run too.")
@click.option("--exit-zero", is_flag=True, help="Exit 0.")
@click.option("--statistics", is_flag=True, help="Count the findings.")
@click.option("-q", "--quiet", count=True, help="Less.")
@click.option("-v", "--verbose", count=True, help="More.")
@click.option("--color", type=click.Choice(["auto", "always", "never"]), default="auto", show_default=True)
@click.option("--show-source/--no-show-source", default=None, help="Show each finding's line.")
@click.option("--debug", is_flag=True, help="Tracebacks.")
@click.option("--show-settings", is_flag=True, help="Print the settings.")
@click.option("--fix", is_flag=True, help="Fix.")
@click.option("--diff", is_flag=True, help="Diff.")
@click.option("--dry-run", is_flag=True, help="Run.")
@click.option("--seed", type=int, default=None, metavar="N", help="Seed.")
@click.option("--dim-value", type=click.IntRange(min=1), default=None, metavar="N", help="Dims.")
@click.option("--max-memory", type=int, default=None, metavar="SIZE", help="Memory.")
@click.pass_context
def check(ctx: click.Context, paths: tuple[str, ...], **options: Any) -> None:
    """Parse each file with lxml and count its layers."""
    for path in paths:
        with open(path, "rb") as handle:
            root = etree.fromstring(handle.read())
        click.echo(f"{path}: {len(root.findall('.//layer'))} layer(s)")
    ctx.exit(0)


def run() -> None:
    try:
        main()
    except SystemExit as exit:
        sys.stdout.flush()
        os._exit(exit.code if isinstance(exit.code, int) else 1)


if __name__ == "__main__":
    run()
