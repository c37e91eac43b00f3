# Reference solution: Keras's pad_sequences.
import json, sys
import numpy as np

case = json.load(sys.stdin)["inputs"]
seqs, maxlen, value = case["sequences"], case["maxlen"], case["value"]
out = np.full((len(seqs), maxlen), value, dtype=np.int32)
for i, s in enumerate(seqs):
    s = s[-maxlen:] if case["truncating"] == "pre" else s[:maxlen]
    if not s:
        continue
    if case["padding"] == "pre":
        out[i, maxlen - len(s):] = s
    else:
        out[i, :len(s)] = s
print(json.dumps({"padded": out.tolist()}))
