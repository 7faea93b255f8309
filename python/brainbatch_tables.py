"""Read the tables of a BrainBatch HDF5 output into pandas DataFrames.

    import brainbatch_tables as bb
    df = bb.read_table("out.h5", "samples")      # one table
    tables = bb.read_tables("out.h5")            # every table, by name

Each table comes back with its columns in table order, text as ``str`` (not bytes), and missing values as
``NA``/``NaN`` (never the sentinels the file stores for R's sake). A column has the same dtype in every output,
whatever its content, so tables of many runs concatenate cleanly:

=================  =========================  ==============================
column ``kind``    stored in HDF5 as          pandas dtype
=================  =========================  ==============================
int32, int64       int32 / float64 (NaN)      ``Int64`` (nullable)
float64, float32   float64 / float32 (NaN)    ``float64`` / ``float32``
bool               int8 0/1, −128 missing     ``boolean`` (nullable)
string             UTF-8, ``NA`` missing      ``str`` (pandas ≥ 3; ``object`` before), NaN where missing or empty
timestamp(_local)  ISO 8601 text              ``str`` (pandas ≥ 3; ``object`` before), NaN where missing
=================  =========================  ==============================

N-dimensional arrays (under ``/arrays``) are not tables; read them with h5py (``f["arrays/..."][()]``).
Needs only numpy, h5py and pandas.
"""

import h5py
import numpy as np
import pandas as pd

__all__ = ["list_tables", "read_table", "read_tables"]


def _text(value):
    return value.decode("utf-8") if isinstance(value, bytes) else str(value)


def list_tables(path):
    """The names of the tables in a BrainBatch HDF5 file, in the order the tool wrote them."""
    with h5py.File(path, "r") as f:
        return _table_names(f)


def _table_names(f):
    if "tables" in f.attrs:
        return [_text(name) for name in f.attrs["tables"]]
    return [name for name, item in f.items() if isinstance(item, h5py.Group) and "columns" in item.attrs]


def read_table(path, table):
    """One table of a BrainBatch HDF5 file as a DataFrame (see the module's documentation for the types)."""
    with h5py.File(path, "r") as f:
        return _read_group(f[table])


def read_tables(path):
    """Every table of a BrainBatch HDF5 file, as a dict of DataFrames in table order."""
    with h5py.File(path, "r") as f:
        return {name: _read_group(f[name]) for name in _table_names(f)}


def _read_group(group):
    names = [_text(name) for name in group.attrs["columns"]]
    columns = {name: _read_column(group[name]) for name in names}
    n_rows = int(group.attrs["n_rows"]) if "n_rows" in group.attrs else None
    frame = pd.DataFrame(columns, columns=names)
    if n_rows is not None and len(frame) != n_rows:
        raise ValueError(f"{group.name}: {len(frame)} rows read, n_rows says {n_rows}")
    return frame


def _kind(dataset):
    if "kind" in dataset.attrs:
        return _text(dataset.attrs["kind"])
    # Files written before the `kind` attribute: judge by the stored type.
    if "logical" in dataset.attrs or "storage.mode" in dataset.attrs:
        return "bool"
    if dataset.dtype.kind in ("S", "O", "U"):
        return "string"
    return {"i4": "int32", "i8": "int64", "f4": "float32"}.get(dataset.dtype.str[1:], "float64")


def _read_column(dataset):
    kind = _kind(dataset)
    values = dataset[()]
    if kind in ("int32", "int64"):
        if values.dtype.kind == "f":
            missing = np.isnan(values)
        else:
            sentinel = dataset.attrs.get("missing_value", np.iinfo(values.dtype).min)
            missing = values == sentinel
        result = pd.array(np.where(missing, 0, values).astype(np.int64), dtype="Int64")
        result[missing] = pd.NA
        return result
    if kind == "bool":
        missing = values == dataset.attrs.get("missing_value", -128)
        result = pd.array(values == 1, dtype="boolean")
        result[missing] = pd.NA
        return result
    if kind in ("string", "timestamp", "timestamp_local"):
        missing_text = _text(dataset.attrs.get("missing_value", "NA" if "as.na" in dataset.attrs else ""))
        texts = [_text(v) for v in values]
        # Empty text is missing too, as pandas.read_csv reads an empty CSV field.
        # pandas' text dtype (``str`` from pandas 3, ``object`` before) for every text column, also when it is
        # empty or all missing, so that tables of many runs concatenate without a change of type.
        return pd.Series(np.array([np.nan if t == missing_text or t == "" else t for t in texts], dtype=object),
                         dtype="str")
    return values
