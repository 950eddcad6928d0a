"""SUB golden cases: int8 and int16 same shape and broadcast, int32 with an
activation, float32; activations."""

from binary_golden import float32, int32, quantized


def cases():
    return [
        quantized("SUB", "sub_int8_same_shape", 501, [1, 4, 4, 3], [1, 4, 4, 3], act="RELU"),
        quantized(
            "SUB",
            "sub_int8_broadcast_two_way",
            502,
            [2, 1, 3, 1],
            [1, 4, 1, 2],
            act="RELU6",
            zps=(3, -9, 0),
        ),
        quantized(
            "SUB",
            "sub_int16_same_shape",
            503,
            [1, 2, 5, 4],
            [1, 2, 5, 4],
            zps=(0, 0, 0),
            dtype="int16",
        ),
        quantized(
            "SUB", "sub_int16_broadcast", 504, [3, 4, 4], [4, 1], zps=(0, 0, 0), dtype="int16"
        ),
        int32("SUB", "sub_int32_broadcast_relu6", 505, [2, 3], [3], act="RELU6", bits=3),
        float32("SUB", "sub_float_broadcast_relu_n1", 506, [2, 3, 4], [4], act="RELU_N1_TO_1"),
        float32("SUB", "sub_float_same_shape", 507, [3, 5], [3, 5]),
    ]
