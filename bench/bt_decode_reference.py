"""The straightforward numpy + h5py decoder a researcher would write for a Brainiac capture.

It assumes a clean capture (no resynchronisation), decodes big-endian packets with the SDK's scaling and
writes the same samples table as `bt-decode --no-analysis` (every column, same dtypes) to an uncompressed HDF5
file, so that both sides write the same bytes.
Usage: python3 bt_decode_reference.py capture.bin out.h5
"""
import sys

import h5py
import numpy as np

K = 1_000_000_000 * (2.4 / 6.0 / 32.0) / 32767


def decode(path):
    raw = np.fromfile(path, dtype=np.uint8)
    raw = raw[: len(raw) // 20 * 20].reshape(-1, 20)
    order = (raw[:, 0].astype(np.int64) << 8) | raw[:, 1]
    a = raw[:, 3:11].copy().view(">i2").astype(np.float64)
    b = raw[:, 12:20].copy().view(">i2").astype(np.float64)
    bytes2 = np.repeat(raw[:, 2].astype(np.int32), 2)
    bytes11 = np.repeat(raw[:, 11].astype(np.int32), 2)
    values = np.empty((2 * len(raw), 4))
    values[0::2] = np.floor(a * K) / 1000
    values[1::2] = np.floor(b * K) / 1000
    step = np.diff(order) % 65536
    index_a = np.concatenate([[0], np.cumsum(step)])
    index = np.empty(2 * len(raw), dtype=np.int64)
    index[0::2] = index_a
    index[1::2] = index_a + 1
    orders = np.empty(2 * len(raw), dtype=np.int64)
    orders[0::2] = order
    orders[1::2] = (order + 1) % 65536
    return index, orders, values, bytes2, bytes11


def main():
    index, orders, values, bytes2, bytes11 = decode(sys.argv[1])
    n = len(index)
    with h5py.File(sys.argv[2], "w") as f:
        g = f.create_group("samples")
        g["source_file"] = np.full(n, sys.argv[1].encode())
        g["segment"] = np.zeros(n, dtype=np.int32)
        g["sample_index"] = index.astype(np.int32)
        g["counter"] = np.arange(n, dtype=np.int32)
        g["t_s"] = index / 250.0
        g["order_number"] = orders.astype(np.int32)
        g["order_number_sdk"] = orders.astype(np.int16).astype(np.int32)
        g["byte2"] = bytes2
        g["byte11"] = bytes11
        for i, name in enumerate(["t3_uv", "o1_uv", "t4_uv", "o2_uv"]):
            g[name] = values[:, i]
        g["filled"] = np.zeros(n, dtype=np.int8)


if __name__ == "__main__":
    main()
