"""The Fourier transforms: DFT-7 and IDFT-7 (``fft_base_shape_inference.hpp``), RDFT-9 and
IRDFT-9 (``rdft_shape_inference.hpp``, ``irdft_shape_inference.hpp``), as OpenVINO validates and
infers them; all four share ``fft_common_validation.hpp``.

A complex input (DFT, IDFT, IRDFT) is a real tensor whose last dim, of 2, holds the real and
imaginary parts: its axes lie in [-(r-1), r-2] (the complex rank r-1). RDFT's real input takes
axes in [-r, r-1]. The axes are read with ``get_input_const_data_as`` (a Const's value, or one
folded from Consts); DFT's signal_size through its bounds (``get_input_bounds``: a ShapeOf of a
``2..8`` dim gives ``2..8``), the others' through its value.
"""

from __future__ import annotations

from collections.abc import Sequence

from irshape.dims import DYNAMIC, INF, Dim, PartialShape
from irshape.ops.interface import Finding, OpCall, OpResult, Output
from irshape.shapes import bounds, reading
from irshape.shapes.axes import axis_range_message, normalize_axis
from irshape.shapes.findings import (
    INDEX_TYPES,
    incompatible,
    is_real,
    known,
    rank_finding,
    type_finding,
    unreadable,
    value_finding,
    value_unknown,
)

DATA, AXES, SIGNAL = 0, 1, 2
_FFT_DATA_TYPES = ("f32", "f16", "bf16", "dynamic")
_MINUS_ONE = (-1, -1)  # dim::inf_bound twice: signal_size -1 keeps the input's dim


# --- what the four share: fft_common_validation ---------------------------------------------


def _fft_type_findings(call: OpCall) -> list[Finding]:
    """``FFTBase::validate_types``: data f32, f16 or bf16; axes and signal_size i32 or i64."""
    findings = []
    data_type = call.inputs[DATA].element_type
    if data_type is not None and data_type not in _FFT_DATA_TYPES:
        problem = f"data is of element type {data_type}, not f32, f16 or bf16"
        findings.append(type_finding(problem, "FFT op input element type must be f32, f16, or bf16", DATA))
    for port, name in ((AXES, "axes"), (SIGNAL, "signal_size")):
        element_type = call.inputs[port].element_type if port < len(call.inputs) else None
        if element_type is not None and element_type not in (*INDEX_TYPES, "dynamic"):
            problem = f"{name} is of element type {element_type}, not i32 or i64"
            findings.append(type_finding(problem, f"FFT op {name} element type must be i32 or i64", port))
    return findings


def _rank_findings(data: PartialShape, axes: PartialShape, complex_input: bool) -> list[Finding]:
    """``validate_input_rank``: data of rank 2 at least (1 for a real input), a last dim of 2
    (a complex input), and more axes than its (complex) rank cannot have."""
    rank = data.rank
    if rank is None:
        return []
    least = 2 if complex_input else 1
    if rank < least:
        message = f"The input rank must be greater or equal to {least}. Got input rank: {rank}"
        return [rank_finding(DATA, "data", data, f"{least} or more", message)]
    if complex_input and not data[rank - 1].compatible(Dim.of(2)):
        problem = f"data's last dim is {data[rank - 1]}, not 2 (the real and imaginary parts)"
        message = f"The last dimension of input data must be 2. Got: {data[rank - 1]}"
        return [incompatible(problem, message, DATA)]
    if not axes.is_static:
        return []
    if axes.rank == 0:  # axes_shape[0] of a scalar
        return [rank_finding(AXES, "axes", axes, "1", "Accessing out-of-range dimension")]
    count, most = axes[0].value, rank - 1 if complex_input else rank
    if count <= most:
        return []
    problem = f"{count} axes for data of rank {rank}"
    message = (
        f"The input rank must be greater than number of axes. Got input rank: {rank}, number of axes: {count}"
        if complex_input
        else "The input rank must be greater than or equal to the number of axes. "
        f"Got input rank: {rank}, number of axes: {count}"
    )
    return [incompatible(problem, message, AXES)]


def _normalized_axes(
    values: Sequence[int], rank: int, complex_input: bool
) -> tuple[list[int] | None, list[Finding]]:
    """``validate_axes``: each axis within the (complex) rank, counted from its end when
    negative, and no axis twice."""
    axis_rank = rank - 1 if complex_input else rank
    normalized = []
    for axis in values:
        index = normalize_axis(axis, axis_rank)
        if index is None:
            problem = f"axis {axis} is outside [{-axis_rank}, {axis_rank - 1}]"
            return None, [value_finding(problem, axis_range_message(axis, axis_rank), AXES)]
        normalized.append(index)
    if len(set(normalized)) != len(normalized):
        problem = f"axes {list(values)} name an axis twice"
        return None, [value_finding(problem, "Each axis must be unique.", AXES)]
    return normalized, []


def _shape_findings(call: OpCall) -> list[Finding]:
    """axes and signal_size 1D, and as long as each other where both lengths are static."""
    axes = call.inputs[AXES].shape
    findings = []
    if axes.rank not in (None, 1):
        findings.append(rank_finding(AXES, "axes", axes, "1", "Axes input must be 1D tensor."))
    if len(call.inputs) <= SIGNAL:
        return findings
    signal = call.inputs[SIGNAL].shape
    if signal.rank not in (None, 1):
        message = f"Signal size input must be 1D tensor. Got signal: {signal}"
        findings.append(rank_finding(SIGNAL, "signal_size", signal, "1", message))
    elif axes.is_static and signal.is_static and axes.rank == 1 and axes[0] != signal[0]:
        problem = f"axes has {axes[0]} elements, signal_size {signal[0]}"
        message = (
            "Sizes of inputs 'axes' and 'signal_size' must be equal. "
            f"Got size of 'axes': {axes[0]}, size of 'signal_size': {signal[0]}"
        )
        findings.append(incompatible(problem, message, SIGNAL))
    return findings


def _validated_axes(call: OpCall, complex_input: bool) -> tuple[list[int] | None, list[Finding]]:
    """``shape_validation``: the axes (normalized) when they are known and the data's rank is
    static, and the findings that reject the layer."""
    data, axes = call.inputs[DATA], call.inputs[AXES]
    findings = _fft_type_findings(call)
    if findings:
        return None, findings
    if axes.value_error is not None:  # read first, whatever the shapes
        return None, unreadable(AXES, "axes", axes)
    findings = _rank_findings(data.shape, axes.shape, complex_input)
    if findings:
        return None, findings
    normalized = None
    if data.shape.rank is not None and axes.value is not None and axes.shape.rank is not None:
        normalized, findings = _normalized_axes(axes.value, data.shape.rank, complex_input)
        if findings:
            return None, findings
    return normalized, _shape_findings(call)


def _axes_unknown(call: OpCall, consequence: str) -> list[Finding]:
    return value_unknown(AXES, "axes", call.inputs[AXES], consequence)


# --- DFT-7, IDFT-7 ----------------------------------------------------------------------------


@reading.reads(SIGNAL, how=reading.BOUNDS)
@reading.reads(AXES, how=reading.DIRECT)
def fft(call: OpCall) -> OpResult:
    """DFT-7 and IDFT-7: the data's shape and element type, each axis's dim replaced by its
    signal_size bounds (-1 keeps the dim; another negative is 0), or ``?`` where those are not
    known; every dim but the last ``?`` when the axes are not known and there is a
    signal_size."""
    data = call.inputs[DATA]
    axes, findings = _validated_axes(call, complex_input=True)
    if findings:
        return OpResult([], findings)
    dims: Sequence[Dim] | None = data.shape.dims
    formulas: list[str] | None = None
    if dims is not None and len(call.inputs) > SIGNAL:
        dims, formulas, more = _resized(call, list(dims), axes)
        findings += more
    return OpResult([Output(PartialShape(dims), data.element_type, formulas)], findings)


def _resized(
    call: OpCall, dims: list[Dim], axes: list[int] | None
) -> tuple[list[Dim] | None, list[str] | None, list[Finding]]:
    """The output dims of a DFT with a signal_size: ``apply_dims_from_sizes``."""
    formulas = [f"data[{i}]" for i in range(len(dims))]
    if axes is None:
        consequence = "every output dim but the last is of unknown length (?)"
        return [DYNAMIC] * (len(dims) - 1) + dims[-1:], None, _axes_unknown(call, consequence)
    signal = call.inputs[SIGNAL]
    if signal.value_error is not None:
        return None, None, unreadable(SIGNAL, "signal_size", signal)
    pairs = bounds.pairs(signal)
    if pairs is None:
        for axis in axes:
            dims[axis] = DYNAMIC
        consequence = "the output's transformed dims are of unknown length (?)"
        return dims, None, value_unknown(SIGNAL, "signal_size", signal, consequence)
    for i, (axis, pair) in enumerate(zip(axes, pairs, strict=False)):
        if pair != _MINUS_ONE:
            dims[axis] = Dim.between(*pair)
            formulas[axis] = f"signal_size[{i}]"
    return dims, formulas, []


# --- RDFT-9, IRDFT-9 --------------------------------------------------------------------------


@reading.reads(AXES, SIGNAL, how=reading.DIRECT)
def rdft(call: OpCall) -> OpResult:
    """RDFT-9: the real data's shape with a last dim of 2 appended; each axis's dim its
    signal_size (-1 keeps it), then the last axis's dim ``d // 2 + 1`` (on each bound). Every
    data dim is ``?`` when the axes are not known, the last axis's when the signal_size is not."""
    data = call.inputs[DATA]
    axes, findings = _validated_axes(call, complex_input=False)
    if findings:
        return OpResult([], findings)
    if data.shape.dims is None:
        return OpResult([Output(PartialShape(None), data.element_type)])
    dims = [*data.shape.dims, Dim.of(2)]
    if axes is None:
        findings = _axes_unknown(call, "every output dim but the last is of unknown length (?)")
        return OpResult(
            [Output(PartialShape([DYNAMIC] * (len(dims) - 1) + [dims[-1]]), data.element_type)], findings
        )
    sized, findings = _sized(call, dims, axes)
    if sized is None:
        return OpResult([], findings)
    sized[axes[-1]] = _half_spectrum(sized[axes[-1]])
    return OpResult([Output(PartialShape(sized), data.element_type)], findings)


@reading.reads(AXES, SIGNAL, how=reading.DIRECT)
def irdft(call: OpCall) -> OpResult:
    """IRDFT-9: the complex data's shape without its last dim of 2; each axis's dim its
    signal_size (-1 keeps it), the last axis's ``2 * (d - 1)`` where its signal_size is -1 or
    there is none. Every dim is ``?`` when the axes are not known, the last axis's when the
    signal_size is not."""
    data = call.inputs[DATA]
    axes, findings = _validated_axes(call, complex_input=True)
    if findings:
        return OpResult([], findings)
    if data.shape.dims is None:
        return OpResult([Output(PartialShape(None), data.element_type)])
    dims = list(data.shape.dims[:-1])
    if axes is None:
        findings = _axes_unknown(call, "every output dim is of unknown length (?)")
        return OpResult([Output(PartialShape([DYNAMIC] * len(dims)), data.element_type)], findings)
    sized, findings = _sized(call, dims, axes)
    if sized is None:
        return OpResult([], findings)
    if _keeps_last_size(call):
        sized[axes[-1]] = (data.shape.dims[axes[-1]] - 1) * 2
    return OpResult([Output(PartialShape(sized), data.element_type)], findings)


def _keeps_last_size(call: OpCall) -> bool:
    """IRDFT: no signal_size, or one whose last value is -1: the last axis's output dim is
    ``2 * (d - 1)``."""
    if len(call.inputs) <= SIGNAL:
        return True
    signal = call.inputs[SIGNAL].value
    return signal is not None and signal[-1] == -1


def _sized(call: OpCall, dims: list[Dim], axes: list[int]) -> tuple[list[Dim] | None, list[Finding]]:
    """Each axis's dim its signal_size's value (-1 keeps it, another negative is 0); the last
    axis's ``?`` when that value is not known; None when OpenVINO fails reading it."""
    if len(call.inputs) <= SIGNAL:
        return dims, []
    signal = call.inputs[SIGNAL]
    if signal.value_error is not None:
        return None, unreadable(SIGNAL, "signal_size", signal)
    if signal.value is None:
        dims[axes[-1]] = DYNAMIC
        consequence = "the output's dim of the last axis is of unknown length (?)"
        return dims, value_unknown(SIGNAL, "signal_size", signal, consequence)
    for axis, size in zip(axes, signal.value, strict=False):
        if size != -1:
            dims[axis] = Dim.of(size)
    return dims, []


def _half_spectrum(dim: Dim) -> Dim:
    """``get_rdft_output_dimension``: ``b // 2 + 1`` on each bound above 0."""
    lo, hi = (b if b <= 0 else b // 2 + 1 for b in (dim.lo, -1 if dim.hi == INF else dim.hi))
    return Dim.between(lo, hi)


# --- STFT-15, ISTFT-16: the element types --------------------------------------------------

SIGNAL_DATA, WINDOW, FRAME_SIZE, FRAME_STEP, LENGTH = 0, 1, 2, 3, 4


def _frames_type_findings(call: OpCall, data_name: str) -> list[Finding]:
    """STFT's and ISTFT's ``validate_and_infer_types``: real data, a real window of the same
    type (either may be dynamic), and i32 or i64 frame_size, frame_step and signal_length."""
    data_type, window_type = call.inputs[SIGNAL_DATA].element_type, call.inputs[WINDOW].element_type
    findings = []
    if known(data_type) and not is_real(data_type):
        problem = f"{data_name} is of element type {data_type}, not a floating-point one"
        message = f"Expected floating point type of the '{data_name}' input."
        findings.append(type_finding(problem, message, SIGNAL_DATA))
    elif known(window_type) and (not is_real(window_type) or (known(data_type) and window_type != data_type)):
        problem = f"window is of element type {window_type}, {data_name} of {data_type}"
        message = (
            f"Expected floating point type of the 'window' input, matching the type of `{data_name}` input."
        )
        findings.append(type_finding(problem, message, WINDOW))
    for port in range(FRAME_SIZE, len(call.inputs)):
        element_type = call.inputs[port].element_type
        if known(element_type) and element_type not in INDEX_TYPES:
            problem = f"input {port} is of element type {element_type}, not i32 or i64"
            findings.append(
                type_finding(problem, f"Expected i32 or i64 type of the input at port: {port}", port)
            )
    return findings


def _frames_output_type(call: OpCall) -> str | None:
    """The data's element type merged with the window's: a dynamic data takes the window's."""
    data_type = call.inputs[SIGNAL_DATA].element_type
    return data_type if known(data_type) else call.inputs[WINDOW].element_type or data_type


def _scalar_findings(call: OpCall, names: Sequence[tuple[int, str]]) -> list[Finding]:
    """frame_size, frame_step (and signal_length): scalars, where their ranks are known."""
    findings = []
    for port, name in names:
        shape = call.inputs[port].shape if port < len(call.inputs) else PartialShape([])
        if shape.rank not in (None, 0):
            message = f"The shape of {name} must be a scalar."
            findings.append(rank_finding(port, name, shape, "0", message))
    return findings


# --- STFT-15 -----------------------------------------------------------------------------------


@reading.reads(FRAME_SIZE, FRAME_STEP, how=reading.DIRECT)
def stft(call: OpCall) -> OpResult:
    """STFT-15: ``[batch,] frames, frame_size // 2 + 1, 2`` (frames and fft samples swapped with
    ``transpose_frames``), ``frames = floor((signal - frame_size) / frame_step) + 1``
    (``stft_shape_inference.hpp``); ``?`` frames and samples where frame_size or frame_step is
    not known."""
    signal, window = call.inputs[SIGNAL_DATA].shape, call.inputs[WINDOW].shape
    findings = _frames_type_findings(call, "signal") + _stft_rank_findings(call)
    if findings:
        return OpResult([], findings)
    output_type = _frames_output_type(call)
    if signal.dims is None:
        return OpResult([Output(PartialShape(None), output_type)])
    batch = list(signal.dims[:-1])
    sizes, findings = _frame_values(call)
    if sizes is None:
        return OpResult([], findings)
    if not sizes:
        return OpResult([Output(PartialShape([*batch, DYNAMIC, DYNAMIC, 2]), output_type)], findings)
    size, step = sizes
    findings = _frame_findings(signal.dims[-1], window, size, step)
    if findings:
        return OpResult([], findings)
    frames = (signal.dims[-1] - Dim.of(size)).floor_div(step) + 1
    samples = Dim.of(size // 2 + 1)
    pair = [samples, frames] if call.attribute("transpose_frames") else [frames, samples]
    return OpResult([Output(PartialShape([*batch, *pair, 2]), output_type)])


def _stft_rank_findings(call: OpCall) -> list[Finding]:
    signal, window = call.inputs[SIGNAL_DATA].shape, call.inputs[WINDOW].shape
    findings = []
    if signal.rank not in (None, 1, 2):
        message = "The shape of signal must be 1D [signal_size] or 2D [batch, signal_size]."
        findings.append(rank_finding(SIGNAL_DATA, "signal", signal, "1 or 2", message))
    if window.rank not in (None, 1):
        message = "The shape of window must be 1D [window_size]."
        findings.append(rank_finding(WINDOW, "window", window, "1", message))
    return findings + _scalar_findings(call, ((FRAME_SIZE, "frame_size"), (FRAME_STEP, "frame_step")))


def _frame_values(call: OpCall) -> tuple[tuple[int, int] | tuple[()] | None, list[Finding]]:
    """frame_size and frame_step read (``get_input_const_data_as``): both values, ``()`` when
    either is not known, None when OpenVINO fails reading one."""
    size, step = call.inputs[FRAME_SIZE], call.inputs[FRAME_STEP]
    failed = unreadable(FRAME_SIZE, "frame_size", size) + unreadable(FRAME_STEP, "frame_step", step)
    if failed:
        return None, failed
    if size.value is not None and step.value is not None:
        return (size.value[0], step.value[0]), []
    consequence = "the output's frames and fft samples are of unknown length (?)"
    if size.value is None:
        return (), value_unknown(FRAME_SIZE, "frame_size", size, consequence)
    return (), value_unknown(FRAME_STEP, "frame_step", step, consequence)


def _frame_findings(signal: Dim, window: PartialShape, size: int, step: int) -> list[Finding]:
    """frame_size in [1, the signal's length] (its upper bound), frame_step above 0, the
    window's length (where static) in [1, frame_size]."""
    if not 0 < size <= signal.hi:
        problem = f"frame_size {size} is outside [1, {signal}]"
        return [
            value_finding(
                problem, f"Provided frame size is {size} but must be in range [1, {signal}].", FRAME_SIZE
            )
        ]
    if step <= 0:
        problem = f"frame_step {step} is not above 0"
        return [
            value_finding(
                problem, f"Provided frame step is {step} but must be greater than zero.", FRAME_STEP
            )
        ]
    if window.is_static and window.dims and not 0 < window.dims[0].lo <= size:
        problem = f"the window's length {window.dims[0]} is outside [1, {size}]"
        return [incompatible(problem, f"Window input dimension must be in range [1, {size}].", WINDOW)]
    return []


# --- ISTFT-16 ----------------------------------------------------------------------------------


@reading.reads(LENGTH, how=reading.AS_SHAPE)
@reading.reads(FRAME_SIZE, FRAME_STEP, how=reading.DIRECT)
def istft(call: OpCall) -> OpResult:
    """ISTFT-16: ``[batch,] signal_length``: the signal_length input's value (its bounds, else
    ``?``) or, without one, ``(frames - 1) * frame_step + frame_size`` less ``frame_size & ~1``
    with ``center`` (``istft_shape_inference.hpp``)."""
    data = call.inputs[SIGNAL_DATA].shape
    findings = _frames_type_findings(call, "data") + _istft_rank_findings(call)
    if findings:
        return OpResult([], findings)
    size, step = call.inputs[FRAME_SIZE], call.inputs[FRAME_STEP]
    failed = unreadable(FRAME_SIZE, "frame_size", size) + unreadable(FRAME_STEP, "frame_step", step)
    findings = failed or _istft_value_findings(call)
    if findings:
        return OpResult([], findings)
    output_type = _frames_output_type(call)
    if data.dims is None:
        return OpResult([Output(PartialShape(None), output_type)])
    batch = list(data.dims[:-3])
    if len(call.inputs) > LENGTH:
        findings = _length_shape_findings(call.inputs[LENGTH].shape)
        if findings:
            return OpResult([], findings)
        length, findings = bounds.as_one_dim(
            call.inputs[LENGTH],
            LENGTH,
            "signal_length",
            "the output's signal length is of unknown length (?)",
        )
        if length is None:
            return OpResult([], findings)
        return OpResult([Output(PartialShape([*batch, length]), output_type)], findings)
    if size.value is None or step.value is None:
        consequence = "the output's signal length is of unknown length (?)"
        port, name, tensor = (
            (FRAME_SIZE, "frame_size", size) if size.value is None else (FRAME_STEP, "frame_step", step)
        )
        findings = value_unknown(port, name, tensor, consequence)
        return OpResult([Output(PartialShape([*batch, DYNAMIC]), output_type)], findings)
    length = (data.dims[-2] - 1) * step.value[0] + size.value[0]
    if call.attribute("center"):
        length = length - (size.value[0] & ~1)
    return OpResult([Output(PartialShape([*batch, length]), output_type)])


def _istft_rank_findings(call: OpCall) -> list[Finding]:
    data, window = call.inputs[SIGNAL_DATA].shape, call.inputs[WINDOW].shape
    findings = []
    if data.rank not in (None, 3, 4):
        findings.append(
            rank_finding(SIGNAL_DATA, "data", data, "3 or 4", "The shape of data must be 3D or 4D.")
        )
    if window.rank not in (None, 1):
        message = "The shape of window must be 1D [window_size]."
        findings.append(rank_finding(WINDOW, "window", window, "1", message))
    return findings + _scalar_findings(call, ((FRAME_SIZE, "frame_size"), (FRAME_STEP, "frame_step")))


def _istft_value_findings(call: OpCall) -> list[Finding]:
    """frame_size above 0, the window's length (where static) in [1, frame_size], the data's
    fft dim (where the data's shape is static) ``frame_size // 2 + 1``; frame_step above 0:
    each where its value is known."""
    size, step = call.inputs[FRAME_SIZE].value, call.inputs[FRAME_STEP].value
    data, window = call.inputs[SIGNAL_DATA].shape, call.inputs[WINDOW].shape
    if size is not None:
        value = size[0]
        if value <= 0:
            message = f"Provided frame size must be greater than zero, but got: {value}"
            return [value_finding(f"frame_size {value} is not above 0", message, FRAME_SIZE)]
        if window.is_static and window.dims and not 0 < window.dims[0].lo <= value:
            problem = f"the window's length {window.dims[0]} is outside [1, {value}]"
            return [incompatible(problem, f"Window input dimension must be in range [1, {value}].", WINDOW)]
        if data.is_static and data.dims and data.dims[-3] != Dim.of(value // 2 + 1):
            problem = (
                f"data's fft dim (data[-3]) is {data.dims[-3]}, not frame_size // 2 + 1 = {value // 2 + 1}"
            )
            message = "The dimension at data_shape[-3] must be equal to: (frame_size // 2 + 1) "
            return [incompatible(problem, message, SIGNAL_DATA)]
    if step is not None and step[0] <= 0:
        message = f"Provided frame step must be greater than zero, but got: {step[0]}"
        return [value_finding(f"frame_step {step[0]} is not above 0", message, FRAME_STEP)]
    return []


def _length_shape_findings(shape: PartialShape) -> list[Finding]:
    """signal_length: a scalar or of one element."""
    if shape.dims is None or not shape.dims or (len(shape.dims) == 1 and shape.dims[0].compatible(Dim.of(1))):
        return []
    message = "The shape of 'signal_length' input must be a scalar or single element 1D tensor."
    return [
        incompatible(f"signal_length is of shape {shape}, not a scalar or of one element", message, LENGTH)
    ]
