"""Texts of the "Sampling & class imbalance" page."""

EN = {
    "sampling.title": "Sampling and class imbalance",
    "sampling.explain": (
        "The sampler decides which samples an epoch draws. `shuffle=True` (a `RandomSampler`) draws every "
        "sample once, so each batch mirrors the data's own class ratio; `WeightedRandomSampler` draws each "
        "sample with a probability proportional to its weight, so weights inverse to class frequency give "
        "balanced batches — by drawing minority samples many times and leaving majority samples out. Below, "
        "the same dataset runs through both, and through a third sampler with class weights you edit."),
    "sampling.try": (
        "Try it: set the share of label 0 to 0.95 in the sidebar (or pick the stdlib files dataset), switch "
        "`replacement` off, and edit the class weights."),
    "sampling.needs_map": (
        "Samplers choose dataset indices, so they need a map-style Dataset; an IterableDataset decides its own "
        "order. Choose \"map-style Dataset\" under dataset style in the sidebar."),
    "sampling.bucket_ignored": (
        "The sidebar's `batch_sampler` is set to bucketing; a batch_sampler replaces the sampler, so this page "
        "uses torch's default BatchSampler for every run."),
    "sampling.padded": (
        "The samples of this dataset differ in length, so these runs use the padding collate_fn (the default "
        "collate would fail; see the Padding & collate page). It does not change which samples are drawn."),
    "sampling.replacement": "replacement (both WeightedRandomSampler runs)",
    "sampling.replacement_help": (
        "WeightedRandomSampler(…, replacement=…). With replacement=False each sample is drawn at most once."),
    "sampling.weights.title": "Your class weights",
    "sampling.weights.explain": (
        "One weight per class; the third run gives every sample its class's weight. They start at the square "
        "root of the inverse frequency, a common softer choice than full inverse frequency. Only the ratios "
        "matter: the sampler normalises them."),
    "sampling.weights.class": "class",
    "sampling.weights.samples": "samples in the dataset",
    "sampling.weights.weight": "weight",
    "sampling.label": "label {label}",
    "sampling.run.random": "RandomSampler (shuffle=True)",
    "sampling.run.inverse": "WeightedRandomSampler, inverse class frequency",
    "sampling.run.yours": "WeightedRandomSampler, your class weights",
    "sampling.run.failed": "The run with your weights failed; torch says:",
    "sampling.batches.title": "Labels batch by batch",
    "sampling.batches.explain": (
        "Each bar is one batch, stacked by label, in the order your loop received the batches. Press Play to "
        "watch the batches arrive, or drag the slider."),
    "sampling.batches.x": "batch (in the order your loop received them; epochs one after another)",
    "sampling.batches.y": "samples in the batch",
    "sampling.batches.y_grouped": "samples per {g} batches",
    "sampling.batches.hover": "%{fullData.name}: %{y} samples<br>epoch %{customdata[0]}, batch #%{customdata[1]}",
    "sampling.batches.hover_grouped": (
        "%{fullData.name}: %{y} samples<br>batches #%{customdata[1]}–#%{customdata[2]}"),
    "sampling.batches.slider": "batches received: ",
    "sampling.play": "▶ Play",
    "sampling.pause": "❚❚ Pause",
    "sampling.shares.title": "Realised vs intended class shares, per epoch",
    "sampling.shares.explain": (
        "Grey: each class's share of the dataset. Outline: the share the sampler's weights aim for (for "
        "shuffle=True, the data's own). Blue: the share the epoch really delivered."),
    "sampling.shares.data": "share of the dataset",
    "sampling.shares.intended": "intended by the weights",
    "sampling.shares.epoch": "realised, epoch {epoch}",
    "sampling.shares.x": "class",
    "sampling.shares.y": "share of the epoch's samples",
    "sampling.coverage.title": "How many distinct samples an epoch really saw",
    "sampling.coverage.explain": (
        "An epoch of WeightedRandomSampler with replacement draws `num_samples` times, but many draws repeat "
        "the same minority samples, and majority samples go unseen. RandomSampler sees every sample exactly "
        "once."),
    "sampling.coverage.drawn": "samples drawn",
    "sampling.coverage.distinct": "distinct samples",
    "sampling.coverage.unseen": "never drawn",
    "sampling.coverage.epoch": "{run}, epoch {epoch}",
    "sampling.coverage.y": "samples",
    "sampling.metric.distinct": "distinct / drawn",
    "sampling.metric.distinct_value": "{distinct} / {drawn}",
    "sampling.replacement.title": "Why replacement=False drifts back to the data's own ratio",
    "sampling.replacement.explain": (
        "Without replacement, a drawn sample leaves the pool. The heavy minority samples are drawn first; once "
        "they are used up, the epoch can only go on with the majority. Asked for `num_samples = len(dataset)` "
        "draws — the usual setting — it must take every sample exactly once, so the epoch's class shares are "
        "exactly the data's, whatever the weights: they only change the order (minority samples early in "
        "the epoch). To oversample a class you need `replacement=True` (the default)."),
    "sampling.replacement.now_off": (
        "replacement=False now: compare the blue bars of the weighted runs with the grey ones — they are "
        "equal, while the early batches above are richer in the minority than the late ones."),
    "sampling.replacement.now_on": (
        "replacement=True now: the weighted runs reach their intended shares but repeat samples (see the "
        "distinct samples below). "
        "Switch replacement off to watch the shares fall back to the data's."),
    "sampling.mistake.title": "One weight per class: the mistake torch does not catch",
    "sampling.mistake.explain": (
        "`WeightedRandomSampler(weights, num_samples)` wants one weight per *sample* — `len(weights)` should "
        "equal `len(dataset)`. A list of one weight per class is a common slip, and torch does not raise: it "
        "draws `num_samples` indices from `range(len(weights))`, so the whole epoch is dataset indices 0 to "
        "{last}, over and over. Below, this dataset's real run with the {k} class weights from the table "
        "passed as `weights`."),
    "sampling.mistake.wrong": "wrong: one weight per class",
    "sampling.mistake.right": "right: one weight per sample",
    "sampling.mistake.result": (
        "The epoch drew {drawn} samples but only {distinct} distinct ones — dataset indices {indices} — out "
        "of {dataset_len}."),
    "sampling.mistake.error": (
        "Here torch does fail — with replacement=False it cannot draw more samples than there are weights — "
        "but only at the first batch, and with a message about multinomial sampling, not about the weights' "
        "length:"),
    "sampling.mistake.code_wrong": (
        "class_weights = [{weights}]  # one per class\n"
        "sampler = WeightedRandomSampler(class_weights, num_samples=len(dataset))\n"
        "# draws only dataset[0] … dataset[{last}]"),
    "sampling.mistake.code_right": (
        "class_weights = [{weights}]  # one per class\n"
        "weights = [class_weights[label] for label in labels]  # one per sample\n"
        "sampler = WeightedRandomSampler(weights, num_samples=len(dataset))"),
    "sampling.findings": "What these runs show",
    "sampling.findings.none": "Nothing to flag in these runs.",
}
