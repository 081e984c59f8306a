"""The words for the loop's process at work while it waits for its workers' batches (``finding.busy_wait*``,
``tuning.keep_busy``), each key's English and Korean side by side.

Part of :data:`loaderlab.texts.words.WORDS`. Variable and setting names (``OMP_WAIT_POLICY=PASSIVE``,
``num_workers=0``) stay as code in every language. Knows nothing of how the cores are measured
(:mod:`loaderlab.trace.diagnosis.busy_wait`).
"""

TEXTS = {
    "finding.busy_wait": {
        "en": "While the loop waited {wait_s:.3f} s for its workers' batches, its process's other threads kept "
              "{cores:.1f} cores busy ({cpu_s:.3f} s of CPU beside the loop's own thread). Your step's torch ops run on "
              "{threads} threads in the loop, and OpenMP leaves them spinning for a while after each op before "
              "they sleep, on the cores your workers need. To measure what that costs your job, run it again with "
              "OMP_WAIT_POLICY=PASSIVE set (the threads then sleep at once), or with torch.set_num_threads(1) before "
              "the loop, and compare the loop's time; run --tune measures num_workers=0, where no worker shares a "
              "core with them.",
        "ko": "학습 루프가 워커의 배치를 {wait_s:.3f}초 기다리는 동안 그 프로세스의 다른 스레드가 "
              "코어 {cores:.1f}개를 바쁘게 썼습니다(루프 자신의 스레드 외에 CPU {cpu_s:.3f}초). 루프에서 여러분 스텝의 "
              "torch 연산은 스레드 {threads}개로 돌고, OpenMP는 연산이 끝날 때마다 이 스레드들을 잠들기 전에 한동안 "
              "돌려 둡니다(spin). 그 코어는 워커에게 필요한 코어입니다. 이것이 작업을 얼마나 늦추는지 재려면 "
              "OMP_WAIT_POLICY=PASSIVE를 설정하거나(스레드가 곧바로 잠듭니다) 루프 전에 torch.set_num_threads(1)을 "
              "두고 다시 실행해 루프 시간을 비교하세요. run --tune은 워커가 이 스레드와 코어를 나눠 쓰지 않는 "
              "num_workers=0을 잽니다.",
    },
    "finding.busy_wait_other": {
        "en": "While the loop waited {wait_s:.3f} s for its workers' batches, its process's other threads kept "
              "{cores:.1f} cores busy ({cpu_s:.3f} s of CPU beside the loop's own thread): they "
              "ran on the cores your workers need (pin_memory's thread, a thread of your own, or torch's intra-op "
              "threads, which spin after each op where the loop runs several: the trace does not say how many it "
              "ran). OMP_WAIT_POLICY=PASSIVE set, or torch.set_num_threads(1) before the loop, stops the spinning; "
              "run the job with it and compare the loop's time.",
        "ko": "학습 루프가 워커의 배치를 {wait_s:.3f}초 기다리는 동안 그 프로세스의 다른 스레드가 "
              "코어 {cores:.1f}개를 바쁘게 썼습니다(루프 자신의 스레드 외에 CPU {cpu_s:.3f}초): 이 스레드들이 "
              "워커에게 필요한 코어에서 돌았습니다(pin_memory 스레드, 여러분이 만든 스레드, 또는 루프가 여러 개를 "
              "쓸 때 연산마다 spin하는 torch의 intra-op 스레드: 트레이스에는 몇 개였는지 남지 않았습니다). "
              "OMP_WAIT_POLICY=PASSIVE를 설정하거나 루프 전에 torch.set_num_threads(1)을 두면 spin이 멈춥니다. "
              "그렇게 다시 실행해 루프 시간을 비교하세요.",
    },
    "tuning.keep_busy": {
        "en": "Keep your settings: {change} measured {speedup:.2f}× faster per epoch, but while the loop waited in "
              "these slices its process's other threads kept {cores:.1f} cores busy (torch's threads spinning "
              "after each op of your step, on the cores the workers need). In such a process a setting's rates move "
              "with where those threads land, by up to half from one run of the job to the next, and its slices "
              "share that luck, so their spread does not show it: a gain under {floor:.2f}× between settings with "
              "workers is not told. Set OMP_WAIT_POLICY=PASSIVE (or torch.set_num_threads(1) before the loop) and "
              "tune again.",
        "ko": "현재 설정을 유지하세요: {change}이(가) 에폭당 {speedup:.2f}배 빠르게 재졌지만, 이 조각들에서 루프가 "
              "기다리는 동안 그 프로세스의 다른 스레드가 코어 {cores:.1f}개를 바쁘게 썼습니다(스텝의 연산마다 "
              "spin하는 torch 스레드가 워커에게 필요한 코어에서 돌았습니다). 이런 프로세스에서는 설정의 속도가 그 "
              "스레드가 어느 코어에 놓이느냐에 따라 실행마다 절반까지 달라지고, 한 실행의 조각들은 같은 운을 나눠 "
              "가지므로 그 편차에 드러나지 않습니다: 워커를 쓰는 설정 사이의 {floor:.2f}배 미만 차이는 알리지 "
              "않습니다. OMP_WAIT_POLICY=PASSIVE를 설정하거나(또는 루프 전에 torch.set_num_threads(1)) 다시 "
              "튜닝하세요.",
    },
}
