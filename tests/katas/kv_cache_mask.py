# Reference solution: generate's mask, cache_position and position ids after `steps` steps.
import json, sys
import numpy as np

case = json.load(sys.stdin)["inputs"]
m = np.array(case["attention_mask"]).reshape(len(case["attention_mask"]), -1)
B, T = m.shape
S = case["steps"]
grown = np.concatenate([m, np.ones((B, S), dtype=m.dtype)], axis=-1)
pos = np.cumsum(grown, axis=-1) - 1
print(json.dumps({"attention_mask": grown.tolist(), "cache_position": list(range(T, T + S)),
                  "position_ids": pos[:, T:].tolist()}))
