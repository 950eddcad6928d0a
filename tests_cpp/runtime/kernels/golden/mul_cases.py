"""MUL golden cases: int8 (zero points) and int16 (zero points 0) same
shape and broadcast, int32 wrapping, float32; activations."""

from binary_golden import float32, int32, quantized


def cases():
    return [
        quantized("MUL", "mul_int8_same_shape", 601, [1, 4, 4, 3], [1, 4, 4, 3], act="RELU"),
        quantized(
            "MUL",
            "mul_int8_broadcast_two_way",
            602,
            [2, 1, 3, 1],
            [1, 4, 1, 2],
            act="RELU6",
            zps=(3, -9, 0),
        ),
        quantized(
            "MUL",
            "mul_int16_same_shape",
            603,
            [1, 2, 5, 4],
            [1, 2, 5, 4],
            zps=(0, 0, 0),
            dtype="int16",
        ),
        quantized(
            "MUL", "mul_int16_broadcast", 604, [3, 4, 4], [4, 1], zps=(0, 0, 0), dtype="int16"
        ),
        int32("MUL", "mul_int32_broadcast", 605, [2, 3], [3], bits=12),
        float32("MUL", "mul_float_broadcast_relu", 606, [2, 3, 4], [4], act="RELU"),
    ]
