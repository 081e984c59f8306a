"""The words of ``run --tune``: the report's table of what each setting measured inside the job, the measured
suggestion, and what tuning kept and did not keep (``tuning.*``), each key's English and Korean side by side.

Part of :data:`loaderlab.texts.words.WORDS`. Setting names (``num_workers=4``) stay as code in every language.
Knows nothing of how the settings are measured.
"""

from .wording import Plural

TEXTS = {
    "tuning.title": {
        "en": "Measured inside your job (run --tune): samples per second of each setting, your step between "
              "batches, {rounds_note}",
        "ko": "작업 안에서 잰 값(run --tune): 배치 사이에 여러분의 스텝을 그대로 돌리며 잰 설정별 초당 샘플 수, "
              "{rounds_note}",
    },
    "tuning.rounds_note": {
        "en": Plural("slices", "slices of {slice_batches} batches taken in turn ({slices} slice in all)",
                     "slices of {slice_batches} batches taken in turn ({slices} slices in all)"),
        "ko": "{slice_batches}배치씩 번갈아 잰 조각(모두 {slices}개)",
    },
    "tuning.pauses_timed": {
        "en": Plural("pauses", ", and {pauses} rest of an epoch whose share was spent, timed as a round of the "
                               "setting that served it",
                     ", and {pauses} rests of epochs whose share was spent, timed as rounds of the settings that "
                     "served them"),
        "ko": ", 그리고 몫을 다 쓴 에폭의 나머지 {pauses}개(그것을 받은 설정의 라운드로 잼)",
    },
    "tuning.row": {
        "en": Plural("rounds", "  {mark} {setting}: {median} samples/s (lowest {low}, highest {high}; {rounds} round)"
                               "{vs}{startup}",
                     "  {mark} {setting}: {median} samples/s (lowest {low}, highest {high}; {rounds} rounds)"
                     "{vs}{startup}"),
        "ko": "  {mark} {setting}: 초당 {median} 샘플(최저 {low}, 최고 {high}; {rounds}회){vs}{startup}",
    },
    "tuning.row_unmeasured": {
        "en": "  {mark} {setting}: not measured ({why})",
        "ko": "  {mark} {setting}: 재지 못함({why})",
    },
    "tuning.why.job_ended": {"en": "the job ended before its turn came", "ko": "차례가 오기 전에 작업이 끝남"},
    "tuning.why.warm_only": {"en": "only its start-up slice ran", "ko": "시작 조각만 돌았음"},
    "tuning.why.failed": {"en": "it failed, so it was dropped: {error}", "ko": "실패해서 제외함: {error}"},
    "tuning.why.budget": {"en": "its cost reached the budget first", "ko": "튜닝 비용이 먼저 예산에 이름"},
    "tuning.why.epochs": {"en": "tuning ended after {epochs} epochs, before its turn came",
                          "ko": "차례가 오기 전에 튜닝이 에폭 {epochs}개 뒤에 끝남"},
    "tuning.why.short": {"en": "its slice was cut short by the epoch's end", "ko": "에폭이 끝나 조각이 너무 짧았음"},
    "tuning.why.skipped": {"en": "not tried: the budget allows fewer settings", "ko": "시도 안 함: 예산이 설정 수보다 적음"},
    "tuning.vs_own": {"en": ", {ratio:.2f}× yours", "ko": ", 여러분 설정의 {ratio:.2f}배"},
    "tuning.startup": {"en": ", start-up {seconds:.2f} s", "ko": ", 시작 {seconds:.2f}초"},
    "tuning.mark.own": {"en": "yours", "ko": "현재"},
    "tuning.mark.best": {"en": "best", "ko": "최선"},
    "tuning.mark.other": {"en": "·", "ko": "·"},
    "tuning.suggest": {
        "en": "Suggestion (measured in your job): {change}: {speedup:.2f}× the samples per second of your setting "
              "({best} against {own} samples/s, medians of {rounds} and {own_rounds} rounds; faster than yours in "
              "{wins} of the {paired} rounds both ran).",
        "ko": "제안(여러분의 작업에서 잼): {change}: 현재 설정의 {speedup:.2f}배 초당 샘플 수(초당 {best} 대 {own}, "
              "각각 {rounds}회와 {own_rounds}회의 중앙값; 둘 다 돈 {paired}회 중 {wins}회 더 빠름).",
    },
    "tuning.suggest_epoch": {
        "en": "Suggestion (measured in your job): {change}: {speedup:.2f}× faster per epoch of your job "
              "({best_epoch:.2f} s against {own_epoch:.2f} s for its {samples:,} samples: each setting's median "
              "rate, {best} against {own} samples/s over {rounds} and {own_rounds} rounds, plus its measured "
              "start-up; faster than yours in {wins} of the {paired} rounds both ran).",
        "ko": "제안(여러분의 작업에서 잼): {change}: 작업의 에폭당 {speedup:.2f}배 빠름(샘플 {samples:,}개인 한 에폭에 "
              "{best_epoch:.2f}초 대 {own_epoch:.2f}초: 설정별 중앙값 속도 초당 {best} 대 {own}(각각 {rounds}회와 "
              "{own_rounds}회)에 잰 시작 시간을 더함; 둘 다 돈 {paired}회 중 {wins}회 더 빠름).",
    },
    "tuning.epoch": {"en": ", one epoch {seconds:.2f} s", "ko": ", 한 에폭 {seconds:.2f}초"},
    "tuning.stalls": {
        "en": Plural("count", "Stalls: {count} wait for a batch took over {x}× the usual pace in the {samples:,} "
                              "samples served while tuning ({excess:.2f} s beyond it; a slow sample, most likely). "
                              "An in-order loader pays such waits whatever its setting, so every epoch above counts "
                              "them at that rate: {own_s:.2f} s of yours.",
                     "Stalls: {count} waits for a batch took over {x}× the usual pace in the {samples:,} samples "
                     "served while tuning ({excess:.2f} s beyond it; slow samples, most likely). An in-order loader "
                     "pays such waits whatever its setting, so every epoch above counts them at that rate: "
                     "{own_s:.2f} s of yours."),
        "ko": "멈춤: 튜닝 중에 내준 샘플 {samples:,}개에서 배치 대기가 평소 속도의 {x}배를 넘은 것이 {count}번 "
              "있었습니다(그 속도보다 {excess:.2f}초 더 걸림; 대개 느린 샘플). 순서를 지키는 로더는 설정과 상관없이 이 "
              "대기를 치르므로, 위의 모든 에폭에 같은 비율로 넣었습니다: 현재 설정에서 {own_s:.2f}초.",
    },
    "tuning.startup_note": {
        "en": "Its workers took {seconds:.2f} s to start, apart from the rate above: with persistent_workers=False "
              "that is paid again in each of the job's {epochs} epochs.",
        "ko": "워커 시작에 {seconds:.2f}초가 걸렸으며 위 속도와 따로 잰 값입니다: persistent_workers=False이면 "
              "작업의 에폭 {epochs}개마다 다시 듭니다.",
    },
    "tuning.keep": {
        "en": "Keep your settings: no setting measured clearly faster than yours (a win needs {min:.2f}× your "
              "median and most of the rounds both ran).",
        "ko": "현재 설정을 유지하세요: 현재보다 분명히 빠른 설정이 없었습니다(현재 중앙값의 {min:.2f}배 이상이고 "
              "함께 돈 조각 대부분에서 빨라야 합니다).",
    },
    "tuning.too_few": {
        "en": "Too few rounds to tell ({why}): run again with a larger budget, e.g. --tune-budget {seconds} "
              "(seconds){share}.",
        "ko": "판단하기엔 잰 횟수가 너무 적습니다({why}): 예산을 늘려 다시 실행하세요. 예: --tune-budget "
              "{seconds}(초){share}.",
    },
    "tuning.too_few.share": {"en": " or --tune-budget {percent}%", "ko": " 또는 --tune-budget {percent}%"},
    "tuning.rematch": {
        "en": "The first rounds split between {change} and your setting, so a later epoch's share went to those two "
              "alone to decide it.",
        "ko": "처음 잰 라운드에서 {change}와 현재 설정의 승부가 갈리지 않아, 다음 에폭의 몫은 그 둘만 다시 재는 데 "
              "썼습니다.",
    },
    "tuning.stopped.budget": {"en": "its cost reached the budget of {budget:.1f} s",
                              "ko": "튜닝 비용이 예산 {budget:.1f}초에 이름"},
    "tuning.stopped.rounds": {"en": "every setting got its rounds", "ko": "모든 설정을 충분히 잼"},
    "tuning.stopped.job_ended": {"en": "the job ended while tuning", "ko": "튜닝 중 작업이 끝남"},
    "tuning.stopped.epochs": {"en": "tuning ends after {epochs} epochs", "ko": "튜닝은 에폭 {epochs}개 뒤에 끝남"},
    "tuning.adopted": {
        "en": "The rest of the job ran with {setting} (the measured best; your script still says {own}): the "
              "events in this trace were recorded with it; the {tuned} batches served while it tuned (its slices"
              "{paused}) are not in them.",
        "ko": "작업의 나머지는 {setting}(잰 값 중 최선; 스크립트에는 여전히 {own})로 돌았습니다: 이 트레이스의 "
              "이벤트는 그 설정으로 기록되었고, 튜닝하는 동안 받은 {tuned}개 배치(튜닝 조각{paused})는 들어 있지 "
              "않습니다.",
    },
    "tuning.kept_own": {
        "en": "The rest of the job ran with your own setting; the {tuned} batches served while it tuned (its "
              "slices{paused}) are not in this trace's events.",
        "ko": "작업의 나머지는 여러분의 설정으로 돌았습니다. 튜닝하는 동안 받은 {tuned}개 배치(튜닝 조각{paused})는 "
              "이 트레이스의 이벤트에 없습니다.",
    },
    "tuning.paused_by": {
        "en": ", and the rest of each epoch whose share was spent, {batches} of them served by {settings}",
        "ko": ", 그리고 몫을 다 쓴 에폭의 나머지 {batches}개: {settings}로 받음",
    },
    "tuning.untraced_after": {
        "en": "After tuning, {traced} epoch(s) were traced with that setting and the next {epochs} ({batches} "
              "batches) ran untraced, at its own speed (--tune-trace-epochs {n}; 'all' traces every epoch): they "
              "are not in this trace's events.",
        "ko": "튜닝 뒤 에폭 {traced}개는 그 설정으로 트레이스했고, 다음 에폭 {epochs}개(배치 {batches}개)는 "
              "트레이스 없이 그 설정의 제 속도로 돌았습니다(--tune-trace-epochs {n}; 'all'이면 모든 에폭을 "
              "트레이스): 이 트레이스의 이벤트에 없습니다.",
    },
    "tuning.same_batches": {
        "en": "Every setting was handed the same index batches in the sampler's order, so the loop got the very "
              "batches it gets without --tune (random augmentation in workers draws from each worker's seed, "
              "which differs with num_workers, as in torch).",
        "ko": "모든 설정이 샘플러 순서 그대로 같은 인덱스 배치를 받았으므로 루프는 --tune 없이와 똑같은 배치를 "
              "받았습니다(워커 안의 무작위 증강은 워커마다의 시드를 쓰며, 이는 torch에서처럼 num_workers에 따라 "
              "달라집니다).",
    },
    "tuning.loader_only.title": {
        "en": "Measured without your step: batch_size and in_order change the batches, so they were tried on the "
              "loader alone, with the adopted setting, each batch followed by a stand-in for your step that "
              "spins {cpu_ms:.3f} ms and waits {idle_ms:.3f} ms per sample, as your step did",
        "ko": "여러분의 스텝 없이 잰 값: batch_size와 in_order는 배치를 바꾸므로 로더만 따로, 채택한 설정으로 "
              "돌렸고, 배치마다 여러분의 스텝처럼 샘플당 {cpu_ms:.3f} ms 계산하고 {idle_ms:.3f} ms 기다리는 "
              "대역 스텝을 붙였습니다",
    },
    "tuning.loader_only.none": {
        "en": "Not measured without your step: batch_size and in_order change the batches, so they are tried on the "
              "loader alone with the last quarter of the budget, and it ran out first ({variants}); a larger "
              "--tune-budget tries them.",
        "ko": "여러분의 스텝 없이 재지 못함: batch_size와 in_order는 배치를 바꾸므로 예산의 마지막 4분의 1로 로더만 "
              "따로 재는데, 예산이 먼저 다 됐습니다({variants}). --tune-budget을 늘리면 잽니다.",
    },
    "tuning.loader_only.suggest": {
        "en": "Suggestion (measured without your step): {change}: {speedup:.2f}× the samples per second of your "
              "batch_size (faster in {wins} of the {paired} rounds both ran). It changes your batches: check that "
              "your model and learning rate want that.",
        "ko": "제안(여러분의 스텝 없이 잼): {change}: 현재 batch_size의 {speedup:.2f}배 초당 샘플 수(둘 다 돈 "
              "{paired}회 중 {wins}회 더 빠름). 배치가 바뀌므로 모델과 학습률에 맞는지 확인하세요.",
    },
    "tuning.skipped.iterable": {
        "en": "run --tune measured nothing for this loader: an IterableDataset's stream starts again with each new "
              "iterator and is split by num_workers, so no setting can be switched inside the job without "
              "changing its batches. Try num_workers values as whole runs of the job.",
        "ko": "run --tune은 이 로더에서 아무것도 재지 않았습니다: IterableDataset의 스트림은 새 이터레이터마다 "
              "처음부터 다시 시작하고 num_workers에 따라 나뉘므로, 배치를 바꾸지 않고는 작업 안에서 설정을 바꿀 "
              "수 없습니다. num_workers 값을 바꿔 작업 전체를 따로 돌려 비교하세요.",
    },
    "tuning.not_run": {
        "en": "Suggestions without --tune are directions, not measurements: measure them inside your job with "
              "`python -m loaderlab run --tune {script}`.",
        "ko": "--tune 없이 나온 제안은 방향일 뿐 잰 값이 아닙니다: `python -m loaderlab run --tune {script}`로 "
              "작업 안에서 재 보세요.",
    },
}
