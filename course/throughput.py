"""Samples per second against batch size: how far a bigger batch makes each example cheaper on a device.

A small training step leaves a GPU mostly idle: its time goes to launching kernels, and a batch twice as large
takes about as long. Only once the kernels are big enough to fill the device does the time of a step grow with
the batch; from there on samples per second stop rising. That batch size is the hardware's knee, a property of the
device and the model, not of the data (compare the noise scale's knee, a property of the data and the weights).
"""
from .claims import Spread, interleaved_seconds, paired_ratio
from .progress import progress


def saturation_sweep(step_at, batch_sizes, *, repeats=7, sync=None, saturated=1.15, patience=2, max_step_seconds=1.0,
                     desc="batch sizes"):
    """Times steps of growing batch sizes until samples per second stop rising.

    `step_at(b)` returns a function that runs one training step at batch size b. The batch sizes are timed in
    order, each against the one before it in interleaved repeats (`interleaved_seconds`, one warm-up round), so
    load that comes and goes on a shared machine hits both alike. The sweep stops once `patience` steps up in a
    row raised samples per second by less than the factor `saturated` (the device is saturated), once a step
    takes longer than `max_step_seconds` (median; so a slow device is never asked for its largest batches), or at
    the end of `batch_sizes`. `sync` (e.g. torch.cuda.synchronize) is called inside each timing, so queued device work
    counts. Shows a tqdm.auto progress bar. Returns one dict per batch size timed: "batch", "seconds" (a
    Spread, from its pair), "gain" (a Spread of the round-by-round ratios of its samples per second to the
    previous batch size's; None for the first) and "samples_per_s": the first batch size's measured (batch /
    median seconds), each later one the previous one's times the median gain, so a change of load between two
    pairs does not bend the curve.
    """
    rows, slow_steps = [], 0

    bar = progress(total=len(batch_sizes), desc=desc)
    try:
        for batch in batch_sizes:
            step = step_at(batch)
            if not rows:
                seconds, gain = interleaved_seconds({batch: step}, repeats=repeats, sync=sync)[batch], None
            else:
                before = rows[-1]["batch"]
                timed = interleaved_seconds({before: step_at(before), batch: step}, repeats=repeats, sync=sync)
                seconds = timed[batch]
                ratios = paired_ratio(timed[before], seconds)              # seconds before / seconds now
                gain = Spread(tuple(r * batch / before for r in ratios.samples))
            samples_per_s = batch / seconds.median if gain is None else rows[-1]["samples_per_s"] * gain.median
            rows.append({"batch": batch, "seconds": seconds, "samples_per_s": samples_per_s, "gain": gain})
            bar.update(1)
            slow_steps = slow_steps + 1 if gain is not None and gain.median < saturated else 0
            if slow_steps >= patience or seconds.median > max_step_seconds:
                break
    finally:
        bar.close()
    return rows
