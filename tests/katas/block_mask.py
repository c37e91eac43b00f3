# Reference solution: the rule's dense mask, padded with False to whole
# tiles, each tile summed: none kept -> 0, every cell -> 2, else 1.
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
padded = np.zeros((B, nb * block, nb * block), dtype=bool)
padded[:, :T, :T] = keep
kept = padded.reshape(B, nb, block, nb, block).sum(axis=(2, 4))
tiles = np.where(kept == 0, 0, np.where(kept == block * block, 2, 1))
print(json.dumps({"tiles": tiles.tolist(), "kv_num_blocks": (tiles == 1).sum(axis=2).tolist(),
                  "full_kv_num_blocks": (tiles == 2).sum(axis=2).tolist()}))
