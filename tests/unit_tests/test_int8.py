"""Int8 products give the exact integer sums on every CPU (grounding/verifier/_int8.py).

On an x86 CPU without VNNI, ONNX Runtime's uint8-by-int8 kernel adds two products in a
saturating int16: ``[255, 255] @ [127, 127]`` gives 32,767, not 64,770. These tests compare
ONNX Runtime's result with numpy's exact one after the rewrite; on such a CPU (some of the
project's AMD EPYC machines) the unrewritten model fails the first of them. Where the CPU sums
exactly (VNNI), a probe says so and the model is read as it is, which must give the same outputs.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto, helper, numpy_helper

from langchain_qgate.grounding.verifier import _int8
from langchain_qgate.grounding.verifier._int8 import (
    exact_int8,
    exact_session_source,
    native_sums_exact,
)


def _product(
    weight: np.ndarray, zero: np.ndarray | None, *, a_type: int = TensorProto.UINT8
) -> onnx.ModelProto:
    """``Y = MatMulInteger(A, weight, 0, zero)`` with A a graph input of ``a_type``."""
    m, n = 4, weight.shape[1]
    inits = [numpy_helper.from_array(weight, "W")]
    inputs = ["A", "W"]
    if zero is not None:
        inits.append(numpy_helper.from_array(zero, "Wz"))
        inputs += ["", "Wz"]
    graph = helper.make_graph(
        [helper.make_node("MatMulInteger", inputs, ["Y"])],
        "product",
        [helper.make_tensor_value_info("A", a_type, [m, weight.shape[0]])],
        [helper.make_tensor_value_info("Y", TensorProto.INT32, [m, n])],
        initializer=inits,
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])


def _run(model: onnx.ModelProto, a: np.ndarray) -> np.ndarray:
    session = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    out: np.ndarray = session.run(None, {"A": a})[0]
    return out


def _exact(a: np.ndarray, weight: np.ndarray, zero: np.ndarray | None) -> np.ndarray:
    w = weight.astype(np.int64) - (0 if zero is None else zero.astype(np.int64))
    return a.astype(np.int64) @ w


def test_saturating_operands_give_the_exact_sum() -> None:
    weight = np.full((64, 16), 127, np.int8)
    zero = np.zeros(16, np.int8)
    a = np.full((4, 64), 255, np.uint8)
    model = _product(weight, zero)
    assert exact_int8(model) == 1
    assert _run(model, a).tolist() == _exact(a, weight, zero).tolist()  # 2,072,640 each


def test_random_weights_and_zero_points_give_the_exact_sums() -> None:
    rng = np.random.default_rng(7)
    weight = rng.integers(-128, 128, (96, 24)).astype(np.int8)
    zero = rng.integers(-5, 6, 24).astype(np.int8)
    a = rng.integers(0, 256, (4, 96)).astype(np.uint8)
    model = _product(weight, zero)
    assert exact_int8(model) == 1
    assert _run(model, a).tolist() == _exact(a, weight, zero).tolist()


def test_a_product_without_a_zero_point_gets_one() -> None:
    weight = np.full((32, 8), -127, np.int8)
    a = np.full((4, 32), 255, np.uint8)
    model = _product(weight, None)
    assert exact_int8(model) == 1
    assert model.graph.node[0].input[3] == "W_exact_zero_point"
    assert _run(model, a).tolist() == _exact(a, weight, None).tolist()


def test_int8_activations_and_float_models_are_left_alone() -> None:
    model = _product(np.ones((8, 4), np.int8), np.zeros(4, np.int8), a_type=TensorProto.INT8)
    before = model.SerializeToString()
    assert exact_int8(model) == 0
    assert model.SerializeToString() == before
    graph = helper.make_graph(
        [helper.make_node("MatMul", ["X", "F"], ["Y"])],
        "float",
        [helper.make_tensor_value_info("X", TensorProto.FLOAT, [1, 2])],
        [helper.make_tensor_value_info("Y", TensorProto.FLOAT, [1, 2])],
        initializer=[numpy_helper.from_array(np.eye(2, dtype=np.float32), "F")],
    )
    assert exact_int8(helper.make_model(graph)) == 0


def test_the_probe_says_whether_this_cpus_own_product_is_exact() -> None:
    weight = np.full((64, 16), 127, np.int8)
    a = np.full((4, 64), 255, np.uint8)
    graph = _product(weight, np.zeros(16, np.int8))  # not rewritten: the CPU's own kernel
    native = _run(graph, a).tolist() == _exact(a, weight, None).tolist()
    assert native_sums_exact() is native


def _dynamic_int8(tmp_path: Path) -> tuple[Path, np.ndarray]:
    """A float product quantised by ``quantize_dynamic`` (int8 weights), and its weight."""
    from onnxruntime.quantization import QuantType, quantize_dynamic

    rng = np.random.default_rng(3)
    weight = rng.normal(size=(64, 32)).astype(np.float32)
    graph = helper.make_graph(
        [helper.make_node("MatMul", ["X", "F"], ["Y"])],
        "float",
        [helper.make_tensor_value_info("X", TensorProto.FLOAT, [None, 64])],
        [helper.make_tensor_value_info("Y", TensorProto.FLOAT, [None, 32])],
        initializer=[numpy_helper.from_array(weight, "F")],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    onnx.save(model, tmp_path / "f32.onnx")
    quantize_dynamic(
        tmp_path / "f32.onnx", tmp_path / "int8.onnx", weight_type=QuantType.QInt8, per_channel=True
    )
    return tmp_path / "int8.onnx", weight


@pytest.mark.parametrize("native", [True, False])
def test_the_model_is_rewritten_only_where_the_cpu_does_not_sum_exactly(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, native: bool
) -> None:
    path, _ = _dynamic_int8(tmp_path)
    monkeypatch.setattr(_int8, "native_sums_exact", lambda: native)
    source = exact_session_source(str(path))
    assert source == str(path) if native else isinstance(source, bytes)


def test_on_a_cpu_that_sums_exactly_both_models_give_the_same_outputs(tmp_path: Path) -> None:
    if not native_sums_exact():
        pytest.skip("this CPU's uint8-by-int8 product saturates: only the rewrite is exact")
    path, weight = _dynamic_int8(tmp_path)
    model = onnx.load(path)
    assert exact_int8(model) > 0
    rng = np.random.default_rng(11)
    x = rng.normal(size=(5, 64)).astype(np.float32)  # full range: pairs that would saturate
    opts = {"providers": ["CPUExecutionProvider"]}
    original = ort.InferenceSession(str(path), **opts).run(None, {"X": x})[0]
    exact = ort.InferenceSession(model.SerializeToString(), **opts).run(None, {"X": x})[0]
    assert original.tolist() == exact.tolist()
    np.testing.assert_allclose(original, x @ weight, atol=0.5)


def test_a_dynamically_quantised_model_is_rewritten_and_keeps_its_outputs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(_int8, "native_sums_exact", lambda: False)
    path, weight = _dynamic_int8(tmp_path)
    rng = np.random.default_rng(5)
    source = exact_session_source(str(path))
    assert isinstance(source, bytes)
    assert exact_session_source(str(tmp_path / "f32.onnx")) == str(tmp_path / "f32.onnx")
    # small activations never saturate: the rewritten model gives the original's outputs
    x = rng.uniform(-0.05, 0.05, (3, 64)).astype(np.float32)
    x[:, 0], x[:, 1] = 1.0, -0.05  # 255 beside 0; the rest quantise near the zero point (12)
    opts = {"providers": ["CPUExecutionProvider"]}
    original = ort.InferenceSession(str(tmp_path / "int8.onnx"), **opts).run(None, {"X": x})[0]
    rewritten = ort.InferenceSession(source, **opts).run(None, {"X": x})[0]
    np.testing.assert_allclose(rewritten, original, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(rewritten, x @ weight, atol=0.1)


def test_the_shipped_verifier_has_every_product_rewritten() -> None:
    from langchain_qgate.grounding.verifier.crossencoder import _shipped_folder

    model = onnx.load(_shipped_folder() / "model.onnx")
    products = sum(n.op_type == "MatMulInteger" for n in model.graph.node)
    assert products > 0
    assert exact_int8(model) == products
