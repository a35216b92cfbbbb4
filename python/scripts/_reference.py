"""Runs a script in a virtual environment that has both the reference
(`ssk==1.5.0`, module `ssklib`) and this package: created on first use
under `~/.cache/sskb-reference-venv` (or `$SSKB_REFERENCE_VENV`)."""

import os
import pathlib
import subprocess
import sys
import venv

HERE = pathlib.Path(__file__).resolve().parent
PACKAGE = HERE.parent


def ensure(script):
    """Re-runs `script` in the reference environment unless ssklib and sskb
    both import here."""
    try:
        import ssklib  # noqa: F401
        import sskb  # noqa: F401
        import numpy  # noqa: F401
        return
    except ImportError:
        pass
    if os.environ.get("SSKB_IN_REFERENCE_VENV"):
        sys.exit("the reference environment lacks ssklib, sskb or numpy")
    where = pathlib.Path(os.environ.get("SSKB_REFERENCE_VENV", "~/.cache/sskb-reference-venv")).expanduser()
    python = where / "bin" / "python"
    if not python.exists():
        print(f"creating {where} with ssk==1.5.0 and this package ...", file=sys.stderr)
        venv.create(where, with_pip=True)
        subprocess.run([python, "-m", "pip", "install", "-q", "ssk==1.5.0", "numpy"], check=True)
    subprocess.run([python, "-m", "pip", "install", "-q", "--force-reinstall", "--no-deps", str(PACKAGE)], check=True)
    env = dict(os.environ, SSKB_IN_REFERENCE_VENV="1")
    sys.exit(subprocess.run([python, script, *sys.argv[1:]], env=env).returncode)
