"""SUB golden cases: int8 and int16 same shape and broadcast, int32 with an
activation, float32; activations."""

from binary_golden import float32, int8_int16_cases, int32


def cases():
    return [
        *int8_int16_cases("SUB", 500),
        int32("SUB", "sub_int32_broadcast_relu6", 505, [2, 3], [3], act="RELU6", bits=3),
        float32("SUB", "sub_float_broadcast_relu_n1", 506, [2, 3, 4], [4], act="RELU_N1_TO_1"),
        float32("SUB", "sub_float_same_shape", 507, [3, 5], [3, 5]),
    ]
