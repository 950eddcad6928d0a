"""SignatureRunner: runs one SignatureDef of an Interpreter, as
``tf.lite``'s SignatureRunner does (``tflm_arena.interpreter.SignatureRunner``
is the same class)."""

from __future__ import annotations

from typing import Any, Protocol

import numpy as np


class _Runs(Protocol):
    """What a SignatureRunner uses of its :class:`Interpreter` (a protocol,
    so this module does not import the interpreter that makes runners)."""

    def resize_tensor_input(
        self, input_index: int, tensor_size: Any, strict: bool = False
    ) -> None: ...
    def set_tensor(self, tensor_index: int, value: Any) -> None: ...
    def invoke(self) -> None: ...
    def get_tensor(self, tensor_index: int, subgraph_index: int = 0) -> np.ndarray: ...
    def _details(self, tensor_index: int) -> dict[str, Any]: ...


class SignatureRunner:
    """Runs one SignatureDef of an :class:`Interpreter`, as
    ``tf.lite``'s SignatureRunner: call it with keyword arguments named as
    the signature's inputs (numpy arrays of the inputs' dtype and shape); it
    returns a dict of output names -> arrays (copies). Made by
    :meth:`Interpreter.get_signature_runner`.

    >>> import numpy as np, tflm_arena as ta
    >>> it = ta.Interpreter(model_path="hello_world_int8.tflite")
    >>> run = it.get_signature_runner("serving_default")
    >>> run(dense_input=np.array([[17]], np.int8))["dense_2"]
    array([[-43]], dtype=int8)
    """

    def __init__(
        self,
        interpreter: _Runs,
        signature_key: str,
        inputs: dict[str, int],
        outputs: dict[str, int],
    ) -> None:
        """Use :meth:`Interpreter.get_signature_runner`.

        >>> import tflm_arena as ta
        >>> it = ta.Interpreter(model_path="hello_world_int8.tflite")
        >>> it.get_signature_runner().signature_key
        'serving_default'
        """
        self._interpreter = interpreter
        self.signature_key = signature_key
        # Sorted by name, as TFLite's signature maps.
        self._inputs = dict(sorted(inputs.items()))
        self._outputs = dict(sorted(outputs.items()))

    def __call__(self, **kwargs: Any) -> dict[str, np.ndarray]:
        """Sets the named inputs, invokes, returns the outputs by name."""
        if len(kwargs) != len(self._inputs):
            raise ValueError(
                "Invalid number of inputs provided for running a SignatureDef, "
                f"expected {len(self._inputs)} vs provided {len(kwargs)}"
            )
        it = self._interpreter
        for name in kwargs:
            if name not in self._inputs:
                raise ValueError(
                    f"Invalid Input name ({name}) for SignatureDef "
                    f"{self.signature_key!r} (inputs: {list(self._inputs)})"
                )
        for name, value in kwargs.items():
            value = np.asarray(value)
            it.resize_tensor_input(self._inputs[name], value.shape)
            it.set_tensor(self._inputs[name], value)
        it.invoke()
        return {name: it.get_tensor(index) for name, index in self._outputs.items()}

    def get_input_details(self) -> dict[str, dict[str, Any]]:
        """Input name -> the tensor's details dict (keys of
        :meth:`Interpreter.get_input_details`).

        >>> import tflm_arena as ta
        >>> run = ta.Interpreter(model_path="hello_world_int8.tflite").get_signature_runner()
        >>> run.get_input_details()["dense_input"]["index"]
        0
        """
        return {name: self._interpreter._details(i) for name, i in self._inputs.items()}

    def get_output_details(self) -> dict[str, dict[str, Any]]:
        """Output name -> the tensor's details dict.

        >>> import tflm_arena as ta
        >>> run = ta.Interpreter(model_path="hello_world_int8.tflite").get_signature_runner()
        >>> run.get_output_details()["dense_2"]["index"]
        9
        """
        return {name: self._interpreter._details(i) for name, i in self._outputs.items()}
