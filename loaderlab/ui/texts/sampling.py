"""Texts of the "Sampling & class imbalance" page."""

TEXTS = {
    "sampling.title": {
        "en": "Sampling and class imbalance",
        "ko": "샘플링과 클래스 불균형",
    },
    "sampling.explain": {
        "en": "The sampler decides which samples an epoch draws. `shuffle=True` (a `RandomSampler`) draws every "
            "sample once, so each batch mirrors the data's own class ratio; `WeightedRandomSampler` draws each "
            "sample with a probability proportional to its weight, so weights inverse to class frequency give "
            "balanced batches — by drawing minority samples many times and leaving majority samples out. Below, "
            "the same dataset runs through both, and through a third sampler with class weights you edit.",
        "ko": "샘플러는 한 에폭에서 어떤 샘플을 뽑을지 정합니다. `shuffle=True`(`RandomSampler`)는 모든 샘플을 한 번씩 "
            "뽑으므로 각 배치는 데이터 자체의 클래스 비율을 닮습니다. `WeightedRandomSampler`는 가중치에 비례하는 "
            "확률로 샘플을 뽑으므로, 클래스 빈도의 역수를 가중치로 주면 균형 잡힌 배치가 나옵니다. 다만 그 방법은 "
            "소수 클래스 샘플을 여러 번 뽑고 다수 클래스 샘플을 빼놓는 것입니다. 아래에서 같은 데이터셋을 두 샘플러와, "
            "직접 고치는 클래스 가중치를 쓰는 세 번째 샘플러로 실행합니다.",
    },
    "sampling.try": {
        "en": "Try it: set the share of label 0 to 0.95 in the sidebar (or pick the stdlib files dataset), switch "
            "`replacement` off, and edit the class weights.",
        "ko": "해 보기: 사이드바에서 레이블 0의 비율을 0.95로 설정하고(또는 표준 라이브러리 파일 데이터셋을 고르고), "
            "`replacement`를 끈 뒤 클래스 가중치를 고쳐 보세요.",
    },
    "sampling.needs_map": {
        "en": "Samplers choose dataset indices, so they need a map-style Dataset; an IterableDataset decides its own "
            "order. Choose \"map-style Dataset\" under dataset style in the sidebar.",
        "ko": "샘플러는 데이터셋 인덱스를 고르므로 맵 스타일 데이터셋이 필요합니다. IterableDataset은 순서를 스스로 "
            "정합니다. 사이드바의 데이터셋 종류에서 \"맵 스타일 데이터셋\"을 고르세요.",
    },
    "sampling.bucket_ignored": {
        "en": "The sidebar's `batch_sampler` is set to bucketing; a batch_sampler replaces the sampler, so this page "
            "uses torch's default BatchSampler for every run.",
        "ko": "사이드바의 `batch_sampler`가 버킷으로 설정되어 있습니다. batch_sampler는 샘플러를 대신하므로, 이 페이지의 "
            "모든 실행은 torch의 기본 BatchSampler를 씁니다.",
    },
    "sampling.padded": {
        "en": "The samples of this dataset differ in length, so these runs use the padding collate_fn (the default "
            "collate would fail; see the Padding & collate page). It does not change which samples are drawn.",
        "ko": "이 데이터셋의 샘플은 길이가 달라서 이 실행들은 패딩하는 collate_fn을 씁니다(기본 콜레이트는 실패합니다. "
            "패딩과 콜레이트 페이지를 보세요). 어떤 샘플이 뽑히는지는 바뀌지 않습니다.",
    },
    "sampling.no_cost": {
        "en": "The runs on this page use num_workers=0 and skip the per-sample cost, the straggler and your training "
            "step: which samples a sampler draws depends on none of them (the same seed gives the same batches), "
            "and four runs stay quick. The worker pages show the timing.",
        "ko": "이 페이지의 실행은 num_workers=0으로 돌고 샘플당 비용, 느린 샘플, 학습 단계를 건너뜁니다. 샘플러가 어떤 "
            "샘플을 뽑는지는 그 어느 것과도 상관이 없고(같은 시드면 같은 배치), 네 번의 실행이 빨리 끝납니다. 시간은 "
            "워커를 다루는 페이지에서 보세요.",
    },
    "sampling.replacement": {
        "en": "replacement (both WeightedRandomSampler runs)",
        "ko": "replacement (WeightedRandomSampler 두 실행 모두)",
    },
    "sampling.replacement_help": {
        "en": "WeightedRandomSampler(…, replacement=…). With replacement=False each sample is drawn at most once.",
        "ko": "WeightedRandomSampler(…, replacement=…). replacement=False이면 각 샘플은 많아야 한 번 뽑힙니다.",
    },
    "sampling.weights.title": {
        "en": "Your class weights",
        "ko": "내 클래스 가중치",
    },
    "sampling.weights.explain": {
        "en": "One weight per class; the third run gives every sample its class's weight. They start at the square "
            "root of the inverse frequency, a common softer choice than full inverse frequency. Only the ratios "
            "matter: the sampler normalises them.",
        "ko": "클래스마다 가중치 하나이며, 세 번째 실행은 모든 샘플에 그 클래스의 가중치를 줍니다. 시작값은 빈도 역수의 "
            "제곱근으로, 빈도 역수 그대로보다 흔히 쓰는 부드러운 선택입니다. 비율만 중요합니다: 샘플러가 정규화합니다.",
    },
    "sampling.weights.class": {
        "en": "class",
        "ko": "클래스",
    },
    "sampling.weights.samples": {
        "en": "samples in the dataset",
        "ko": "데이터셋의 샘플 수",
    },
    "sampling.weights.weight": {
        "en": "weight",
        "ko": "가중치",
    },
    "sampling.label": {
        "en": "label {label}",
        "ko": "레이블 {label}",
    },
    "sampling.run.random": {
        "en": "RandomSampler (shuffle=True)",
        "ko": "RandomSampler (shuffle=True)",
    },
    "sampling.run.inverse": {
        "en": "WeightedRandomSampler, inverse class frequency",
        "ko": "WeightedRandomSampler, 클래스 빈도의 역수",
    },
    "sampling.run.yours": {
        "en": "WeightedRandomSampler, your class weights",
        "ko": "WeightedRandomSampler, 내 클래스 가중치",
    },
    "sampling.run.failed": {
        "en": "The run with your weights failed; torch says:",
        "ko": "내 가중치로 한 실행이 실패했습니다. torch의 메시지:",
    },
    "sampling.batches.title": {
        "en": "Labels batch by batch",
        "ko": "배치별 레이블",
    },
    "sampling.batches.explain": {
        "en": "Each bar is one batch, stacked by label, in the order your loop received the batches. Press Play to "
            "watch the batches arrive, or drag the slider.",
        "ko": "막대 하나가 배치 하나이며 레이블별로 쌓여 있고, 학습 루프가 배치를 받은 순서대로입니다. 재생을 눌러 "
            "배치가 도착하는 모습을 보거나 슬라이더를 끌어 보세요.",
    },
    "sampling.batches.x": {
        "en": "batch (in the order your loop received them; epochs one after another)",
        "ko": "배치 (학습 루프가 받은 순서, 에폭은 이어서)",
    },
    "sampling.batches.y": {
        "en": "samples in the batch",
        "ko": "배치 안의 샘플 수",
    },
    "sampling.batches.y_grouped": {
        "en": "samples per {g} batches",
        "ko": "배치 {g}개당 샘플 수",
    },
    "sampling.batches.hover": {
        "en": "%{fullData.name}: %{y} samples<br>epoch %{customdata[0]}, batch #%{customdata[1]}",
        "ko": "%{fullData.name}: 샘플 %{y}개<br>에폭 %{customdata[0]}, 배치 #%{customdata[1]}",
    },
    "sampling.batches.hover_grouped": {
        "en": "%{fullData.name}: %{y} samples<br>batches #%{customdata[1]}–#%{customdata[2]}",
        "ko": "%{fullData.name}: 샘플 %{y}개<br>배치 #%{customdata[1]}–#%{customdata[2]}",
    },
    "sampling.batches.slider": {
        "en": "batches received: ",
        "ko": "받은 배치 수: ",
    },
    "sampling.play": {
        "en": "▶ Play",
        "ko": "▶ 재생",
    },
    "sampling.pause": {
        "en": "❚❚ Pause",
        "ko": "❚❚ 일시정지",
    },
    "sampling.shares.title": {
        "en": "Realised vs intended class shares, per epoch",
        "ko": "에폭별로 실제 클래스 비율과 의도한 비율",
    },
    "sampling.shares.explain": {
        "en": "Grey: each class's share of the dataset. Outline: the share the sampler's weights aim for (for "
            "shuffle=True, the data's own). Blue: the share the epoch really delivered.",
        "ko": "회색: 데이터셋에서 각 클래스의 비율. 테두리: 샘플러의 가중치가 노리는 비율(shuffle=True이면 데이터 자체의 "
            "비율). 파랑: 그 에폭이 실제로 내놓은 비율.",
    },
    "sampling.shares.data": {
        "en": "share of the dataset",
        "ko": "데이터셋의 비율",
    },
    "sampling.shares.intended": {
        "en": "intended by the weights",
        "ko": "가중치가 의도한 비율",
    },
    "sampling.shares.epoch": {
        "en": "realised, epoch {epoch}",
        "ko": "실제 비율, 에폭 {epoch}",
    },
    "sampling.shares.x": {
        "en": "class",
        "ko": "클래스",
    },
    "sampling.shares.y": {
        "en": "share of the epoch's samples",
        "ko": "에폭 샘플 중 비율",
    },
    "sampling.coverage.title": {
        "en": "How many distinct samples an epoch really saw",
        "ko": "한 에폭이 실제로 본 서로 다른 샘플 수",
    },
    "sampling.coverage.explain": {
        "en": "An epoch of WeightedRandomSampler with replacement draws `num_samples` times, but many draws repeat "
            "the same minority samples, and majority samples go unseen. RandomSampler sees every sample exactly "
            "once.",
        "ko": "replacement가 켜진 WeightedRandomSampler의 한 에폭은 `num_samples`번 뽑지만, 많은 뽑기가 같은 소수 클래스 "
            "샘플을 되풀이하고 다수 클래스 샘플은 보이지 않습니다. RandomSampler는 모든 샘플을 정확히 한 번씩 봅니다.",
    },
    "sampling.coverage.drawn": {
        "en": "samples drawn",
        "ko": "뽑은 샘플 수",
    },
    "sampling.coverage.distinct": {
        "en": "distinct samples",
        "ko": "서로 다른 샘플 수",
    },
    "sampling.coverage.unseen": {
        "en": "never drawn",
        "ko": "한 번도 뽑히지 않음",
    },
    "sampling.coverage.epoch": {
        "en": "{run}, epoch {epoch}",
        "ko": "{run}, 에폭 {epoch}",
    },
    "sampling.coverage.y": {
        "en": "samples",
        "ko": "샘플 수",
    },
    "sampling.metric.distinct": {
        "en": "distinct / drawn",
        "ko": "서로 다른 샘플 / 뽑은 샘플",
    },
    "sampling.metric.distinct_value": {
        "en": "{distinct} / {drawn}",
        "ko": "{distinct} / {drawn}",
    },
    "sampling.replacement.title": {
        "en": "Why replacement=False drifts back to the data's own ratio",
        "ko": "replacement=False가 데이터 자체의 비율로 되돌아가는 이유",
    },
    "sampling.replacement.explain": {
        "en": "Without replacement, a drawn sample leaves the pool. The heavy minority samples are drawn first; once "
            "they are used up, the epoch can only go on with the majority. Asked for `num_samples = len(dataset)` "
            "draws — the usual setting — it must take every sample exactly once, so the epoch's class shares are "
            "exactly the data's, whatever the weights: they only change the order (minority samples early in "
            "the epoch). To oversample a class you need `replacement=True` (the default).",
        "ko": "비복원 추출에서는 뽑힌 샘플이 후보에서 빠집니다. 가중치가 큰 소수 클래스 샘플이 먼저 뽑히고, 그것들이 "
            "바닥나면 에폭은 다수 클래스로만 이어질 수 있습니다. 보통 설정대로 `num_samples = len(dataset)`번 뽑으라고 "
            "하면 모든 샘플을 정확히 한 번씩 뽑아야 하므로, 가중치가 무엇이든 에폭의 클래스 비율은 데이터와 똑같습니다. "
            "가중치는 순서만 바꿉니다(소수 클래스 샘플이 에폭 앞쪽에 몰림). 한 클래스를 더 많이 뽑으려면 "
            "`replacement=True`(기본값)가 필요합니다.",
    },
    "sampling.replacement.now_off": {
        "en": "replacement=False now: compare the blue bars of the weighted runs with the grey ones — they are "
            "equal, while the early batches above are richer in the minority than the late ones.",
        "ko": "지금은 replacement=False입니다: 가중치를 쓴 실행의 파란 막대를 회색 막대와 비교해 보세요. 둘이 같고, "
            "위의 앞쪽 배치에는 뒤쪽 배치보다 소수 클래스가 더 많습니다.",
    },
    "sampling.replacement.now_on": {
        "en": "replacement=True now: the weighted runs reach their intended shares but repeat samples (see the "
            "distinct samples below). "
            "Switch replacement off to watch the shares fall back to the data's.",
        "ko": "지금은 replacement=True입니다: 가중치를 쓴 실행은 의도한 비율에 닿지만 샘플을 되풀이합니다(아래의 서로 다른 "
            "샘플 수를 보세요). "
            "replacement를 끄면 비율이 데이터 자체의 비율로 돌아가는 것을 볼 수 있습니다.",
    },
    "sampling.mistake.title": {
        "en": "One weight per class: the mistake torch does not catch",
        "ko": "클래스마다 가중치 하나: torch가 잡아 주지 않는 실수",
    },
    "sampling.mistake.explain": {
        "en": "`WeightedRandomSampler(weights, num_samples)` wants one weight per *sample* — `len(weights)` should "
            "equal `len(dataset)`. A list of one weight per class is a common slip, and torch does not raise: it "
            "draws `num_samples` indices from `range(len(weights))`, so the whole epoch is dataset indices 0 to "
            "{last}, over and over. Below, this dataset's real run with the {k} class weights from the table "
            "passed as `weights`.",
        "ko": "`WeightedRandomSampler(weights, num_samples)`는 *샘플*마다 가중치 하나를 원합니다: `len(weights)`는 "
            "`len(dataset)`과 같아야 합니다. 클래스마다 가중치 하나를 넘기는 것은 흔한 실수인데, torch는 예외를 내지 "
            "않습니다. `range(len(weights))`에서 인덱스를 `num_samples`번 뽑으므로, 에폭 전체가 데이터셋 인덱스 0부터 "
            "{last}까지만 되풀이됩니다. 아래는 표의 클래스 가중치 {k}개를 `weights`로 넘겨 이 데이터셋으로 실제로 "
            "실행한 결과입니다.",
    },
    "sampling.mistake.wrong": {
        "en": "wrong: one weight per class",
        "ko": "틀림: 클래스마다 가중치 하나",
    },
    "sampling.mistake.right": {
        "en": "right: one weight per sample",
        "ko": "맞음: 샘플마다 가중치 하나",
    },
    "sampling.mistake.result": {
        "en": "The epoch drew {drawn} samples but only {distinct} distinct ones — dataset indices {indices} — out "
            "of {dataset_len}.",
        "ko": "에폭에서 샘플을 {drawn}개 뽑았지만 서로 다른 샘플은 {distinct}개뿐입니다(데이터셋 인덱스 {indices}). "
            "전체 샘플은 {dataset_len}개입니다.",
    },
    "sampling.mistake.error": {
        "en": "Here torch does fail — with replacement=False it cannot draw more samples than there are weights — "
            "but only at the first batch, and with a message about multinomial sampling, not about the weights' "
            "length:",
        "ko": "이번에는 torch가 실패합니다. replacement=False이면 가중치 개수보다 많은 샘플을 뽑을 수 없기 때문입니다. "
            "하지만 첫 배치에서야 실패하고, 메시지도 가중치의 길이가 아니라 다항 분포 샘플링에 관한 것입니다:",
    },
    "sampling.mistake.code_wrong": {
        "en": "from torch.utils.data import WeightedRandomSampler\n\n"
            "class_weights = [{weights}]  # one per class\n"
            "sampler = WeightedRandomSampler(class_weights, num_samples=len(dataset))\n"
            "# draws only dataset[0] … dataset[{last}]",
        "ko": "from torch.utils.data import WeightedRandomSampler\n\n"
            "class_weights = [{weights}]  # 클래스마다 하나\n"
            "sampler = WeightedRandomSampler(class_weights, num_samples=len(dataset))\n"
            "# dataset[0] … dataset[{last}]만 뽑힘",
    },
    "sampling.mistake.code_right": {
        "en": "from torch.utils.data import WeightedRandomSampler\n\n"
            "class_weights = [{weights}]  # one per class\n"
            "labels = [int(dataset[i][1]) for i in range(len(dataset))]  # each sample's class\n"
            "weights = [class_weights[label] for label in labels]  # one per sample\n"
            "sampler = WeightedRandomSampler(weights, num_samples=len(dataset))",
        "ko": "from torch.utils.data import WeightedRandomSampler\n\n"
            "class_weights = [{weights}]  # 클래스마다 하나\n"
            "labels = [int(dataset[i][1]) for i in range(len(dataset))]  # 샘플마다 그 클래스\n"
            "weights = [class_weights[label] for label in labels]  # 샘플마다 하나\n"
            "sampler = WeightedRandomSampler(weights, num_samples=len(dataset))",
    },
    "sampling.findings": {
        "en": "What these runs show",
        "ko": "이 실행들에서 보이는 것",
    },
    "sampling.findings.none": {
        "en": "Nothing to flag in these runs.",
        "ko": "이 실행들에는 알릴 것이 없습니다.",
    },
}
