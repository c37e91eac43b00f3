# Broken on purpose: under padding='pre' the real tokens are set with
# mask[i, -n:] = True, which for n = 0 is the whole row.
import json, sys
import numpy as np

case = json.load(sys.stdin)["inputs"]
T = case["maxlen"]
mask = np.zeros((len(case["lengths"]), T), dtype=bool)
for i, n in enumerate(case["lengths"]):
    if case["padding"] == "post":
        mask[i, :n] = True
    else:
        mask[i, -n:] = True
print(json.dumps({"mask": mask.tolist()}))
