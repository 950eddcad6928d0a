"""DIV golden cases: int8 same shape and broadcast (divisors never at their
zero point), int32, float32; activations."""

from binary_golden import float32, int32, quantized


def cases():
    return [
        quantized(
            "DIV", "div_int8_same_shape", 701, [1, 4, 4, 3], [1, 4, 4, 3], avoid_zero_divisor=True
        ),
        quantized(
            "DIV",
            "div_int8_broadcast_relu",
            702,
            [2, 1, 3, 1],
            [1, 4, 1, 2],
            act="RELU",
            zps=(3, -9, 0),
            avoid_zero_divisor=True,
        ),
        int32("DIV", "div_int32_broadcast", 703, [2, 3], [3], bits=8, avoid_zero_divisor=True),
        float32("DIV", "div_float_broadcast_relu6", 704, [2, 3, 4], [4], act="RELU6"),
    ]
