"""One version for the crate and the module: the workspace's Cargo.toml
gives it to both packages, maturin writes it into the wheel's metadata,
and the module reports it."""

import importlib.metadata
import pathlib
import re

import sskb

ROOT = pathlib.Path(__file__).resolve().parents[2]


def test_the_module_reports_the_workspace_version():
    text = (ROOT / "Cargo.toml").read_text()
    section = text.split("[workspace.package]", 1)[1]
    version = re.search(r'^version = "([^"]+)"', section, re.M).group(1)
    assert sskb.__version__ == version
    assert importlib.metadata.version("sskb") == version


def test_both_packages_take_the_workspace_version():
    for manifest in (ROOT / "Cargo.toml", ROOT / "python" / "Cargo.toml"):
        package = manifest.read_text().split("[package]", 1)[1].split("\n[", 1)[0]
        assert re.search(r"^version\.workspace = true$", package, re.M), manifest
    assert 'dynamic = ["version"]' in (ROOT / "python" / "pyproject.toml").read_text()
