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
model, at no cost in precision (at about a tenth of the throughput on AVX2).

Example:
    >>> model = onnx.load(path)
    >>> exact_int8(model)  # weights rewritten in place
    38
"""

from __future__ import annotations

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


def exact_session_source(path: str) -> str | bytes:
    """What to give ``onnxruntime.InferenceSession`` for the model at ``path``: the path
    itself, or the serialised model with its int8 weights rewritten (:func:`exact_int8`)."""
    import onnx

    model = onnx.load(path, load_external_data=False)
    if any(t.data_location == onnx.TensorProto.EXTERNAL for t in model.graph.initializer):
        return path  # weights in other files: read by ONNX Runtime as they are
    if exact_int8(model) == 0:
        return path
    data: bytes = model.SerializeToString()
    return data
