"""The shipped int8 verifier as stored against its weights rewritten for exact sums, in one run.

ONNX Runtime multiplies the int8 verifier's uint8 activations by its int8 weights with a
kernel chosen by the CPU; without VNNI it adds pairs of products in a saturating int16
(``langchain_qgate/grounding/verifier/_int8.py``). ``PairModel`` rewrites the weights as uint8
so that every CPU computes the exact sums. This benchmark scores the same pairs with both
sessions on this machine and reports how far the probabilities move, how many verdict
thresholds they cross and the throughput of each kernel (one pair per call, as the verdict
runs; the order alternates by pair so that load falls on both alike).

Pairs: every (claim, evidence) pair of the hand-written prose sets in ``tests/data/`` and, with
``--data``, (answer, context) of up to ``--limit`` rows of each file's ``fit`` half.

On a CPU with VNNI both sessions compute the same integers and the differences are float noise;
there ``PairModel`` itself reads the model as stored (``native_sums_exact``), and this benchmark
forces the rewrite to time it. The result records what the probe answered on this machine.
Both are also compared with a float reference: the same int8 weights dequantised and multiplied
by the float activations (no activation quantisation, no integer kernel), the closest this
package can get to the float model without its training run.

Run: python benchmarks/bench_int8.py --data ../shared/benchdata/*.jsonl --limit 100
Writes benchmarks/results/int8.json and prints a markdown table.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

import numpy as np  # noqa: E402

from langchain_qgate.evaluation import load_rows  # noqa: E402
from langchain_qgate.grounding.verifier.crossencoder import PairModel  # noqa: E402

OUT = ROOT / "benchmarks" / "results" / "int8.json"
THRESHOLDS = (0.5, 0.8)  # P(entailed) for GROUNDED and the record path's bar


def _cpu_flags() -> list[str]:
    try:
        text = Path("/proc/cpuinfo").read_text(encoding="utf-8")
    except OSError:
        return []
    line = next((x for x in text.splitlines() if x.startswith("flags")), "")
    wanted = ("avx2", "avx512f", "avx512bw", "avx512_vnni", "avx_vnni", "amx_int8")
    return [f for f in wanted if f in line.split()]


def _pairs(data: list[Path], limit: int) -> list[tuple[str, str]]:
    pairs: list[tuple[str, str]] = []
    for path in sorted((ROOT / "tests" / "data").glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            if isinstance(row.get("evidence"), str) and isinstance(row.get("claim"), str):
                pairs.append((row["claim"], row["evidence"]))
    for path in data:
        for row in load_rows(path, split="fit")[:limit]:
            pairs.append((row.response, row.context[:600]))
    return list(dict.fromkeys(pairs))


def _float_reference(path: Path) -> bytes:
    """The int8 model with every ``DynamicQuantizeLinear -> MatMulInteger -> Cast -> Mul`` chain
    replaced by a float ``MatMul`` of the activations and the dequantised weights."""
    import onnx
    from onnx import helper, numpy_helper

    model = onnx.load(path)
    inits = {t.name: t for t in model.graph.initializer}
    producer = {o: n for n in model.graph.node for o in n.output}
    consumers: dict[str, list[Any]] = {}
    for n in model.graph.node:
        for i in n.input:
            consumers.setdefault(i, []).append(n)
    replaced: dict[int, Any] = {}
    dropped: set[int] = set()
    for n in model.graph.node:
        if n.op_type != "MatMulInteger":
            continue
        x = producer[n.input[0]].input[0]  # DynamicQuantizeLinear's float input
        weight = numpy_helper.to_array(inits[n.input[1]]).astype(np.float32)
        zero = numpy_helper.to_array(inits[n.input[3]]).astype(np.float32)
        (cast,) = consumers[n.output[0]]
        (mul,) = consumers[cast.output[0]]
        scales = producer[next(i for i in mul.input if i != cast.output[0])]
        w_scale = next(i for i in scales.input if i in inits)
        scale = numpy_helper.to_array(inits[w_scale]).astype(np.float32)
        name = f"{n.input[1]}_float"
        model.graph.initializer.append(numpy_helper.from_array((weight - zero) * scale, name))
        replaced[id(mul)] = helper.make_node("MatMul", [x, name], [mul.output[0]])
        dropped |= {id(n), id(cast)}
    nodes = [replaced.get(id(n), n) for n in model.graph.node if id(n) not in dropped]
    del model.graph.node[:]
    model.graph.node.extend(nodes)
    data: bytes = model.SerializeToString()
    return data


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, nargs="*", default=[])
    ap.add_argument("--limit", type=int, default=100, help="fit rows per data file")
    args = ap.parse_args()
    pairs = _pairs(args.data, args.limit)

    from langchain_qgate.grounding.verifier import _int8

    native = _int8.native_sums_exact()
    _int8.native_sums_exact = lambda: False  # type: ignore[assignment]  # rewrite on any CPU
    exact = PairModel()
    loaded = exact._load()
    stored = PairModel()
    import onnxruntime as ort

    opts = ort.SessionOptions()
    opts.inter_op_num_threads = 1
    session = ort.InferenceSession(
        str(stored.folder / "model.onnx"), sess_options=opts, providers=["CPUExecutionProvider"]
    )
    stored._loaded = replace(loaded, session=session)
    opts.log_severity_level = 3  # the float graph leaves the quantisers' constants unused
    reference = PairModel()
    reference._loaded = replace(
        loaded,
        session=ort.InferenceSession(
            _float_reference(stored.folder / "model.onnx"),
            sess_options=opts,
            providers=["CPUExecutionProvider"],
        ),
    )

    seconds = {"stored": 0.0, "exact": 0.0}
    probs = {"stored": np.zeros((len(pairs), 3)), "exact": np.zeros((len(pairs), 3))}
    models = {"stored": stored, "exact": exact}
    for model in models.values():
        model.predict(pairs[:5])  # warm up both sessions
        model.clear()
    for k, pair in enumerate(pairs):
        order = ("stored", "exact") if k % 2 == 0 else ("exact", "stored")
        for name in order:
            t = time.perf_counter()
            probs[name][k] = models[name].predict([pair])[0]
            seconds[name] += time.perf_counter() - t

    probs["float"] = reference.predict(pairs)

    def apart(a: np.ndarray, b: np.ndarray) -> dict[str, Any]:
        d = np.abs(a - b)
        return {
            "mean_abs_diff": round(float(d.mean()), 4),
            "argmax_changed": int((a.argmax(1) != b.argmax(1)).sum()),
            "crossings": {
                str(t): int(((a[:, 0] >= t) != (b[:, 0] >= t)).sum()) for t in THRESHOLDS
            },
        }

    delta = np.abs(probs["stored"] - probs["exact"])
    ent_s, ent_e = probs["stored"][:, 0], probs["exact"][:, 0]
    result: dict[str, Any] = {
        "command": "python benchmarks/bench_int8.py " + " ".join(sys.argv[1:]),
        "machine": f"{platform.machine()}, {os.cpu_count()} cores, Python "
        f"{platform.python_version()}, onnxruntime {ort.__version__}",
        "cpu_flags": _cpu_flags(),
        "native_sums_exact": native,
        "load_average": [round(x, 2) for x in os.getloadavg()],
        "pairs": len(pairs),
        "max_abs_diff": round(float(delta.max()), 4),
        "mean_abs_diff": round(float(delta.mean()), 5),
        "pairs_moved_over_0.01": int((delta.max(axis=1) > 0.01).sum()),
        "argmax_changed": int((probs["stored"].argmax(1) != probs["exact"].argmax(1)).sum()),
        "crossings": {str(t): int(((ent_s >= t) != (ent_e >= t)).sum()) for t in THRESHOLDS},
        "against_float_reference": {
            "stored": apart(probs["stored"], probs["float"]),
            "exact": apart(probs["exact"], probs["float"]),
        },
        "pairs_per_second": {name: round(len(pairs) / s, 1) for name, s in seconds.items()},
    }
    OUT.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    print(
        "| CPU flags | pairs | max abs diff | moved > 0.01 | argmax changed | "
        "crossed 0.5 / 0.8 | pairs/s stored | pairs/s exact |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    c = result["crossings"]
    pps = result["pairs_per_second"]
    print(
        f"| {' '.join(result['cpu_flags'])} | {len(pairs)} | {result['max_abs_diff']} | "
        f"{result['pairs_moved_over_0.01']} | {result['argmax_changed']} | "
        f"{c['0.5']} / {c['0.8']} | {pps['stored']} | {pps['exact']} |"
    )

    for name in ("stored", "exact"):
        r = result["against_float_reference"][name]
        print(
            f"against the float reference, {name}: mean abs diff {r['mean_abs_diff']}, argmax "
            f"changed {r['argmax_changed']}, crossed 0.5 / 0.8 {r['crossings']['0.5']} / "
            f"{r['crossings']['0.8']}"
        )


if __name__ == "__main__":
    main()
