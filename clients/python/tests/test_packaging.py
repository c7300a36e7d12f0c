"""The installed package: one version everywhere, and its type hints are shipped."""

import importlib.metadata
import importlib.util
import re
from pathlib import Path

import intentbus

PACKAGE_DIR = Path(__file__).resolve().parents[1]


def test_one_source_for_the_version():
    # pyproject.toml names no version of its own: it reads intentbus/_version.py.
    pyproject = (PACKAGE_DIR / "pyproject.toml").read_text()
    assert re.search(r'^version\s*=\s*"', pyproject, re.M) is None
    assert 'dynamic = ["version"]' in pyproject
    assert re.fullmatch(r"\d+\.\d+\.\d+", intentbus.__version__)
    # The installed distribution (the venv's, built from this checkout) agrees.
    assert importlib.metadata.version("intentbus") == intentbus.__version__


def test_installed_package_ships_py_typed():
    spec = importlib.util.find_spec("intentbus")
    assert spec is not None and spec.origin is not None
    installed = [Path(p) for p in importlib.metadata.files("intentbus") or [] if p.name == "py.typed"]
    assert installed, "py.typed is not in the installed distribution's file list"
    assert (PACKAGE_DIR / "intentbus" / "py.typed").exists()


def _structure():
    """scripts/check_structure.py, which reads the package's imports for `make
    check-structure` too: one reader of them, used by both."""
    path = PACKAGE_DIR.parents[1] / "scripts" / "check_structure.py"
    spec = importlib.util.spec_from_file_location("check_structure", path)
    assert spec is not None and spec.loader is not None, path
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _internal_imports():
    """Every import of the package's own modules, by importing module: (module, imported,
    line). Imports under `if TYPE_CHECKING:` are left out (they never run); imports inside
    functions are kept (they run, later)."""
    return _structure().python_imports(PACKAGE_DIR / "intentbus")


def test_no_import_circle_in_the_package():
    cycles = _structure().import_cycles(PACKAGE_DIR / "intentbus")
    assert not cycles, "import circles: " + "; ".join(" -> ".join(c) for c in cycles)


def test_modules_import_names_from_where_they_are_defined():
    # No module takes a name from a facade that re-exports it (the import circle of old:
    # styles imported the plugin facade, which imported them back). examples/ are
    # written as users write plugins, from `intentbus`.
    import ast

    modules, _ = _internal_imports()
    defined = {}
    for mod, (path, _) in modules.items():
        names = set()
        for node in ast.parse(path.read_text()).body:
            if isinstance(node, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
                names.add(node.name)
            elif isinstance(node, ast.Assign):
                names.update(t.id for t in node.targets if isinstance(t, ast.Name))
            elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                names.add(node.target.id)
        defined[mod] = names
    wrong, checked = [], 0
    for mod, (path, is_package) in modules.items():
        if mod.startswith("intentbus.examples") or is_package and not defined[mod] - {"__all__"}:
            continue  # a pure facade (a package's __init__ that defines nothing) may gather facades
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.ImportFrom) or node.level == 0:
                continue
            base = mod.split(".") if is_package else mod.split(".")[:-1]
            base = base[: len(base) - (node.level - 1)]
            target = ".".join(base + ([node.module] if node.module else []))
            for alias in node.names:
                if f"{target}.{alias.name}" in modules:
                    continue  # a submodule
                checked += 1
                if alias.name not in defined.get(target, set()):
                    wrong.append(f"{mod} line {node.lineno}: {alias.name} from {target}, which does not define it")
    assert not wrong, wrong
    assert checked > 100  # the check read the package's real imports


def test_handler_styles_are_one_explicit_table():
    from intentbus.plugin.styles import DEFAULT_STYLES, StyleRegistry
    from intentbus import HandlerStyle, LegacyFunctionHandler, PlainHandler, Plugin
    assert DEFAULT_STYLES == {HandlerStyle.PLAIN: PlainHandler, HandlerStyle.LEGACY: LegacyFunctionHandler}
    plugin = Plugin({"INTENTBUS_PLUGIN_ID": "p", "INTENTBUS_BACKEND": "ipc:///nonexistent"})

    @plugin.handler("A", style=HandlerStyle.LEGACY)
    def a(request, ctx):
        return None

    assert type(plugin.handlers["A"]) is LegacyFunctionHandler
    try:
        plugin.handler("B", style=HandlerStyle.NEW)
        raise AssertionError("a function can't be a new-style handler")
    except NotImplementedError as e:
        assert "AppIntent" in str(e)
    registry = StyleRegistry({})
    try:
        registry.register(HandlerStyle.PLAIN, dict)  # type: ignore[arg-type]
        raise AssertionError("only Handler subclasses are styles")
    except TypeError:
        pass
