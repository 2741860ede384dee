"""Where a command's output goes: stdout or a file, with or without colour."""

from __future__ import annotations

import os
import sys
from typing import TextIO

import click

from irshape.cli.options import AbnormalExit
from irshape.report.text import use_color


def is_tty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # a closed or replaced stream, or none at all
        return False


def use_color_for(mode: str, output_file: str | None) -> bool:
    isatty = output_file is None and is_tty(sys.stdout)
    return use_color(mode, isatty=isatty, environ=os.environ)


def echo_report(text: str, output_file: str | None, colored: bool) -> None:
    """Write ``text`` to stdout or to ``output_file``."""
    if output_file is None:
        if text:
            click.echo(text, color=colored)
        return
    try:
        with open(output_file, "w", encoding="utf-8") as out:
            out.write(text + "\n" if text else "")
    except OSError as exc:
        raise AbnormalExit(f"cannot write {output_file}: {exc.strerror}") from None
