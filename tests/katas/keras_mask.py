# Reference solution: a Keras mask from lengths, either padding side.
import json, sys
import numpy as np

case = json.load(sys.stdin)["inputs"]
lengths = np.array(case["lengths"])[:, None]
t = np.arange(case["maxlen"])[None, :]
if case["padding"] == "post":
    mask = t < lengths
else:
    mask = t >= case["maxlen"] - lengths
print(json.dumps({"mask": mask.tolist()}))
