"""``irshape compare``: where irshape's numpy execution and OpenVINO's CPU plugin diverge."""

from __future__ import annotations

import importlib.util
import os
import re
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import click

from irshape.cli.group import Command
from irshape.cli.options import AbnormalExit, has_numpy, input_option, max_memory_option, state_option
from irshape.cli.runner import given_inputs_and_states

if TYPE_CHECKING:
    from irshape.execute.compare import Comparison
    from irshape.ir.model import Document

NEEDS_OPENVINO = "needs numpy and OpenVINO, which are not installed: pip install 'irshape[compare]'"
EXTENSION_VERSION = "extension"  # the version extension libraries' ops are written with
# How a shared library's file is named (OpenVINO's add_extension takes a bare name too, and the
# system's loader finds it on its search path): `--extension libopenvino_tokenizers.so`.
_LIBRARY_NAME = re.compile(r".+\.(so(\.\d+)*|dylib|dll)", re.IGNORECASE)
_MODULE_NAME = re.compile(r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)*")
_HINT = "'--extension'"


def extension_library(value: str) -> str:
    """The extension library ``--extension`` names: a file (made absolute, so that an error names
    it whole), a library's bare name (left to OpenVINO, which looks for it on the loader's path
    too), or an installed Python package that ships one, as openvino_tokenizers
    does (``<package>/lib/libopenvino_tokenizers.so``; ``.dylib``, ``openvino_tokenizers.dll``).
    The package is found, not imported: openvino_tokenizers' import patches every ``ov.Core``."""
    if os.path.isfile(value):
        return os.path.abspath(value)
    if os.path.isdir(value):
        raise click.BadParameter(f"{value} is a directory; give the library file in it", param_hint=_HINT)
    if _LIBRARY_NAME.fullmatch(value) and os.sep not in value and "/" not in value:
        return value
    if not _MODULE_NAME.fullmatch(value):
        raise click.BadParameter(f"{value}: no such file", param_hint=_HINT)
    return _package_library(value)


def _package_library(package: str) -> str:
    """The extension library an installed Python package ships, in its ``lib/`` directory or
    beside its modules, named as the platform names a shared library."""
    try:
        spec = importlib.util.find_spec(package)
    except (ImportError, ValueError):  # a dotted name whose parent is missing
        spec = None
    if spec is None:
        raise click.BadParameter(
            f"{package!r} is neither a file nor an installed Python package"
            " (openvino_tokenizers: pip install openvino-tokenizers)",
            param_hint=_HINT,
        )
    name = package.rpartition(".")[2]
    homes = spec.submodule_search_locations or ([os.path.dirname(spec.origin)] if spec.origin else [])
    candidates = [
        os.path.join(home, folder, file)
        for home in homes
        for folder in ("lib", "")
        for file in (f"lib{name}.so", f"lib{name}.dylib", f"{name}.dll")
    ]
    found = next((path for path in candidates if os.path.isfile(path)), None)
    if found is None:
        raise click.BadParameter(
            f"the Python package {package} ships no extension library (lib/lib{name}.so or the like);"
            " give the library's path",
            param_hint=_HINT,
        )
    return found


def _extension_libraries(
    ctx: click.Context, param: click.Parameter, value: tuple[str, ...]
) -> tuple[str, ...]:
    return tuple(extension_library(item) for item in value)


@click.command(name="compare", cls=Command)
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@input_option
@state_option
@click.option(
    "--seed", type=int, default=0, show_default=True, metavar="N", help="Seed of the inputs not given."
)
@click.option(
    "--dim-value",
    type=click.IntRange(min=1),
    default=None,
    metavar="N",
    help="The size of the dynamic dims of the random inputs.",
)
@click.option(
    "--atol", type=click.FloatRange(min=0), default=1e-4, show_default=True, help="Absolute tolerance."
)
@click.option(
    "--rtol", type=click.FloatRange(min=0), default=1e-3, show_default=True, help="Relative tolerance."
)
@click.option(
    "--show",
    type=click.IntRange(min=1),
    default=5,
    show_default=True,
    metavar="N",
    help="Divergent outputs to list.",
)
@click.option(
    "--isolate",
    is_flag=True,
    help="Run each layer on OpenVINO's outputs of the layers above it, so that a difference is the "
    "layer's own and not carried down from above: in a quantized network, which layers really "
    "differ (a FakeQuantize turns a last-bit difference into a whole step that every layer below "
    "inherits).",
)
@click.option(
    "--extension",
    "extensions",
    multiple=True,
    metavar="NAME|PATH",
    callback=_extension_libraries,
    help="Add an OpenVINO extension library to OpenVINO's Core before it reads FILE (repeatable): "
    "its path, or an installed Python package that ships one, such as openvino_tokenizers for a "
    'tokenizer\'s version="extension" ops. irshape runs the other layers: those above the '
    "extension layers are compared.",
)
@max_memory_option
def compare_command(
    file: Path,
    inputs: tuple[str, ...],
    states: tuple[str, ...],
    seed: int,
    dim_value: int | None,
    atol: float,
    rtol: float,
    show: int,
    isolate: bool,
    extensions: tuple[str, ...],
    max_memory: int | None,
) -> None:
    """Run FILE on OpenVINO's CPU plugin (f32) and with irshape's numpy kernels on the same
    inputs (a stateful model's variables from the same --state values), every layer's output
    exposed, and list the first layers whose outputs diverge beyond
    max|a-b| <= ATOL + RTOL * max|ref|, with the error figures.

    Exit 0 when every output agrees, 1 when one diverges or irshape cannot run a layer (an
    --extension library's layers aside), 2 on an error.
    """
    if not has_numpy() or importlib.util.find_spec("openvino") is None:
        raise AbnormalExit(f"irshape compare {NEEDS_OPENVINO}")
    import numpy as np

    from irshape.execute.compare import ExtensionError, compare_document, openvino_message
    from irshape.execute.run import RunError, prepare_inputs, prepare_states
    from irshape.execute.tensors import DEFAULT_MAX_MEMORY
    from irshape.ir.reader import read_file

    given, given_states = given_inputs_and_states(inputs, states)
    result = read_file(file)
    if result.document is None:
        raise AbnormalExit(f"{file}: cannot read it as IR")
    try:
        prepared = prepare_inputs(
            result.document, given, rng=np.random.default_rng(seed), dim_value=dim_value
        )
        comparison = compare_document(
            result.document,
            prepared,
            atol=atol,
            rtol=rtol,
            max_memory=max_memory or DEFAULT_MAX_MEMORY,
            variables=prepare_states(result.document, given_states),
            extensions=extensions,
            isolate=isolate,
        )
    except RunError as exc:
        raise AbnormalExit(f"{file}: {exc}") from None
    except ExtensionError as exc:
        raise AbnormalExit(f"--extension: {exc}") from None
    except RuntimeError as exc:  # OpenVINO's own refusal
        reason = openvino_message(exc) + _extension_hint(result.document, extensions)
        raise AbnormalExit(f"{file}: OpenVINO cannot run it: {reason}") from None
    _report(comparison, atol, rtol, show)


def _extension_hint(document: Document, extensions: Sequence[str]) -> str:
    """What to give when OpenVINO cannot read a file of extension ops without their library."""
    foreign = sorted({layer.type or "" for layer in document.layers if layer.version == EXTENSION_VERSION})
    if not foreign or extensions:
        return ""
    return (
        f" (its {', '.join(foreign)} layers are an extension library's ops: give"
        " --extension openvino_tokenizers for a tokenizer's, or the library's path)"
    )


def _report(comparison: Comparison, atol: float, rtol: float, show: int) -> None:
    """The divergent outputs, the layers not run and the summary; exit 1 when one fails."""
    from irshape.execute.compare import describe

    divergent = comparison.divergent
    for item in divergent[:show]:
        click.echo(describe(item))
    if len(divergent) > show:
        click.echo(f"... and {len(divergent) - show} more divergent output(s)")
    # An extension library's layers are OpenVINO's alone (irshape has no kernel of them, nor runs
    # the layers below them): said, and no failure.
    extension = [f for f in comparison.not_run if f.layer.version == EXTENSION_VERSION]
    not_run = [f for f in comparison.not_run if f.layer.version != EXTENSION_VERSION]
    for failure in not_run:
        click.echo(f"not run by irshape: {failure.message()}")
    compared = len(comparison.outputs)
    summary = (
        f"{compared} layer output(s) compared: {compared - len(divergent)} agree, {len(divergent)} diverge"
        f" (atol {atol:g}, rtol {rtol:g}); {len(not_run)} layer(s) irshape did not run"
    )
    if extension:
        summary += f", {len(extension)} extension layer(s) left to OpenVINO with the layers below them"
    click.echo(summary)
    if divergent or not_run:
        raise SystemExit(1)
