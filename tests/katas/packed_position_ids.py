# Reference solution: positions restart at every document's start.
import json, sys
import numpy as np

cu = np.array(json.load(sys.stdin)["inputs"]["cu_seqlens"])
N = int(cu[-1])
starts = np.repeat(cu[:-1], np.diff(cu))
print(json.dumps({"position_ids": (np.arange(N) - starts).tolist()}))
