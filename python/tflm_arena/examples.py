"""Built-in example inputs (facts from TFLM's own planner tests)."""
from __future__ import annotations

import numpy as np

from ._records import make_records

# (size, first, last) of the 30 activation buffers of TFLM's 250 KB MobileNet
# person-detection model, as used by TFLM's greedy planner unit test.
_PERSON_DETECTION = [
    (9216, 0, 29), (3, 28, 29), (256, 27, 28), (2304, 26, 27), (2304, 25, 26),
    (2304, 24, 25), (1152, 23, 24), (4608, 22, 23), (4608, 21, 22), (4608, 20, 21),
    (4608, 19, 20), (4608, 18, 19), (4608, 17, 18), (4608, 16, 17), (4608, 15, 16),
    (4608, 14, 15), (4608, 13, 14), (4608, 12, 13), (2304, 11, 12), (9216, 10, 11),
    (9216, 9, 10), (9216, 8, 9), (4608, 7, 8), (18432, 6, 7), (18432, 5, 6),
    (18432, 4, 5), (9216, 3, 4), (36864, 2, 3), (18432, 1, 2), (18432, 0, 1),
]


def person_detection_records() -> np.ndarray:
    """The 30 buffers of TFLM's TestPersonDetectionModel as usage records."""
    s, f, l_ = zip(*_PERSON_DETECTION)
    return make_records(s, f, l_)
