"""``irshape compare``: where irshape's numpy execution and OpenVINO's CPU plugin diverge."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import click

from irshape.cli.options import AbnormalExit, has_numpy, input_option, max_memory_option, state_option
from irshape.cli.runner import given_inputs_and_states

NEEDS_OPENVINO = "needs numpy and OpenVINO, which are not installed: pip install 'irshape[compare]'"


@click.command(name="compare")
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
    max_memory: int | None,
) -> None:
    """Run FILE on OpenVINO's CPU plugin (f32) and with irshape's numpy kernels on the same
    inputs (a stateful model's variables from the same --state values), every layer's output
    exposed, and list the first layers whose outputs diverge beyond
    max|a-b| <= ATOL + RTOL * max|ref|, with the error figures.

    Exit 0 when every output agrees, 1 when one diverges, 2 on an error.
    """
    if not has_numpy() or importlib.util.find_spec("openvino") is None:
        raise AbnormalExit(f"irshape compare {NEEDS_OPENVINO}")
    import numpy as np

    from irshape.execute.compare import compare_document, describe
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
        )
    except RunError as exc:
        raise AbnormalExit(f"{file}: {exc}") from None
    except RuntimeError as exc:  # OpenVINO's own refusal
        raise AbnormalExit(f"{file}: OpenVINO cannot run it: {str(exc).splitlines()[0]}") from None
    divergent = comparison.divergent
    for item in divergent[:show]:
        click.echo(describe(item))
    if len(divergent) > show:
        click.echo(f"... and {len(divergent) - show} more divergent output(s)")
    for failure in comparison.not_run:
        click.echo(f"not run by irshape: {failure.message()}")
    compared = len(comparison.outputs)
    click.echo(
        f"{compared} layer output(s) compared: {compared - len(divergent)} agree, {len(divergent)} diverge"
        f" (atol {atol:g}, rtol {rtol:g}); {len(comparison.not_run)} layer(s) irshape did not run"
    )
    if divergent or comparison.not_run:
        raise SystemExit(1)
