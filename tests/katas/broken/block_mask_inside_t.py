# Broken on purpose: each tile judged on the cells it has inside T, so a
# tile that reaches past T and keeps all of those is called full.
import json, sys
import numpy as np

case = json.load(sys.stdin)["inputs"]
real = np.array(case["attention_mask"], dtype=bool)
doc = np.array(case["document_ids"])
rule, block = case["rule"], case["block"]
B, T = real.shape
q = np.arange(T)[:, None]
kv = np.arange(T)[None, :]
keep = np.ones((B, T, T), dtype=bool)
if "causal" in rule:
    keep &= kv <= q
if "padding" in rule:
    keep &= real[:, None, :]
if "document" in rule:
    keep &= doc[:, :, None] == doc[:, None, :]
nb = -(-T // block)
tiles = np.zeros((B, nb, nb), dtype=int)
for i in range(nb):
    for j in range(nb):
        t = keep[:, i * block:(i + 1) * block, j * block:(j + 1) * block]
        tiles[:, i, j] = np.where(t.all(axis=(1, 2)), 2, np.where(t.any(axis=(1, 2)), 1, 0))
print(json.dumps({"tiles": tiles.tolist(), "kv_num_blocks": (tiles == 1).sum(axis=2).tolist(),
                  "full_kv_num_blocks": (tiles == 2).sum(axis=2).tolist()}))
