"""A script written for tf.lite.Interpreter, run unchanged on tflm_arena's
Interpreter: the import is the only line that differs from TFLite usage.

    python tflite_style_script.py MODEL.tflite OUT.npz

It uses only tf.lite.Interpreter's API (constructor keywords, details,
resize_tensor_input, allocate_tensors, set_tensor / get_tensor, tensor()
callables, invoke, reset_all_variables, signature list and runners) and
saves the random inputs and every output, so the caller can compare them
with the real TFLM's for the same inputs.
"""

import sys

import numpy as np

from tflm_arena import Interpreter  # with TensorFlow: from tensorflow.lite import Interpreter


def random_input(detail, rng):
    if np.issubdtype(detail["dtype"], np.integer):
        info = np.iinfo(detail["dtype"])
        x = rng.integers(info.min, info.max, size=detail["shape"], endpoint=True)
    else:
        x = rng.standard_normal(detail["shape"])
    return np.asarray(x, dtype=detail["dtype"])


def main(model_path, out_path):
    interpreter = Interpreter(model_path=model_path, num_threads=2, experimental_delegates=[])
    input_details = interpreter.get_input_details()
    output_details = interpreter.get_output_details()
    for d in input_details:  # the usual batch-size "resize", to the same shape
        interpreter.resize_tensor_input(d["index"], d["shape"])
    interpreter.allocate_tensors()

    rng = np.random.default_rng(7)
    saved = {}
    for k, d in enumerate(input_details):
        x = random_input(d, rng)
        interpreter.set_tensor(d["index"], x)
        saved[f"input{k}"] = x
    interpreter.invoke()
    for k, d in enumerate(output_details):
        y = interpreter.get_tensor(d["index"])
        view = interpreter.tensor(d["index"])  # a function giving a numpy view
        assert np.array_equal(view(), y) and view().shape == tuple(d["shape"])
        saved[f"output{k}"] = y

    # Signature runners get the same inputs, from a fresh variable state.
    by_index = {d["index"]: saved[f"input{k}"] for k, d in enumerate(input_details)}
    for key, names in interpreter.get_signature_list().items():
        interpreter.reset_all_variables()
        runner = interpreter.get_signature_runner(key)
        feed = {name: by_index[d["index"]] for name, d in runner.get_input_details().items()}
        assert sorted(feed) == names["inputs"]
        result = runner(**feed)
        assert sorted(result) == names["outputs"]
        for name, d in runner.get_output_details().items():
            saved[f"signature/{key}/{name}/{d['index']}"] = result[name]
    np.savez(out_path, **saved)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
