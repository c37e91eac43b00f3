# A classic bug: positions counted from the row's start, so under left
# padding the first real token is not at position 0.
import json, sys
import numpy as np

case = json.load(sys.stdin)["inputs"]
m = np.array(case["attention_mask"]).reshape(len(case["attention_mask"]), -1)
pos = np.broadcast_to(np.arange(m.shape[1]), m.shape)
print(json.dumps({"position_ids": pos.tolist()}))
