"""MUL golden cases: int8 (zero points) and int16 (zero points 0) same
shape and broadcast, int32 wrapping, float32; activations."""

from binary_golden import float32, int8_int16_cases, int32


def cases():
    return [
        *int8_int16_cases("MUL", 600),
        int32("MUL", "mul_int32_broadcast", 605, [2, 3], [3], bits=12),
        float32("MUL", "mul_float_broadcast_relu", 606, [2, 3, 4], [4], act="RELU"),
    ]
