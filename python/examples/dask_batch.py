"""Validate, summarize and optionally mesh many models on a Dask cluster.

    pip install './python[dask]'
    python python/examples/dask_batch.py --workers 4 --out results.parquet 'models/**/*.sskb'
    python python/examples/dask_batch.py --scheduler tcp://scheduler:8786 \\
        --glb-dir /shared/glb --png-dir /shared/png --out /shared/results.csv /shared/models

Each input is a file, a directory (searched recursively for .sskb and
.ssk files), a glob pattern, or an fsspec URL or URL pattern
(``s3://bucket/models/*.sskb`` with the matching fsspec package installed;
``file://`` works as it is). One task per file: tasks receive paths, never
documents, and each worker holds one piece of one file at a time while it
summarizes (``sskb.iter_pieces``). A file that fails gives a row with its
error, never a failed job.

A row: ``file``, ``bytes``, ``valid``, ``version``, ``pieces``, ``points``,
the bounding box of the points (``min_x`` ... ``max_z``, from the NumPy
form; empty where there are no points), ``error_kind``, ``error_offset``,
``error_message``, ``glb`` (the mesh written, with ``--glb-dir``) and
``png`` (the picture written, with ``--png-dir``: ``sskb.render_png``,
``--size`` pixels, iso view).
Rows come in the order of the inputs, and the results are written as CSV
or Parquet by the extension of ``--out``.

Without ``--scheduler``, a ``distributed.LocalCluster`` of ``--workers``
processes (default: one per core) runs on this machine.
"""

from __future__ import annotations

import argparse
import glob
import os
import pathlib
import sys

import sskb

#: What a directory is searched for: the formats the module reads.
MODEL_SUFFIXES = (".sskb", ".ssk")

COLUMNS = [
    "file",
    "bytes",
    "valid",
    "version",
    "pieces",
    "points",
    "min_x",
    "min_y",
    "min_z",
    "max_x",
    "max_y",
    "max_z",
    "error_kind",
    "error_offset",
    "error_message",
    "glb",
    "png",
]


def _is_url(path: str) -> bool:
    return "://" in path


def expand(inputs):
    """The files the inputs name, in input order (each directory's and
    pattern's files sorted). A plain path that names nothing is kept, so
    that its row says so."""
    files = []
    for item in inputs:
        if _is_url(item):
            import fsspec

            fs, _, paths = fsspec.get_fs_token_paths(item)
            found = sorted(p for p in paths if fs.isfile(p))
            files.extend(fs.unstrip_protocol(p) for p in found)
        elif os.path.isdir(item):
            found = sorted(
                str(p) for p in pathlib.Path(item).rglob("*") if p.suffix in MODEL_SUFFIXES and p.is_file()
            )
            files.extend(found)
        elif glob.has_magic(item):
            files.extend(sorted(glob.glob(item, recursive=True)))
        else:
            files.append(item)
    return files


def out_paths(files, out_dir, suffix):
    """Where each file's output goes: its path below the inputs' common
    folder, under ``out_dir``, with ``suffix`` (``None`` for a URL or
    without ``out_dir``)."""
    if out_dir is None:
        return [None] * len(files)
    # Files that do not exist get no mesh and do not move the common folder.
    local = [os.path.abspath(f) for f in files if not _is_url(f) and os.path.exists(f)]
    common = os.path.commonpath([os.path.dirname(f) for f in local]) if local else ""
    out = []
    for f in files:
        if _is_url(f):
            out.append(None)
            continue
        rel = os.path.relpath(os.path.abspath(f), common)
        out.append(str(pathlib.Path(out_dir) / pathlib.Path(rel).with_suffix(suffix)))
    return out


def _empty_row(path):
    row = dict.fromkeys(COLUMNS)
    row.update(file=path, bytes=0, valid=False, pieces=0, points=0)
    return row


def summarize(path: str, glb: str | None = None, resolution: int = 32, png: str | None = None, size: int = 512) -> dict:
    """One file's row: validated and counted in one streaming pass each,
    the bounding box of its points, with ``glb`` its mesh written there and
    with ``png`` its picture (only for a valid file; each file whole or not
    at all). Never raises for a bad file."""
    row = _empty_row(path)
    try:
        if _is_url(path):
            import fsspec

            with fsspec.open(path, "rb") as f:
                data = f.read()
            row["bytes"] = len(data)
            _summarize_data(path, data, row)
        else:
            row["bytes"] = os.path.getsize(path)
            _summarize_file(path, row)
        row["valid"] = True
    except sskb.SskbError as e:
        row.update(error_kind=e.kind, error_offset=e.offset, error_message=e.message)
        return row
    except OSError as e:
        row.update(error_kind="io", error_message=str(e))
        return row
    if glb is not None:
        try:
            pathlib.Path(glb).parent.mkdir(parents=True, exist_ok=True)
            sskb.convert(path, glb, resolution=resolution)
            row["glb"] = glb
        except (sskb.SskbError, OSError) as e:
            kind = getattr(e, "kind", "io")
            row.update(valid=False, error_kind=kind, error_message=str(e))
    if png is not None and row["valid"]:
        try:
            target = pathlib.Path(png)
            target.parent.mkdir(parents=True, exist_ok=True)
            data = sskb.render_png(path, size=size, resolution=resolution)
            part = target.with_name(f".{target.name}.{os.getpid()}.tmp")
            part.write_bytes(data)
            os.replace(part, target)
            row["png"] = png
        except (sskb.SskbError, OSError) as e:
            kind = getattr(e, "kind", "io")
            row.update(valid=False, error_kind=kind, error_message=str(e))
    return row


def _bounds(row, lo, hi):
    if lo is not None:
        row.update(min_x=lo[0], min_y=lo[1], min_z=lo[2], max_x=hi[0], max_y=hi[1], max_z=hi[2])


def _summarize_file(path, row):
    if path.endswith(".ssk"):
        with open(path, encoding="utf-8") as f:
            _summarize_doc(sskb.parse_ssk(f.read()), row)
        return
    lo = hi = None
    points = pieces = 0
    it = sskb.iter_pieces(path, arrays=True)
    for piece in it:
        pieces += 1
        xyz = piece.get("positions")
        if xyz is not None and len(xyz):
            points += len(xyz)
            lo = xyz.min(axis=0) if lo is None else _np().minimum(lo, xyz.min(axis=0))
            hi = xyz.max(axis=0) if hi is None else _np().maximum(hi, xyz.max(axis=0))
    summary = sskb.validate_stream(path)
    row.update(version=summary["version"], pieces=pieces, points=points)
    _bounds(row, None if lo is None else [float(v) for v in lo], None if hi is None else [float(v) for v in hi])


def _summarize_data(path, data, row):
    if path.endswith(".ssk"):
        _summarize_doc(sskb.parse_ssk(data.decode("utf-8")), row)
    else:
        _summarize_doc(sskb.parse_sskb(data), row)


def _summarize_doc(doc, row):
    sskb.validate_document(doc)
    np = _np()
    xyz = [(p["x"], p["y"], p["z"]) for piece in doc["pieces"] for p in piece.get("points", [])]
    arr = np.asarray(xyz, dtype=np.float32).reshape(-1, 3)
    row.update(version=_version(doc), pieces=len(doc["pieces"]), points=len(arr))
    if len(arr):
        _bounds(row, [float(v) for v in arr.min(axis=0)], [float(v) for v in arr.max(axis=0)])


def _version(doc):
    v = doc.get("version", "1.0")
    return v if isinstance(v, str) else f"{v}"


def _np():
    import numpy

    return numpy


def _task(args):
    path, glb, resolution, png, size = args
    return summarize(path, glb, resolution, png, size)


def _tasks(files, glb_dir, resolution, png_dir, size):
    globs, pngs = out_paths(files, glb_dir, ".glb"), out_paths(files, png_dir, ".png")
    return [(f, g, resolution, p, size) for f, g, p in zip(files, globs, pngs)]


def serial(files, glb_dir=None, resolution=32, png_dir=None, size=512):
    """The rows computed here, one file after another: what the cluster
    must give."""
    return [_task(t) for t in _tasks(files, glb_dir, resolution, png_dir, size)]


def on_dask(files, glb_dir=None, resolution=32, partitions=None, png_dir=None, size=512):
    """The rows computed as one Dask task per file (on the active
    ``distributed`` client, if any), in input order, as a pandas
    DataFrame."""
    import dask.bag as db
    import pandas as pd

    tasks = _tasks(files, glb_dir, resolution, png_dir, size)
    if not tasks:
        return pd.DataFrame(columns=COLUMNS)
    bag = db.from_sequence(tasks, npartitions=partitions or len(tasks))
    rows = bag.map(_task).compute()
    return frame(rows)


def frame(rows):
    """Rows as a DataFrame with stable column types."""
    import pandas as pd

    df = pd.DataFrame(rows, columns=COLUMNS)
    for c in ("bytes", "pieces", "points"):
        df[c] = df[c].astype("int64")
    df["valid"] = df["valid"].astype(bool)
    df["error_offset"] = df["error_offset"].astype("Int64")
    for c in ("min_x", "min_y", "min_z", "max_x", "max_y", "max_z"):
        df[c] = df[c].astype("float64")
    for c in ("file", "version", "error_kind", "error_message", "glb", "png"):
        df[c] = df[c].astype("string")
    return df


def write(df, out):
    if str(out).endswith(".parquet"):
        df.to_parquet(out, index=False)
    elif str(out).endswith(".csv"):
        df.to_csv(out, index=False)
    else:
        raise SystemExit(f"error: {out}: --out must end in .csv or .parquet")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    where = ap.add_mutually_exclusive_group()
    where.add_argument("--scheduler", help="address of a running Dask scheduler (tcp://host:8786)")
    where.add_argument("--workers", type=int, help="worker processes of a local cluster (default: cores)")
    ap.add_argument("--glb-dir", help="also mesh every valid file to .glb under this directory")
    ap.add_argument("--png-dir", help="also draw every valid file to .png under this directory")
    ap.add_argument("--size", type=int, default=512, help="picture size in pixels (16 to 4096)")
    ap.add_argument("--resolution", type=int, default=32, help="mesh resolution (3 to 1024)")
    ap.add_argument("--out", required=True, help="RESULTS.csv or RESULTS.parquet")
    ap.add_argument("inputs", nargs="+", help="files, directories, glob patterns or fsspec URLs")
    args = ap.parse_args(argv)
    if not (str(args.out).endswith(".csv") or str(args.out).endswith(".parquet")):
        ap.error("--out must end in .csv or .parquet")
    from distributed import Client, LocalCluster

    files = expand(args.inputs)
    if args.scheduler:
        client = Client(args.scheduler)
        cluster = None
    else:
        workers = args.workers or os.cpu_count() or 1
        cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None)
        client = Client(cluster)
    try:
        df = on_dask(files, args.glb_dir, args.resolution, png_dir=args.png_dir, size=args.size)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
    write(df, args.out)
    bad = int((~df["valid"]).sum())
    print(f"{len(df)} files: {len(df) - bad} valid, {bad} invalid; results in {args.out}", file=sys.stderr)
    return 0 if bad == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
