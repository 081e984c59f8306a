"""Texts of a run that failed, hung or was stopped, and of the live view that watches a run (any page may
show them)."""

TEXTS = {
    "fault.who.main": {
        "en": "the main process",
        "ko": "메인 프로세스",
    },
    "fault.who.worker": {
        "en": "worker {worker}",
        "ko": "워커 {worker}",
    },
    "fault.pid": {
        "en": " (pid {pid})",
        "ko": " (pid {pid})",
    },
    "fault.site.fetch": {
        "en": "{who} failed on index {index}.",
        "ko": "{who}가 인덱스 {index}에서 실패했습니다.",
    },
    "fault.site.collate": {
        "en": "{who} failed collating batch {task} (indices {indices}).",
        "ko": "{who}가 배치 {task}(인덱스 {indices})를 collate하다 실패했습니다.",
    },
    "fault.site.init": {
        "en": "{who} failed in worker_init_fn.",
        "ko": "{who}가 worker_init_fn에서 실패했습니다.",
    },
    "fault.site.killed": {
        "en": "{who}{pid} died ({signal}){where}.",
        "ko": "{who}{pid}가 종료되었습니다 ({signal}){where}.",
    },
    "fault.killed.index": {
        "en": " while fetching index {index}",
        "ko": " — 인덱스 {index}를 가져오던 중",
    },
    "fault.killed.tasks": {
        "en": " with batch(es) {tasks} unfinished",
        "ko": " — 끝나지 않은 배치: {tasks}",
    },
    "fault.site.unsent": {
        "en": "{who}{pid} could not send batch {task} (indices {indices}).",
        "ko": "{who}{pid}가 배치 {task}(인덱스 {indices})를 보내지 못했습니다.",
    },
    "fault.site.timeout": {
        "en": "No batch arrived within `timeout`.",
        "ko": "`timeout` 안에 배치가 도착하지 않았습니다.",
    },
    "fault.site.other": {
        "en": "The loader failed.",
        "ko": "로더가 실패했습니다.",
    },
    "fault.unsent.explain": {
        "en": "A worker must pickle each batch to send it to the main process. This one could not, "
            "so torch prints the error in the worker and waits for the batch forever (or until "
            "`timeout`); LoaderLab noticed and stopped the run.",
        "ko": "워커는 배치를 메인 프로세스로 보내려면 pickle해야 합니다. 이 배치는 그럴 수 없어서, torch는 "
            "워커에서 오류를 출력하고 배치를 영원히(또는 `timeout`까지) 기다립니다. LoaderLab은 이를 "
            "감지하고 실행을 멈췄습니다.",
    },
    "fault.partial.title": {
        "en": "The trace up to the failure",
        "ko": "실패 직전까지의 트레이스",
    },
    "fault.partial.empty": {
        "en": "Nothing was recorded before the run ended.",
        "ko": "실행이 끝나기 전에 기록된 것이 없습니다.",
    },
    "fault.partial.explain": {
        "en": "{events} events in {seconds:.2f} s, recorded before the run ended.",
        "ko": "실행이 끝나기 전에 {seconds:.2f}초 동안 기록된 이벤트 {events}개.",
    },
    "fault.stopped.cap": {
        "en": "Stopped after {seconds} s (LOADERLAB_MAX_RUN_SECONDS): below is the trace up to then.",
        "ko": "{seconds}초 후 중지되었습니다 (LOADERLAB_MAX_RUN_SECONDS). 아래는 그때까지의 트레이스입니다.",
    },
    "fault.stuck": {
        "en": "Worker {worker} (pid {pid}) was stuck inside dataset[{index}] for {since} s; its last event "
            "was {last}, {ago} s before the stop.",
        "ko": "워커 {worker}(pid {pid})가 dataset[{index}] 안에서 {since}초 동안 멈춰 있었습니다. 마지막 "
            "이벤트는 중지 {ago}초 전의 {last}였습니다.",
    },
    "fault.stack": {
        "en": "Where worker {worker} was stuck (its Python stack)",
        "ko": "워커 {worker}가 멈춰 있던 곳 (Python 스택)",
    },
    "fault.stopped.asked": {
        "en": "You stopped this run: below is the trace up to then.",
        "ko": "이 실행을 직접 중지했습니다. 아래는 그때까지의 트레이스입니다.",
    },
    "live.progress": {
        "en": "Run in progress: {events} events, {batches} batches handed over in {seconds} s.",
        "ko": "실행 중: {seconds}초 동안 이벤트 {events}개, 건네진 배치 {batches}개.",
    },
    "live.stalled": {
        "en": "**No batch for {seconds} s.** Each worker's last event:",
        "ko": "**{seconds}초 동안 배치가 없습니다.** 워커별 마지막 이벤트:",
    },
    "live.worker": {
        "en": "worker {worker}: last event {kind}{where} {ago} s ago",
        "ko": "워커 {worker}: 마지막 이벤트 {kind}{where}, {ago}초 전",
    },
    "live.where.index": {
        "en": " (index {index})",
        "ko": " (인덱스 {index})",
    },
    "live.where.batch": {
        "en": " (batch {batch})",
        "ko": " (배치 {batch})",
    },
    "live.stop": {
        "en": "Stop this run",
        "ko": "이 실행 중지",
    },
    "live.stopping": {
        "en": "Stopping: asking the workers where they are, then shutting them down…",
        "ko": "중지하는 중: 워커들에게 어디에 있는지 묻고 종료합니다…",
    },
}
