"""Texts of the "Pinned memory & GPU transfer" page."""

TEXTS = {
    "transfer.title": {
        "en": "Pinned memory and the copy to the GPU",
        "ko": "고정 메모리와 GPU로의 복사",
    },
    "transfer.explain": {
        "en": "After the DataLoader hands a batch over, the batch still has to reach the GPU. From ordinary "
            "(pageable) memory, `batch.to('cuda')` blocks the loop and the GPU computes nothing meanwhile. With "
            "`pin_memory=True` the loader's pin thread first copies each batch into page-locked memory; then "
            "`.to('cuda', non_blocking=True)` issued on a second CUDA stream copies the next batch while the model "
            "still computes on this one. Pinning is itself a copy, so it pays only when the copying it hides is "
            "worth more than the pinning it costs.",
        "ko": "데이터로더가 배치를 넘긴 뒤에도 배치는 GPU까지 가야 합니다. 일반(pageable) 메모리에서는 "
            "`batch.to('cuda')`가 학습 루프를 막고, 그동안 GPU는 아무것도 계산하지 않습니다. `pin_memory=True`이면 "
            "데이터로더의 pin 스레드가 먼저 각 배치를 고정 메모리(pinned memory)로 복사합니다. 그러면 두 번째 CUDA "
            "스트림에서 실행한 `.to('cuda', non_blocking=True)`가 모델이 이번 배치를 계산하는 동안 다음 배치를 "
            "복사합니다. 고정 메모리로의 복사도 복사이므로, 그것이 숨겨 주는 복사 시간이 그 자체의 비용보다 클 때만 "
            "이득입니다.",
    },
    "transfer.measured": {
        "en": "Measured on this machine's GPU ({gpu}): the timelines below are CUDA-event timings.",
        "ko": "이 기계의 GPU({gpu})에서 측정했습니다: 아래 타임라인은 CUDA 이벤트로 잰 시간입니다.",
    },
    "transfer.measure_failed": {
        "en": "Measuring on this GPU failed ({error}); the timelines below are modelled instead.",
        "ko": "이 GPU에서 측정하지 못했습니다({error}). 아래 타임라인은 대신 모델로 계산한 것입니다.",
    },
    "transfer.modelled": {
        "en": "Modelled, no GPU on this machine: the timelines below are computed from the "
            "bandwidths shown, not measured. Set them to your hardware's.",
        "ko": "모델로 계산했습니다. 이 기계에는 GPU가 없습니다: 아래 타임라인은 측정한 것이 아니라 표시된 "
            "대역폭으로 계산한 것입니다. 내 하드웨어의 값으로 바꿔 보세요.",
    },
    "transfer.assumptions": {
        "en": "Assumptions of the model: pageable copies run at {pageable:g} GB/s, pinned copies at {pinned:g} GB/s and "
            "the pin thread's host memcpy at {pin:g} GB/s (GB = 10⁹ bytes); every batch is ready when the loop asks "
            "(the workers keep up); a copy runs at most one batch ahead of the compute (two batches on the GPU at "
            "once); the pin thread waits once two pinned batches wait for the loop, and the loop, like one that "
            "reads its loss every step, issues a copy once the compute two batches back has ended. Defaults: PCIe 4.0 x16 peaks near 25 GB/s, pinned copies commonly "
            "reach about half of that and pageable ones half again, because the driver stages them through a "
            "pinned buffer of its own.",
        "ko": "모델의 가정: 일반 메모리 복사는 {pageable:g} GB/s, 고정 메모리 복사는 {pinned:g} GB/s, pin 스레드의 호스트 "
            "memcpy는 {pin:g} GB/s입니다(GB = 10⁹ 바이트). 학습 루프가 요청할 때 모든 배치는 이미 준비되어 있습니다(워커가 "
            "따라옵니다). 복사는 연산보다 많아야 한 배치 앞서갑니다(GPU 위에 배치가 동시에 두 개). pin 스레드는 고정 "
            "메모리의 배치 두 개가 학습 루프를 기다리면 멈추고, 학습 루프는 매 단계 손실값을 읽는 루프처럼 두 배치 전의 "
            "연산이 끝나야 복사를 요청합니다. 기본값: PCIe 4.0 x16의 최대치는 25 GB/s 정도이고, 고정 메모리 복사는 "
            "흔히 그 절반, 일반 메모리 복사는 다시 그 절반입니다. 드라이버가 자체 고정 버퍼를 거쳐 복사하기 "
            "때문입니다.",
    },
    "transfer.control.batch_mb": {
        "en": "batch size (MB)",
        "ko": "배치 크기 (MB)",
    },
    "transfer.control.from_sidebar": {
        "en": "It starts at the sidebar's real batch: batch_size={batch_size} makes {nbytes} bytes per batch (the pin "
            "stage's median below). Real image batches are megabytes: raise it to see when pinning pays.",
        "ko": "처음 값은 사이드바의 실제 배치입니다: batch_size={batch_size}이면 배치당 {nbytes}바이트입니다(아래 pin 단계의 "
            "중앙값). 실제 이미지 배치는 메가바이트 단위입니다. 값을 키워 고정 메모리가 언제 이득인지 보세요.",
    },
    "transfer.control.fallback": {
        "en": "It starts at a {mb} MB image batch, not the sidebar's: batch_size={batch_size} makes {nbytes} bytes "
            "per batch, which a GPU copies in its launch latency, so pinning would show nothing to measure. Set "
            "the size to the sidebar's batch to see exactly that.",
        "ko": "사이드바의 배치가 아니라 {mb} MB 이미지 배치에서 시작합니다: batch_size={batch_size}이면 배치당 "
            "{nbytes}바이트라 GPU가 실행 지연 시간 안에 복사해 버려, 고정 메모리의 효과를 잴 수 없습니다. 바로 그것을 "
            "보려면 크기를 사이드바의 배치로 바꿔 보세요.",
    },
    "transfer.control.n_batches": {
        "en": "batches per epoch",
        "ko": "에폭당 배치 수",
    },
    "transfer.control.compute_ms": {
        "en": "model compute per batch (ms)",
        "ko": "배치당 모델 연산 (ms)",
    },
    "transfer.control.pageable_gbps": {
        "en": "pageable copy (GB/s)",
        "ko": "일반 메모리 복사 (GB/s)",
    },
    "transfer.control.pinned_gbps": {
        "en": "pinned copy (GB/s)",
        "ko": "고정 메모리 복사 (GB/s)",
    },
    "transfer.control.pin_gbps": {
        "en": "pinning: host memcpy (GB/s)",
        "ko": "고정 메모리로 옮기기: 호스트 memcpy (GB/s)",
    },
    "transfer.control.measured_help": {
        "en": "Measured on this GPU; editable only when the page models the copies.",
        "ko": "이 GPU에서 측정한 값입니다. 페이지가 모델로 계산할 때만 고칠 수 있습니다.",
    },
    "transfer.mode.pageable": {
        "en": "pageable: batch.to('cuda')",
        "ko": "일반 메모리: batch.to('cuda')",
    },
    "transfer.mode.pinned": {
        "en": "pinned: pin_memory=True, then .to('cuda', non_blocking=True) on a copy stream",
        "ko": "고정 메모리: pin_memory=True, 그다음 복사 스트림에서 .to('cuda', non_blocking=True)",
    },
    "transfer.mode.pageable_short": {
        "en": "pageable",
        "ko": "일반 메모리",
    },
    "transfer.mode.pinned_short": {
        "en": "pinned + non_blocking",
        "ko": "고정 메모리 + non_blocking",
    },
    "transfer.stage.pin": {
        "en": "pin (host, pin thread)",
        "ko": "고정 메모리로 (호스트, pin 스레드)",
    },
    "transfer.stage.copy": {
        "en": "copy to GPU",
        "ko": "GPU로 복사",
    },
    "transfer.stage.compute": {
        "en": "model compute",
        "ko": "모델 연산",
    },
    "transfer.timeline.title": {
        "en": "One epoch, batch by batch",
        "ko": "한 에폭, 배치 하나씩",
    },
    "transfer.timeline.caption": {
        "en": "Each bar is one batch's stage; the number is the batch. Top: every copy "
            "waits for the compute before it and the compute for its copy. Bottom: the "
            "pin thread works ahead, and each copy runs while the previous batch computes.",
        "ko": "막대 하나가 배치 하나의 단계이고, 숫자는 배치 번호입니다. 위: 모든 복사는 앞선 "
            "연산을 기다리고, 연산은 자기 복사를 기다립니다. 아래: pin 스레드가 미리 일하고, "
            "각 복사는 앞선 배치가 연산되는 동안 진행됩니다.",
    },
    "transfer.timeline.x": {
        "en": "ms since the first batch was asked for",
        "ko": "첫 배치를 요청한 뒤 경과 시간 (ms)",
    },
    "transfer.batch": {
        "en": "batch",
        "ko": "배치",
    },
    "transfer.totals.title": {
        "en": "Time per epoch, and where it went",
        "ko": "에폭당 시간과 그 쓰임",
    },
    "transfer.totals.x": {
        "en": "ms per epoch",
        "ko": "에폭당 ms",
    },
    "transfer.totals.text": {
        "en": "{total} ms; {overlap:.0%} of its {copy} ms of copying hidden",
        "ko": "{total} ms, 복사 {copy} ms의 {overlap:.0%} 숨김",
    },
    "transfer.part.compute": {
        "en": "GPU computing",
        "ko": "GPU 연산",
    },
    "transfer.part.exposed_copy": {
        "en": "copying while nothing computes",
        "ko": "아무 연산 없이 복사만",
    },
    "transfer.part.idle": {
        "en": "GPU idle, waiting for a pinned batch",
        "ko": "GPU 유휴, 고정 메모리 배치를 기다림",
    },
    "transfer.metric.pageable": {
        "en": "epoch, pageable (ms)",
        "ko": "에폭, 일반 메모리 (ms)",
    },
    "transfer.metric.pinned": {
        "en": "epoch, pinned + non_blocking (ms)",
        "ko": "에폭, 고정 메모리 + non_blocking (ms)",
    },
    "transfer.metric.overlap": {
        "en": "copying hidden behind compute (of {copy} ms)",
        "ko": "연산 뒤로 숨긴 복사 ({copy} ms 중)",
    },
    "transfer.metric.pageable_gbps": {
        "en": "pageable copy, measured",
        "ko": "일반 메모리 복사, 측정값",
    },
    "transfer.metric.pinned_gbps": {
        "en": "pinned copy, measured",
        "ko": "고정 메모리 복사, 측정값",
    },
    "transfer.metric.pin_gbps": {
        "en": "pinning, measured",
        "ko": "고정 메모리로 옮기기, 측정값",
    },
    "transfer.verdict.faster": {
        "en": "Here pinning with non_blocking copies saves {saved:.0%} of the epoch: "
            "{overlap:.0%} of the copying ran while the model computed.",
        "ko": "여기서는 고정 메모리와 non_blocking 복사로 에폭 시간의 {saved:.0%}를 아낍니다: "
            "복사의 {overlap:.0%}가 모델이 연산하는 동안 진행되었습니다.",
    },
    "transfer.verdict.slower": {
        "en": "Here pinning makes the epoch {lost:.0%} longer: pinning a batch takes {pin_ms:.1f} ms, "
            "more than the overlap hides. This is the slowdown reported in pytorch/pytorch#24984.",
        "ko": "여기서는 고정 메모리를 쓰면 에폭이 {lost:.0%} 길어집니다: 배치 하나를 고정 메모리로 "
            "옮기는 데 {pin_ms:.1f} ms가 걸려, 겹침으로 숨기는 시간보다 깁니다. "
            "pytorch/pytorch#24984에 보고된 속도 저하가 바로 이것입니다.",
    },
    "transfer.verdict.same": {
        "en": "Here both ways take about the same time ({pageable} ms pageable, {pinned} ms pinned): pinning hides "
            "{overlap:.0%} of its copying ({hidden} ms) behind compute, but the GPU waits {idle} ms for pinned "
            "batches.",
        "ko": "여기서는 두 방식의 시간이 거의 같습니다(일반 메모리 {pageable} ms, 고정 메모리 {pinned} ms): 고정 "
            "메모리는 복사의 {overlap:.0%}({hidden} ms)를 연산 뒤로 숨기지만, GPU가 고정 메모리 배치를 "
            "{idle} ms 기다립니다.",
    },
    "transfer.verdict.same_small_copy": {
        "en": "Here both ways take the same time ({pageable} ms pageable, {pinned} ms pinned): the whole epoch's "
            "copying takes {copy} ms pageable ({pinned_copy} ms pinned), too little to show. Pinning still hides "
            "{overlap:.0%} of that copying behind compute; raise the batch size to see when it pays.",
        "ko": "여기서는 두 방식의 시간이 같습니다(일반 메모리 {pageable} ms, 고정 메모리 {pinned} ms): 에폭 전체의 "
            "복사가 일반 메모리로 {copy} ms(고정 메모리로 {pinned_copy} ms)라 차이가 드러나지 않습니다. 고정 "
            "메모리는 그 복사의 {overlap:.0%}를 여전히 연산 뒤로 숨깁니다. 배치 크기를 키워 언제 이득이 되는지 "
            "보세요.",
    },
    "transfer.engine.title": {
        "en": "The loader's own pin stage on this machine",
        "ko": "이 기계에서 데이터로더 자체의 고정 메모리 단계",
    },
    "transfer.engine.explain": {
        "en": "Below, the sidebar's loader runs with `pin_memory=True` (at most {n} samples, one epoch). Without an "
            "accelerator torch warns and starts no pin thread; LoaderLab still runs the stage and records a "
            "`pin_begin`/`pin_end` pair per batch, so the stage stays visible in every view.",
        "ko": "아래는 사이드바의 데이터로더를 `pin_memory=True`로 실행한 것입니다(샘플 최대 {n}개, 에폭 하나). 가속기가 "
            "없으면 torch는 경고를 내고 pin 스레드를 시작하지 않습니다. LoaderLab은 그래도 이 단계를 실행하고 배치마다 "
            "`pin_begin`/`pin_end` 쌍을 기록하므로, 모든 화면에서 이 단계가 보입니다.",
    },
    "transfer.engine.events": {
        "en": "pin events",
        "ko": "pin 이벤트 수",
    },
    "transfer.engine.batches": {
        "en": "batches through the pin stage",
        "ko": "고정 메모리 단계를 거친 배치 수",
    },
    "transfer.engine.bytes": {
        "en": "bytes per batch (median)",
        "ko": "배치당 바이트 (중앙값)",
    },
    "transfer.engine.skipped": {
        "en": "Every pin event of this run says “{detail}”: nothing was pinned.",
        "ko": "이번 실행의 모든 pin 이벤트가 “{detail}”라고 말합니다: 고정 메모리로 옮긴 것이 없습니다.",
    },
    "transfer.engine.pinned": {
        "en": "The pin stage really pinned every batch ({n} batches).",
        "ko": "고정 메모리 단계가 모든 배치를 실제로 고정 메모리로 옮겼습니다 (배치 {n}개).",
    },
    "transfer.engine.none": {
        "en": "This run recorded no pin events.",
        "ko": "이번 실행에는 pin 이벤트가 기록되지 않았습니다.",
    },
    "transfer.engine.rejected": {
        "en": "Torch rejects the sidebar's settings (see the sidebar), so the loader's pin stage is not run.",
        "ko": "torch가 사이드바의 설정을 거부하므로(사이드바 참고) 데이터로더의 고정 메모리 단계를 실행하지 않습니다.",
    },
    "transfer.code.loop": {
        "en": "A training loop that overlaps copies with compute, in plain torch",
        "ko": "복사와 연산을 겹치는 학습 루프, 순수 torch 코드로",
    },
    "transfer.loop_code": {
        "en": '''import torch

loader = torch.utils.data.DataLoader(dataset, batch_size=64, num_workers=4, pin_memory=True)
copy_stream = torch.cuda.Stream()

def to_gpu(batch):
    with torch.cuda.stream(copy_stream):  # the copy runs beside the compute stream
        return batch.to("cuda", non_blocking=True)  # non_blocking needs pinned memory to overlap

batches = iter(loader)
ready = to_gpu(next(batches))
while ready is not None:
    torch.cuda.current_stream().wait_stream(copy_stream)  # this batch's copy is done
    batch = ready
    batch.record_stream(torch.cuda.current_stream())       # made on copy_stream, used here
    cpu_batch = next(batches, None)
    ready = None if cpu_batch is None else to_gpu(cpu_batch)  # the next copy starts now...
    loss = model(batch)                                     # ...while the model computes
''',
        "ko": '''import torch

loader = torch.utils.data.DataLoader(dataset, batch_size=64, num_workers=4, pin_memory=True)
copy_stream = torch.cuda.Stream()

def to_gpu(batch):
    with torch.cuda.stream(copy_stream):  # 복사는 연산 스트림 옆에서 진행
        return batch.to("cuda", non_blocking=True)  # 겹치려면 non_blocking에 고정 메모리가 필요

batches = iter(loader)
ready = to_gpu(next(batches))
while ready is not None:
    torch.cuda.current_stream().wait_stream(copy_stream)  # 이 배치의 복사가 끝남
    batch = ready
    batch.record_stream(torch.cuda.current_stream())       # copy_stream에서 만들어 여기서 씀
    cpu_batch = next(batches, None)
    ready = None if cpu_batch is None else to_gpu(cpu_batch)  # 다음 복사가 지금 시작되고...
    loss = model(batch)                                     # ...그동안 모델이 연산
''',
    },
}
