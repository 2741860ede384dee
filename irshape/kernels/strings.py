"""Kernels of the string tensor ops (irshape/shapes/strings.py): StringTensorUnpack-15 and
StringTensorPack-15. irshape holds a string tensor as an object array of ``str``; its bytes are
the strings' UTF-8 encoding. The plugin's strings are bytes, whatever they hold: a packed string
keeps bytes that are not UTF-8 (a lone continuation byte, a character cut in two, 0xff) as
Python's ``surrogateescape`` keeps them (each as a lone surrogate U+DC80..U+DCFF), so that
unpacking it gives the plugin's bytes back (irshape's reader still decodes string Consts with
U+FFFD). Confirmed against the CPU plugin by ``tests/execution/test_strings.py``.
"""

from __future__ import annotations

import numpy as np

from irshape.kernels import KernelCall, KernelError, output_bytes, working_memory


def _unpack_bytes(call: KernelCall) -> int:
    """Begins and ends, and the symbols: at most 4 UTF-8 bytes per character, twice (the
    encoded strings and their concatenation)."""
    characters = sum(len(str(s)) for s in call.inputs[0].reshape(-1))
    return 2 * (output_bytes(call, 0) + output_bytes(call, 1)) + 8 * characters


@working_memory(_unpack_bytes)
def string_tensor_unpack(call: KernelCall) -> list[np.ndarray]:
    """Each string's begin and end in the concatenated UTF-8 bytes, and the bytes."""
    encoded = [str(s).encode("utf-8", errors="surrogateescape") for s in call.inputs[0].reshape(-1)]
    ends = np.cumsum([len(e) for e in encoded], dtype=np.int64)
    begins = ends - np.array([len(e) for e in encoded], dtype=np.int64)
    shape = call.inputs[0].shape
    symbols = np.frombuffer(b"".join(encoded), dtype=np.uint8).copy()
    return [begins.astype(np.int32).reshape(shape), ends.astype(np.int32).reshape(shape), symbols]


def string_tensor_pack(call: KernelCall) -> np.ndarray:
    """The strings the bytes between each begin and end spell."""
    begins, ends, symbols = call.inputs
    begins, ends = begins.astype(np.int64), ends.astype(np.int64)
    if np.any((begins < 0) | (ends > symbols.size) | (begins > ends)):
        raise KernelError(f"a begin or end is outside the {symbols.size} symbols, or an end before its begin")
    raw = symbols.tobytes()
    flat = [
        raw[b:e].decode("utf-8", errors="surrogateescape")
        for b, e in zip(begins.reshape(-1), ends.reshape(-1), strict=True)
    ]
    result = np.empty(len(flat), dtype=object)
    result[:] = flat
    return result.reshape(begins.shape)
