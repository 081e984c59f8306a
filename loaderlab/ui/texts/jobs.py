"""Texts for traces of ``python -m loaderlab run`` (a training job with one or more DataLoaders)."""

TEXTS = {
    "jobs.loader": {
        "en": "DataLoader of this job",
        "ko": "이 작업의 데이터로더",
    },
    "jobs.loader.help": {
        "en": "The job iterated {n} DataLoaders; each is named after the variable it was assigned to, with the line "
            "that made it. The views show one at a time.",
        "ko": "이 작업은 데이터로더 {n}개를 돌렸습니다. 각각 대입된 변수 이름과 만든 줄로 부릅니다. 화면은 한 번에 하나씩 "
            "보여 줍니다.",
    },
    "jobs.loader.option": {
        "en": "{name} ({site})",
        "ko": "{name} ({site})",
    },
    "jobs.follow.title": {
        "en": "Follow a trace on this machine",
        "ko": "이 컴퓨터의 트레이스 따라가기",
    },
    "jobs.follow.explain": {
        "en": "Give the trace that `python -m loaderlab run` is writing (or wrote): a .lltrace file, the folder of a "
            "torchrun job's rank files, or a glob such as `trace/rank*.lltrace`. While the job runs, the view refreshes "
            "every {seconds:g} s; for a job on this machine you can ask its workers for their Python stacks.",
        "ko": "`python -m loaderlab run`이 쓰고 있는(또는 다 쓴) 트레이스를 적으세요: .lltrace 파일, torchrun 작업의 랭크별 "
            "파일이 든 폴더, 또는 `trace/rank*.lltrace` 같은 글롭. 작업이 도는 동안 화면이 {seconds:g}초마다 새로 고쳐지고, "
            "이 컴퓨터에서 도는 작업이면 워커들에게 Python 스택을 물어볼 수 있습니다.",
    },
    "jobs.follow.path": {
        "en": "trace path on this machine",
        "ko": "이 컴퓨터의 트레이스 경로",
    },
    "jobs.follow.path.help": {
        "en": "Relative paths start in {cwd}. Only files ending in .lltrace or .json are read.",
        "ko": "상대 경로는 {cwd}에서 시작합니다. .lltrace 또는 .json으로 끝나는 파일만 읽습니다.",
    },
    "jobs.follow.recent": {
        "en": "or pick a recent trace under {cwd}",
        "ko": "또는 {cwd} 아래의 최근 트레이스 고르기",
    },
    "jobs.follow.recent.placeholder": {
        "en": "newest first",
        "ko": "최신 순",
    },
    "jobs.follow.recent.none": {
        "en": "No .lltrace file under {cwd} yet.",
        "ko": "{cwd} 아래에 아직 .lltrace 파일이 없습니다.",
    },
    "jobs.follow.live": {
        "en": "Live: the job is running; {events:,} events and {batches:,} batches so far, the last chunk written "
            "{ago:.0f} s ago. The view refreshes every {seconds:g} s.",
        "ko": "실시간: 작업이 돌고 있습니다. 지금까지 이벤트 {events:,}개, 배치 {batches:,}개이고, 마지막 묶음은 {ago:.0f}초 "
            "전에 쓰였습니다. 화면은 {seconds:g}초마다 새로 고쳐집니다.",
    },
    "jobs.follow.live.elsewhere": {
        "en": "Live: the trace is growing but its job does not run on this machine (no stacks to ask for); {events:,} "
            "events and {batches:,} batches so far, the last chunk written {ago:.0f} s ago.",
        "ko": "실시간: 트레이스가 늘고 있지만 작업이 이 컴퓨터에서 돌지 않습니다(스택을 물어볼 수 없음). 지금까지 이벤트 "
            "{events:,}개, 배치 {batches:,}개이고, 마지막 묶음은 {ago:.0f}초 전에 쓰였습니다.",
    },
    "jobs.follow.waiting": {
        "en": "Live: the job is running but has written no events yet; the view refreshes every {seconds:g} s.",
        "ko": "실시간: 작업이 돌고 있지만 아직 쓴 이벤트가 없습니다. 화면은 {seconds:g}초마다 새로 고쳐집니다.",
    },
    "jobs.follow.ended": {
        "en": "The job ended with exit status {status} and closed its trace: {events:,} events, {batches:,} batches. "
            "The view no longer refreshes.",
        "ko": "작업이 종료 상태 {status}로 끝나 트레이스를 닫았습니다: 이벤트 {events:,}개, 배치 {batches:,}개. 화면은 더 "
            "새로 고쳐지지 않습니다.",
    },
    "jobs.follow.stopped": {
        "en": "The job no longer runs and never closed its trace (it was killed, or it runs on another machine and has "
            "written nothing for {ago:.0f} s): showing the {events:,} events written up to then. The view no longer "
            "refreshes.",
        "ko": "작업이 더는 돌지 않는데 트레이스를 닫지 않았습니다(강제로 끝났거나, 다른 컴퓨터에서 {ago:.0f}초 동안 아무것도 "
            "쓰지 않았습니다). 그때까지 쓰인 이벤트 {events:,}개를 보여 줍니다. 화면은 더 새로 고쳐지지 않습니다.",
    },
    "jobs.follow.read_cost": {
        "en": "Reading the new chunks took {ms:.0f} ms.",
        "ko": "새 묶음을 읽는 데 {ms:.0f}ms 걸렸습니다.",
    },
    "jobs.follow.error.empty": {
        "en": "Give the path of a trace file, or of the folder `python -m loaderlab run -o` wrote.",
        "ko": "트레이스 파일의 경로, 또는 `python -m loaderlab run -o`가 쓴 폴더의 경로를 적으세요.",
    },
    "jobs.follow.error.missing": {
        "en": "There is no file or folder {path} on this machine (relative paths start in {cwd}).",
        "ko": "이 컴퓨터에 {path}라는 파일이나 폴더가 없습니다(상대 경로는 {cwd}에서 시작합니다).",
    },
    "jobs.follow.error.empty_folder": {
        "en": "The folder {path} holds no traces (*.lltrace or *.json); give a trace file, or the folder a torchrun "
            "job's `run -o` wrote.",
        "ko": "폴더 {path}에 트레이스(*.lltrace 또는 *.json)가 없습니다. 트레이스 파일이나 torchrun 작업의 `run -o`가 쓴 "
            "폴더를 적으세요.",
    },
    "jobs.follow.error.no_match": {
        "en": "No file matches {path}; check the pattern (relative paths start in {cwd}).",
        "ko": "{path}에 맞는 파일이 없습니다. 패턴을 확인하세요(상대 경로는 {cwd}에서 시작합니다).",
    },
    "jobs.follow.error.suffix": {
        "en": "{path} is not a trace file: the dashboard reads only files ending in .lltrace or .json from this "
            "machine.",
        "ko": "{path}은(는) 트레이스 파일이 아닙니다: 대시보드는 이 컴퓨터에서 .lltrace 또는 .json으로 끝나는 파일만 읽습니다.",
    },
    "jobs.follow.error.outside": {
        "en": "{path} is outside the folders this server reads traces from ({dirs}, set by LOADERLAB_TRACE_DIRS).",
        "ko": "{path}은(는) 이 서버가 트레이스를 읽는 폴더({dirs}, LOADERLAB_TRACE_DIRS로 지정) 밖에 있습니다.",
    },
    "jobs.follow.error.not_trace": {
        "en": "{path} is not a LoaderLab trace (it does not start as a .lltrace file does); follow a file that "
            "`python -m loaderlab run` writes.",
        "ko": "{path}은(는) LoaderLab 트레이스가 아닙니다(.lltrace 파일의 시작 부분이 없습니다). `python -m loaderlab run`이 "
            "쓰는 파일을 따라가세요.",
    },
    "jobs.follow.error.other": {
        "en": "{detail}",
        "ko": "이 트레이스는 읽을 수 없습니다. 자세한 내용(영문): {detail}",
    },
    "jobs.stacks.button": {
        "en": "Show the workers' stacks",
        "ko": "워커들의 스택 보기",
    },
    "jobs.stacks.help": {
        "en": "Asks the job's main process and each DataLoader worker where it is now, as `python -m loaderlab stacks "
            "{pid}` does: which worker is stuck, in which line of your __getitem__.",
        "ko": "`python -m loaderlab stacks {pid}`처럼 작업의 메인 프로세스와 데이터로더 워커 각각에게 지금 어디 있는지 "
            "묻습니다: 어느 워커가 내 __getitem__의 몇째 줄에서 멈췄는지.",
    },
    "jobs.stacks.gone": {
        "en": "The job (pid {pid}) is not running on this machine any more, so there are no stacks to ask for.",
        "ko": "작업(pid {pid})이 이 컴퓨터에서 더는 돌지 않아 물어볼 스택이 없습니다.",
    },
    "jobs.stacks.no_pid": {
        "en": "This trace does not name the process of its job, so its stacks cannot be asked for.",
        "ko": "이 트레이스에는 작업의 프로세스 번호가 없어 스택을 물어볼 수 없습니다.",
    },
    "jobs.stacks.main": {
        "en": "main process (pid {pid})",
        "ko": "메인 프로세스 (pid {pid})",
    },
    "jobs.stacks.worker": {
        "en": "worker {worker} of {loader} (pid {pid})",
        "ko": "{loader}의 워커 {worker} (pid {pid})",
    },
    "jobs.stacks.last": {
        "en": "{who}: last event {kind} (batch {batch}, index {index}), {ago:.1f} s ago.",
        "ko": "{who}: 마지막 이벤트 {kind} (배치 {batch}, 인덱스 {index}), {ago:.1f}초 전.",
    },
    "jobs.stacks.stuck": {
        "en": "{who} has been inside dataset[{index}] (batch {batch}) since its last event, {ago:.1f} s ago.",
        "ko": "{who}가 마지막 이벤트 이후 {ago:.1f}초 동안 dataset[{index}] (배치 {batch}) 안에 있습니다.",
    },
    "jobs.stacks.no_event": {
        "en": "{who}: no event in the trace yet.",
        "ko": "{who}: 트레이스에 아직 이벤트가 없습니다.",
    },
    "jobs.stacks.stack": {
        "en": "Where {who} is (its Python stack, most recent call first)",
        "ko": "{who}가 있는 곳 (Python 스택, 가장 최근 호출이 먼저)",
    },
    "jobs.stacks.no_answer": {
        "en": "{who} did not answer within {seconds:g} s.",
        "ko": "{who}가 {seconds:g}초 안에 답하지 않았습니다.",
    },
    "jobs.stacks.asked": {
        "en": "Stacks asked {ago:.0f} s ago; press the button again for where they are now.",
        "ko": "{ago:.0f}초 전에 물어본 스택입니다. 지금 위치를 보려면 버튼을 다시 누르세요.",
    },
    "jobs.follow.update": {
        "en": "Update the views ({events:,} events)",
        "ko": "화면 새로 그리기 (이벤트 {events:,}개)",
    },
    "jobs.follow.snapshot": {
        "en": "The views below show the trace as it was at {shown:,} events (it now has {events:,}); drawing them "
            "takes seconds on a trace this big, so while the job runs they are redrawn when you ask.",
        "ko": "아래 화면은 이벤트 {shown:,}개였을 때의 트레이스입니다(지금은 {events:,}개). 이만큼 큰 트레이스는 그리는 데 "
            "몇 초가 걸려서, 작업이 도는 동안에는 요청할 때만 다시 그립니다.",
    },
}
