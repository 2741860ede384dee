"""Kernels of the generation family (irshape/shapes/generation.py): OneHot-1/16, Eye-9,
RandomUniform-8 and Multinomial-13.

What the CPU plugin does, by tests/execution/test_generation.py: OneHot gives the off value at
every position of an index outside ``[0, depth)``; OneHot-16's ``normalize`` counts an index
in ``[-depth, 0)`` from the end first. Eye's diagonal may lie anywhere (a diagonal past the
columns or below the rows leaves all zeros).

RandomUniform reproduces the plugin bit for bit (``src/core/reference/src/utils/
phillox_generator.cpp`` and ``phillox_converter.cpp`` for the algorithms, the plugin for the
rest): the Tensorflow alignment is Philox-4x32-10 whose block k has the counter (k, op_seed)
and the key global_seed, its four words four elements; the PyTorch alignment is MT19937
seeded with the global seed's low 32 bits (the op seed unused), a word an element. The plugin
computes every output type but bf16 in f32 or i32 (f16 and f64 outputs are the f32 values
converted, i64 the i32 values: OpenVINO's reference converts f16/f64/i64 differently,
with their own bits, two words for 64-bit types); the Tensorflow alignment's f32 is
``u * (max - min) + min`` rounded once (fused), PyTorch's rounded after the product and the
sum. bf16 is the reference's conversion (7 and 8 bits of a word) with the plugin's f32 to
bf16 rounding at each step. Global and op seed both 0: a sequence from a seed picked at
random, as OpenVINO's.

Multinomial follows the CPU plugin (``src/plugins/intel_cpu/src/nodes/multinomial.cpp``), not
OpenVINO's reference, which draws from RandomUniform's Philox: the plugin draws from
``std::mt19937`` seeded with ``std::seed_seq{global_seed, op_seed}`` (each seed's low 32 bits;
both 0: a seed from the clock, here one picked at random), a word an element in the order of the
output, each ``float(word) / float(2**32 - 1)`` in f32 (so 1.0 can come out). Under the f32 hint
it computes in f32 (f16 probs too) but for bf16 probs, where each partial sum (of the exps in
f32: rounding each exp to bf16 too puts 11-16 of 64 rows' samples off, by experiment), division,
draw and update is rounded to bf16 as ``ov::bfloat16`` rounds (up only from an odd last bit),
and the cdf's floor is ``numeric_limits<bfloat16>::min()``, the subnormal 0x007F: the cdf
is the sequential sum of each row (of ``exp(probs)`` for log_probs), divided by its last
element (at least FLT_MIN, in bf16 that subnormal); a sample is
the first class whose cdf is at least the number drawn, and the class before it below (a cdf
that falls, from negative probs, may give no class: 0 here, where the plugin leaves the memory
as it is). Without replacement the row's cdf then loses the class drawn and is divided by
``1 - p``, in f32, one sample after the other. The plugin writes i32 (i64 through its own
conversion) and fails on any other convert_type: so does this kernel, UnsupportedByOpenVINOError.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from irshape.kernels import KernelCall, UnsupportedByOpenVINOError, output_bytes, working_memory
from irshape.kernels.isa import PLUGIN_ISA
from irshape.kernels.libm_calls import expf
from irshape.kernels.narrow_reals import integers_to_bf16 as to_bf16  # the plugin's f32 -> bf16


def _scalar(array: np.ndarray) -> int:
    return int(np.asarray(array).reshape(-1)[0])


def one_hot(call: KernelCall) -> np.ndarray:
    """OneHot-1/16: on_value where the new axis's position is the index, off_value elsewhere."""
    indices = call.inputs[0].astype(np.int64)
    depth = _scalar(call.inputs[1])
    dtype = call.output_dtype()
    on_value, off_value = (call.inputs[i].reshape(-1)[0].astype(dtype) for i in (2, 3))
    if (
        "negative_indices_mode" in call.schema.attributes
        and call.attribute("negative_indices_mode") == "normalize"
    ):
        indices = np.where((indices < 0) & (indices >= -depth), indices + depth, indices)
    axis = int(call.attribute("axis"))
    axis = axis + indices.ndim + 1 if axis < 0 else axis
    positions = np.arange(depth).reshape((depth,) + (1,) * (indices.ndim - axis))
    hot = np.expand_dims(indices, axis) == positions
    result: np.ndarray = np.where(hot, on_value, off_value).astype(dtype, copy=False)
    return result


def eye(call: KernelCall) -> np.ndarray:
    """Eye-9: ones on the diagonal ``diagonal_index`` of each ``num_rows x num_columns``
    matrix, zeros elsewhere, repeated over ``batch_shape``."""
    shape = call.output_shape()
    rows, columns = shape[-2], shape[-1]
    diagonal = _scalar(call.inputs[2])
    matrix = np.eye(rows, columns, k=diagonal, dtype=call.output_dtype())
    return np.broadcast_to(matrix, shape).copy()


# --- RandomUniform ---------------------------------------------------------------------------

_MASK32 = np.uint64(0xFFFFFFFF)
_PHILOX_KEY_STEPS = (0x9E3779B9, 0xBB67AE85)  # added to the key's low and high words each round
_PHILOX_MULTIPLIERS = (0xD2511F53, 0xCD9E8D57)  # of the counter's two low words
_PHILOX_ROUNDS = 10


def _philox(global_seed: int, op_seed: int, calls: int) -> np.ndarray:
    """The uint32 words of ``calls`` Philox-4x32-10 blocks, ``(calls, 4)``: block k's counter is
    (k as its low 64 bits, ``op_seed`` as its high 64 bits), its key ``global_seed``; the
    words in the order (n low, n high, counter low, counter high), as the plugin gives them."""
    block = np.arange(calls, dtype=np.uint64)
    n_low, n_high = block & _MASK32, block >> np.uint64(32)
    c_low = np.full(calls, op_seed & 0xFFFFFFFF, np.uint64)
    c_high = np.full(calls, (op_seed >> 32) & 0xFFFFFFFF, np.uint64)
    key_low, key_high = global_seed & 0xFFFFFFFF, (global_seed >> 32) & 0xFFFFFFFF
    for round_index in range(_PHILOX_ROUNDS):
        product_n = np.uint64(_PHILOX_MULTIPLIERS[0]) * n_low
        product_c = np.uint64(_PHILOX_MULTIPLIERS[1]) * c_low
        n_low, n_high, c_low, c_high = (
            (product_c >> np.uint64(32)) ^ n_high ^ np.uint64(key_low),
            product_c & _MASK32,
            (product_n >> np.uint64(32)) ^ c_high ^ np.uint64(key_high),
            product_n & _MASK32,
        )
        if round_index < _PHILOX_ROUNDS - 1:
            key_low = (key_low + _PHILOX_KEY_STEPS[0]) & 0xFFFFFFFF
            key_high = (key_high + _PHILOX_KEY_STEPS[1]) & 0xFFFFFFFF
    return np.stack([n_low, n_high, c_low, c_high], axis=-1).astype(np.uint32)


_MT_WORDS = 624  # MT19937's state


def _mersenne_words(seed: int, count: int) -> np.ndarray:
    """The first ``count`` tempered outputs of MT19937 seeded as PyTorch (and C++'s
    ``std::mt19937``) seed it: ``init_genrand`` of the seed's low 32 bits."""
    state = np.empty(_MT_WORDS, np.uint32)
    state[0] = seed & 0xFFFFFFFF
    previous = int(state[0])
    for j in range(1, _MT_WORDS):  # the 624 words of the seed's state, one after the other
        previous = (1812433253 * (previous ^ (previous >> 30)) + j) & 0xFFFFFFFF
        state[j] = previous
    return _mersenne_from_state(state, count)


def _seed_sequence_state(seeds: tuple[int, ...]) -> np.ndarray:
    """The 624 words ``std::seed_seq{seeds...}.generate`` gives (each seed taken modulo 2**32),
    as ``std::mt19937::seed(seed_seq&)`` sets its state from them ([rand.util.seedseq]): a
    sequential scramble, one word after the other."""
    mask, n = 0xFFFFFFFF, _MT_WORDS
    words = [0x8B8B8B8B] * n
    values = [seed & mask for seed in seeds]
    s, t = len(values), 11  # t: 11 for n >= 623
    p = (n - t) // 2
    q = p + t
    m = max(s + 1, n)
    for k in range(m):
        mixed = words[k % n] ^ words[(k + p) % n] ^ words[(k - 1) % n]
        r1 = (1664525 * (mixed ^ (mixed >> 27))) & mask
        r2 = (r1 + (s if k == 0 else k % n + values[k - 1] if k <= s else k % n)) & mask
        words[(k + p) % n] = (words[(k + p) % n] + r1) & mask
        words[(k + q) % n] = (words[(k + q) % n] + r2) & mask
        words[k % n] = r2
    for k in range(m, m + n):
        summed = (words[k % n] + words[(k + p) % n] + words[(k - 1) % n]) & mask
        r3 = (1566083941 * (summed ^ (summed >> 27))) & mask
        r4 = (r3 - k % n) & mask
        words[(k + p) % n] ^= r3
        words[(k + q) % n] ^= r4
        words[k % n] = r4
    state = np.array(words, np.uint32)
    if not (state[0] & 0x80000000) and not state[1:].any():  # mt19937's all-zero guard
        state[0] = 0x80000000
    return state


def _mersenne_from_state(state: np.ndarray, count: int) -> np.ndarray:
    """The first ``count`` tempered outputs of MT19937 from the 624 words of ``state``."""
    generator = np.random.MT19937()
    generator.state = {"bit_generator": "MT19937", "state": {"key": state, "pos": 624}}
    words: np.ndarray = generator.random_raw(count).astype(np.uint32)
    return words


def _unit_floats(words: np.ndarray) -> np.ndarray:
    """f32 in [0, 1) from the low 23 bits of each word: 1.mantissa - 1, as OpenVINO's Philox
    converter builds them."""
    ones = ((words & 0x7FFFFF) | (127 << 23)).astype(np.uint32).view(np.float32)
    result: np.ndarray = ones - np.float32(1)
    return result


def _integers(words: np.ndarray, low: int, high: int, pytorch: bool) -> np.ndarray:
    """``word % (high - low) + low`` wrapped to i32, the span ``high - low`` computed in i32.
    A span past i32's maximum wraps negative (found by the kernel fuzzer), and the plugin then
    takes the word modulo it as C does for the Tensorflow alignment (modulo its magnitude:
    [-2**31, 17) gives ``word % (2**31 - 17) - 2**31``) and as a floor division does for
    PyTorch's (a remainder in ``(span, 0]``: ``word % -(2**31 - 17) - 2**31``)."""
    span = int(np.array(high - low, np.int64).astype(np.int32))
    unsigned = words.astype(np.int64)
    remainder = np.mod(unsigned, span) if pytorch else unsigned % abs(span)
    result: np.ndarray = (remainder + low).astype(np.int32)  # modulo 2**32
    return result


def _tensorflow_values(
    count: int, global_seed: int, op_seed: int, low: Any, high: Any, integral: bool
) -> np.ndarray:
    """Philox words converted as OpenVINO's Tensorflow-aligned converter converts them for f32
    and i32: one word an element, an f32 from the word's low 23 bits as the mantissa of a
    number in [1, 2), less 1."""
    words = _philox(global_seed, op_seed, -(-count // 4)).reshape(-1)[:count]
    if integral:
        return _integers(words, int(low), int(high), pytorch=False)
    return _scaled_f32(_unit_floats(words), low, high)


def _pytorch_values(count: int, seed: int, low: Any, high: Any, integral: bool) -> np.ndarray:
    """MT19937's words converted as PyTorch converts them for f32 and i32: one word an element,
    an f32 from the word's low 24 bits over 2**24."""
    words = _mersenne_words(seed, count)
    if integral:
        return _integers(words, int(low), int(high), pytorch=True)
    unit = (words & ((1 << 24) - 1)).astype(np.float32) / np.float32(1 << 24)
    low32 = np.float32(low)
    result: np.ndarray = unit * (np.float32(high) - low32) + low32  # rounded twice, unfused
    return result


def _scaled_f32(unit: np.ndarray, low: Any, high: Any) -> np.ndarray:
    """``unit * (high - low) + low`` in f32 rounded once (the plugin's fused multiply-add):
    the product of two f32 is exact in f64, the sum rounded once more to f32."""
    low32, high32 = np.float32(low), np.float32(high)
    span = np.float64(high32 - low32)
    result: np.ndarray = (unit.astype(np.float64) * span + np.float64(low32)).astype(np.float32)
    return result


def _bf16_values(
    count: int, global_seed: int, op_seed: int, low: Any, high: Any, pytorch: bool
) -> np.ndarray:
    """bf16 outputs, which the plugin computes from the words as OpenVINO's reference converts
    them, each bf16 step rounded as the plugin converts f32 to bf16 (up only when the bit below
    bf16's last is set and that last bit is odd): Philox's words as a bf16 in [1, 2) from their
    low 7 bits, less 1, times (max - min), plus min, each rounded; MT19937's words' low 8 bits
    over 256 times (max - min) plus min, rounded once."""
    low16, high16 = (to_bf16(np.asarray(v, np.float32)) for v in (low, high))
    span = to_bf16(high16 - low16)
    if pytorch:
        words = _mersenne_words(global_seed, count)
        unit = (words & 0xFF).astype(np.float32) / np.float32(256)
        return to_bf16(unit * span + low16)
    words = _philox(global_seed, op_seed, -(-count // 4)).reshape(-1)[:count]
    unit = (((words & 0x7F) | (127 << 7)).astype(np.uint32) << np.uint32(16)).view(np.float32) - np.float32(1)
    return to_bf16(to_bf16(unit * span) + low16)


def _seeds(call: KernelCall) -> tuple[int, int]:
    """The global and the op seed as uint64; both 0 asks for a sequence that differs from run to
    run, which OpenVINO (and the plugin) draw from a seed they pick at random: so does irshape."""
    global_seed, op_seed = (int(call.attribute(name)) % (1 << 64) for name in ("global_seed", "op_seed"))
    if global_seed == 0 and op_seed == 0:
        global_seed = int(np.random.SeedSequence().generate_state(1)[0])
    return global_seed, op_seed


def _random_bytes(call: KernelCall) -> int:
    """The generator's words and their float64 temporaries: about 40 bytes an element."""
    element_bytes = max(call.output_dtype().itemsize, 1)
    return 40 * output_bytes(call, 0) // element_bytes + output_bytes(call, 0)


@working_memory(_random_bytes)
def random_uniform(call: KernelCall) -> np.ndarray:
    """RandomUniform-8: uniform values in [min, max) from OpenVINO's generators (Philox for the
    Tensorflow alignment, MT19937 for PyTorch's), as the CPU plugin computes them: in f32 or
    i32 whatever the output type but bf16 (an f16 or f64 output is the f32 values converted, an
    i64 output the i32 values, min and max made i32 first: saturated, as the plugin reads an i64
    Const; a Parameter's reach the kernel already cut to their low 32 bits)."""
    shape = call.output_shape()
    count = int(np.prod(shape, dtype=np.int64))
    dtype = call.output_dtype()
    if count == 0:
        return np.zeros(shape, dtype)
    integral = dtype.kind in "iu"
    low, high = (call.inputs[i].reshape(-1)[0] for i in (1, 2))
    if integral:
        # the executor hands whole values over where every input is a Const (it folds the
        # layer), but the plugin runs RandomUniform on its saturated Consts
        low, high = (int(np.clip(np.asarray(v).astype(np.int64), -(2**31), 2**31 - 1)) for v in (low, high))
    global_seed, op_seed = _seeds(call)
    pytorch = str(call.attribute("alignment")).lower() == "pytorch"
    # bf16 is native on avx512_core only: elsewhere the plugin runs the node in f32 (its f32
    # draws, by experiment under ONEDNN_MAX_CPU_ISA=AVX2)
    if call.output_type() == "bf16" and PLUGIN_ISA == "avx512_core":
        return _bf16_values(count, global_seed, op_seed, low, high, pytorch).reshape(shape)
    if pytorch:
        values = _pytorch_values(count, global_seed, low, high, integral)
    else:
        values = _tensorflow_values(count, global_seed, op_seed, low, high, integral)
    return values.astype(dtype).reshape(shape)


# --- Multinomial ---------------------------------------------------------------------------

_WORD_SCALE = np.float32(0xFFFFFFFF)  # std::mt19937::max() as a float: 2**32


def _multinomial_seeds(call: KernelCall) -> tuple[int, int]:
    """The two seeds, or (both 0) a pair picked at random as the plugin seeds from the clock."""
    global_seed, op_seed = (int(call.attribute(name)) % (1 << 64) for name in ("global_seed", "op_seed"))
    if global_seed == 0 and op_seed == 0:
        return int(np.random.SeedSequence().generate_state(1)[0]), 0
    return global_seed, op_seed


Rounding = Callable[[np.ndarray], np.ndarray]


def _f32(values: np.ndarray) -> np.ndarray:
    """The plugin's f32 path: each operation's f32 result, as numpy's f32 arithmetic gives it."""
    return values


# std::numeric_limits<ov::bfloat16>::min(): the bits 0x007F, a subnormal (not FLT_MIN)
_BF16_MIN = np.array([0x007F << 16], np.uint32).view(np.float32)[0]


def _multinomial_cdf(probs: np.ndarray, log_probs: bool, stored: Rounding) -> np.ndarray:
    """Each row's running sum, one addition after the other, divided by its last element (at
    least the type's ``numeric_limits::min()``); each result ``stored`` in the probs' type. The
    plugin's ``std::exp`` of a float is the C library's expf (numpy's float32 exp can be a unit
    off; glibc's expf is not correctly rounded either: :func:`libm_calls.expf`)."""
    weights = expf(probs) if log_probs else probs
    if stored is _f32:
        cdf = np.cumsum(weights, axis=1, dtype=np.float32)
        smallest = np.finfo(np.float32).tiny
    else:  # each partial sum rounded to bf16: sequential along the classes
        cdf = np.empty(weights.shape, np.float32)
        cdf[:, 0] = stored(weights[:, 0])
        for k in range(1, weights.shape[1]):
            cdf[:, k] = stored(weights[:, k] + cdf[:, k - 1])
        smallest = _BF16_MIN
    total = np.maximum(cdf[:, -1:], smallest)
    result: np.ndarray = stored(cdf / total)
    return result


def _with_replacement(cdf: np.ndarray, draws: np.ndarray) -> np.ndarray:
    """Class k of each draw u: ``u <= cdf[k]`` and (k = 0 or ``u > cdf[k - 1]``). A row whose
    cdf never falls has one such k, the first class whose cdf reaches u (a binary search); in
    a row that falls (negative probs) it is the last such k, as the plugin's writes land in
    order (none: 0)."""
    chosen = np.zeros(draws.shape, np.int64)
    for row, (row_cdf, row_draws) in enumerate(zip(cdf, draws, strict=True)):  # rows: few
        if np.all(row_cdf[1:] >= row_cdf[:-1]):
            found = np.searchsorted(row_cdf, row_draws, side="left")
            chosen[row] = np.where(found < row_cdf.size, found, 0)
            continue
        hit = row_draws[:, None] <= row_cdf[None, :]
        hit[:, 1:] &= row_draws[:, None] > row_cdf[None, :-1]
        last = row_cdf.size - 1 - np.argmax(hit[:, ::-1], axis=1)
        chosen[row] = np.where(hit.any(axis=1), last, 0)
    return chosen


def _without_replacement(cdf: np.ndarray, draws: np.ndarray, stored: Rounding) -> np.ndarray:
    """One sample after the other: the first class whose cdf reaches the draw; then that
    class's probability p is taken out of the row's cdf (from the class on) and the row is
    divided by 1 - p, each result ``stored`` in the probs' type. A row with no class for a
    draw keeps its cdf."""
    batch, samples = draws.shape
    classes = np.arange(cdf.shape[1])
    rows = np.arange(batch)
    chosen = np.zeros((batch, samples), np.int64)
    for sample in range(samples):  # sequential: each draw sees the cdf the last one left
        reached: np.ndarray = draws[:, sample, None] <= cdf
        found = np.any(reached, axis=1)
        picked = np.argmax(reached, axis=1)
        chosen[:, sample] = np.where(found, picked, 0)
        previous = np.where(picked > 0, cdf[rows, np.maximum(picked - 1, 0)], np.float32(0))
        probability = stored(np.where(picked > 0, cdf[rows, picked] - previous, cdf[rows, 0]))
        taken = stored(np.where(classes >= picked[:, None], cdf - probability[:, None], cdf))
        updated = stored(taken / stored(np.float32(1) - probability)[:, None])
        cdf = np.where(found[:, None], updated, cdf).astype(np.float32)
    return chosen


def _multinomial_bytes(call: KernelCall) -> int:
    """The f32 cdf and its updates; a (samples, classes) comparison where probs have a negative
    weight (a cdf that may fall)."""
    probs = call.inputs[0]
    samples = call.output_shape()[-1] if call.output_shape() else 1
    falling = not call.attribute("log_probs") and bool(np.any(probs < 0))
    comparisons = 3 * int(samples) * int(probs.shape[-1]) if falling and probs.ndim == 2 else 0
    return 16 * probs.size + comparisons + 16 * output_bytes(call, 0)


@working_memory(_multinomial_bytes)
def multinomial(call: KernelCall) -> np.ndarray:
    """Multinomial-13: ``num_samples`` class indices for each row of probs, as the CPU plugin
    draws them (the module's docstring)."""
    if call.output_type() not in ("i32", "i64"):
        raise UnsupportedByOpenVINOError(
            f"OpenVINO's CPU plugin writes Multinomial's output as i32 or i64, not {call.output_type()}"
        )
    shape = call.output_shape()
    dtype = call.output_dtype()
    if 0 in shape or call.inputs[0].size == 0:
        return np.zeros(shape, dtype)
    # bf16 probs are computed in bf16 (the plugin's node is a template of the probs' type; the
    # f32 hint makes f16 f32), each result rounded as ov::bfloat16 rounds a float; bf16 is native
    # on avx512_core only: elsewhere the node runs in f32 (ONEDNN_MAX_CPU_ISA=AVX2, by experiment)
    stored = to_bf16 if call.input_types[0] == "bf16" and PLUGIN_ISA == "avx512_core" else _f32
    with np.errstate(divide="ignore", invalid="ignore"):  # a class of probability 1 taken: inf, NaN
        cdf = _multinomial_cdf(call.inputs[0].astype(np.float32), bool(call.attribute("log_probs")), stored)
        words = _mersenne_from_state(_seed_sequence_state(_multinomial_seeds(call)), shape[0] * shape[1])
        draws = stored((words.astype(np.float32) / _WORD_SCALE).reshape(shape))
        if call.attribute("with_replacement"):
            return _with_replacement(cdf, draws).astype(dtype)
        return _without_replacement(cdf, draws, stored).astype(dtype)
