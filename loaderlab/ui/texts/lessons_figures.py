"""Texts of the Lessons page's figures and tables (their titles, axes and columns)."""

TEXTS = {
    "lessons.figure.timeline": {
        "en": "Who did what, when: one lane per process",
        "ko": "누가 언제 무엇을 했나: 프로세스마다 한 줄",
    },
    "lessons.figure.depth.outstanding": {
        "en": "outstanding tasks",
        "ko": "나가 있는 작업",
    },
    "lessons.figure.depth.result_queue": {
        "en": "result_queue",
        "ko": "result_queue",
    },
    "lessons.figure.depth.data_queue": {
        "en": "data_queue",
        "ko": "data_queue",
    },
    "lessons.figure.depth.reorder": {
        "en": "reorder buffer",
        "ko": "재정렬 버퍼",
    },
    "lessons.figure.panel.outstanding": {
        "en": "tasks out (dispatched, not yet handed to your loop)",
        "ko": "나가 있는 작업 (보냈지만 아직 루프에 넘기지 않은 것)",
    },
    "lessons.figure.panel.index": {
        "en": "index queues",
        "ko": "인덱스 큐",
    },
    "lessons.figure.panel.result": {
        "en": "result queue",
        "ko": "결과 큐",
    },
    "lessons.figure.panel.reorder": {
        "en": "reorder buffer",
        "ko": "재정렬 버퍼",
    },
    "lessons.figure.cap": {
        "en": "cap: prefetch_factor × num_workers",
        "ko": "상한: prefetch_factor × num_workers",
    },
    "lessons.figure.depth_y": {
        "en": "batches",
        "ko": "미니배치",
    },
    "lessons.figure.labels_x": {
        "en": "label",
        "ko": "레이블",
    },
    "lessons.figure.labels_y": {
        "en": "samples drawn",
        "ko": "뽑힌 샘플 수",
    },
    "lessons.figure.epoch": {
        "en": "epoch {epoch}",
        "ko": "에폭 {epoch}",
    },
    "lessons.figure.padding_title": {
        "en": "Padding per batch",
        "ko": "미니배치별 패딩",
    },
    "lessons.figure.padding_x": {
        "en": "batch, in the order your loop got it",
        "ko": "루프가 받은 순서대로의 미니배치",
    },
    "lessons.figure.padding_y": {
        "en": "share of cells that are padding",
        "ko": "패딩인 칸의 비율",
    },
    "lessons.figure.padding_overall": {
        "en": "{run}: {fraction:.0%} over all batches",
        "ko": "{run}: 전체 미니배치에서 {fraction:.0%}",
    },
    "lessons.figure.padding_hover": {
        "en": "epoch %{customdata[0]}, batch %{customdata[1]}: %{customdata[2]} of %{customdata[3]} cells padded<extra></extra>",
        "ko": "에폭 %{customdata[0]}, 미니배치 %{customdata[1]}: 칸 %{customdata[3]}개 중 %{customdata[2]}개가 패딩<extra></extra>",
    },
    "lessons.figure.run": {
        "en": "this run",
        "ko": "이번 실행",
    },
    "lessons.col.worker": {
        "en": "worker",
        "ko": "워커",
    },
    "lessons.col.samples": {
        "en": "samples",
        "ko": "샘플 수",
    },
    "lessons.col.index": {
        "en": "indices fetched",
        "ko": "가져온 인덱스",
    },
    "lessons.col.batch": {
        "en": "batch",
        "ko": "미니배치",
    },
    "lessons.col.indices": {
        "en": "indices",
        "ko": "인덱스",
    },
    "lessons.col.epoch": {
        "en": "epoch",
        "ko": "에폭",
    },
    "lessons.col.queue": {
        "en": "index queue",
        "ko": "인덱스 큐",
    },
    "lessons.col.position": {
        "en": "handed over as #",
        "ko": "넘겨진 순서 #",
    },
    "lessons.col.parked_ms": {
        "en": "parked (ms)",
        "ko": "대기 (ms)",
    },
    "lessons.col.pid": {
        "en": "pid",
        "ko": "pid",
    },
    "lessons.col.startup_ms": {
        "en": "start-up (ms)",
        "ko": "시작 시간 (ms)",
    },
    "lessons.col.seed": {
        "en": "seed",
        "ko": "시드",
    },
    "lessons.col.draws": {
        "en": "first draws",
        "ko": "처음 뽑은 값",
    },
    "lessons.col.rank": {
        "en": "rank",
        "ko": "랭크",
    },
    "lessons.col.max_length": {
        "en": "longest",
        "ko": "최대 길이",
    },
    "lessons.col.cells": {
        "en": "cells",
        "ko": "칸 수",
    },
    "lessons.col.padded_cells": {
        "en": "padded cells",
        "ko": "패딩 칸 수",
    },
}
