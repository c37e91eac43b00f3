# Broken on purpose: bisect_left (searchsorted side='left') keeps a length
# equal to a boundary in the bucket below it.
import json, sys
import numpy as np

case = json.load(sys.stdin)["inputs"]
lengths = np.array(case["lengths"], dtype=np.int64)
bounds = np.array(case["boundaries"], dtype=np.int64)
bucket = np.searchsorted(bounds, lengths, side="left")
width = np.zeros(len(bounds) + 1, dtype=np.int64)
np.maximum.at(width, bucket, lengths)
print(json.dumps({"bucket": bucket.tolist(), "width": width.tolist()}))
