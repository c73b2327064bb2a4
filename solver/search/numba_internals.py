"""Every part of numba the project relies on beyond `numba.njit` and its types, in one module.

A numba release may change any of these without notice; `tests/search/test_numba_internals.py`
has a test per item that fails when it does (each test's name says which):

- `numba.config.CACHE_DIR`, read as a dispatcher is made (`dispatcher`): numba's cache in a
  folder keyed by every kernel source (`native.numba_cache_dir`);
- the cache's file names, `<folder name>_<sha1 of its path>/<module>.<function>-<line>.py<version>.nbi`
  (`cache_index_glob`): whether the cache holds every entry (`native.uncached_entries`:
  `warm-up`'s check, the API's choice of the library);
- the `numba:compile` event, raised by a compile and not by a load from the cache
  (`listen_to_compiles`): compile time left out of a search's clock (`native.search_clock`), the
  compile notices and `warm-up`'s "compiled" or "cached" (`cli.warmup.CompileWatch`);
- `numba.pycc.compiler.ModuleCompiler` and `ExportEntry`, ahead-of-time lowering to an object
  file (`write_entries_object`): the compiled library (`library_build`);
- `numba.pycc.platform.Toolchain` and `external_compiler_works` (`toolchain`, `compiler_works`):
  compiling and linking the library's C parts;
- `numba/core/runtime/nrt.cpp` (`runtime_source`): numba's runtime, linked into the library;
- a dispatcher's `typeof_pyval`, its `overloads` (keyed by argument types) and an overload's
  `entry_point` (`compiled_entry`): a search's kernel called without the dispatcher's look-up of
  its arguments' types at every call (`native.bound_call`);
- the CPU target's calling convention (`call_conv.get_function_type`) and the array data model's
  fields (`lowered_arguments`, `array_fields`): the library's calling convention, checked at
  every build (`library_build.verify_calling_convention`).

Nothing here is imported by a solve on the library: numba is imported inside each function.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any


def dispatcher(py_func: Callable, options: dict, cache_dir: Path) -> Callable:
    """`numba.njit(**options)(py_func)` caching in `cache_dir`: numba reads its CACHE_DIR setting
    when the dispatcher is made, so it is set for that moment only."""
    import numba

    config: Any = numba.config  # its settings are set from the environment at import
    unkeyed = config.CACHE_DIR
    config.CACHE_DIR = str(cache_dir)
    try:
        return numba.njit(**options)(py_func)
    finally:
        config.CACHE_DIR = unkeyed


def cache_index_glob(cache_dir: Path, source_file: str, function: str) -> list[Path]:
    """The index files numba's cache holds for `function` of the module at `source_file`: below
    `cache_dir`, a folder named after the source's folder and a SHA-1 of its absolute path
    (`numba.core.caching._CacheLocator`), then `<module>.<function>-<line>.py<version>.nbi`."""
    folder = os.path.dirname(os.path.abspath(source_file))
    subpath = f"{os.path.basename(folder)}_{hashlib.sha1(folder.encode()).hexdigest()}"
    module = Path(source_file).stem
    try:
        return sorted((cache_dir / subpath).glob(f"{module}.{function}-*.nbi"))
    except OSError:
        return []


def listen_to_compiles(on_start: Callable[[Any], None], on_end: Callable[[Any], None]) -> object:
    """Call `on_start(event)` and `on_end(event)` around every compile numba runs in this
    process (its "numba:compile" event; a load from the cache raises none; compiles nest, a
    kernel's callees inside it). `event.data.get("dispatcher")` is the dispatcher compiling.
    Returns the listener (`stop_listening`)."""
    from numba.core import event

    class Listener(event.Listener):
        def on_start(self, ev: event.Event) -> None:
            on_start(ev)

        def on_end(self, ev: event.Event) -> None:
            on_end(ev)

    listener = Listener()
    event.register("numba:compile", listener)
    return listener


def stop_listening(listener: object) -> None:
    from numba.core import event

    event.unregister("numba:compile", listener)  # type: ignore[arg-type]  # a Listener made above


def compiled_entry(kernel: Callable, args: tuple) -> Callable | None:
    """What numba's dispatcher `kernel` runs for `args` once it has matched their types to a
    compiled overload: that overload's entry point (it unboxes the arguments as its signature
    says, and releases the GIL for a `nogil` kernel, as the dispatcher's call does). None when
    `kernel` is no dispatcher (the JIT disabled, the library) or has no overload compiled for
    exactly these types (its own call then compiles or converts)."""
    overloads = getattr(kernel, "overloads", None)
    typeof = getattr(kernel, "typeof_pyval", None)
    if overloads is None or typeof is None:
        return None
    found = overloads.get(tuple(typeof(value) for value in args))
    return None if found is None else found.entry_point


def compiler_works() -> str:
    """'' when numba's ahead-of-time compiler and a C compiler are usable here, else why not."""
    import warnings

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # numba.pycc is "pending deprecation"; the JIT is the fallback
            from numba.pycc.platform import external_compiler_works

        if not external_compiler_works():
            return "no working C compiler"
    except Exception as error:  # numba.pycc missing or broken in this numba version
        return f"numba's ahead-of-time compiler is unavailable: {error}"
    return ""


def write_entries_object(entries: list[tuple[str, Any, Callable]], path: Path) -> None:
    """Lower each (symbol, signature, Python function) to machine code for the architecture's
    generic CPU, with numba's runtime for allocations, into the object file `path`: a C-ABI
    function per symbol, no Python wrapper (`ModuleCompiler.write_native_object(wrap=False)`)."""
    import warnings

    from numba.pycc.compiler import ExportEntry, ModuleCompiler

    exports = [ExportEntry(name, signature, function) for name, signature, function in entries]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        compiler = ModuleCompiler(exports, "bananas_kernels", use_nrt=True, cpu_name="")
        compiler.write_native_object(str(path), wrap=False)


def toolchain() -> Any:
    """numba's C toolchain (`compile_objects`, `link_shared`), as pycc drives it."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from numba.pycc.platform import Toolchain

    return Toolchain()


def runtime_source() -> tuple[Path, Path]:
    """(numba's runtime source `nrt.cpp`, the include folder it needs)."""
    import numba

    root = Path(numba.__file__).parent
    return root / "core" / "runtime" / "nrt.cpp", root


def lowered_arguments(signature) -> tuple[str, list[str]]:
    """How numba's CPU target lowers a function of `signature`: its return type and each of its
    arguments' types as LLVM text (pointers and i64 as 'word')."""
    from numba.core.registry import cpu_target

    function = cpu_target.target_context.call_conv.get_function_type(signature.return_type, signature.args)

    def lowered(llvm_type) -> str:
        text = str(llvm_type)
        return "word" if text in ("i64", "ptr") or text.endswith("*") else text

    return str(function.return_type), [lowered(argument) for argument in function.args]


def array_fields() -> tuple[str, ...]:
    """The fields of numba's array data model, in order (how an array is passed, flattened)."""
    from numba.core import types
    from numba.core.datamodel import default_manager

    return tuple(default_manager.lookup(types.Array(types.int64, 1, "C"))._fields)
