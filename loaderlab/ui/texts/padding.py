"""Texts of the "Padding & collate" page."""

EN = {
    "padding.title": "Padding and collate",
    "padding.explain": (
        "A batch is one tensor, so samples of different lengths cannot simply be stacked: torch's default "
        "`collate_fn` fails on them. A padding `collate_fn` (`torch.nn.utils.rnn.pad_sequence`) fills every "
        "sample up to the longest one in its batch — and every padded cell is memory and compute spent on "
        "nothing. Batching samples of similar length together (a length-bucketing `batch_sampler`) cuts "
        "that waste. Below, the same dataset batched at random and bucketed, both padded."),
    "padding.try": (
        "Try it: the workshop preset \"padding waste\" uses the stdlib docstrings (real, varied lengths); "
        "change `batch_size` and watch the padding grow with it."),
    "padding.needs_map": (
        "A batch_sampler chooses dataset indices, so bucketing needs a map-style Dataset. Choose \"map-style "
        "Dataset\" under dataset style in the sidebar."),
    "padding.equal_lengths": (
        "Every sample of this dataset has the same length ({length}), so there is nothing to pad. Pick the "
        "stdlib docstrings dataset, or raise \"length varies by ±\" in the sidebar."),
    "padding.collate.title": "What the default collate says",
    "padding.collate.explain": (
        "Torch's own `default_collate`, run here on the first batch of the random run (dataset indices "
        "{indices}, lengths {lengths}):"),
    "padding.collate.ok": (
        "The default collate stacks this batch without complaint: its samples all have length {length}."),
    "padding.collate.fix": (
        "The fix is a `collate_fn` that pads, as both runs below use: `pad_sequence(tokens, batch_first=True, "
        "padding_value=0)`, returning the lengths too so the model can mask the padding."),
    "padding.run.random": "random batches (shuffle=True)",
    "padding.run.bucket": "length-bucketed batches",
    "padding.grid.title": "Cell by cell",
    "padding.grid.explain": (
        "One row per sample, one column per position of the padded tensor; the first batches your loop "
        "received. Blue: the sample's own tokens. Orange: padding up to the longest sample of the batch."),
    "padding.grid.batches": "batches shown",
    "padding.grid.figure_title": "{run}<br><sup>{padded} padded cells in these batches</sup>",
    "padding.grid.x": "position in the padded tensor",
    "padding.grid.x_binned": "position in the padded tensor ({step} positions per column)",
    "padding.grid.batch": "batch #{batch} ({padded} padded)",
    "padding.grid.token": "token",
    "padding.grid.padding": "padding",
    "padding.grid.hover": "batch #{batch}, dataset index {index}, length {length}<br>position {position}: {what}",
    "padding.fraction.title": "Padding per batch",
    "padding.fraction.explain": (
        "The share of each batch's cells that is padding, in the order your loop received the batches. "
        "Dashed: the share over all batches of the run."),
    "padding.fraction.figure_title": (
        "padded cells in total: {random} at random, {bucket} bucketed ({saved:.0%} fewer)"),
    "padding.fraction.x": "batch (in the order your loop received them; epochs one after another)",
    "padding.fraction.y": "padding share of the batch",
    "padding.fraction.overall": "{run}: {fraction:.0%} over all batches",
    "padding.fraction.hover": (
        "epoch %{customdata[0]}, batch #%{customdata[1]}<br>%{customdata[2]} of %{customdata[3]} cells padded "
        "(%{y:.0%})"),
    "padding.metric.padded": "padded cells",
    "padding.metric.fraction": "padding share",
    "padding.metric.delta": "{delta:+,} cells",
    "padding.findings": "What these runs show",
    "padding.findings.none": "Nothing to flag: padding stays under the threshold in both runs.",
    "padding.code.random": "random batches:",
    "padding.code.bucket": "bucketed (BucketBatchSampler is LoaderLab's; any length-bucketing batch_sampler works):",
}
