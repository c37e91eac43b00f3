#!/usr/bin/env python3
"""The models of `padlab bench`, in PyTorch's fastest formulations, for a
side-by-side timing (bench/compare runs it).

Reads a LABEL<TAB>TEXT corpus, tokenizes it the way padlab does (Keras
text_to_word_sequence after removing <br />, a start token, ids by count,
num_words 10000), pads to maxlen 200 (pre), keeps the last 20% for
validation, and trains with batch 32 and Adam(1e-3, eps 1e-7) on one thread.
Each cell (rnn, gru, lstm: nn.RNN / nn.GRU / nn.LSTM, 32 units, then
Linear(32,1)) runs three ways:

  CELL         no mask: the padded rows as they are, the last output read out
  CELL_where   masked: a loop over time on nn.RNNCell/GRUCell/LSTMCell whose
               state is carried over pads with torch.where (Keras's masking)
  CELL_packed  masked: pack_padded_sequence (pads skipped), h_n read out

and the pooling model Embedding -> mean -> Linear(32,1) two ways:

  avgpool         the mean over every position, pads included
  avgpool_masked  the mean over the real tokens

Prints one JSON object with wall and CPU seconds per epoch for each model.
Usage: torch_models.py CORPUS [--epochs N] [--models a,b,...]
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


CELLS = {"rnn": (nn.RNN, nn.RNNCell), "gru": (nn.GRU, nn.GRUCell), "lstm": (nn.LSTM, nn.LSTMCell)}


def real_mask(x, lengths):
    """(B,T) True at real tokens of pre-padded rows."""
    T = x.shape[1]
    return torch.arange(T).unsqueeze(0) >= (T - lengths).unsqueeze(1)


class Recurrent(nn.Module):
    def __init__(self, cell, how):
        super().__init__()
        self.emb = nn.Embedding(10000, 32)
        self.lstm = cell == "lstm"
        self.how = how
        layer, step = CELLS[cell]
        self.rnn = step(32, 32) if how == "where" else layer(32, 32, batch_first=True)
        self.out = nn.Linear(32, 1)

    def forward(self, x, lengths):
        e = self.emb(x)
        if self.how == "where":
            return self.out(self.where_loop(e, real_mask(x, lengths))).squeeze(1)
        if self.how == "packed":
            # Pre-padded rows: move the real tokens to the front, then pack.
            T = x.shape[1]
            idx = (torch.arange(T).unsqueeze(0) + (T - lengths).unsqueeze(1)) % T
            e = torch.gather(e, 1, idx.unsqueeze(2).expand(-1, -1, e.shape[2]))
            p = nn.utils.rnn.pack_padded_sequence(e, lengths, batch_first=True, enforce_sorted=False)
            _, h = self.rnn(p)
            return self.out((h[0] if self.lstm else h)[0]).squeeze(1)
        y, _ = self.rnn(e)
        return self.out(y[:, -1]).squeeze(1)

    def where_loop(self, e, mask):
        B, T, _ = e.shape
        h = e.new_zeros(B, 32)
        c = e.new_zeros(B, 32)
        for t in range(T):
            m = mask[:, t : t + 1]
            if self.lstm:
                h2, c2 = self.rnn(e[:, t], (h, c))
                c = torch.where(m, c2, c)
            else:
                h2 = self.rnn(e[:, t], h)
            h = torch.where(m, h2, h)
        return h


class Pool(nn.Module):
    def __init__(self, masked):
        super().__init__()
        self.emb = nn.Embedding(10000, 32)
        self.out = nn.Linear(32, 1)
        self.masked = masked

    def forward(self, x, lengths):
        if not self.masked:
            return self.out(self.emb(x).mean(1)).squeeze(1)
        e = self.emb(x) * real_mask(x, lengths).unsqueeze(2).float()
        return self.out(e.sum(1) / lengths.unsqueeze(1).float()).squeeze(1)


def make(name):
    if name.startswith("avgpool"):
        return Pool(name == "avgpool_masked")
    cell, _, how = name.partition("_")
    return Recurrent(cell, how or "none")


ALL = ["rnn", "rnn_where", "rnn_packed", "gru", "gru_where", "gru_packed", "lstm", "lstm_where", "lstm_packed",
       "avgpool", "avgpool_masked"]


def train(model, data, epochs, seed):
    x, lengths, y = data
    n_train = int(len(x) * 0.8)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3, eps=1e-7)
    loss_fn = nn.BCEWithLogitsLoss()
    g = torch.Generator().manual_seed(seed)
    best, t0, c0 = 0.0, time.perf_counter(), time.process_time()
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
    seconds, cpu = time.perf_counter() - t0, time.process_time() - c0
    return {"seconds": seconds, "seconds_per_epoch": seconds / epochs, "cpu_seconds_per_epoch": cpu / epochs,
            "best_val_acc": best}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("corpus")
    ap.add_argument("--epochs", type=int, default=5)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--models", default=",".join(ALL))
    args = ap.parse_args()
    torch.set_num_threads(1)
    data = load(args.corpus, 10000, 200)
    models = []
    for name in args.models.split(","):
        torch.manual_seed(args.seed)
        r = train(make(name), data, args.epochs, args.seed)
        r["model"] = name
        models.append(r)
    print(json.dumps({"torch": torch.__version__, "epochs": args.epochs, "models": models}, indent=2))


if __name__ == "__main__":
    main()
