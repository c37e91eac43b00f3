# Reference solution: PyTorch's key_padding_mask, True = pad.
import json, sys
import numpy as np

case = json.load(sys.stdin)["inputs"]
ids = np.array(case["input_ids"]).reshape(len(case["input_ids"]), -1)
print(json.dumps({"key_padding_mask": (ids == case["pad_id"]).tolist()}))
