# Reference solution: an additive mask with float32's most negative finite value.
import json, sys
import numpy as np

case = json.load(sys.stdin)["inputs"]
ids = np.array(case["input_ids"]).reshape(len(case["input_ids"]), -1)
bias = np.where(ids == case["pad_id"], np.finfo(np.float32).min, np.float32(0.0)).astype(np.float32)
print(json.dumps({"bias": bias.tolist()}))
