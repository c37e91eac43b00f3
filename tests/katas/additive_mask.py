# Reference solution: an additive mask, 0 at real keys, -inf at pads.
import json, sys
import numpy as np

case = json.load(sys.stdin)["inputs"]
ids = np.array(case["input_ids"]).reshape(len(case["input_ids"]), -1)
bias = np.where(ids == case["pad_id"], np.float32(-np.inf), np.float32(0.0))
print(json.dumps({"bias": bias.tolist()}))
