# ruff: noqa: E501  (scenario data: verbatim tool output lines are long on purpose)
"""Essay 000 at length: a run of failed verify-step experiments, a poll that times out, then "".

Labels (one line of rationale each):
- the empty message after the 23-poll timeout: delegation_after_dead_end / empty — every
  experiment before it failed (Tree crash, fusion launch never answering), the agent had no
  next step, and after it the agent writes a full status summary and acts on its own.
Not pivots: the "ok" during the baseline runs (routine, same work continues); the automatic
compaction in the middle of the experiments (the agent carries straight on with the same
experiment, no re-orientation); "thanks" at the end (nothing after it).
"""

from __future__ import annotations

from samplegen.dsl import A, Compact, H, Scenario
from samplegen.scenarios._lib import (
    Kit,
    bench_output,
    nvidia_smi,
    poll_log,
    routine,
    status,
    traceback,
)

CWD = "/home/dev/work/kimi-k2-sm120"
k = Kit(CWD, "seed_dead_end")
rng = k.rng

PLAN = """# eagle-fast-verify.md

Goal: cut the EAGLE-3 verify step from ~30 ms to 12-15 ms on 8x RTX PRO 6000 (PCIe only, no NVLink).

Bottleneck: 122 NCCL all-reduce calls per verify forward pass, ~200 us each -> GPUs idle ~70% of the step.

## Experiments (in order)
1A. NCCL_ALGO=Tree (fewer hops for small messages)
1B. Fewer channels (NCCL_MIN_NCHANNELS=1, NCCL_MAX_NCHANNELS=2, NCCL_BUFFSIZE=1MiB) + FlashInfer all-reduce fusion for SM120
2.  Custom all-reduce over PCIe
3.  torch symmetric memory
4.  Larger draft tree, fewer verify steps
"""


def launch(env: str, extra: str = "") -> str:
    return f"{env} nohup python -m sglang.launch_server --model-path /models/Kimi-K2-Instruct-NVFP4 --tp 8 --speculative-algorithm EAGLE3 --speculative-draft-model-path /models/Kimi-K2-EAGLE3 --cuda-graph-max-bs 128 --port 30000 {extra}> /tmp/sglang.log 2>&1 &"


def baseline_stretch() -> list:
    steps: list = [
        H(
            "Let's get Kimi K2 serving with EAGLE-3 speculative decoding on the 8 GPUs. Start by checking what the launch script does today and measure the baseline without speculation."
        ),
        A(
            reasoning="Look at the launch script first, then the GPUs.",
            text="I'll look at the current launch script and the GPU state first.",
            tools=[
                k.read(
                    "scripts/launch.sh",
                    "#!/usr/bin/env bash\nset -euo pipefail\nexport NCCL_P2P_LEVEL=SYS\npython -m sglang.launch_server \\\n  --model-path /models/Kimi-K2-Instruct-NVFP4 --tp 8 \\\n  --cuda-graph-max-bs 512 --port 30000",
                )
            ],
        ),
        A(
            tools=[
                k.sh(
                    "nvidia-smi --query-gpu=index,name,memory.used,memory.total,utilization.gpu --format=csv",
                    nvidia_smi(rng, 0.4),
                )
            ]
        ),
        A(
            tools=[
                k.sh(
                    "nvidia-smi topo -m | head -12",
                    "\tGPU0\tGPU1\tGPU2\tGPU3\tGPU4\tGPU5\tGPU6\tGPU7\nGPU0\t X \tNODE\tNODE\tNODE\tSYS\tSYS\tSYS\tSYS\nGPU1\tNODE\t X \tNODE\tNODE\tSYS\tSYS\tSYS\tSYS\nLegend: SYS = PCIe + SMP interconnect between NUMA nodes",
                )
            ]
        ),
        A(
            text="All 8 GPUs are idle and the topology is PCIe only (NODE/SYS, no NVLink). Launching the baseline server.",
            tools=[
                k.sh(
                    launch("NCCL_P2P_LEVEL=SYS").replace(
                        " --speculative-algorithm EAGLE3 --speculative-draft-model-path /models/Kimi-K2-EAGLE3",
                        "",
                    ),
                    "[1] 48211",
                )
            ],
        ),
    ]
    for i in range(1, 6):
        steps.append(
            A(
                tools=[
                    k.sh(
                        "tail -3 /tmp/sglang.log",
                        f"[2026-11-02 09:0{i}:1{i}] Load weight end. elapsed={40 * i:.1f}s, mem usage={11.2 * i:.2f} GB\n[TP{i}] Capture cuda graph begin. This can take up to several minutes.",
                        ms=800,
                    )
                ]
            )
        )
    steps += [
        A(tools=[k.sh("curl -s localhost:30000/health && echo up", "up", ms=120)]),
        A(
            text="Server is up. Running the single-stream benchmark.",
            tools=[
                k.sh(
                    "python -m sglang.bench_serving --backend sglang --num-prompts 20 --max-concurrency 1",
                    bench_output(rng, 82.1),
                    ms=121000,
                )
            ],
        ),
        A(
            text="Baseline without speculation: **82.1 tok/s** single stream. Now the same with EAGLE-3.",
            tools=[
                k.sh(
                    "pkill -f sglang.launch_server; sleep 5; " + launch("NCCL_P2P_LEVEL=SYS"),
                    "[1] 49102",
                    ms=6000,
                )
            ],
        ),
    ]
    for i in range(1, 5):
        steps.append(
            A(
                tools=[
                    k.sh(
                        "tail -2 /tmp/sglang.log",
                        f"[TP0] Capture cuda graph bs {[1, 8, 32, 128][i - 1]} ... ok",
                        ms=700,
                    )
                ]
            )
        )
    steps += [
        A(
            tools=[
                k.sh(
                    "python -m sglang.bench_serving --backend sglang --num-prompts 20 --max-concurrency 1",
                    bench_output(rng, 54.1),
                    ms=160000,
                )
            ]
        ),
        A(
            text="EAGLE-3 gives **54.1 tok/s**, 34% *slower* than the 82.1 tok/s baseline. Accept length is 2.9, so drafting works; the verify pass must be the cost. Profiling one verify step.",
            tools=[
                k.sh(
                    "python tools/profile_verify.py --steps 20",
                    "verify forward: 30.4 ms (p50), 31.9 ms (p99)\n  nccl all_reduce calls: 122, mean 198 us, total 24.2 ms\n  gemm + attention: 5.6 ms\n  gpu idle fraction: 0.71",
                    ms=48000,
                )
            ],
        ),
        H("ok"),  # not a pivot: routine, the same profiling work continues
    ]
    steps += routine(
        k,
        "nccl",
        [
            "python/sglang/srt/distributed/parallel_state.py",
            "python/sglang/srt/layers/communicator.py",
            "scripts/launch.sh",
        ],
        30,
    )
    steps += [
        A(
            text="The verify step is dominated by 122 small all-reduces (24.2 of 30.4 ms). That is where the time goes."
        ),
        H(
            "Write up a plan to cut the verify step from 30 ms to 12-15 ms in eagle-fast-verify.md, then work through it in order. Mark each experiment in your todo list."
        ),
        A(text="Writing the plan.", tools=[k.write("eagle-fast-verify.md", PLAN)]),
        A(
            tools=[
                k.todo(
                    [
                        ("1A NCCL_ALGO=Tree", "in_progress"),
                        ("1B fewer channels + FlashInfer fusion", "pending"),
                        ("2 custom all-reduce over PCIe", "pending"),
                        ("3 torch symmetric memory", "pending"),
                        ("4 larger draft tree", "pending"),
                    ]
                )
            ]
        ),
    ]
    return steps


def experiments() -> list:
    steps: list = [
        A(
            text="Experiment 1A: NCCL_ALGO=Tree.",
            tools=[
                k.sh(
                    "pkill -f sglang.launch_server; sleep 5; "
                    + launch("NCCL_ALGO=Tree NCCL_P2P_LEVEL=SYS"),
                    "[1] 50877",
                    ms=6000,
                )
            ],
        ),
    ]
    for i in range(1, 4):
        steps.append(
            A(
                tools=[
                    k.sh(
                        "tail -2 /tmp/sglang.log",
                        f"[TP0] Load weight end. elapsed={60 * i:.1f}s",
                        ms=600,
                    )
                ]
            )
        )
    crash = traceback(
        "model_executor/cuda_graph_runner.py",
        "torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:2137, invalid usage (run with NCCL_DEBUG=WARN for details), NCCL version 2.27.3\nncclInvalidUsage: This usually reflects invalid usage of NCCL library.\nLast error:\nTree algorithm is not supported during CUDA graph capture for this topology",
    )
    steps += [
        A(tools=[k.sh("tail -12 /tmp/sglang.log", crash, ms=300)]),
        A(
            tools=[
                k.sh(
                    "pgrep -f sglang.launch_server || echo 'no server process'",
                    "no server process",
                    code=0,
                )
            ]
        ),
        A(
            text="1A **FAILED**: the Tree algorithm raises an NCCL error during CUDA graph capture and the server dies before serving.",
            tools=[
                k.todo(
                    [
                        ("1A NCCL_ALGO=Tree", "completed"),
                        ("1B fewer channels + FlashInfer fusion", "in_progress"),
                        ("2 custom all-reduce over PCIe", "pending"),
                        ("3 torch symmetric memory", "pending"),
                        ("4 larger draft tree", "pending"),
                    ]
                )
            ],
        ),
        A(
            tools=[
                k.edit(
                    "eagle-fast-verify.md",
                    "1A. NCCL_ALGO=Tree (fewer hops for small messages)",
                    "1A. NCCL_ALGO=Tree (fewer hops for small messages) -- FAILED: NCCL invalid usage during CUDA graph capture",
                )
            ]
        ),
        A(
            text="1B needs a code change: FlashInfer's all-reduce fusion is gated to SM90/SM100. Finding the gate.",
            tools=[
                k.grep(
                    "_is_flashinfer_fusion_supported|sm_version",
                    "python/sglang/srt/layers",
                    "python/sglang/srt/layers/communicator.py:88:def _is_flashinfer_fusion_supported():\npython/sglang/srt/layers/communicator.py:91:    return sm_version in (90, 100)",
                )
            ],
        ),
        A(
            tools=[
                k.read(
                    "python/sglang/srt/layers/communicator.py",
                    "def _is_flashinfer_fusion_supported():\n    major, minor = torch.cuda.get_device_capability()\n    sm_version = major * 10 + minor\n    return sm_version in (90, 100)",
                )
            ]
        ),
        A(
            tools=[
                k.edit(
                    "python/sglang/srt/layers/communicator.py",
                    "return sm_version in (90, 100)",
                    "return sm_version in (90, 100, 120)",
                )
            ]
        ),
    ]
    steps += routine(
        k,
        "flashinfer",
        [
            "python/sglang/srt/layers/communicator.py",
            "python/sglang/srt/layers/flashinfer_comm_fusion.py",
        ],
        18,
    )
    steps.append(
        Compact(
            "Summary: deploying Kimi K2 NVFP4 with EAGLE-3 on 8x RTX PRO 6000 (PCIe). Baseline 82.1 tok/s, EAGLE-3 54.1 tok/s; verify step 30.4 ms, 24.2 ms of it in 122 NCCL all-reduces. Plan in eagle-fast-verify.md. 1A NCCL Tree FAILED (NCCL error in CUDA graph capture). 1B in progress: enabled FlashInfer fusion for SM120 in communicator.py; next launch with fewer NCCL channels.",
            auto=True,
        )
    )
    # not a pivot: the agent carries on with the same experiment, no re-orientation
    steps += [
        A(
            text="Launching 1B: fewer channels plus the fusion patch.",
            tools=[
                k.sh(
                    "pkill -f sglang.launch_server; sleep 5; "
                    + launch(
                        "NCCL_MIN_NCHANNELS=1 NCCL_MAX_NCHANNELS=2 NCCL_BUFFSIZE=1048576 NCCL_P2P_LEVEL=SYS",
                        "--enable-flashinfer-allreduce-fusion ",
                    ),
                    "[1] 52310",
                    ms=6000,
                )
            ],
        ),
        A(
            tools=[
                k.sh(
                    "sleep 60; tail -3 /tmp/sglang.log",
                    "[TP0] Load weight begin. avail mem=94.12 GB\n[TP3] Load weight begin. avail mem=94.10 GB",
                    ms=60500,
                )
            ]
        ),
        A(
            text="Weights are loading (547 GB across 8 GPUs takes a while). Polling for readiness.",
            tools=[
                k.timeout(
                    'for i in $(seq 1 23); do curl -sf localhost:30000/health && break; echo "[poll $i/23] not ready"; sleep 20; done',
                    poll_log(23),
                    480000,
                )
            ],
        ),
        A(
            text="The server has not answered after 23 polls (~7m40s). I can't tell from here whether it crashed during fusion init, is still capturing graphs, or hung in NCCL setup. The last log line is from weight loading."
        ),
    ]
    return steps


def recovery() -> list:
    summary = status(
        "cut the EAGLE-3 verify step from ~30 ms to 12-15 ms so speculation beats the 82.1 tok/s baseline",
        [
            "122 NCCL all-reduces per verify pass cost 24.2 of 30.4 ms (GPU idle 71%)",
            "NCCL_ALGO=Tree cannot be used with CUDA graph capture on this PCIe topology",
            "FlashInfer fusion was gated to SM90/SM100; SM120 was simply not listed",
        ],
        [
            "baseline 82.1 tok/s, EAGLE-3 54.1 tok/s (accept length 2.9)",
            "1A NCCL Tree: FAILED (crash in graph capture)",
            "1B: patched the SM120 gate, launched with 1-2 channels",
        ],
        [
            "1B server launched 9 minutes ago, never answered /health (23 polls)",
            "unknown whether it crashed, hung, or is still loading",
        ],
        [
            "read the full log and check the process",
            "if the fusion crashed: relaunch 1B without fusion to isolate the channel change",
            "then move on to experiment 2 (custom all-reduce)",
        ],
    )
    steps: list = [
        A(text=summary),
        A(
            text="Checking whether the process is alive first.",
            tools=[
                k.sh(
                    "pgrep -fa sglang.launch_server | head -3; nvidia-smi --query-gpu=index,memory.used,utilization.gpu --format=csv,noheader",
                    "52310 python -m sglang.launch_server --model-path /models/Kimi-K2-Instruct-NVFP4 --tp 8 ...\n0, 90112 MiB, 100 %\n1, 90240 MiB, 100 %\n2, 90180 MiB, 100 %",
                )
            ],
        ),
        A(
            tools=[
                k.sh(
                    "grep -n -i -E 'error|fusion|workspace' /tmp/sglang.log | tail -8",
                    "412:[TP0] flashinfer allreduce fusion: creating IPC workspace (size=512 MiB)\n413:[TP5] flashinfer allreduce fusion: creating IPC workspace (size=512 MiB)\n414:[TP2] waiting for peer workspace handles ...",
                )
            ]
        ),
        A(
            text="Hung, not crashed: every rank is spinning at 100% waiting for peer IPC handles in the fusion workspace. FlashInfer's fusion assumes NVLink-style P2P mapping; over PCIe the handle exchange never completes. Killing it and isolating the channel change without fusion.",
            tools=[
                k.sh(
                    "pkill -9 -f sglang.launch_server; sleep 8; nvidia-smi --query-gpu=memory.used --format=csv,noheader | sort -u",
                    "3 MiB",
                    ms=9000,
                )
            ],
        ),
        A(
            tools=[
                k.edit(
                    "python/sglang/srt/layers/communicator.py",
                    "return sm_version in (90, 100, 120)",
                    "return sm_version in (90, 100)",
                )
            ]
        ),
        A(
            tools=[
                k.sh(
                    "pkill -f sglang.launch_server; "
                    + launch(
                        "NCCL_MIN_NCHANNELS=1 NCCL_MAX_NCHANNELS=2 NCCL_BUFFSIZE=1048576 NCCL_P2P_LEVEL=SYS"
                    ),
                    "[1] 53988",
                    ms=3000,
                )
            ]
        ),
        A(
            tools=[
                k.sh(
                    "for i in $(seq 1 40); do curl -sf localhost:30000/health && echo ready && break; sleep 15; done",
                    "ready",
                    ms=412000,
                )
            ]
        ),
        A(
            tools=[
                k.sh(
                    "python -m sglang.bench_serving --backend sglang --num-prompts 20 --max-concurrency 1",
                    bench_output(rng, 57.8),
                    ms=150000,
                )
            ]
        ),
        A(
            tools=[
                k.sh(
                    "python tools/profile_verify.py --steps 20",
                    "verify forward: 27.9 ms (p50), 29.2 ms (p99)\n  nccl all_reduce calls: 122, mean 176 us, total 21.5 ms",
                    ms=47000,
                )
            ]
        ),
        A(
            text="1B without fusion: 57.8 tok/s (+3.7), verify 27.9 ms. Channels help a little; fusion over PCIe hangs. Recording both.",
            tools=[
                k.todo(
                    [
                        ("1A NCCL_ALGO=Tree", "completed"),
                        ("1B fewer channels + FlashInfer fusion", "completed"),
                        ("2 custom all-reduce over PCIe", "in_progress"),
                        ("3 torch symmetric memory", "pending"),
                        ("4 larger draft tree", "pending"),
                    ]
                )
            ],
        ),
        A(
            tools=[
                k.edit(
                    "eagle-fast-verify.md",
                    "1B. Fewer channels",
                    "1B. (channels alone: 57.8 tok/s, verify 27.9 ms; fusion HANGS over PCIe: IPC workspace never completes) Fewer channels",
                )
            ]
        ),
        A(
            text="Moving on to experiment 2: the custom all-reduce kernel.",
            tools=[
                k.grep(
                    "disable_custom_all_reduce",
                    "python/sglang/srt",
                    "python/sglang/srt/server_args.py:412:    disable_custom_all_reduce: bool = False\npython/sglang/srt/distributed/parallel_state.py:1101:        if not self.disable_custom_all_reduce and self.world_size <= 8 and _is_full_nvlink():",
                )
            ],
        ),
        A(
            tools=[
                k.edit(
                    "python/sglang/srt/distributed/parallel_state.py",
                    "and _is_full_nvlink():",
                    "and (_is_full_nvlink() or os.environ.get('SGLANG_FORCE_CUSTOM_AR') == '1'):",
                )
            ]
        ),
        A(
            tools=[
                k.sh(
                    "pkill -f sglang.launch_server; sleep 5; "
                    + launch("SGLANG_FORCE_CUSTOM_AR=1 NCCL_P2P_LEVEL=SYS"),
                    "[1] 55120",
                    ms=6000,
                )
            ]
        ),
        A(
            tools=[
                k.sh(
                    "for i in $(seq 1 40); do curl -sf localhost:30000/health && echo ready && break; sleep 15; done",
                    "ready",
                    ms=398000,
                )
            ]
        ),
        A(
            tools=[
                k.sh(
                    "python -m sglang.bench_serving --backend sglang --num-prompts 20 --max-concurrency 1",
                    bench_output(rng, 38.2),
                    ms=210000,
                )
            ]
        ),
        A(
            text="Experiment 2 **FAILED** badly: 38.2 tok/s. The custom kernel's all-to-all pattern saturates PCIe. Reverting.",
            tools=[
                k.edit(
                    "python/sglang/srt/distributed/parallel_state.py",
                    "and (_is_full_nvlink() or os.environ.get('SGLANG_FORCE_CUSTOM_AR') == '1'):",
                    "and _is_full_nvlink():",
                )
            ],
        ),
    ]
    steps += routine(
        k,
        "symm_mem",
        [
            "python/sglang/srt/distributed/device_communicators/symm_mem.py",
            "python/sglang/srt/distributed/parallel_state.py",
        ],
        20,
    )
    steps += [
        A(
            text="Experiment 3: torch symmetric memory.",
            tools=[
                k.sh(
                    "python -c 'import torch.distributed._symmetric_memory as s; print(s._get_arch_info(12, 0))'",
                    'Traceback (most recent call last):\n  File "<string>", line 1, in <module>\n  File "/opt/venv/lib/python3.12/site-packages/torch/distributed/_symmetric_memory/__init__.py", line 1451, in _get_arch_info\n    return _ARCH_TABLE[major]\nKeyError: 12',
                    code=1,
                )
            ],
        ),
        A(
            text="Experiment 3 **FAILED**: `KeyError: 12`, SM120 is missing from torch's architecture table.",
            tools=[
                k.todo(
                    [
                        ("1A NCCL_ALGO=Tree", "completed"),
                        ("1B fewer channels + FlashInfer fusion", "completed"),
                        ("2 custom all-reduce over PCIe", "completed"),
                        ("3 torch symmetric memory", "completed"),
                        ("4 larger draft tree", "in_progress"),
                    ]
                )
            ],
        ),
    ]
    for topk, steps_n, tok in ((4, 3, 59.3), (8, 4, 61.0), (8, 6, 58.4)):
        steps.append(
            A(
                tools=[
                    k.sh(
                        "pkill -f sglang.launch_server; sleep 5; "
                        + launch(
                            "NCCL_MIN_NCHANNELS=1 NCCL_MAX_NCHANNELS=2 NCCL_P2P_LEVEL=SYS",
                            f"--speculative-eagle-topk {topk} --speculative-num-steps {steps_n} ",
                        ),
                        "[1] 5" + str(rng.randint(6000, 9999)),
                        ms=6000,
                    )
                ]
            )
        )
        steps.append(
            A(
                tools=[
                    k.sh(
                        "for i in $(seq 1 40); do curl -sf localhost:30000/health && echo ready && break; sleep 15; done",
                        "ready",
                        ms=405000,
                    )
                ]
            )
        )
        steps.append(
            A(
                text=f"topk={topk}, steps={steps_n}:",
                tools=[
                    k.sh(
                        "python -m sglang.bench_serving --backend sglang --num-prompts 20 --max-concurrency 1",
                        bench_output(rng, tok),
                        ms=150000,
                    )
                ],
            )
        )
    steps.append(
        A(
            text="Best speculative config so far: topk=8, steps=4 at **61.0 tok/s**, still 26% below the 82.1 tok/s baseline. The all-reduce floor over PCIe dominates every variant."
        )
    )
    return steps


def wrap_up() -> list:
    steps: list = [
        H(
            "Good. Record all of this in eagle-fast-verify.md with the numbers, then stop the server and leave the baseline config in launch.sh."
        ),
        A(
            tools=[
                k.edit(
                    "eagle-fast-verify.md",
                    "4.  Larger draft tree, fewer verify steps",
                    "4.  Larger draft tree: topk=8 steps=4 best at 61.0 tok/s (baseline 82.1)\n\n## Conclusion\nOver PCIe the 122 all-reduces per verify pass set a ~21 ms floor; EAGLE-3 cannot beat the baseline here without fewer collectives.",
                )
            ]
        ),
        A(
            tools=[
                k.sh(
                    "pkill -f sglang.launch_server; sleep 3; pgrep -f sglang || echo stopped",
                    "stopped",
                )
            ]
        ),
        A(
            tools=[
                k.edit("scripts/launch.sh", "--cuda-graph-max-bs 512", "--cuda-graph-max-bs 128")
            ]
        ),
        A(
            tools=[
                k.sh(
                    "git diff --stat",
                    " eagle-fast-verify.md | 24 ++++++++++++++++--\n scripts/launch.sh    |  2 +-\n 2 files changed, 23 insertions(+), 3 deletions(-)",
                )
            ]
        ),
        A(
            text="Done: findings recorded in eagle-fast-verify.md, server stopped, launch.sh back on the baseline config (with --cuda-graph-max-bs 128)."
        ),
    ]
    steps += routine(k, "launch", ["scripts/launch.sh", "eagle-fast-verify.md"], 14)
    steps += [
        A(text="Everything is committed to the working tree; nothing is running."),
        H("thanks"),
        A(text="You're welcome."),
    ]
    return steps


SCENARIOS = [
    Scenario(
        name="seed_dead_end",
        title="Kimi K2 EAGLE-3 verify-step experiments: dead end, then delegation",
        cwd=CWD,
        steps=[
            *baseline_stretch(),
            *experiments(),
            H("", expect=("delegation_after_dead_end", "empty")),
            *recovery(),
            *wrap_up(),
        ],
        model="claude-opus-4-8",
        start="2026-11-02T08:40:00Z",
        seconds_per_step=45,
        notes="Essay 000.",
    )
]
