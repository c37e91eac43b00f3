# Reference solution: the ids, -100 where the mask says pad.
import json, sys
import numpy as np

case = json.load(sys.stdin)["inputs"]
ids = np.array(case["input_ids"]).reshape(len(case["input_ids"]), -1)
m = np.array(case["attention_mask"]).reshape(ids.shape)
print(json.dumps({"labels": np.where(m == 1, ids, -100).tolist()}))
