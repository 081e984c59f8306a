"""The plain-torch code a page prints for a RunConfig: the same loader as :func:`..scenarios.run.build_loader`
builds, runnable as printed once the user's ``dataset`` exists.

Twin of ``build_loader``'s choices (same sampler, batch sampler, generator, collate and worker arguments), in
torch's own API. What torch does not have — the per-sample weights, ``pad_collate``, LoaderLab's
``BucketBatchSampler`` — is defined inline in the printed code, so nothing is left undefined. The dataset is
the user's: map-style with samples ``(tokens, label)`` (``tokens`` a 1-D tensor), or an IterableDataset for
the iterable kinds. A test executes every page's printed code and compares its batches with LoaderLab's
loader. Knows nothing of streamlit.
"""

from __future__ import annotations

from ..scenarios.run import RunConfig

WEIGHTS = '''\
# one weight per sample: 1 / (count of its label), as LoaderLab's inverse-frequency run
labels = [int(dataset[i][1]) for i in range(len(dataset))]
counts = Counter(labels)
weights = [1.0 / counts[label] for label in labels]
'''

PAD_COLLATE = '''\
def pad_collate(samples):
    """(tokens, label) samples -> (tokens padded with 0 to the longest, labels, lengths)."""
    tokens = [s[0] for s in samples]
    return (pad_sequence(tokens, batch_first=True, padding_value=0),
            torch.tensor([s[1] for s in samples]), torch.tensor([len(t) for t in tokens]))
'''

BUCKET = '''\
lengths = [len(dataset[i][0]) for i in range(len(dataset))]


class BucketBatchSampler(torch.utils.data.Sampler):
    """Batches of similar length: shuffle, sort within pools of `pool` batches, then shuffle the batches."""

    def __init__(self, lengths, batch_size, drop_last=False, seed=0, pool=50):
        self.lengths, self.batch_size, self.drop_last = list(lengths), batch_size, drop_last
        self.seed, self.pool, self.epoch = seed, pool, 0

    def __len__(self):
        n = len(self.lengths)
        return n // self.batch_size if self.drop_last else -(-n // self.batch_size)

    def __iter__(self):
        g = torch.Generator().manual_seed(self.seed + self.epoch)  # a new order every epoch
        self.epoch += 1
        order = torch.randperm(len(self.lengths), generator=g).tolist()
        size = self.batch_size * self.pool
        batches = []
        for start in range(0, len(order), size):
            pooled = sorted(order[start:start + size], key=self.lengths.__getitem__)
            batches += [pooled[i:i + self.batch_size] for i in range(0, len(pooled), self.batch_size)]
        if self.drop_last:
            batches = [b for b in batches if len(b) == self.batch_size]
        for i in torch.randperm(len(batches), generator=g).tolist():
            yield batches[i]
'''


def _map_args(config: RunConfig) -> tuple[list[str], list[str]]:
    """The DataLoader arguments of a map-style loader, and the lines that must come before it."""
    if config.batch_sampler == "bucket":
        return ([f"batch_sampler=BucketBatchSampler(lengths, batch_size={config.batch_size}, "
                 f"drop_last={config.drop_last}, seed={config.seed})"]
                + (["shuffle=True"] if config.shuffle else [])), [BUCKET]
    before = [f"generator = torch.Generator().manual_seed({config.seed})\n"]
    args = [f"batch_size={config.batch_size}"]
    if config.sampler == "weighted":  # build_loader hands the sampler the loader's generator: so does this
        before = [WEIGHTS, before[0] + "sampler = torch.utils.data.WeightedRandomSampler(weights, "
                  f"num_samples=len(dataset), replacement={config.replacement},\n"
                  "                                                generator=generator)\n"]
        args.append("sampler=sampler")
    if config.shuffle:
        args.append("shuffle=True")
    if config.drop_last:
        args.append("drop_last=True")
    args.append("generator=generator")
    return args, before


def torch_code(config: RunConfig) -> str:
    """The plain-torch loader for ``config``, ready to copy and run (the dataset is yours)."""
    if config.kind == "map":
        args, before = _map_args(config)
    else:  # an IterableDataset orders its samples itself: no sampler, no generator (as build_loader)
        args, before = [f"batch_size={config.batch_size}"] + (["drop_last=True"] if config.drop_last else []), []
    imports = ["import torch"]
    if config.kind == "map" and config.batch_sampler != "bucket" and config.sampler == "weighted":
        imports.insert(0, "from collections import Counter")
    if config.collate == "pad":
        imports.append("from torch.nn.utils.rnn import pad_sequence")
        before.append(PAD_COLLATE)
        args.append("collate_fn=pad_collate")
    if config.num_workers:
        args += [f"num_workers={config.num_workers}", f"prefetch_factor={config.prefetch_factor}"]
        if not config.in_order:
            args.append("in_order=False")
        if config.persistent_workers:
            args.append("persistent_workers=True")
    if config.pin_memory:
        args.append("pin_memory=True")
    if config.timeout:
        args.append(f"timeout={config.timeout:g}")
    style = "a Dataset" if config.kind == "map" else "an IterableDataset"
    code = "\n".join(imports) + f"\n\n# dataset = ...  # yours: {style} of (tokens, label) samples\n"
    after_def = False
    for part in before:  # two blank lines around a def or a class, as PEP 8 has it
        code += ("\n\n" if part.startswith(("def ", "class ")) or after_def else "\n") + part
        after_def = part in (PAD_COLLATE, BUCKET)
    joined = ",\n    ".join(["dataset", *args])
    return (code + ("\n\n" if after_def else "\n") +
            f"loader = torch.utils.data.DataLoader(\n    {joined},\n)\nfor batch in loader:\n    ...\n")
