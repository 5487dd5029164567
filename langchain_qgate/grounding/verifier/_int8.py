"""Int8 ONNX models that compute the same integers on every x86 CPU.

``quantize_dynamic(weight_type=QInt8)`` stores a matrix product as ``MatMulInteger`` of uint8
activations by int8 weights. ONNX Runtime runs that product on x86 with one of two kernels,
chosen by the CPU: with VNNI (``vpdpbusd``) every product is summed exactly; on AVX2 or
AVX-512 without VNNI (``vpmaddubsw``), two adjacent products are first added in a saturating
int16, so ``255 * 127 + 255 * 127`` becomes 32,767 instead of 64,770. The same model and input
then give other probabilities on another machine: on an AVX2 machine (AMD EPYC, no VNNI)
the shipped verifier named 11 of the 12 flipped polarities of ``tests/data/word_forms.jsonl``
and 12 with the exact sums, and moved P(entailed) by up to 0.73 (BENCHMARKS.md, "Int8 on every
CPU").

ONNX Runtime's uint8-by-uint8 kernel widens both operands to int16 before it multiplies and
never saturates. An int8 weight ``w`` with zero point ``z`` is the uint8 weight ``w + 128``
with zero point ``z + 128``: the same integer ``w - z`` enters every product. Rewriting the
weights that way gives, on every CPU, the exact sums a VNNI machine computes for the original
model, at no cost in precision; on AVX2 it runs at about the saturating kernel's speed (the
shipped verifier: 24.1 against 24.5 ms a run, inputs of 8 to 128 tokens, on an AMD EPYC
without VNNI; BENCHMARKS.md, "The gate against one pass").

Where the CPU's own kernel already sums exactly (VNNI), the rewrite gains nothing and costs
time: the uint8-by-uint8 kernel is slower than the native one. :func:`native_sums_exact` asks
ONNX Runtime once per process, with a two-node model whose products would saturate, and the
model is then read as it is: on an AMD EPYC with VNNI the shipped verifier runs about 1.5x
faster with the same outputs (BENCHMARKS.md, "The gate against reading its input once").

Example:
    >>> model = onnx.load(path)
    >>> exact_int8(model)  # weights rewritten in place
    38
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    import onnx

_INT8 = 3  # onnx.TensorProto.INT8
_UINT8 = 2  # onnx.TensorProto.UINT8
_OPS = {"MatMulInteger": (1, 3), "MatMulIntegerToFloat": (1, 5), "DynamicQuantizeMatMul": (1, 3)}
"""Integer matrix products and the positions of their weight and weight zero point."""
_QUANTIZES = "DynamicQuantizeMatMul"
"""The product that quantises its float input itself (always to uint8)."""


def exact_int8(model: onnx.ModelProto) -> int:
    """Rewrite the int8 weights of ``model``'s integer matrix products as uint8 (in place).

    Returns how many products were rewritten (0: nothing to do). A product whose activations
    are not known to be uint8, or whose weight is not a constant initializer or is shared with
    a node that is not an integer product, is left as it is.
    """
    from onnx import numpy_helper

    inits = {t.name: t for t in model.graph.initializer}
    uint8 = {i.name for i in model.graph.input if i.type.tensor_type.elem_type == _UINT8}
    uint8 |= {t.name for t in model.graph.initializer if t.data_type == _UINT8}
    for node in model.graph.node:
        if node.op_type == "DynamicQuantizeLinear" and node.output:
            uint8.add(node.output[0])
    users: dict[str, set[tuple[str, int]]] = {}
    for node in model.graph.node:
        for pos, name in enumerate(node.input):
            users.setdefault(name, set()).add((node.op_type, pos))
    done: set[str] = set()
    count = 0
    for node in model.graph.node:
        where = _OPS.get(node.op_type)
        if where is None or len(node.input) <= where[0]:
            continue
        if node.op_type != _QUANTIZES and node.input[0] not in uint8:
            continue  # int8 activations: ONNX Runtime has no int8-by-uint8 kernel
        w_name = node.input[where[0]]
        z_name = node.input[where[1]] if len(node.input) > where[1] else ""
        weight = inits.get(w_name)
        zero = inits.get(z_name) if z_name else None
        if weight is None or weight.data_type != _INT8:
            continue
        if zero is not None and zero.data_type != _INT8:
            continue
        if any(_OPS.get(op, (None,))[0] != pos for op, pos in users.get(w_name, ())):
            continue
        if zero is not None and any(
            _OPS.get(op, (None, None))[1] != pos for op, pos in users.get(z_name, ())
        ):
            continue
        if w_name not in done:
            shifted = numpy_helper.to_array(weight).astype(np.int16) + 128
            weight.CopyFrom(numpy_helper.from_array(shifted.astype(np.uint8), w_name))
            done.add(w_name)
        if zero is None:  # an absent zero point is 0: it becomes 128
            z_name = f"{w_name}_exact_zero_point"
            if z_name not in inits:
                cols = numpy_helper.to_array(weight).shape[-1]
                inits[z_name] = numpy_helper.from_array(np.full(cols, 128, np.uint8), z_name)
                model.graph.initializer.append(inits[z_name])
            _set_input(node, where[1], z_name)
        elif z_name not in done:
            shifted = numpy_helper.to_array(zero).astype(np.int16) + 128
            zero.CopyFrom(numpy_helper.from_array(shifted.astype(np.uint8), z_name))
            done.add(z_name)
        count += 1
    return count


def _set_input(node: onnx.NodeProto, pos: int, name: str) -> None:
    while len(node.input) <= pos:
        node.input.append("")
    node.input[pos] = name


_PROBE_K = 64
"""Inner dimension of the probe: 32 pairs of saturating products."""


def _probe_model() -> onnx.ModelProto:
    """Both integer products the quantised models use, with operands whose pairs saturate.

    ``exact = MatMulInteger(A, W)`` for uint8 ``A``, and ``scaled`` the float product
    ``quantize_dynamic`` writes (``DynamicQuantizeLinear`` of float ``X``, ``MatMulInteger``,
    ``Cast``, ``Mul`` by the scale); ``W`` is int8 127 everywhere.
    """
    from onnx import TensorProto, helper, numpy_helper

    k, n = _PROBE_K, 8
    nodes = [
        helper.make_node("MatMulInteger", ["A", "W"], ["exact"]),
        helper.make_node("DynamicQuantizeLinear", ["X"], ["Xq", "Xs", "Xz"]),
        helper.make_node("MatMulInteger", ["Xq", "W", "Xz"], ["Xi"]),
        helper.make_node("Cast", ["Xi"], ["Xf"], to=TensorProto.FLOAT),
        helper.make_node("Mul", ["Xf", "Xs"], ["scaled"]),
    ]
    graph = helper.make_graph(
        nodes,
        "probe",
        [
            helper.make_tensor_value_info("A", TensorProto.UINT8, [None, k]),
            helper.make_tensor_value_info("X", TensorProto.FLOAT, [None, k]),
        ],
        [
            helper.make_tensor_value_info("exact", TensorProto.INT32, [None, n]),
            helper.make_tensor_value_info("scaled", TensorProto.FLOAT, [None, n]),
        ],
        initializer=[numpy_helper.from_array(np.full((k, n), 127, np.int8), "W")],
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])


@lru_cache(maxsize=1)
def native_sums_exact() -> bool:
    """Whether ONNX Runtime's uint8-by-int8 kernel sums exactly on this CPU (VNNI).

    Runs :func:`_probe_model` with one row and with eight (ONNX Runtime may take another
    kernel for a single row); any failure answers ``False``, so the models are rewritten.
    """
    try:
        import onnxruntime as ort

        session = ort.InferenceSession(
            _probe_model().SerializeToString(), providers=["CPUExecutionProvider"]
        )
        for rows in (1, 8):
            a = np.full((rows, _PROBE_K), 255, np.uint8)
            x = np.ones((rows, _PROBE_K), np.float32)
            exact, scaled = session.run(None, {"A": a, "X": x})
            if not (exact == 255 * 127 * _PROBE_K).all():
                return False
            if not np.allclose(scaled, 127 * _PROBE_K, rtol=1e-6):
                return False
        return True
    except Exception:  # an unknown runtime is treated as one that saturates
        return False


def exact_session_source(path: str) -> str | bytes:
    """What to give ``onnxruntime.InferenceSession`` for the model at ``path``: the path
    itself where this CPU's own kernel sums exactly (:func:`native_sums_exact`) or the model
    holds nothing to rewrite, else the serialised model with its int8 weights rewritten
    (:func:`exact_int8`)."""
    if native_sums_exact():
        return path
    import onnx

    model = onnx.load(path, load_external_data=False)
    if any(t.data_location == onnx.TensorProto.EXTERNAL for t in model.graph.initializer):
        return path  # weights in other files: read by ONNX Runtime as they are
    if exact_int8(model) == 0:
        return path
    data: bytes = model.SerializeToString()
    return data
