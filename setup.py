"""The engine's compiled kernels (simdesk/core/kernels.pyx: setuptools compiles it with Cython, a build
requirement, and the system's C compiler); everything else about the package is declared in pyproject.toml.
The extension is optional: where it cannot be compiled (no C compiler or no Python headers) the package
installs without it and the engine takes its pure-Python path, with the same results (simdesk/core/compiled.py)."""

from setuptools import Extension, setup

setup(ext_modules=[Extension("simdesk.core.kernels", ["simdesk/core/kernels.pyx"], optional=True)])
