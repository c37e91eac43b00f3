# Reference solution: softmax over the keys a key_padding_mask keeps (True =
# pad); a row with no visible key gets zeros, as SDPA gives since PyTorch 2.5.
import json, sys
import numpy as np

case = json.load(sys.stdin)["inputs"]
s = np.array(case["scores"], dtype=np.float64)
visible = ~np.array(case["key_padding_mask"], dtype=bool).reshape(s.shape[0], -1)[:, None, :]
s = np.where(visible, s, -np.inf)
top = s.max(axis=-1, keepdims=True)
top = np.where(np.isfinite(top), top, 0.0)
e = np.where(visible, np.exp(s - top), 0.0)
total = e.sum(axis=-1, keepdims=True)
w = np.divide(e, total, out=np.zeros_like(e), where=total > 0)
print(json.dumps({"weights": w.tolist()}))
