#!/usr/bin/env python3
"""The models of `padlab bench`, in PyTorch, for a side-by-side timing.

Reads a LABEL<TAB>TEXT corpus, tokenizes it the way padlab does (Keras
text_to_word_sequence after removing <br />, a start token, ids by count,
num_words 10000), pads to maxlen 200 (pre), keeps the last 20% for
validation, and trains with batch 32 and Adam(1e-3, eps 1e-7) on one thread:

  rnn         Embedding(10000,32) -> nn.RNN(32) -> last output -> Linear(32,1)
  rnn_packed  the same through pack_padded_sequence (pads skipped), h_n read out
  avgpool     Embedding -> mean over the real tokens -> Linear(32,1)

Prints one JSON object with seconds per epoch for each model.
"""
import argparse
import collections
import json
import time

import torch
import torch.nn as nn

FILTERS = '!"#$%&()*+,-./:;<=>?@[\\]^_`{|}~\t\n'


def load(path, num_words, maxlen):
    table = str.maketrans({c: " " for c in FILTERS})
    docs, labels = [], []
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            line = line.rstrip("\n").rstrip("\r")
            if not line or line.lower() == "label\ttext":
                continue
            label, text = line.split("\t", 1)
            text = text.replace("<br />", " ").lower().translate(table)
            docs.append([w for w in text.split(" ") if w])
            labels.append(int(label))
    counts = collections.Counter()
    for d in docs:
        counts.update(d)
    first = {}
    for d in docs:
        for w in d:
            first.setdefault(w, len(first))
    order = sorted(counts, key=lambda w: (-counts[w], first[w]))
    index = {w: i + 3 for i, w in enumerate(order)}
    x = torch.zeros(len(docs), maxlen, dtype=torch.long)
    lengths = torch.zeros(len(docs), dtype=torch.long)
    for i, d in enumerate(docs):
        ids = [1] + [index[w] if index[w] < num_words else 2 for w in d]
        ids = ids[-maxlen:]  # truncating pre
        x[i, maxlen - len(ids):] = torch.tensor(ids)  # padding pre
        lengths[i] = len(ids)
    return x, lengths, torch.tensor(labels, dtype=torch.float32)


class RNN(nn.Module):
    def __init__(self, packed):
        super().__init__()
        self.emb = nn.Embedding(10000, 32)
        self.rnn = nn.RNN(32, 32, batch_first=True)
        self.out = nn.Linear(32, 1)
        self.packed = packed

    def forward(self, x, lengths):
        e = self.emb(x)
        if not self.packed:
            y, _ = self.rnn(e)
            return self.out(y[:, -1]).squeeze(1)
        # Pre-padded rows: move the real tokens to the front, then pack.
        T = x.shape[1]
        idx = (torch.arange(T).unsqueeze(0) + (T - lengths).unsqueeze(1)) % T
        e = torch.gather(e, 1, idx.unsqueeze(2).expand(-1, -1, e.shape[2]))
        p = nn.utils.rnn.pack_padded_sequence(e, lengths, batch_first=True, enforce_sorted=False)
        _, h = self.rnn(p)
        return self.out(h[0]).squeeze(1)


class Pool(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(10000, 32)
        self.out = nn.Linear(32, 1)

    def forward(self, x, lengths):
        mask = (torch.arange(x.shape[1]).unsqueeze(0) >= (x.shape[1] - lengths).unsqueeze(1)).float()
        e = self.emb(x) * mask.unsqueeze(2)
        return self.out(e.sum(1) / lengths.unsqueeze(1).float()).squeeze(1)


def train(model, data, epochs, seed):
    x, lengths, y = data
    n_train = int(len(x) * 0.8)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3, eps=1e-7)
    loss_fn = nn.BCEWithLogitsLoss()
    g = torch.Generator().manual_seed(seed)
    best, t0 = 0.0, time.perf_counter()
    for _ in range(epochs):
        model.train()
        for batch in torch.randperm(n_train, generator=g).split(32):
            opt.zero_grad()
            loss_fn(model(x[batch], lengths[batch]), y[batch]).backward()
            opt.step()
        model.eval()
        with torch.no_grad():
            correct = 0
            for batch in torch.arange(n_train, len(x)).split(32):
                correct += ((model(x[batch], lengths[batch]) > 0).float() == y[batch]).sum().item()
        best = max(best, correct / (len(x) - n_train))
    seconds = time.perf_counter() - t0
    return {"seconds": seconds, "seconds_per_epoch": seconds / epochs, "best_val_acc": best}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("corpus")
    ap.add_argument("--epochs", type=int, default=5)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.set_num_threads(1)
    torch.manual_seed(args.seed)
    data = load(args.corpus, 10000, 200)
    models = []
    for name, model in (("rnn", RNN(False)), ("rnn_packed", RNN(True)), ("avgpool", Pool())):
        r = train(model, data, args.epochs, args.seed)
        r["model"] = name
        models.append(r)
    print(json.dumps({"torch": torch.__version__, "epochs": args.epochs, "models": models}, indent=2))


if __name__ == "__main__":
    main()
