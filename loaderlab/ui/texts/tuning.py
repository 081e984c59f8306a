"""Texts of the "Your trace" page's ``run --tune`` section: what each setting measured inside the job."""

TEXTS = {
    "tuningview.title": {
        "en": "Measured inside your job (run --tune)",
        "ko": "작업 안에서 잰 값(run --tune)",
    },
    "tuningview.explain": {
        "en": "Each bar is one setting's samples per second, measured on your own batches with your own step "
              "between them, slice after slice in turn; the whisker spans its slowest and fastest round. "
              "Grey is your setting, green the measured best.",
        "ko": "막대 하나가 한 설정의 초당 샘플 수이며, 여러분의 배치와 그 사이의 스텝을 그대로 돌리며 조각마다 "
              "번갈아 잰 값입니다. 수염은 가장 느린 회차와 가장 빠른 회차입니다. 회색이 현재 설정, 초록이 잰 값 중 "
              "최선입니다.",
    },
    "tuningview.x": {"en": "samples per second (median of its rounds)", "ko": "초당 샘플 수(회차 중앙값)"},
    "tuningview.own": {"en": "yours", "ko": "현재"},
    "tuningview.best": {"en": "best", "ko": "최선"},
    "tuningview.hover": {
        "en": "%{y}<br>%{x:,.0f} samples/s, %{customdata[0]} rounds<br>lowest %{customdata[1]:,.0f}, "
              "highest %{customdata[2]:,.0f}<br>%{customdata[3]:.2f}× yours<extra></extra>",
        "ko": "%{y}<br>초당 %{x:,.0f} 샘플, %{customdata[0]}회<br>최저 %{customdata[1]:,.0f}, "
              "최고 %{customdata[2]:,.0f}<br>현재의 %{customdata[3]:.2f}배<extra></extra>",
    },
}
