"""The instruction set OpenVINO's CPU plugin runs on this host, for the few kernel rules that
depend on it (the rules were measured on an avx512_core Xeon; docs/execution.md, "Which CPU").

oneDNN, and the plugin's own emitters through it, take avx512_core where the CPU has AVX-512
F, BW, VL and DQ, else avx2 (the plugin's JIT kernels need FMA beside AVX2), else older code;
``ONEDNN_MAX_CPU_ISA`` caps that choice as oneDNN caps it. Read once, from ``/proc/cpuinfo``.
"""

from __future__ import annotations

import os
from pathlib import Path

# the instruction sets a rule can be tied to, lowest first
ISAS = ("other", "avx2", "avx512_core")


def host_isa(flags: set[str]) -> str:
    """The instruction set oneDNN picks from a CPU's ``/proc/cpuinfo`` flags."""
    if {"avx512f", "avx512bw", "avx512vl", "avx512dq"} <= flags:
        return "avx512_core"
    if {"avx2", "fma"} <= flags:
        return "avx2"
    return "other"


def capped_isa(isa: str, cap: str | None) -> str:
    """``isa`` under oneDNN's ``ONEDNN_MAX_CPU_ISA`` (AVX512_CORE, AVX512_CORE_VNNI, AVX10_1_512..
    are avx512_core; AVX2, AVX2_VNNI.. avx2; SSE41, AVX lower; ALL, DEFAULT or unset no cap)."""
    name = (cap or "").strip().upper()
    if name.startswith(("AVX512", "AVX10")):
        limit = "avx512_core"
    elif name.startswith("AVX2"):
        limit = "avx2"
    elif name in ("SSE41", "AVX"):
        limit = "other"
    else:
        return isa
    return min(isa, limit, key=ISAS.index)


def _plugin_isa() -> str:
    try:
        text = Path("/proc/cpuinfo").read_text()
    except OSError:  # not Linux: the rules of the machine they were measured on
        return "avx512_core"
    lines = text.splitlines()
    flags = next((line.split(":", 1)[1].split() for line in lines if line.startswith("flags")), [])
    return capped_isa(host_isa(set(flags)), os.environ.get("ONEDNN_MAX_CPU_ISA"))


PLUGIN_ISA = _plugin_isa()
