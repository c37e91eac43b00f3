# A classic bug: the pads are masked out of the sum, but the mean divides by
# T, the padded width, instead of the row's real count.
import json, sys
import numpy as np

case = json.load(sys.stdin)["inputs"]
x = np.array(case["x"], dtype=np.float32)
m = np.array(case["attention_mask"], dtype=np.float32).reshape(x.shape[0], -1)[:, :, None]
pooled = (x * m).sum(axis=1) / x.shape[1]
print(json.dumps({"pooled": pooled.tolist()}))
