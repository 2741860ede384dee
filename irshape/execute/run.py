"""``irshape run``: execute a whole network with numpy.

:func:`prepare_inputs` checks the given arrays against the Parameters (and fills the others with
seeded random data when asked); :func:`prepare_states` checks a stateful model's starting
variables against its ReadValues; :func:`run_document` executes every layer in graph order
(:mod:`irshape.execute.network`). Every problem is a :class:`RunError` whose message is one line
naming the layer or input.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from irshape.dims import DimSyntaxError, PartialShape, parse_partial_shape
from irshape.execute.network import ExecutionError, Outcome, execute, input_dtype
from irshape.execute.tensors import DEFAULT_MAX_MEMORY, numpy_dtype
from irshape.ir.model import Document, Layer
from irshape.kernels import Context

# How a variable's value is named among a run's arrays (``--output``) and in ``--state``/``--input``
# archives: ``variable:<variable_id>``
VARIABLE_PREFIX = "variable:"


class RunError(ValueError):
    """The document cannot be executed; the message says which layer and why."""


def parameters(document: Document) -> list[Layer]:
    """The Parameter layers, in document order."""
    return [layer for layer in document.layers if (layer.type or "").lower() == "parameter"]


def parameter_shape(layer: Layer) -> PartialShape:
    """The shape a Parameter takes: its ``shape`` attribute (with intervals), else its port dims."""
    return _declared_shape(layer, "shape")


def _declared_shape(layer: Layer, attribute: str) -> PartialShape:
    """The shape ``attribute`` writes (with intervals), else the layer's output port dims."""
    text = layer.data.get(attribute)
    if text is not None:
        try:
            return parse_partial_shape(text)
        except DimSyntaxError:
            pass
    dims = layer.outputs[0].dims if layer.outputs else None
    return PartialShape(None if dims is None else list(dims))


def prepare_inputs(
    document: Document,
    given: Mapping[str, np.ndarray],
    *,
    rng: np.random.Generator | None = None,
    dim_value: int | None = None,
) -> dict[str, np.ndarray]:
    """The inputs of ``document`` by Parameter name, checked against each Parameter's shape.

    An array whose dtype differs from the Parameter's element type is converted when numpy
    converts it within its kind (int to float, f64 to f32), and refused otherwise. A Parameter
    missing from ``given`` gets random data from ``rng`` at its shape, its dynamic dims at
    ``dim_value``; without ``rng`` a missing input is an error.
    """
    layers = parameters(document)
    names = [layer.name or "" for layer in layers]
    unknown = sorted(set(given) - set(names))
    if unknown:
        raise RunError(
            f"no Parameter named {', '.join(repr(n) for n in unknown)} "
            f"(the Parameters: {', '.join(repr(n) for n in names) or 'none'})"
        )
    prepared: dict[str, np.ndarray] = {}
    for layer, name in zip(layers, names, strict=True):
        shape = parameter_shape(layer)
        dtype = input_dtype(layer)
        if name in given:
            prepared[name] = _checked_input(name, np.asarray(given[name]), shape, dtype)
        elif rng is None:
            raise RunError(f"no input given for Parameter '{name}' {shape} (use --input {name}=x.npy)")
        else:
            prepared[name] = random_input(layer, shape, rng, dim_value)
    return prepared


def _checked_input(
    name: str, value: np.ndarray, shape: PartialShape, dtype: np.dtype[Any] | None, taker: str = "Parameter"
) -> np.ndarray:
    """``value`` checked against the shape its ``taker`` (a Parameter, a variable) takes, and
    converted to its dtype within its kind."""
    given_as = "input" if taker == "Parameter" else "state"
    if shape.dims is not None and (
        value.ndim != len(shape.dims)
        or any(not d.lo <= n <= d.hi for d, n in zip(shape.dims, value.shape, strict=True))
    ):
        given = "[" + ",".join(str(n) for n in value.shape) + "]"
        raise RunError(f"{given_as} '{name}' has shape {given}, but {taker} '{name}' takes {shape}")
    if dtype is None or value.dtype == dtype:
        return value
    if not np.can_cast(value.dtype, dtype, casting="same_kind"):
        raise RunError(f"{given_as} '{name}' is {value.dtype}, but {taker} '{name}' takes {dtype}")
    return value.astype(dtype)


def variables(document: Document) -> dict[str, Layer]:
    """The ReadValue layers by variable id (the first of each variable, in document order)."""
    found: dict[str, Layer] = {}
    for layer in document.layers:
        if (layer.type or "").lower() == "readvalue":
            found.setdefault(layer.data.get("variable_id", ""), layer)
    return found


def prepare_states(document: Document, given: Mapping[str, np.ndarray]) -> dict[str, np.ndarray]:
    """The values a stateful model's variables start from, by variable id, each checked against
    its ReadValue: the variable_shape (ReadValue-6) or its output port's dims, and its element
    type (converted within its kind, as inputs are). A variable not given starts from its
    initialiser, as in OpenVINO after ``InferRequest.reset_state()``."""
    readers = variables(document)
    unknown = sorted(set(given) - set(readers))
    if unknown:
        raise RunError(
            f"no variable {', '.join(repr(n) for n in unknown)} "
            f"(the variables: {', '.join(repr(n) for n in readers) or 'none: the model is not stateful'})"
        )
    prepared = {}
    for name, value in given.items():
        layer = readers[name]
        shape = _declared_shape(layer, "variable_shape")
        dtype = numpy_dtype(layer.data.get("variable_type")) or input_dtype_of_port(layer)
        prepared[name] = _checked_input(name, np.asarray(value), shape, dtype, "variable")
    return prepared


def input_dtype_of_port(layer: Layer) -> np.dtype[Any] | None:
    """The numpy dtype of a layer's first output port's precision."""
    return numpy_dtype(layer.outputs[0].precision if layer.outputs else None)


def random_input(
    layer: Layer,
    shape: PartialShape,
    rng: np.random.Generator,
    dim_value: int | None,
    *,
    clamp: bool = False,
) -> np.ndarray:
    """Seeded data for the Parameter ``layer`` at ``shape``, its dynamic dims at ``dim_value``
    (with ``clamp``, an interval dim at the bound nearest to it): standard normal reals,
    integers in [0, 10), random booleans, strings of up to 8 random letters and spaces."""
    name, dtype = layer.name or "", input_dtype(layer)
    if shape.dims is None:
        raise RunError(f"Parameter '{name}' has a dynamic rank; give it an --input")
    dims = []
    for d in shape.dims:
        if d.is_static:
            dims.append(d.lo)
        elif dim_value is None:
            raise RunError(
                f"Parameter '{name}' has the dynamic shape {shape}; "
                f"give --dim-value N or --input {name}=x.npy"
            )
        elif clamp:
            dims.append(min(max(dim_value, d.lo), d.hi))
        elif not d.lo <= dim_value <= d.hi:
            raise RunError(f"--dim-value {dim_value} is outside the dim {d} of Parameter '{name}' {shape}")
        else:
            dims.append(dim_value)
    dtype = dtype or np.dtype(np.float32)
    if dtype.kind == "f":
        return rng.standard_normal(dims).astype(dtype)
    if dtype.kind in "iu":
        return rng.integers(0, 10, size=dims).astype(dtype)
    if dtype.kind == "b":
        return rng.integers(0, 2, size=dims).astype(dtype)
    if dtype.kind == "O":  # a string tensor (a tokenizer's input)
        return _random_strings(dims, rng)
    raise RunError(f"Parameter '{name}' is {dtype}: no random data for it; give it an --input")


_LETTERS = np.array([ord(c) for c in "abcdefghijklmnopqrstuvwxyz "], dtype=np.uint32)
_MAX_LETTERS = 8


def _random_strings(dims: list[int], rng: np.random.Generator) -> np.ndarray:
    """Python str objects of 0 to 8 random letters and spaces: code points in rows of 8, those
    past each string's length NUL (which numpy's fixed-width strings drop), viewed as strings."""
    count = int(np.prod(dims, dtype=np.int64))
    codes = _LETTERS[rng.integers(0, len(_LETTERS), size=(count, _MAX_LETTERS))]
    lengths = rng.integers(0, _MAX_LETTERS + 1, size=count)
    codes[np.arange(_MAX_LETTERS) >= lengths[:, None]] = 0
    return codes.view(f"<U{_MAX_LETTERS}").reshape(dims).astype(object)


def run_document(
    document: Document,
    inputs: Mapping[str, np.ndarray],
    *,
    max_memory: int = DEFAULT_MAX_MEMORY,
    keep_all: bool = False,
    states: Mapping[str, np.ndarray] | None = None,
) -> Run:
    """Execute ``document`` on ``inputs`` (by Parameter name): every Result by name, the
    variables' final values (a stateful model runs one inference from ``states``, by variable id
    as :func:`prepare_states` checks them, the others from their initialisers) and, with
    ``keep_all``, every layer's outputs (see :func:`layer_key`).

    Each layer's working memory is estimated against ``max_memory`` before it is allocated; the
    first layer that cannot run is a :class:`RunError` naming it.
    """
    kept: dict[str, np.ndarray] = {}

    def keep(layer: Layer, outputs: tuple[np.ndarray, ...], body: str) -> None:
        for index, array in enumerate(outputs):
            kept[body + layer_key(layer, index, len(outputs))] = array

    try:
        execution = execute(
            document,
            inputs,
            max_memory=max_memory,
            on_layer=keep if keep_all else None,
            context=Context(dict(states or {})),
        )
    except ExecutionError as exc:
        flag = " (--max-memory)" if exc.outcome.outcome is Outcome.OVER_MEMORY else ""
        raise RunError(f"{exc}{flag}") from None
    return Run(execution.results, execution.variables, kept)


class Run:
    """What ``irshape run`` computed: the Results by name, the variables' final values by
    variable id, and (with ``keep_all``) every layer's outputs by :func:`layer_key`."""

    __slots__ = ("layers", "results", "variables")

    def __init__(
        self, results: dict[str, np.ndarray], variables: dict[str, np.ndarray], layers: dict[str, np.ndarray]
    ) -> None:
        self.results = results
        self.variables = variables
        self.layers = layers

    def arrays(self) -> dict[str, np.ndarray]:
        """The Results by name, then each variable as ``variable:<id>``: what ``--output`` writes."""
        variables = {f"{VARIABLE_PREFIX}{name}": value for name, value in self.variables.items()}
        return {**self.results, **variables}


def layer_key(layer: Layer, index: int, count: int) -> str:
    """A layer's output in ``--save-all``: its layer id, ``<id>.<output index>`` for a layer
    of several outputs; a body layer's after the path of its body (``3/body/5``, as findings
    name it), from the last run of the body (a Loop's last iteration, the If branch taken)."""
    return f"{layer.id}" if count == 1 else f"{layer.id}.{index}"
