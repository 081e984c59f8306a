"""Texts of the "Padding & collate" page."""

TEXTS = {
    "padding.title": {
        "en": "Padding and collate",
        "ko": "패딩과 콜레이트",
    },
    "padding.explain": {
        "en": "A batch is one tensor, so samples of different lengths cannot simply be stacked: torch's default "
            "`collate_fn` fails on them. A padding `collate_fn` (`torch.nn.utils.rnn.pad_sequence`) fills every "
            "sample up to the longest one in its batch — and every padded cell is memory and compute spent on "
            "nothing. Batching samples of similar length together (a length-bucketing `batch_sampler`) cuts "
            "that waste. Below, the same dataset batched at random and bucketed, both padded.",
        "ko": "배치는 텐서 하나이므로 길이가 다른 샘플은 그냥 쌓을 수 없습니다: torch의 기본 `collate_fn`은 여기서 "
            "실패합니다. 패딩하는 `collate_fn`(`torch.nn.utils.rnn.pad_sequence`)은 모든 샘플을 배치 안에서 가장 긴 "
            "샘플의 길이까지 채웁니다. 그리고 패딩된 칸 하나하나가 아무 쓸모 없이 쓰인 메모리와 연산입니다. 길이가 "
            "비슷한 샘플끼리 배치로 묶으면(길이별 버킷을 만드는 `batch_sampler`) 이 낭비가 줄어듭니다. 아래는 같은 "
            "데이터셋을 무작위로 묶은 경우와 버킷으로 묶은 경우이며, 둘 다 패딩합니다.",
    },
    "padding.try": {
        "en": "Try it: the workshop preset \"padding waste\" uses the stdlib docstrings (real, varied lengths); "
            "change `batch_size` and watch the padding grow with it.",
        "ko": "해 보기: 워크숍 프리셋 \"패딩 낭비\"는 표준 라이브러리 독스트링(실제 데이터, 다양한 길이)을 씁니다. "
            "`batch_size`를 바꾸면 패딩이 함께 늘어나는 것을 보세요.",
    },
    "padding.no_cost": {
        "en": "These runs use num_workers=0 and skip the per-sample cost, the straggler and your training step: which "
            "samples are batched together depends on none of them (the same seed gives the same batches), so both "
            "runs stay quick. The code below keeps your settings.",
        "ko": "이 실행들은 num_workers=0으로, 샘플당 비용·느린 샘플·학습 단계 없이 돌립니다. 어떤 샘플이 한 미니배치로 "
            "묶이는지는 이들 중 어느 것에도 달려 있지 않으므로(같은 시드면 같은 미니배치) 두 실행 모두 빠르게 끝납니다. "
            "아래 코드는 사이드바의 설정 그대로입니다.",
    },
    "padding.needs_map": {
        "en": "A batch_sampler chooses dataset indices, so bucketing needs a map-style Dataset. Choose \"map-style "
            "Dataset\" under dataset style in the sidebar.",
        "ko": "batch_sampler는 데이터셋 인덱스를 고르므로, 버킷으로 묶으려면 맵 스타일 데이터셋이 필요합니다. 사이드바의 "
            "데이터셋 종류에서 \"맵 스타일 데이터셋\"을 고르세요.",
    },
    "padding.equal_lengths": {
        "en": "Every sample of this dataset has the same length ({length}), so there is nothing to pad. Pick the "
            "stdlib docstrings dataset, or raise \"length varies by ±\" in the sidebar.",
        "ko": "이 데이터셋의 샘플은 모두 길이가 같아서({length}) 패딩할 것이 없습니다. 표준 라이브러리 독스트링 데이터셋을 "
            "고르거나, 사이드바에서 \"길이 변동 폭 ±\"을 올리세요.",
    },
    "padding.collate.title": {
        "en": "What the default collate says",
        "ko": "기본 콜레이트가 하는 말",
    },
    "padding.collate.explain": {
        "en": "Torch's own `default_collate`, run here on the first batch of the random run (dataset indices "
            "{indices}, lengths {lengths}):",
        "ko": "torch의 `default_collate`를 무작위 실행의 첫 배치(데이터셋 인덱스 {indices}, 길이 {lengths})에 그대로 "
            "실행한 결과입니다:",
    },
    "padding.collate.ok": {
        "en": "The default collate stacks this batch without complaint: its samples all have length {length}.",
        "ko": "기본 콜레이트가 이 배치를 문제없이 쌓습니다: 샘플의 길이가 모두 {length}입니다.",
    },
    "padding.collate.fix": {
        "en": "The fix is a `collate_fn` that pads, as both runs below use: `pad_sequence(tokens, batch_first=True, "
            "padding_value=0)`, returning the lengths too so the model can mask the padding.",
        "ko": "해결책은 패딩하는 `collate_fn`이며, 아래 두 실행 모두 이를 씁니다: `pad_sequence(tokens, batch_first=True, "
            "padding_value=0)`. 모델이 패딩을 마스킹할 수 있도록 길이도 함께 돌려줍니다.",
    },
    "padding.run.random": {
        "en": "random batches (shuffle=True)",
        "ko": "무작위 배치 (shuffle=True)",
    },
    "padding.run.bucket": {
        "en": "length-bucketed batches",
        "ko": "길이별 버킷 배치",
    },
    "padding.grid.title": {
        "en": "Cell by cell",
        "ko": "칸 하나하나",
    },
    "padding.grid.explain": {
        "en": "One row per sample, one column per position of the padded tensor; the first batches your loop "
            "received. Blue: the sample's own tokens. Orange: padding up to the longest sample of the batch.",
        "ko": "샘플 하나가 한 행, 패딩된 텐서의 위치 하나가 한 열이며, 학습 루프가 받은 첫 배치들입니다. 파랑: 샘플 "
            "자신의 토큰. 주황: 배치에서 가장 긴 샘플까지 채운 패딩.",
    },
    "padding.grid.batches": {
        "en": "batches shown",
        "ko": "보여 줄 배치 수",
    },
    "padding.grid.figure_title": {
        "en": "{run}<br><sup>{padded} padded cells in these batches</sup>",
        "ko": "{run}<br><sup>이 배치들의 패딩 칸 {padded}개</sup>",
    },
    "padding.grid.x": {
        "en": "position in the padded tensor",
        "ko": "패딩된 텐서 안의 위치",
    },
    "padding.grid.x_binned": {
        "en": "position in the padded tensor ({step} positions per column)",
        "ko": "패딩된 텐서 안의 위치 (열 하나에 {step}칸)",
    },
    "padding.grid.batch": {
        "en": "batch #{batch} ({padded} padded)",
        "ko": "배치 #{batch} (패딩 {padded}칸)",
    },
    "padding.grid.token": {
        "en": "token",
        "ko": "토큰",
    },
    "padding.grid.padding": {
        "en": "padding",
        "ko": "패딩",
    },
    "padding.grid.hover": {
        "en": "batch #{batch}, dataset index {index}, length {length}<br>position {position}: {what}",
        "ko": "배치 #{batch}, 데이터셋 인덱스 {index}, 길이 {length}<br>위치 {position}: {what}",
    },
    "padding.fraction.title": {
        "en": "Padding per batch",
        "ko": "배치별 패딩",
    },
    "padding.fraction.explain": {
        "en": "The share of each batch's cells that is padding, in the order your loop received the batches. "
            "Dashed: the share over all batches of the run.",
        "ko": "각 배치의 칸 중 패딩의 비율이며, 학습 루프가 배치를 받은 순서대로입니다. 점선: 실행 전체 배치에 대한 "
            "비율.",
    },
    "padding.fraction.figure_title": {
        "en": "padded cells in total: {random} at random, {bucket} bucketed ({saved:.0%} fewer)",
        "ko": "전체 패딩 칸: 무작위 {random}개, 버킷 {bucket}개 ({saved:.0%} 감소)",
    },
    "padding.fraction.x": {
        "en": "batch (in the order your loop received them; epochs one after another)",
        "ko": "배치 (학습 루프가 받은 순서, 에폭은 이어서)",
    },
    "padding.fraction.y": {
        "en": "padding share of the batch",
        "ko": "배치 중 패딩 비율",
    },
    "padding.fraction.overall": {
        "en": "{run}: {fraction:.0%} over all batches",
        "ko": "{run}: 전체 배치의 {fraction:.0%}",
    },
    "padding.fraction.hover": {
        "en": "epoch %{customdata[0]}, batch #%{customdata[1]}<br>%{customdata[2]} of %{customdata[3]} cells padded "
            "(%{y:.0%})",
        "ko": "에폭 %{customdata[0]}, 배치 #%{customdata[1]}<br>%{customdata[3]}칸 중 %{customdata[2]}칸이 패딩 "
            "(%{y:.0%})",
    },
    "padding.metric.padded": {
        "en": "padded cells",
        "ko": "패딩 칸 수",
    },
    "padding.metric.fraction": {
        "en": "padding share",
        "ko": "패딩 비율",
    },
    "padding.metric.delta": {
        "en": "{delta:+,} cells",
        "ko": "{delta:+,}칸",
    },
    "padding.use_docstrings": {
        "en": "Use the stdlib docstrings dataset (lengths vary)",
        "ko": "표준 라이브러리 독스트링 데이터셋 쓰기 (길이가 제각각)",
    },
    "padding.findings": {
        "en": "What these runs show",
        "ko": "이 실행들에서 보이는 것",
    },
    "padding.findings.none": {
        "en": "Nothing to flag: padding stays under the threshold in both runs.",
        "ko": "알릴 것이 없습니다: 두 실행 모두 패딩이 기준치 아래입니다.",
    },
    "padding.code.random": {
        "en": "random batches:",
        "ko": "무작위 배치:",
    },
    "padding.code.bucket": {
        "en": "bucketed (the code defines BucketBatchSampler as LoaderLab's; any length-bucketing "
            "batch_sampler works):",
        "ko": "버킷 배치 (코드가 BucketBatchSampler를 LoaderLab의 것과 똑같이 정의합니다. 길이별 버킷을 "
            "만드는 batch_sampler라면 무엇이든 됩니다):",
    },
}
