# Reference solution: -100 on each row's prompt (counted from its first real token) and on the pads.
import json, sys
import numpy as np

case = json.load(sys.stdin)["inputs"]
ids = np.array(case["input_ids"]).reshape(len(case["input_ids"]), -1)
m = np.array(case["attention_mask"]).reshape(ids.shape)
k = np.cumsum(m, axis=-1) - 1  # each real token's index among its row's real tokens
prompt = np.array(case["prompt_lengths"])[:, None]
labels = np.where((m == 1) & (k >= prompt), ids, -100)
print(json.dumps({"labels": labels.tolist()}))
