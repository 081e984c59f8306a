"""Texts of the "Distributed" page: DistributedSampler across the ranks of a torch.distributed process group."""

TEXTS = {
    "distributed.title": {
        "en": "Distributed data loading: DistributedSampler across ranks",
        "ko": "분산 데이터 로딩: 랭크마다 나누는 분산 샘플러",
    },
    "distributed.explain": {
        "en": "In distributed training every rank (one process per GPU) runs its own DataLoader over the same dataset. "
            "A `DistributedSampler(dataset, num_replicas=world_size, rank=rank)` gives each rank its own slice of "
            "the indices — every `world_size`-th index of one shared, seeded shuffle — so that together the ranks "
            "see each sample once per epoch. Below, that happens for real: the ranks are separate processes in a "
            "gloo process group on this machine, each with its own worker processes, and every index each rank "
            "fetched is recorded.",
        "ko": "분산 학습에서는 모든 랭크(GPU 하나당 프로세스 하나)가 같은 데이터셋 위에서 자기만의 DataLoader를 돌립니다. "
            "`DistributedSampler(dataset, num_replicas=world_size, rank=rank)`(분산 샘플러)는 랭크마다 인덱스의 "
            "자기 몫을 줍니다 — 시드로 고정된 공통 셔플에서 `world_size`개마다 하나씩 — 그래서 랭크들을 합치면 에폭마다 "
            "각 샘플을 한 번씩 봅니다. 아래는 그것을 실제로 실행한 결과입니다: 랭크는 이 컴퓨터에서 gloo 프로세스 그룹에 "
            "속한 별개의 프로세스이고, 저마다 워커 프로세스를 가지며, 각 랭크가 가져온 모든 인덱스가 기록됩니다.",
    },
    "distributed.try": {
        "en": "Try it: with two or more epochs, switch `set_epoch` on and off and press Play on the partition "
            "chart. Then pick a dataset size that the world size does not divide and compare `drop_last`.",
        "ko": "해 보세요: 에폭을 2 이상으로 두고 `set_epoch`를 켰다 껐다 하면서 분할 차트의 재생을 누르세요. 그다음 "
            "world size로 나누어떨어지지 않는 데이터셋 크기를 골라 `drop_last`를 비교해 보세요.",
    },
    "distributed.sidebar": {
        "en": "Distributed run",
        "ko": "분산 실행",
    },
    "distributed.control.world_size": {
        "en": "world size (ranks)",
        "ko": "world size (랭크 수)",
    },
    "distributed.control.drop_last_help": {
        "en": "DistributedSampler(…, drop_last=…): True cuts the tail so that every rank gets the same number of "
            "samples; False (the default) pads by repeating samples from the start.",
        "ko": "DistributedSampler(…, drop_last=…): True이면 모든 랭크가 같은 수의 샘플을 받도록 끝부분을 잘라 내고, "
            "False(기본값)이면 앞쪽 샘플을 반복해 채웁니다.",
    },
    "distributed.control.set_epoch": {
        "en": "call sampler.set_epoch(epoch) each epoch",
        "ko": "에폭마다 sampler.set_epoch(epoch) 호출",
    },
    "distributed.control.epochs": {
        "en": "epochs",
        "ko": "에폭 수",
    },
    "distributed.control.n_samples": {
        "en": "samples in the dataset",
        "ko": "데이터셋의 샘플 수",
    },
    "distributed.control.num_workers": {
        "en": "num_workers (per rank)",
        "ko": "num_workers (랭크당)",
    },
    "distributed.control.slow_rank": {
        "en": "slow rank",
        "ko": "느린 랭크",
    },
    "distributed.control.no_slow_rank": {
        "en": "none",
        "ko": "없음",
    },
    "distributed.control.slow_rank_help": {
        "en": "This rank's samples cost 4× as much to load (a slower disk, a busier machine).",
        "ko": "이 랭크는 샘플을 불러오는 데 4배의 시간이 듭니다 (느린 디스크, 바쁜 컴퓨터).",
    },
    "distributed.rank": {
        "en": "rank {rank}",
        "ko": "랭크 {rank}",
    },
    "distributed.epoch": {
        "en": "epoch {epoch}",
        "ko": "에폭 {epoch}",
    },
    "distributed.label": {
        "en": "label {label}",
        "ko": "레이블 {label}",
    },
    "distributed.failed": {
        "en": "Rank {rank} failed with {kind}: {message}. The other ranks were stopped.",
        "ko": "랭크 {rank}이(가) {kind}로 실패했습니다: {message}. 나머지 랭크는 중지했습니다.",
    },
    "distributed.failed.details": {
        "en": "The rank's traceback",
        "ko": "그 랭크의 트레이스백",
    },
    "distributed.findings.none": {
        "en": "Nothing to flag in this run.",
        "ko": "이 실행에서 짚을 문제가 없습니다.",
    },
    "distributed.metric.per_rank": {
        "en": "samples per rank per epoch",
        "ko": "에폭당 랭크별 샘플 수",
    },
    "distributed.metric.padded": {
        "en": "padding copies per epoch",
        "ko": "에폭당 패딩 사본",
    },
    "distributed.metric.dropped": {
        "en": "samples dropped per epoch",
        "ko": "에폭당 버려진 샘플",
    },
    "distributed.metric.order": {
        "en": "order between epochs",
        "ko": "에폭 간 순서",
    },
    "distributed.metric.order_same": {
        "en": "repeats",
        "ko": "반복됨",
    },
    "distributed.metric.order_new": {
        "en": "changes",
        "ko": "바뀜",
    },
    "distributed.partition.title": {
        "en": "Which index went to which rank",
        "ko": "어느 인덱스가 어느 랭크로 갔나",
    },
    "distributed.partition.explain": {
        "en": "Top: one lane per rank, a square at every dataset index the rank fetched; a black ✕ marks a padding "
            "copy. Bottom: when each rank got it (its place in the rank's epoch). One frame per epoch: press Play. "
            "With `set_epoch` the squares move from epoch to epoch; without it nothing moves.",
        "ko": "위: 랭크마다 한 줄, 그 랭크가 가져온 데이터셋 인덱스마다 사각형 하나; 검은 ✕는 패딩 사본입니다. 아래: "
            "각 랭크가 그것을 언제 받았는지 (그 랭크의 에폭 안에서의 순서). 에폭마다 프레임 하나: 재생을 누르세요. "
            "`set_epoch`를 호출하면 사각형이 에폭마다 움직이고, 호출하지 않으면 아무것도 움직이지 않습니다.",
    },
    "distributed.partition.padded": {
        "en": "padding copy",
        "ko": "패딩 사본",
    },
    "distributed.partition.x": {
        "en": "dataset index",
        "ko": "데이터셋 인덱스",
    },
    "distributed.partition.strip": {
        "en": "the rank that got each index",
        "ko": "각 인덱스를 받은 랭크",
    },
    "distributed.partition.order": {
        "en": "place in the rank's epoch (top = first)",
        "ko": "랭크의 에폭 안에서의 순서 (위 = 처음)",
    },
    "distributed.partition.hover": {
        "en": "index %{x}<br>place %{customdata[0]} in the rank's epoch, %{customdata[1]} in the shared list",
        "ko": "인덱스 %{x}<br>랭크의 에폭에서 %{customdata[0]}번째, 공통 목록에서 %{customdata[1]}번째",
    },
    "distributed.partition.slider": {
        "en": "epoch ",
        "ko": "에폭 ",
    },
    "distributed.play": {
        "en": "▶ Play",
        "ko": "▶ 재생",
    },
    "distributed.pause": {
        "en": "❚❚ Pause",
        "ko": "❚❚ 일시정지",
    },
    "distributed.labels.title": {
        "en": "Labels per rank",
        "ko": "랭크별 레이블",
    },
    "distributed.labels.explain": {
        "en": "Each rank trains on its own slice, so each rank's class mix differs a little from the dataset's; "
            "padding copies count, because they are trained on.",
        "ko": "각 랭크는 자기 몫으로 학습하므로 랭크마다 클래스 구성이 데이터셋과 조금씩 다릅니다. 패딩 사본도 "
            "학습에 쓰이므로 셉니다.",
    },
    "distributed.labels.y": {
        "en": "samples",
        "ko": "샘플 수",
    },
    "distributed.ranks.title": {
        "en": "Per rank",
        "ko": "랭크별",
    },
    "distributed.col.epoch": {
        "en": "epoch",
        "ko": "에폭",
    },
    "distributed.col.rank": {
        "en": "rank",
        "ko": "랭크",
    },
    "distributed.col.samples": {
        "en": "samples",
        "ko": "샘플 수",
    },
    "distributed.col.distinct": {
        "en": "distinct",
        "ko": "서로 다른 샘플",
    },
    "distributed.col.padded": {
        "en": "padding copies",
        "ko": "패딩 사본",
    },
    "distributed.col.shared": {
        "en": "shared with another rank",
        "ko": "다른 랭크와 겹침",
    },
    "distributed.col.batches": {
        "en": "mini-batches",
        "ko": "미니배치",
    },
    "distributed.col.seconds": {
        "en": "seconds",
        "ko": "초",
    },
    "distributed.col.wait_s": {
        "en": "waiting for data (s)",
        "ko": "데이터 기다림 (초)",
    },
    "distributed.col.step_s": {
        "en": "training step + all_reduce (s)",
        "ko": "학습 단계 + all_reduce (초)",
    },
    "distributed.col.samples_per_s": {
        "en": "samples / s",
        "ko": "샘플 / 초",
    },
    "distributed.throughput.title": {
        "en": "Throughput per rank",
        "ko": "랭크별 처리량",
    },
    "distributed.throughput.explain": {
        "en": "After every mini-batch each rank joins an `all_reduce` (as DDP does with gradients), so all ranks move "
            "at the pace of the slowest one. Pick a slow rank in the sidebar to see it.",
        "ko": "미니배치마다 각 랭크는 `all_reduce`에 참여하므로 (DDP가 그래디언트로 하듯이) 모든 랭크가 가장 느린 "
            "랭크의 속도로 움직입니다. 사이드바에서 느린 랭크를 골라 확인해 보세요.",
    },
    "distributed.throughput.slowest": {
        "en": "slowest loader",
        "ko": "가장 느린 데이터로더",
    },
    "distributed.throughput.seconds": {
        "en": "waited {seconds:.3f} s for data",
        "ko": "데이터를 {seconds:.3f}초 기다림",
    },
    "distributed.timeline.title": {
        "en": "Every rank and worker over time",
        "ko": "시간에 따른 모든 랭크와 워커",
    },
    "distributed.timeline.explain": {
        "en": "One lane per process: each rank's main process, then its workers. Red is a rank waiting for its next "
            "mini-batch, green is its training step (which includes waiting for the other ranks in `all_reduce`).",
        "ko": "프로세스마다 한 줄: 각 랭크의 메인 프로세스, 그다음 그 랭크의 워커 프로세스. 빨강은 랭크가 다음 미니배치를 "
            "기다리는 시간, 초록은 학습 단계입니다 (`all_reduce`에서 다른 랭크를 기다리는 시간 포함).",
    },
    "distributed.timeline.lane": {
        "en": "rank {rank} · {lane}",
        "ko": "랭크 {rank} · {lane}",
    },
    "distributed.timeline.x": {
        "en": "seconds since the first rank started",
        "ko": "첫 랭크가 시작한 뒤 흐른 초",
    },
    "distributed.stage.startup": {
        "en": "worker start-up",
        "ko": "워커 시작",
    },
    "distributed.stage.fetch": {
        "en": "fetch (one sample)",
        "ko": "가져오기 (샘플 하나)",
    },
    "distributed.stage.collate": {
        "en": "collate",
        "ko": "콜레이트",
    },
    "distributed.stage.pin": {
        "en": "pin memory",
        "ko": "메모리 고정 (pin memory)",
    },
    "distributed.stage.wait": {
        "en": "waiting for a mini-batch",
        "ko": "미니배치 기다림",
    },
    "distributed.stage.consume": {
        "en": "training step + all_reduce",
        "ko": "학습 단계 + all_reduce",
    },
    "distributed.stage.idle": {
        "en": "idle",
        "ko": "유휴",
    },
    "distributed.stage.idle_capped": {
        "en": "idle: prefetch cap reached",
        "ko": "유휴: prefetch 상한 도달",
    },
    "distributed.code.title": {
        "en": "The same in plain PyTorch",
        "ko": "순수 PyTorch로 쓰면",
    },
    "distributed.code.explain": {
        "en": "One process per rank; replace the dataset with yours.",
        "ko": "랭크마다 프로세스 하나; 데이터셋은 여러분의 것으로 바꾸세요.",
    },
    "distributed.code.set_epoch": {
        "en": "sampler.set_epoch(epoch)  # a new shuffle every epoch",
        "ko": "sampler.set_epoch(epoch)  # 에폭마다 새로운 셔플",
    },
    "distributed.code.no_set_epoch": {
        "en": "# sampler.set_epoch(epoch)  # forgotten: every epoch repeats epoch 0's order",
        "ko": "# sampler.set_epoch(epoch)  # 빠뜨림: 모든 에폭이 에폭 0의 순서를 반복",
    },
    "distributed.code": {
        "en": "import os\n"
            "\n"
            "import torch.distributed as dist\n"
            "from torch.utils.data import DataLoader, DistributedSampler\n"
            "\n"
            "# dataset = ...  # yours: {n_samples} samples, the same on every rank\n"
            "# One process per rank: `torchrun --nproc-per-node={world_size} this_file.py` sets RANK and WORLD_SIZE.\n"
            "# Run alone (`python this_file.py`), this is rank 0 of {world_size}: rank 0's share, no process group.\n"
            "rank = int(os.environ.get(\"RANK\", 0))\n"
            "world_size = int(os.environ.get(\"WORLD_SIZE\", {world_size}))\n"
            "if \"RANK\" in os.environ:\n"
            "    dist.init_process_group(\"gloo\")  # \"nccl\" on GPUs\n"
            "sampler = DistributedSampler(dataset, num_replicas=world_size, rank=rank,\n"
            "                             shuffle={shuffle}, seed={seed}, drop_last={drop_last})\n"
            "loader = DataLoader(dataset, batch_size={batch_size}, sampler=sampler{workers})\n"
            "for epoch in range({epochs}):\n"
            "    {set_epoch}\n"
            "    for batch in loader:\n"
            "        ...  # forward and backward; DDP all-reduces the gradients\n"
            "if dist.is_initialized():\n"
            "    dist.destroy_process_group()\n",
        "ko": "import os\n"
            "\n"
            "import torch.distributed as dist\n"
            "from torch.utils.data import DataLoader, DistributedSampler\n"
            "\n"
            "# dataset = ...  # 여러분의 데이터셋: 샘플 {n_samples}개, 모든 랭크에서 같음\n"
            "# 랭크마다 프로세스 하나: `torchrun --nproc-per-node={world_size} this_file.py`가 RANK와 WORLD_SIZE를 정합니다.\n"
            "# 혼자 실행하면(`python this_file.py`) {world_size}개 중 랭크 0입니다: 랭크 0의 몫, 프로세스 그룹 없이.\n"
            "rank = int(os.environ.get(\"RANK\", 0))\n"
            "world_size = int(os.environ.get(\"WORLD_SIZE\", {world_size}))\n"
            "if \"RANK\" in os.environ:\n"
            "    dist.init_process_group(\"gloo\")  # GPU에서는 \"nccl\"\n"
            "sampler = DistributedSampler(dataset, num_replicas=world_size, rank=rank,\n"
            "                             shuffle={shuffle}, seed={seed}, drop_last={drop_last})\n"
            "loader = DataLoader(dataset, batch_size={batch_size}, sampler=sampler{workers})\n"
            "for epoch in range({epochs}):\n"
            "    {set_epoch}\n"
            "    for batch in loader:\n"
            "        ...  # 순전파와 역전파; DDP가 그래디언트를 all-reduce합니다\n"
            "if dist.is_initialized():\n"
            "    dist.destroy_process_group()\n",
    },
}
