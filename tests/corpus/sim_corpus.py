#!/usr/bin/env python3
"""The simulator corpus: kernels written in the styles of public CUDA code (tests/fixtures/sim/*.cu, their
committed nvcc PTX), each run with `gpulab sim` and its output checked against a reference computed
here.  Prints one line per kernel and the summary

    corpus: N/M kernels ran and matched; refused: KERNEL (why), ...

Kernels listed under REFUSED must be refused by name (exit 2 or a finding naming the feature); they
count as refused, not as failures.  Exit status: 0 when every other kernel ran and matched, else 1.

usage: sim_corpus.py GPULAB FIXTURES_DIR WORK_DIR
"""
import math
import os
import struct
import subprocess
import sys

FMT = {"i32": "i", "f32": "f", "i64": "q", "f64": "d", "u32": "I"}


def f32(x):
    return struct.unpack("<f", struct.pack("<f", x))[0]


def wrap32(v):
    v &= 0xFFFFFFFF
    return v - (1 << 32) if v >= 1 << 31 else v


def fib(n):
    a, b = 0, 1
    for _ in range(n):
        a, b = b, a + b
    return a


def fact32(n):
    r = 1
    for k in range(2, n + 1):
        r = wrap32(r * k)
    return r


def bins_walk(v, at, n, depth):
    b = [0] * 8
    for i in range(n):
        b[v[at + i] & 7] += i + 1
    below = bins_walk(v, at + 1, n - 1, depth - 1) if depth > 0 else 0
    return b[v[at] & 7] * 3 - below


def softmax(x, rows, cols):
    out = []
    for r in range(rows):
        row = x[r * cols:(r + 1) * cols]
        m = max(row)
        e = [math.exp(v - m) for v in row]
        s = sum(e)
        out += [v / s for v in e]
    return out


def matmul(a, b, ha, wa, wb):
    return [sum(a[i * wa + k] * b[k * wb + j] for k in range(wa)) for i in range(ha) for j in range(wb)]


def label_sums(keys, vals):
    s = [0] * 4
    for k, v in zip(keys, vals):
        s[k] += v
    return s


def tile_reduce16(v):
    return [sum(v[t // 16 * 16:t // 16 * 16 + 16]) for t in range(len(v))]


def tile_max8(v):
    return [max(v[t // 8 * 8:t // 8 * 8 + 8]) for t in range(len(v))]


def grid_rank(x, bins):
    cnt = [0] * bins
    for v in x:
        cnt[v % bins] += 1
    return [cnt[v % bins] for v in x]


X5000 = [(i * 31 + 7) % 1000 for i in range(5000)]
FIB_IN = [(i * 7) % 19 for i in range(96)]
BIN_IN = [(i * 37 + 11) % 101 for i in range(512)]
KEYS = [(t * 7 + t // 5) % 4 for t in range(64)]
VALS = [(t * 13) % 50 for t in range(64)]
SOFT = [((i * 37) % 101) / 25.0 - 2.0 for i in range(4 * 100)]
MA = [float((i * 7) % 11 - 5) for i in range(32 * 48)]
MB = [float((i * 5) % 13 - 6) for i in range(48 * 48)]
RED = [float((i * 3) % 17) for i in range(1000)]
REDI = [(i * 5) % 23 - 11 for i in range(300)]
SEQ = list(range(4096))
SPIN = [7 * i - 100 for i in range(320)]

# name, fixture, kernel, grid, block, args (scalars "i32:V"/"f32:V" or (buffer, dtype, count, data|None)),
# {buffer: reference list}, relative tolerance
CORPUS = [
    ("recursive fibonacci, lanes at different depths", "calls", "fibonacci", "3", "32",
     [("in", "i32", 96, FIB_IN), ("out", "i32", 96, None), "i32:96"], {"out": [fib(v) for v in FIB_IN]}, 0),
    ("recursion with a local array in every frame", "calls", "bins", "2", "32",
     [("in", "i32", 512, BIN_IN), ("out", "i32", 64, None), "i32:64"],
     {"out": [bins_walk(BIN_IN, 8 * i, 8, i % 4) for i in range(64)]}, 0),
    ("__noinline__ device function with arguments", "calls", "saxpy_call", "2", "64",
     ["f32:2", ("x", "f32", 128, [float(i) for i in range(128)]), ("y", "f32", 128, [1.0] * 128), "i32:120"],
     {"y": [2.0 * i + 1.0 if i < 120 else 1.0 for i in range(128)]}, 0),
    ("function-pointer table, per-lane targets", "calls", "apply_ops", "2", "48",
     [("a", "f32", 96, [i / 4.0 for i in range(96)]), ("b", "f32", 96, [(i % 7) / 2.0 for i in range(96)]),
      ("out", "f32", 96, None), "i32:96"],
     {"out": [(f32(i / 4.0 + (i % 7) / 2.0), f32(i / 4.0 * ((i % 7) / 2.0)), max(i / 4.0, (i % 7) / 2.0))[i % 3]
              for i in range(96)]}, 0),
    ("factorial through a call", "calls", "factorial", "1", "32",
     [("in", "i32", 32, list(range(32))), ("out", "i64", 32, None), "i32:32"],
     {"out": [fact32(i) for i in range(32)]}, 0),
    ("grid.sync() reduction (cooperative launch)", "coop", "grid_sum", "12", "256",
     [("in", "f32", 10000, [float(i) for i in range(10000)]), ("partial", "f32", 12, None), ("out", "f32", 1, None),
      "i32:10000"], {"out": [49995000.0]}, 1e-6),
    ("two grid.sync() phases with atomics", "coop", "grid_rank", "20", "96",
     [("x", "i32", 5000, X5000), ("count", "i32", 13, None), "i32:5000", "i32:13"],
     {"x": grid_rank(X5000, 13), "count": [0] * 13}, 0),
    ("tiled_partition<64> shfl and sync", "coop", "tile64_sum", "2", "128",
     [("in", "i32", 128, list(range(128))), ("out", "i32", 128, None)],
     {"out": [sum(range(t // 64 * 64, t // 64 * 64 + 64)) * 100 + t % 64 + t // 64 * 10000 for t in range(128)]}, 0),
    ("warp-size-generic softmax (warpSize)", "multi", "softmax_rows", "2", "64",
     [("in", "f32", 400, SOFT), ("out", "f32", 400, None), "i32:4", "i32:100"], {"out": softmax(SOFT, 4, 100)},
     1e-5),
    ("CUDA samples' MatrixMulCUDA<16>", "multi", "MatrixMulCUDA<16>", "3,2", "16,16",
     [("C", "f32", 32 * 48, None), ("A", "f32", 32 * 48, MA), ("B", "f32", 48 * 48, MB), "i32:48", "i32:48"],
     {"C": matmul(MA, MB, 32, 48, 48)}, 1e-6),
    ("templated reduce<float, 256>", "multi", "reduce<float, 256>", "4", "256",
     [("in", "f32", 1000, RED), ("out", "f32", 4, None), "i32:1000"],
     {"out": [sum(RED[b * 256:(b + 1) * 256]) for b in range(4)]}, 1e-6),
    ("templated reduce<int, 128>", "multi", "reduce<int, 128>", "3", "128",
     [("in", "i32", 300, REDI), ("out", "i32", 3, None), "i32:300"],
     {"out": [sum(REDI[b * 128:(b + 1) * 128]) for b in range(3)]}, 0),
    ("labeled_partition + cg::reduce", "cgroups", "label_sum", "2", "32",
     [("keys", "i32", 64, KEYS), ("vals", "i32", 64, VALS), ("sums", "i32", 4, None), ("sizes", "i32", 64, None),
      ("ranks", "i32", 64, None)], {"sums": label_sums(KEYS, VALS)}, 0),
    ("tiled_partition<16>/<8> cg::reduce", "cgroups", "tile_reduce", "2", "32",
     [("vals", "i32", 64, VALS), ("out16", "i32", 64, None), ("out8", "i32", 64, None)],
     {"out16": tile_reduce16(VALS), "out8": tile_max8(VALS)}, 0),
    ("cuda::barrier double buffering + memcpy_async", "mbarrier", "tile_weighted_sum", "2", "128",
     [("in", "f32", 1024, [float(i) for i in range(1024)]), ("out", "f32", 256, None), "i32:4"],
     {"out": [sum(float(b * 512 + k * 128 + (t + 32) % 128) * (k + 1) for k in range(4)) for b in range(2)
              for t in range(128)]}, 0),
    ("producer/consumer spin-wait between warps", "spin", "handoff", "1", "64",
     [("in", "i32", 320, SPIN), ("out", "i32", 320, None), "i32:10"], {"out": [2 * v + 1 for v in SPIN]}, 0),
    ("saxpy", "saxpy", "saxpy", "4", "256",
     ["i32:1000", "f32:3", ("x", "f32", 1024, [float(i) for i in range(1024)]), ("y", "f32", 1024, [1.0] * 1024)],
     {"y": [3.0 * i + 1.0 if i < 1000 else 1.0 for i in range(1024)]}, 0),
]

# Texture objects: tex1Dfetch of linear memory holding 0, 1, 2 ... (in a kernel, and in a __noinline__ device
# function), and tex2D<float4> with bilinear filtering of 8 x 4 texels whose channel c at (x, y) is
# 32 y + 4 x + c: a ramp, so the filtered value at (u, v) is the ramp at the clamped u - 0.5, v - 0.5.
def ramp_2d():
    out = []
    for y in range(8):
        for x in range(16):
            u, v = -0.5 + 0.25 * x, 0.5 * y
            cx, cy = min(max(u - 0.5, 0.0), 7.0), min(max(v - 0.5, 0.0), 3.0)
            out += [32 * cy + 4 * cx + c for c in range(4)]
    return out


CORPUS += [
    ("tex1Dfetch of a cudaTextureObject_t", "multi", "tex_tile", "1", "32",
     ["tex:t:f32:32:mem:seq", ("c", "f32", 32, None)], {"c": [float(i) for i in range(32)]}, 0),
    ("tex1Dfetch in a __noinline__ device function", "multi", "via_helper", "1", "32",
     ["tex:t:f32:32:mem:seq", ("c", "f32", 32, None)], {"c": [float(i) for i in range(32)]}, 0),
    ("bilinear tex2D<float4>", "tex", "tex2d_sample", "2,2", "8,4",
     ["tex:img:f32x4:8x4:linear:seq", ("out", "f32", 512, None), "f32:-0.5", "f32:0.25", "f32:0", "f32:0.5"],
     {"out": ramp_2d()}, 0),
]

# Kernels of the corpus files that must be refused, naming the feature.
REFUSED = [
    ("multi", "stop_inlined", "1", "32", [("c", "f32", 32, None)], "brkpt"),
    ("multi", "stop_via_helper", "1", "32", [("c", "f32", 32, None)], "brkpt"),
]


def write(path, dtype, data):
    with open(path, "wb") as f:
        f.write(struct.pack("<%d%s" % (len(data), FMT[dtype]), *data))


def read(path, dtype, count):
    with open(path, "rb") as f:
        return struct.unpack("<%d%s" % (count, FMT[dtype]), f.read())


def command(gpulab, fx, work, fixture, kernel, grid, block, args):
    cmd = [gpulab, "sim", os.path.join(fx, fixture + ".ptx"), "--kernel", kernel, "--grid", grid, "--block", block]
    for a in args:
        if isinstance(a, str):
            cmd += ["--arg", a]
            continue
        name, dtype, count, data = a
        spec = "buf:%s:%s:%d" % (name, dtype, count)
        if data is not None:
            path = os.path.join(work, "%s.%s.in" % (kernel.replace("<", "_").replace(">", "_").replace(" ", ""), name))
            write(path, dtype, data)
            spec += ":file:" + path
        cmd += ["--arg", spec, "--dump", "%s=%s" % (name, os.path.join(work, name + ".out"))]
    return cmd


def close(got, want, tol):
    if tol == 0:
        return got == want
    return abs(got - want) <= tol * max(1.0, abs(want))


def main():
    gpulab, fx, work = sys.argv[1:4]
    ok, refused, failed = 0, [], []
    for title, fixture, kernel, grid, block, args, refs, tol in CORPUS:
        r = subprocess.run(command(gpulab, fx, work, fixture, kernel, grid, block, args), capture_output=True, text=True)
        why = None
        if r.returncode != 0 or "ERROR SUMMARY: 0 errors" not in r.stdout:
            why = "exit %d: %s" % (r.returncode, (r.stderr.strip() or r.stdout.strip().splitlines()[-1])[:200])
        else:
            dtypes = {a[0]: (a[1], a[2]) for a in args if not isinstance(a, str)}
            for name, want in refs.items():
                got = read(os.path.join(work, name + ".out"), *dtypes[name])
                bad = [i for i, (g, w) in enumerate(zip(got, want)) if not close(g, w, tol)]
                if bad:
                    why = "%s[%d] = %r, reference %r (%d of %d differ)" % (name, bad[0], got[bad[0]], want[bad[0]],
                                                                          len(bad), len(want))
                    break
        print("%-4s %s/%s: %s%s" % ("ok" if not why else "FAIL", fixture, kernel, title, "" if not why else " -- " + why))
        if why:
            failed.append(kernel)
        else:
            ok += 1
    for fixture, kernel, grid, block, args, feature in REFUSED:
        r = subprocess.run(command(gpulab, fx, work, fixture, kernel, grid, block, args), capture_output=True, text=True)
        text = r.stdout + r.stderr
        if r.returncode in (1, 2) and feature in text:
            line = next((l for l in text.splitlines() if feature in l), "")
            reason = line[line.find("unsupported"):] if "unsupported" in line else line.strip()
            refused.append("%s (%s)" % (kernel, reason[:100]))
            print("ref  %s/%s refused: %s" % (fixture, kernel, line.strip()[:160]))
        else:
            failed.append(kernel)
            print("FAIL %s/%s was not refused naming '%s' (exit %d)" % (fixture, kernel, feature, r.returncode))
    total = len(CORPUS) + len(REFUSED)
    print("corpus: %d/%d kernels ran and matched; refused: %s" % (ok, total, ", ".join(refused) if refused else "none"))
    return 0 if not failed else 1


if __name__ == "__main__":
    sys.exit(main())
