"""The kernel-table rows of ADD_N, BATCH_MATMUL, BROADCAST_ARGS, CUMSUM,
DEPTH_TO_SPACE, DYNAMIC_UPDATE_SLICE, ELU, EMBEDDING_LOOKUP, GATHER_ND, IF,
L2_POOL_2D, LOG_SOFTMAX, PADV2, REDUCE_ALL, REVERSE_V2, SPACE_TO_DEPTH and
WHILE, each on small one-operator models (IF and WHILE with their branch
subgraphs), against the tflite-micro wheel's bisected minimum (x86-64), byte
for byte: the minimum and (head, tail). Int8 and float32 both where the
kernel's memory differs by type (an OpData or a scratch buffer only for
int8, quantization data in the temp tensors)."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest
from conftest import require_tflite_micro

import tflm_arena as ta
from tflm_arena.builder import ModelBuilder

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
import tflm_size as wheel  # benchmarks/tflm_size.py

Q = {"scale": [0.5], "zero_point": [-1]}


def _q(dtype: str) -> dict:
    return Q if dtype == "int8" else {}


def one_op(op, dtype, in_shape, out_shape, options=None, consts=(), out_q=None) -> bytes:
    """x -> op(x, *consts) -> y; consts are (shape, dtype, data)."""
    mb = ModelBuilder()
    x = mb.add_tensor(in_shape, dtype, "x", **_q(dtype))
    ins = [x] + [
        mb.add_tensor(shape, dt, f"c{i}", data=data) for i, (shape, dt, data) in enumerate(consts)
    ]
    y = mb.add_tensor(out_shape, dtype, "y", **(out_q if out_q is not None else _q(dtype)))
    mb.add_operator(op, ins, [y], options=options)
    mb.set_io([x], [y])
    return mb.build()


def add_n(dtype: str, n: int = 3) -> bytes:
    mb = ModelBuilder()
    xs = [mb.add_tensor([2, 5], dtype, f"x{i}", **_q(dtype)) for i in range(n)]
    y = mb.add_tensor([2, 5], dtype, "y", **_q(dtype))
    mb.add_operator("ADD_N", xs, [y])
    mb.set_io(xs, [y])
    return mb.build()


def batch_matmul(dtype: str, adj_x=False, adj_y=False, const_rhs=False) -> bytes:
    mb = ModelBuilder()
    lhs_shape = [2, 5, 3] if adj_x else [2, 3, 5]
    rhs_shape = [2, 4, 5] if adj_y else [2, 5, 4]
    a = mb.add_tensor(lhs_shape, dtype, "a", **_q(dtype))
    data = np.ones(rhs_shape, dtype) if const_rhs else None
    b = mb.add_tensor(rhs_shape, dtype, "b", data=data, **_q(dtype))
    y = mb.add_tensor([2, 3, 4], dtype, "y", **_q(dtype))
    mb.add_operator("BATCH_MATMUL", [a, b], [y], options={"adj_x": adj_x, "adj_y": adj_y})
    mb.set_io([a] if const_rhs else [a, b], [y])
    return mb.build()


def broadcast_args() -> bytes:
    mb = ModelBuilder()
    s1 = mb.add_tensor([3], "int32", "s1")
    s2 = mb.add_tensor([3], "int32", "s2")
    y = mb.add_tensor([3], "int32", "y")
    mb.add_operator("BROADCAST_ARGS", [s1, s2], [y])
    mb.set_io([s1, s2], [y])
    return mb.build()


def dynamic_update_slice(dtype: str) -> bytes:
    mb = ModelBuilder()
    x = mb.add_tensor([4, 6], dtype, "x", **_q(dtype))
    u = mb.add_tensor([2, 3], dtype, "u", **_q(dtype))
    idx = mb.add_tensor([2], "int32", "idx", data=[1, 2])
    y = mb.add_tensor([4, 6], dtype, "y", **_q(dtype))
    mb.add_operator("DYNAMIC_UPDATE_SLICE", [x, u, idx], [y])
    mb.set_io([x, u], [y])
    return mb.build()


def embedding_lookup(table_dtype: str, out_dtype: str) -> bytes:
    mb = ModelBuilder()
    ids = mb.add_tensor([3], "int32", "ids")
    tq = {"scale": [0.5], "zero_point": [0]} if table_dtype == "int8" else {}
    table = mb.add_tensor([5, 4], table_dtype, "table", data=np.ones([5, 4], table_dtype), **tq)
    y = mb.add_tensor([3, 4], out_dtype, "y", **(tq if out_dtype == "int8" else {}))
    mb.add_operator("EMBEDDING_LOOKUP", [ids, table], [y])
    mb.set_io([ids], [y])
    return mb.build()


def gather_nd(dtype: str) -> bytes:
    mb = ModelBuilder()
    p = mb.add_tensor([3, 4, 5], dtype, "p", **_q(dtype))
    i = mb.add_tensor([2, 2], "int32", "i", data=[[0, 1], [2, 3]])
    y = mb.add_tensor([2, 5], dtype, "y", **_q(dtype))
    mb.add_operator("GATHER_ND", [p, i], [y])
    mb.set_io([p], [y])
    return mb.build()


def if_model(dtype: str) -> bytes:
    """RELU(x) -> IF(cond): then RELU, RELU; else ABS, RELU."""
    mb = ModelBuilder()
    then_g = mb.add_subgraph("then")
    else_g = mb.add_subgraph("else")
    c = mb.add_tensor([1], "bool", "cond")
    x = mb.add_tensor([2, 8], dtype, "x", **_q(dtype))
    h = mb.add_tensor([2, 8], dtype, "h", **_q(dtype))
    mb.add_operator("RELU", [x], [h])
    y = mb.add_tensor([2, 8], dtype, "y", **_q(dtype))
    mb.add_operator(
        "IF",
        [c, h],
        [y],
        options={"then_subgraph_index": then_g, "else_subgraph_index": else_g},
    )
    mb.set_io([c, x], [y])
    for g, op in ((then_g, "RELU"), (else_g, "ABS")):
        a = mb.add_tensor([2, 8], dtype, "a", subgraph=g, **_q(dtype))
        b = mb.add_tensor([2, 8], dtype, "b", subgraph=g, **_q(dtype))
        mb.add_operator(op, [a], [b], subgraph=g)
        b2 = mb.add_tensor([2, 8], dtype, "b2", subgraph=g, **_q(dtype))
        mb.add_operator("RELU", [b], [b2], subgraph=g)
        mb.set_io([a], [b2], subgraph=g)
    return mb.build()


def while_model() -> bytes:
    """(i, x) -> WHILE(i < 3): (i + 1, x + x)."""
    mb = ModelBuilder()
    cond_g = mb.add_subgraph("cond")
    body_g = mb.add_subgraph("body")
    i = mb.add_tensor([1], "int32", "i")
    x = mb.add_tensor([2, 8], "float32", "x")
    i_out = mb.add_tensor([1], "int32", "i_out")
    y = mb.add_tensor([2, 8], "float32", "y")
    mb.add_operator(
        "WHILE",
        [i, x],
        [i_out, y],
        options={"cond_subgraph_index": cond_g, "body_subgraph_index": body_g},
    )
    mb.set_io([i, x], [y])
    ci = mb.add_tensor([1], "int32", "ci", subgraph=cond_g)
    cx = mb.add_tensor([2, 8], "float32", "cx", subgraph=cond_g)
    limit = mb.add_tensor([1], "int32", "limit", data=[3], subgraph=cond_g)
    cb = mb.add_tensor([1], "bool", "cb", subgraph=cond_g)
    mb.add_operator("LESS", [ci, limit], [cb], subgraph=cond_g)
    mb.set_io([ci, cx], [cb], subgraph=cond_g)
    bi = mb.add_tensor([1], "int32", "bi", subgraph=body_g)
    bx = mb.add_tensor([2, 8], "float32", "bx", subgraph=body_g)
    one = mb.add_tensor([1], "int32", "one", data=[1], subgraph=body_g)
    bi2 = mb.add_tensor([1], "int32", "bi2", subgraph=body_g)
    mb.add_operator("ADD", [bi, one], [bi2], subgraph=body_g)
    bx2 = mb.add_tensor([2, 8], "float32", "bx2", subgraph=body_g)
    mb.add_operator("ADD", [bx, bx], [bx2], subgraph=body_g)
    mb.set_io([bi, bx], [bi2, bx2], subgraph=body_g)
    return mb.build()


POOL = {"filter_width": 2, "filter_height": 2, "stride_w": 2, "stride_h": 2, "padding": "VALID"}
# LOG_SOFTMAX's int8 output quantization, which its Prepare requires.
LOG_SOFTMAX_OUT = {"scale": [16.0 / 256], "zero_point": [127]}
PAD = ([2, 2], "int32", [[1, 1], [2, 2]])

CASES = {
    "add_n_float32": lambda: add_n("float32"),
    "add_n_int8": lambda: add_n("int8"),
    "add_n_float32_five": lambda: add_n("float32", 5),
    "batch_matmul_float32": lambda: batch_matmul("float32"),
    "batch_matmul_float32_adj_y": lambda: batch_matmul("float32", adj_y=True),
    "batch_matmul_int16_adj_y": lambda: batch_matmul("int16", adj_y=True),
    "broadcast_args": broadcast_args,
    "cumsum_float32": lambda: one_op(
        "CUMSUM", "float32", [2, 3, 4], [2, 3, 4], {"exclusive": True}, [([], "int32", [1])]
    ),
    "cumsum_int8": lambda: one_op("CUMSUM", "int8", [2, 3, 4], [2, 3, 4], {}, [([], "int32", [1])]),
    "depth_to_space_float32": lambda: one_op(
        "DEPTH_TO_SPACE", "float32", [1, 2, 3, 8], [1, 4, 6, 2], {"block_size": 2}
    ),
    "depth_to_space_int8": lambda: one_op(
        "DEPTH_TO_SPACE", "int8", [1, 2, 3, 8], [1, 4, 6, 2], {"block_size": 2}
    ),
    "dynamic_update_slice_float32": lambda: dynamic_update_slice("float32"),
    "dynamic_update_slice_int8": lambda: dynamic_update_slice("int8"),
    "elu_float32": lambda: one_op("ELU", "float32", [2, 7], [2, 7]),
    "elu_int8": lambda: one_op("ELU", "int8", [2, 7], [2, 7]),
    "embedding_lookup_float32": lambda: embedding_lookup("float32", "float32"),
    "embedding_lookup_int8": lambda: embedding_lookup("int8", "int8"),
    "gather_nd_float32": lambda: gather_nd("float32"),
    "gather_nd_int8": lambda: gather_nd("int8"),
    "if_float32": lambda: if_model("float32"),
    "if_int8": lambda: if_model("int8"),
    "l2_pool_2d_float32": lambda: one_op("L2_POOL_2D", "float32", [1, 4, 6, 3], [1, 2, 3, 3], POOL),
    "log_softmax_float32": lambda: one_op("LOG_SOFTMAX", "float32", [2, 6], [2, 6]),
    "log_softmax_int8": lambda: one_op(
        "LOG_SOFTMAX", "int8", [2, 6], [2, 6], out_q=LOG_SOFTMAX_OUT
    ),
    "padv2_float32": lambda: one_op(
        "PADV2", "float32", [2, 3], [4, 7], consts=[PAD, ([], "float32", [0.5])]
    ),
    "padv2_int8": lambda: one_op("PADV2", "int8", [2, 3], [4, 7], consts=[PAD]),
    "reduce_all": lambda: one_op(
        "REDUCE_ALL", "bool", [3, 4, 5], [3, 5], {"keep_dims": False}, [([1], "int32", [1])]
    ),
    "reverse_v2_float32": lambda: one_op(
        "REVERSE_V2", "float32", [3, 4], [3, 4], consts=[([1], "int32", [1])]
    ),
    "reverse_v2_int8": lambda: one_op(
        "REVERSE_V2", "int8", [3, 4], [3, 4], consts=[([1], "int32", [1])]
    ),
    "space_to_depth_float32": lambda: one_op(
        "SPACE_TO_DEPTH", "float32", [1, 4, 6, 2], [1, 2, 3, 8], {"block_size": 2}
    ),
    "space_to_depth_int8": lambda: one_op(
        "SPACE_TO_DEPTH", "int8", [1, 4, 6, 2], [1, 2, 3, 8], {"block_size": 2}
    ),
    "while": while_model,
}

# The wheel's minimum is 32 bytes below ours, with the same head and tail:
# at its minimum, persistent data allocated in Prepare lands on the kernel's
# own temp tensors (docs/tflm_behaviour.md, section "Tail over temp"), which
# tflm_arena counts as a failure. BATCH_MATMUL: its transposed operand and
# quantization data cover the output's temp TfLiteAffineQuantization and
# zero-point array (only their pointer values are read afterwards);
# EMBEDDING_LOOKUP with an int8 table and a float32 output: its dims and
# OpData cover the last 32 bytes of the output's temp TfLiteTensor (dims,
# bytes, type), which its Prepare still reads.
TAIL_OVER_TEMP = {
    "batch_matmul_int8_adj_x": lambda: batch_matmul("int8", adj_x=True),
    "batch_matmul_int8_const_rhs": lambda: batch_matmul("int8", const_rhs=True),
    "embedding_lookup_int8_table_float32_out": lambda: embedding_lookup("int8", "float32"),
}


def _both(case: str, data: bytes, tmp_path):
    path = tmp_path / f"{case}.tflite"
    path.write_bytes(data)
    ours = ta.tflm_arena(path, target="tflite-micro-wheel")
    n, figs = wheel.wheel_minimum(path, hint=ours.min_arena_bytes)
    return ours, n, figs


@pytest.mark.no_asan
@pytest.mark.parametrize("case", sorted(CASES))
def test_equals_the_wheels_bisected_minimum(case, tmp_path):
    require_tflite_micro()
    ours, n, figs = _both(case, CASES[case](), tmp_path)
    assert ours.min_arena_bytes == n, (case, figs)
    assert (ours.head, ours.tail) == (figs["head"], figs["tail"])


@pytest.mark.no_asan
@pytest.mark.parametrize("case", sorted(TAIL_OVER_TEMP))
def test_tail_over_temp_cases_are_32_bytes_above_the_wheel(case, tmp_path):
    require_tflite_micro()
    ours, n, figs = _both(case, TAIL_OVER_TEMP[case](), tmp_path)
    assert (ours.head, ours.tail) == (figs["head"], figs["tail"])
    assert ours.min_arena_bytes == n + 32, (case, figs)


def _persistent(data: bytes, target: str) -> int:
    """Bytes requested of AllocatePersistentBuffer (alignment not counted)."""
    return ta.tflm_arena(data, target=target).categories["persistent_buffer_data"].requested


@pytest.mark.parametrize(
    ("int8", "float32", "wheel", "cortex_m"),
    [
        # ADD_N int8: an OpData of 10 int32.
        (add_n("int8"), add_n("float32"), 40, 40),
        # CUMSUM int8: 9 int32.
        (CASES["cumsum_int8"](), CASES["cumsum_float32"](), 36, 36),
        # LOG_SOFTMAX int8: five int32 and two size_t.
        (CASES["log_softmax_int8"](), CASES["log_softmax_float32"](), 40, 28),
    ],
    ids=["add_n", "cumsum", "log_softmax"],
)
def test_prepares_int8_opdata_by_the_targets_struct_layout(int8, float32, wheel, cortex_m):
    for target, bytes_ in (("x86-64", wheel), ("cortex-m", cortex_m)):
        assert _persistent(int8, target) - _persistent(float32, target) == bytes_, target


def test_the_scratch_of_add_n_is_one_pointer_per_input():
    for target, pointer in (("x86-64", 8), ("cortex-m", 4)):
        for n in (2, 5):
            requests = ta.tflm_scratch_requests(add_n("float32", n), target=target)
            assert requests == [(pointer * n, 0, 0)], (target, n)


def test_batch_matmul_copies_the_operand_it_transposes():
    """Without adj_y, rhs [2, 5, 4] float32 is copied: a TfLiteEvalTensor
    (24 / 12 bytes), its dims (16) and its 160 data bytes."""
    plain = batch_matmul("float32")
    adj_y = batch_matmul("float32", adj_y=True)
    assert _persistent(plain, "x86-64") - _persistent(adj_y, "x86-64") == 24 + 16 + 160
    assert _persistent(plain, "cortex-m") - _persistent(adj_y, "cortex-m") == 12 + 16 + 160
    # int8 adds its quantization data (seven int32).
    int8 = batch_matmul("int8", adj_y=True)
    assert _persistent(int8, "cortex-m") - _persistent(adj_y, "cortex-m") == 28


def test_a_hybrid_batch_matmul_is_tflms_refusal():
    """float32 lhs, int8 rhs: the wheel's log says "batch_matmul.cc:198
    lhs_data->type == rhs_data->type was not true." at any arena size."""
    mb = ModelBuilder()
    a = mb.add_tensor([2, 3, 5], "float32", "a")
    b = mb.add_tensor(
        [2, 5, 4], "int8", "b", data=np.ones([2, 5, 4], "int8"), scale=[0.5], zero_point=[0]
    )
    y = mb.add_tensor([2, 3, 4], "float32", "y")
    mb.add_operator("BATCH_MATMUL", [a, b], [y])
    mb.set_io([a], [y])
    with pytest.raises(ta.TflmRefusesModelError) as e:
        ta.tflm_arena(mb.build(), target="cortex-m")
    assert e.value.reason == "lhs_data->type == rhs_data->type was not true."


def _oracle_rows() -> list[dict[str, str]]:
    import csv

    table = Path(__file__).with_name("data") / "oracle_armhf_more_ops.tsv"
    with open(table) as f:
        return list(
            csv.DictReader((line for line in f if not line.startswith("#")), delimiter="\t")
        )


@pytest.mark.parametrize("row", _oracle_rows(), ids=lambda r: r["case"])
def test_cortex_m_column_equals_real_32_bit_tflm(row):
    # The rows' 32-bit column (struct sizes from AAPCS layouts) against a
    # real 32-bit ARM TFLM build, minimum, head and tail.
    data = {**CASES, **TAIL_OVER_TEMP}[row["case"]]()
    r = ta.tflm_arena(data, target="cortex-m")
    assert (r.min_arena_bytes, r.head, r.tail) == (
        int(row["min_arena"]),
        int(row["head"]),
        int(row["tail"]),
    )


def test_the_oracle_table_covers_every_case():
    assert {r["case"] for r in _oracle_rows()} == set(CASES) | set(TAIL_OVER_TEMP)
