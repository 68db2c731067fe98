"""Korean (the course's background notes): the words kgrade reads an explanation's claims by.
Data only (regex fragments). Korean puts particles after a name ("제 커널은", "torch보다"), so
these fragments are matched without a word boundary after them."""

_DIGITS = ["일", "이", "삼", "사", "오", "육", "칠", "팔", "구"]
_SINO = {
    (_DIGITS[t - 1] if t > 1 else "") + "십" + (_DIGITS[u - 1] if u else ""): 10 * t + u
    for t in range(1, 10)
    for u in range(10)
}
_SINO["백"] = 100
_NATIVE_TENS = ["스물", "서른", "마흔", "쉰", "예순", "일흔", "여든", "아흔"]

TABLE: dict[str, object] = {
    "code": "ko",
    "impl": {
        "compile": [r"torch\.compile(?:d)?", r"컴파일(?:된)? 버전", r"inductor"],
        "naive": [
            r"나이브(?: 버전| 구현| 파이토치| pytorch| 커널)?",
            r"naive(?: 버전| 구현)?",
            r"순진한 (?:버전|구현)",
            r"단순(?:한)? (?:버전|구현)",
            r"융합하지 않은 (?:버전|구현)",
            r"비융합 (?:버전|구현)",
        ],
        "torch": [
            r"(?:torch\.nn\.functional|torch|f)\.[a-z_]+",
            r"파이토치(?: 연산| 커널| 버전)?",
            r"pytorch(?: 연산| 커널| 버전)?",
            r"torch(?: 연산| 커널| 버전)?",
            r"cudnn",
            r"cublas",
            r"라이브러리",
        ],
        "submission": [
            r"(?:제|저의|나의|내|우리|우리의) (?:\S+ )??(?:커널|버전|구현|코드|솔루션)",
            r"융합(?:된)? 커널",
            r"triton 커널",
            r"이 커널",  # "this kernel": the student's, whatever the sentence before spoke of
            r"제(?= )",
            r"저는",
            r"저의",
            r"내가",
            r"나는",
        ],
        "ceiling": [r"텐서 코어 (?:상한|천장)", r"연산 상한"],
        "other": [
            r"(?:(?:제|내|저의|나의) )?(?:친구|동료|동기|짝|조원|같은 반 학생|다른 학생|다른 사람"
            r"|다른 팀|다른 조)(?:의 (?:커널|버전|구현|코드))?",
            # "민수의 커널": a possessor none of the grading's implementations (pass 6)
            r"(?<![\w])(?!(?:제|내|저|나|우리|저희|이|그|torch|pytorch|파이토치|토치|naive|나이브"
            r"|컴파일|triton|트리톤|cublas|기존|기준|원래|참조|레퍼런스|개|번|가지|종류|하나)의)"
            r"(?![\w\s]*(?:버전|구현|커널|코드|연산|함수)의)"
            r"[\uac00-\ud7a3]+의 (?:커널|버전|구현|코드)",
        ],
    },
    "pronouns": [r"그 커널", r"이것", r"그것", r"이는"],
    # joins two comparisons, each its own: "torch보다 트래픽이 많지만 torch보다 1.62배 빠르고"
    # "…적으며 …빠릅니다" joins as "고" does (pass 6)
    "conjunction": [
        r"지만(?=\s)",
        r"(?<=[\uac00-\ud7a3])고(?=\s)",
        r"(?<=[\uac00-\ud7a3])며(?=\s)",
    ],
    "compare_before": [r"vs\.?", r"대비", r"versus"],
    # a comparison's object comes before these: "torch보다", "나이브 버전에 비해"
    "compare_after": [
        r"보다",
        r"대비",  # "torch 대비 1.65배"
        r"(?:와|과)\s*(?:거의\s*)?(?:같|비슷|동일)",  # "torch.softmax(248 MB)와 거의 같습니다"
        r"에 비해",
        r"에 비해서",
        r"와 비교해",
        r"과 비교해",
        r"와 비교하면",
        r"과 비교하면",
        r"대비",
        r"와 비교하여",
        r"과 비교하여",
        r"에 견줘",
    ],
    "link_after": [r"\("],
    # "X의 244 MB", "X는 244 MB", "X가 244 MB": the number is X's
    "possessive": [r"의", r"은", r"는", r"이", r"가", r"에서는", r"에서"],
    "ge_before": [r"최소", r"적어도", r"≥", r">=", r">"],
    "ge_after": [r"이상", r"넘게", r"초과", r"넘는"],
    "le_before": [r"최대", r"≤", r"<=", r"<"],
    "le_after": [r"이하", r"미만", r"이내"],
    "approx": [r"약", r"대략", r"거의", r"~", r"≈"],
    "approx_after": [r"정도", r"가량", r"쯤"],
    "range": [],
    "range_sep": [r"~", r"-", r"–", r"에서"],
    "words": {
        "한": 1,
        "하나": 1,
        "단일": 1,
        "두": 2,
        "둘": 2,
        "세": 3,
        "셋": 3,
        "네": 4,
        "넷": 4,
        "다섯": 5,
        "여섯": 6,
        "일곱": 7,
        "여덟": 8,
        "아홉": 9,
        # native tens (열, 10, is also a column: left out)
        **{
            w: 10 * (i + 2)
            for i, w in enumerate(["스물", "서른", "마흔", "쉰", "예순", "일흔", "여든", "아흔"])
        },
        # Sino-Korean 10-99 and 100 as written in one word ("칠십", "구십이", "백"); the
        # single digits alone are everyday words (이 is "this") and are left out
        **_SINO,
    },
    "multipliers": {},
    "ratio_words": {"절반": 0.5},
    "ratio_units": [r"배", r"×", r"x"],
    "faster": [
        r"빠르",
        r"빠른",
        r"빨라",
        r"빠릅",
        r"빠름",
        r"속도 향상",
        r"가속",
        r"앞선",
        r"앞섭",
    ],
    "slower": [r"느리", r"느린", r"느려", r"느립", r"느림", r"더 오래 걸"],
    "less": [r"적(?!중)", r"줄", r"감소", r"절감", r"덜", r"낮"],  # 적중률: the L2 hit rate
    "more": [r"많", r"더 많", r"증가", r"높"],
    "same": [r"같", r"동일"],
    "negation": [r"안 "],
    # 앞 문장이 말한 shape: "그 shape에서 3.27배 빠릅니다"
    "that_shape": [r"(?:그|이|같은) (?:shape|크기|형태)"],
    # a comparison said as a hypothesis is no claim: "beating it would need TMA"
    # a point said as a guess meets nothing: "메모리 바운드일 수도 있습니다" (pass 6)
    "hedge": [r"수도 있", r"아마", r"지도 모르", r"것 같", r"듯합", r"듯하"],
    "hypothetical": [r"려면", r"다면"],
    "negation_after": [r"않", r"없", r"못", r"아니", r"아닙", r"안 했", r"안 봤"],
    "because": [
        r"때문",
        r"므로",
        r"니까",
        r"이유는",
        r"이유로",
        r"그래서",
        r"따라서",
        r"(?:이)?라서?(?= )",
        r"(?:어|아|여|해|되어|돼)서(?= )",
    ],
    # a connective ending: what follows is the consequence, its negation not the point's
    # ("융합해서 중간 결과가 DRAM으로 돌아가지 않습니다")
    "consequence": [
        r"(?:해|되어|돼|어|아|여|라|이라)서(?= )",
        r"(?:하|되)여(?= )",
        r"되어(?= )(?! *있)",  # "융합되어 naive처럼 … 띄우지 않습니다" (not "융합되어 있지 않")
        r"(?:하|되|치|으)면(?= )",  # "융합하면 …": the everyday "-하면", a consequence
        r"(?:이)?라(?= )",
        r"(?:하|되|이)므로",
        r"으므로",
        r"므로",
        r"니까(?= )",
        r"기 때문에",
        r"때문에",
        r"덕분에",  # "융합 덕분에 … 쓰지 않습니다": thanks to it, the consequence
        r"(?:하|되|이|했|됐)고(?= )",
        r"(?:하|되|이)며(?= )",
        r"면서(?= )",
        r"지만(?= )",
        r"는데(?= )",
    ],
    "conditional": [r"만약", r"만일", r"(?:이)?라면", r"다면", r"었으면", r"았으면", r"였으면"],
    "reported": [
        r"(?:라|다|이라|냐)고 (?:합|했|하|말|주장|생각|믿|들었|들|봅)",
        r"에 따르면",
        r"에 의하면",
    ],
    "own_speaker": [r"저는", r"제가", r"나는", r"내가", r"저도", r"제 생각"],
    "evidence": [r"nsight(?: compute)?", r"ncu", r"프로파일러", r"측정", r"결과"],
    "disowned": [r"동의하지 않", r"동의하지 못", r"동의 안", r"틀렸", r"틀린 말", r"사실이 아닙"],
    "cues": {
        "speed": [
            r"오래 걸",
            r"빠르",
            r"빠른",
            r"빨라",
            r"빠릅",
            r"느리",
            r"느린",
            r"느려",
            r"느립",
            r"빠름",
            r"느림",
            r"빨랐",
            r"느렸",
            r"속도",
            r"시간",
            r"지연",
            r"가속",
        ],
        "traffic": [
            r"트래픽",
            r"dram",
            r"바이트",
            r"데이터",
            r"메모리",
            r"읽",
            r"쓰",
            r"쓴",
            r"옮",
            r"이동",
            r"전송",
            r"hbm",
        ],
        "pct_of_peak": [r"피크", r"최대 대역폭", r"대역폭", r"처리량", r"루프라인", r"이론"],
        "tensor_pipe": [r"텐서 파이프", r"tensor pipe"],
        "sm_throughput": [r"sm 처리량", r"sm throughput"],
        "occupancy": [r"점유율", r"occupancy", r"오큐펀시"],
        "l2_hit": [r"l2(?: 캐시)? 적중률", r"적중률", r"히트율", r"l2"],
        "kernels": [r"커널", r"실행", r"런치"],
    },
    "read": [r"읽"],
    "write": [r"쓰", r"쓴", r"써", r"씁", r"썼", r"기록"],
    "kernel_words": [r"개의 커널", r"개 커널", r"번의 커널 실행", r"번 실행", r"개 실행"],
    "single_kernel": [
        r"커널 하나",
        r"하나의 커널",
        r"단일 커널",
        r"한 개의 커널",
        r"커널 한 개",
        r"한 번의 커널",
    ],
    "course_shape": [r"강의\s?(?:shape|형상|형태|크기|모양)"],
    "geomean": [r"기하 ?평균", r"모든 (?:형상|크기|모양)"],
    "rows": [r"행"],
    "cols": [r"열", r"열의", r"원소"],
    "quantities": {
        "traffic": [r"(?:dram )?트래픽", r"바이트"],
        "traffic_read": [r"읽은 바이트", r"읽기"],
        "traffic_write": [r"쓴 바이트", r"쓰기"],
        "traffic_ratio": [r"트래픽 비율", r"트래픽 감소"],
        "time": [r"시간", r"실행 시간", r"지연"],
        "bandwidth": [r"대역폭"],
        "pct_of_peak": [r"피크 대비", r"피크"],
        "occupancy": [r"점유율"],
        "l2_hit": [r"l2 적중률", r"적중률"],
        "kernels": [r"커널 수", r"커널 개수"],
        "speedup": [r"속도 향상", r"가속"],
        "intensity": [r"산술 강도"],
    },
    "concepts": {
        "arithmetic intensity": [r"산술 ?강도", r"연산 ?강도", r"루프라인"],
        "bandwidth": [r"대역폭"],
        "coalesc": [
            r"코얼레싱",
            r"병합(?:된)? (?:접근|메모리 접근)",
            r"연속(?:된|적인)? 접근",
            r"벡터화",
        ],
        "tiling": [r"타일(?:링)?", r"온라인 소프트맥스", r"칩 ?(?:위|내)"],
        "gemm": [r"gemm", r"행렬 ?곱(?:셈)?", r"matmul"],
        "cublas": [r"cublas", r"blas 라이브러리", r"cutlass"],
        "tmem": [r"tmem", r"텐서 메모리"],
        "sm_120": [r"sm_?120", r"sm 120"],
        "memory-bound": [
            r"메모리 ?(?:대역폭 )?(?:바운드|병목|제한|한계)",
            r"memory[- ]bound",
            r"대역폭(?:에)? (?:의해 )?(?:제한|병목)",
            r"메모리에 의해 제한",
        ],
        "compute-bound": [
            r"연산 ?(?:바운드|병목|제한)",
            r"compute[- ]bound",
            r"계산 ?(?:바운드|병목)",
        ],
        "fusion": [
            r"융합",
            r"퓨전",
            r"한 번(?:의)? (?:패스|읽기)",
            r"단일 패스",
            r"왕복",
            r"온라인 (?:소프트맥스|logsumexp)",
            r"같은 패스",
            r"(?:하나의 커널|커널 하나)로 (?:합|묶)",
            r"한 번에 (?:계산|처리)",
        ],
        "mask": [r"마스크", r"마스킹", r"꼬리", r"마지막 블록", r"범위 밖"],
        "overflow": [
            r"오버플로",
            r"최댓값을 빼",
            r"최대값을 빼",
            r"logsumexp",
            r"(?:fp|float)32(?:으)?로 누적",
            r"누적(?:은|을)? (?:fp|float)32",
        ],
    },
}
