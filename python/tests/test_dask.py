"""`python/examples/dask_batch.py` on a real `distributed.LocalCluster` of
two worker processes: about 50 files, valid and invalid, give the same
rows as the same functions run here one after another; the meshes are
written for the valid ones; the command writes CSV and Parquet."""

import importlib.util
import pathlib
import shutil
import subprocess
import sys

import pytest

from conftest import CORPUS, binary_cases

dask = pytest.importorskip("dask", reason="dask is not installed: pip install './python[dask]'")
distributed = pytest.importorskip("distributed", reason="distributed is not installed: pip install './python[dask]'")
pd = pytest.importorskip("pandas", reason="pandas is not installed: pip install './python[dask]'")

SCRIPT = pathlib.Path(__file__).resolve().parents[1] / "examples" / "dask_batch.py"


def load_script():
    spec = importlib.util.spec_from_file_location("dask_batch", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def batch():
    return load_script()


@pytest.fixture(scope="module")
def models(tmp_path_factory):
    """~50 files in nested folders: valid and invalid `.sskb` cases of the
    corpus, valid and invalid `.ssk` ones, and a file that is not a model."""
    root = tmp_path_factory.mktemp("models")
    cases = binary_cases()
    valid = [c for c in cases if c["decode"] == "ok" and c["valid"]][:24]
    invalid = [c for c in cases if c["decode"] != "ok"][:12] + [
        c for c in cases if c["decode"] == "ok" and not c["valid"]
    ][:6]
    for i, c in enumerate(valid + invalid):
        sub = root / ("good" if c in valid else "bad") / f"part{i % 3}"
        sub.mkdir(parents=True, exist_ok=True)
        shutil.copy(CORPUS / c["file"], sub / f"{i:02d}_{pathlib.Path(c['file']).name}")
    texts = sorted((CORPUS / "ssk").glob("example_*.ssk"))[:4] + sorted((CORPUS / "ssk").glob("bad_*.ssk"))[:4]
    (root / "text").mkdir()
    for t in texts:
        shutil.copy(t, root / "text" / t.name)
    (root / "text" / "notes.txt").write_text("not a model")
    return root


def test_cluster_rows_equal_serial_rows(batch, models, tmp_path):
    files = batch.expand([str(models)])
    assert len(files) >= 45
    assert not any(f.endswith(".txt") for f in files)
    want = batch.frame(batch.serial(files))
    assert want["valid"].sum() >= 20 and (~want["valid"]).sum() >= 15
    assert set(want.loc[~want["valid"], "error_kind"]) >= {"validation", "structure"}
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster, distributed.Client(cluster) as client:
        assert len(client.scheduler_info()["workers"]) == 2
        got = batch.on_dask(files)
        # The tasks really ran in the worker processes.
        assert client.run(lambda: __import__("sskb").__version__)
    pd.testing.assert_frame_equal(got, want)
    # The rows hold what the module says of each file.
    for _, row in want[want["valid"] & want["file"].str.endswith(".sskb")].iterrows():
        s = __import__("sskb").validate_stream(row["file"])
        assert (row["pieces"], row["points"], row["version"]) == (s["pieces"], s["points"], s["version"])


def test_meshes_for_the_valid_files(batch, models, tmp_path):
    files = batch.expand([str(models / "good" / "part0"), str(models / "bad" / "part1")])
    out = tmp_path / "glb"
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster, distributed.Client(cluster):
        df = batch.on_dask(files, glb_dir=str(out), resolution=8)
    for _, row in df.iterrows():
        if row["valid"]:
            glb = pathlib.Path(row["glb"])
            assert glb.is_file() and glb.read_bytes()[:4] == b"glTF"
            assert glb.is_relative_to(out)
        else:
            assert pd.isna(row["glb"])
    written = sorted(p for p in out.rglob("*") if p.is_file())
    assert len(written) == int(df["valid"].sum()), "no mesh for an invalid file, no temporary file"


def test_pictures_for_the_valid_files(batch, models, tmp_path):
    files = batch.expand([str(models / "good" / "part1"), str(models / "bad" / "part2")])
    out = tmp_path / "png"
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster, distributed.Client(cluster):
        df = batch.on_dask(files, png_dir=str(out), resolution=8, size=48)
    # As run here one after another (into another folder): a valid model
    # with nothing to draw gets the error, as with --glb-dir.
    want = batch.frame(batch.serial(files, resolution=8, png_dir=str(tmp_path / "serial"), size=48))
    assert list(df["valid"]) == list(want["valid"])
    assert list(df["error_kind"].fillna("")) == list(want["error_kind"].fillna(""))
    drawn = 0
    for _, row in df.iterrows():
        if row["valid"]:
            png = pathlib.Path(row["png"])
            data = png.read_bytes()
            # The signature, then IHDR: width and height.
            assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
            assert (int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")) == (48, 48)
            assert png.is_relative_to(out)
            drawn += 1
        else:
            assert pd.isna(row["png"])
    assert drawn >= 3
    written = sorted(p for p in out.rglob("*") if p.is_file())
    assert len(written) == drawn, "no picture for an invalid file, no temporary file"


def test_the_command_writes_csv_and_parquet(batch, models, tmp_path):
    csv = tmp_path / "results.csv"
    pattern = str(models / "**" / "*.ssk")
    r = subprocess.run(
        [sys.executable, str(SCRIPT), "--workers", "2", "--out", str(csv), pattern, f"file://{models}/good/part2/*.sskb"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert r.returncode == 1, r.stderr  # the bad .ssk files
    got = pd.read_csv(csv)
    files = batch.expand([pattern, f"file://{models}/good/part2/*.sskb"])
    want = batch.frame(batch.serial(files))
    assert list(got["file"]) == list(want["file"])
    assert list(got["valid"]) == list(want["valid"])
    assert list(got["pieces"]) == list(want["pieces"])
    parquet = tmp_path / "results.parquet"
    pytest.importorskip("pyarrow", reason="pyarrow is not installed: pip install './python[dask]'")
    r = subprocess.run(
        [sys.executable, str(SCRIPT), "--workers", "2", "--out", str(parquet), str(models / "good")],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert r.returncode == 0, r.stderr
    got = pd.read_parquet(parquet)
    want = batch.frame(batch.serial(batch.expand([str(models / "good")])))
    pd.testing.assert_frame_equal(got, want)
