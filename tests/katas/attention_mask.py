# Reference solution: Hugging Face's attention_mask, 1 = real token.
import json, sys
import numpy as np

case = json.load(sys.stdin)["inputs"]
ids = np.array(case["input_ids"]).reshape(len(case["input_ids"]), -1)
print(json.dumps({"attention_mask": (ids != case["pad_id"]).astype(np.int64).tolist()}))
