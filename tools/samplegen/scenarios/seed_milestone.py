# ruff: noqa: E501  (scenario data: verbatim tool output lines are long on purpose)
"""Essay 001 at length: GLM-5 finally serving in an LXC container, a "mixed" table, then "".

Labels (one line of rationale each):
- the empty message after the first benchmark table: continue_after_milestone / empty — the
  server finally works after many failed launches, the numbers are mixed (same ~11 tok/s as the
  VM), and after it the agent synthesises and opens a new phase, "make it fast".
- the automatic compaction after the tuned table: continue_after_milestone / compaction — a
  second milestone (1.8x at concurrency 64) is on the table, the boundary is followed by a
  status summary and the agent starts the next phase (load test + service unit) on its own.
Not pivots: "continue" while the agent is mid-install and "ok" while the server comes up
(routine: the same work carries on); the "/status" command wrapper (synthetic, never a pivot).
"""

from __future__ import annotations

from samplegen.dsl import A, Compact, H, Meta, Scenario
from samplegen.scenarios._lib import (
    Kit,
    bench_output,
    bench_table,
    nvidia_smi,
    routine,
    status,
    traceback,
)

CWD = "/root/glm5-lxc"
k = Kit(CWD, "seed_milestone")
rng = k.rng


def launch(extra: str = "") -> str:
    return f"nohup python -m sglang.launch_server --model-path /models/GLM-5-NVFP4 --tp 8 --trust-remote-code --port 30000 {extra}> /tmp/glm5.log 2>&1 &"


def getting_it_working() -> list:
    steps: list = [
        H(
            "We're now inside the new LXC container with all 8 GPUs passed through. Get GLM-5-NVFP4 serving with sglang again; the KVM VM gave us about 11 tok/s single-stream and we hope bare metal does better."
        ),
        A(
            reasoning="First confirm the GPUs are visible and the driver works inside the container.",
            text="Checking the GPUs inside the container.",
            tools=[
                k.sh(
                    "nvidia-smi --query-gpu=index,name,memory.used,memory.total,utilization.gpu --format=csv",
                    nvidia_smi(rng, 0.1),
                )
            ],
        ),
        A(
            tools=[
                k.sh(
                    "python -c 'import torch; print(torch.cuda.is_available(), torch.cuda.device_count())'",
                    "/opt/venv/lib/python3.12/site-packages/torch/cuda/__init__.py:734: UserWarning: CUDA initialization: CUDA unknown error - this may be due to an incorrectly set up environment\nFalse 0",
                    code=0,
                )
            ]
        ),
        A(
            text="CUDA init fails even though nvidia-smi works. On Proxmox this is usually HMM (heterogeneous memory management) in the open kernel module.",
            tools=[
                k.sh(
                    "cat /proc/driver/nvidia/params | grep -i hmm; uname -r",
                    "EnableHMM: 1\n6.8.12-4-pve",
                )
            ],
        ),
        A(
            tools=[
                k.sh(
                    "echo 'options nvidia_uvm uvm_disable_hmm=1' > /etc/modprobe.d/nvidia-uvm.conf && rmmod nvidia_uvm && modprobe nvidia_uvm",
                    "rmmod: ERROR: Module nvidia_uvm is in use",
                    code=1,
                )
            ]
        ),
        A(
            text="The module is held from inside the container; this has to be done on the host. Trying the host via the mounted control socket.",
            tools=[
                k.sh(
                    "ssh pve-host 'rmmod nvidia_uvm && modprobe nvidia_uvm uvm_disable_hmm=1 && echo reloaded'",
                    "reloaded",
                )
            ],
        ),
        A(
            tools=[
                k.sh(
                    "python -c 'import torch; print(torch.cuda.is_available(), torch.cuda.device_count())'",
                    "True 8",
                )
            ]
        ),
        A(
            text="CUDA works now: 8 devices. Checking topology, which was the point of leaving the VM.",
            tools=[
                k.sh(
                    "nvidia-smi topo -m | head -4",
                    "\tGPU0\tGPU1\tGPU2\tGPU3\tGPU4\tGPU5\tGPU6\tGPU7\nGPU0\t X \tNODE\tNODE\tNODE\tSYS\tSYS\tSYS\tSYS\nGPU1\tNODE\t X \tNODE\tNODE\tSYS\tSYS\tSYS\tSYS",
                )
            ],
        ),
        A(
            tools=[
                k.sh(
                    "python tools/p2p_bandwidth.py --pairs 0-1,0-4",
                    "GPU0 -> GPU1 (NODE): 53.1 GB/s\nGPU0 -> GPU4 (SYS):  38.7 GB/s\np2p access: enabled on all pairs",
                    ms=21000,
                )
            ]
        ),
        A(
            text="Bare-metal topology: NODE/SYS with P2P at 53 GB/s same-NUMA (the VM showed PHB and no P2P). Launching the server.",
            tools=[k.sh(launch(), "[1] 3321")],
        ),
        A(
            tools=[
                k.sh(
                    "sleep 45; tail -15 /tmp/glm5.log",
                    traceback(
                        "layers/attention/flashinfer_backend.py",
                        "RuntimeError: Ninja is required to load C++ extensions (FlashInfer JIT)",
                    ),
                    ms=45200,
                )
            ]
        ),
        A(
            text="Launch 1 **failed**: FlashInfer needs ninja for its JIT kernels.",
            tools=[
                k.sh(
                    "apt-get install -y ninja-build 2>&1 | tail -2",
                    "Setting up ninja-build (1.11.1-2) ...\nProcessing triggers for man-db (2.12.0-4build2) ...",
                    ms=14000,
                )
            ],
        ),
        H("continue"),  # not a pivot: mid-install, the same work carries on
        A(tools=[k.sh(launch(), "[1] 3710")]),
        A(
            tools=[
                k.sh(
                    "sleep 60; tail -12 /tmp/glm5.log",
                    "ValueError: The checkpoint you are trying to load has model type `glm_moe_dsa` but Transformers does not recognize this architecture. This could be because of an issue with the checkpoint, or because your version of Transformers is out of date.",
                    ms=60100,
                )
            ]
        ),
        A(
            text="Launch 2 **failed**: transformers too old for `glm_moe_dsa`.",
            tools=[
                k.sh(
                    "pip install -q 'transformers==5.2.0' && python -c 'import transformers; print(transformers.__version__)'",
                    "5.2.0",
                    ms=38000,
                )
            ],
        ),
        A(tools=[k.sh(launch(), "[1] 4102")]),
        A(
            tools=[
                k.sh(
                    "sleep 90; tail -6 /tmp/glm5.log",
                    "[TP0] Load weight begin. avail mem=94.31 GB\n[TP6] Load weight end. elapsed=301.2s\ntorch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 6 has a total capacity of 95.59 GiB of which 1.21 GiB is free.",
                    ms=390000,
                )
            ]
        ),
        A(
            text="Launch 3 **failed**: OOM on GPU 6 while capturing CUDA graphs with the default memory fraction. Lowering `--mem-fraction-static` and the graph batch size.",
            tools=[k.sh(launch("--mem-fraction-static 0.86 --cuda-graph-max-bs 128 "), "[1] 4560")],
        ),
        A(
            tools=[
                k.sh(
                    "sleep 300; tail -4 /tmp/glm5.log",
                    "[TP0] Capture cuda graph end. Time elapsed: 84.21 s\n[TP0] max_total_num_tokens=412032, chunked_prefill_size=8192\nINFO:     Uvicorn running on http://0.0.0.0:30000 (Press CTRL+C to quit)",
                    ms=300400,
                )
            ]
        ),
        H(
            "ok"
        ),  # not a pivot: acknowledging progress mid-launch; the agent keeps checking the same server
        Meta(
            "<command-name>/status</command-name>\n            <command-message>status</command-message>\n            <command-args></command-args>"
        ),
        A(
            tools=[
                k.sh(
                    'curl -s localhost:30000/v1/chat/completions -d \'{"model":"glm-5","messages":[{"role":"user","content":"Say hi in five words."}],"max_tokens":64}\' | python -m json.tool | head -12',
                    '{\n    "id": "chatcmpl-5c1e",\n    "choices": [\n        {\n            "message": {\n                "role": "assistant",\n                "reasoning_content": "The user wants a five-word greeting.",\n                "content": "Hi there, nice to meet!"',
                )
            ]
        ),
    ]
    steps += routine(k, "sglang", ["scripts/serve.sh", "configs/glm5.yaml", "README.md"], 46)
    rows = [
        (32, 438.67, 130.54, 217, 114.58),
        (64, 757.54, 219.15, 417, 131.18),
        (128, 806.04, 272.61, 453, 171.79),
    ]
    steps += [
        A(
            text="Running the concurrency sweep.",
            tools=[
                k.sh(
                    "for c in 32 64 128; do python -m sglang.bench_serving --backend sglang --num-prompts $((c*4)) --max-concurrency $c; done 2>&1 | grep -E 'concurrency|throughput|TPOT'",
                    "\n".join(
                        f"Max request concurrency: {c}\nTotal token throughput (tok/s): {t}\nOutput token throughput (tok/s): {o}\nMean TPOT (ms): {tp}"
                        for c, t, o, _, tp in rows
                    ),
                    ms=610000,
                )
            ],
        ),
        A(
            tools=[
                k.sh(
                    "python -m sglang.bench_serving --backend sglang --num-prompts 1 --max-concurrency 1 --random-output-len 500",
                    bench_output(rng, 10.99),
                    ms=45500,
                )
            ]
        ),
        A(
            text="**The server finally works** in the container: coherent replies with reasoning, bare-metal topology confirmed.\n\n"
            + bench_table(rows)
            + "\n\nSingle stream: 500 tokens in 45.5 s, about **11 tok/s**, the same as the KVM VM. So the migration fixed the topology (P2P at 53 GB/s) but not the throughput: a mixed result."
        ),
    ]
    return steps


def making_it_fast() -> list:
    steps: list = [
        A(
            text="## Where this leaves us\n\nThe container removed the VFIO/IOMMU layer, yet single-stream speed is unchanged at ~11 tok/s and batch throughput tops out around 806 tok/s. That points away from the interconnect and at the decode path itself: per-token latency (TPOT 114-172 ms) is dominated by MoE expert compute and attention at NVFP4, not by all-reduce.\n\n## Next phase: make it fast\n1. Profile one decode step to split time between attention, MoE GEMMs and communication.\n2. Try the FlashInfer MLA backend and FP8 KV cache.\n3. Enable expert-parallel MoE over the 8 GPUs.\n4. Re-run the same sweep and compare against the table above."
        ),
        A(
            tools=[
                k.todo(
                    [
                        ("Profile one decode step", "in_progress"),
                        ("FlashInfer MLA + FP8 KV cache", "pending"),
                        ("Expert-parallel MoE", "pending"),
                        ("Re-run concurrency sweep", "pending"),
                    ]
                )
            ]
        ),
        A(
            tools=[
                k.sh(
                    "python tools/profile_decode.py --steps 10 --batch 1",
                    "decode step: 88.4 ms\n  moe gemm (nvfp4): 51.2 ms\n  attention (triton): 24.9 ms\n  all_reduce: 7.1 ms\n  other: 5.2 ms",
                    ms=61000,
                )
            ]
        ),
        A(
            text="Decode is MoE-bound (51 ms) with attention second (25 ms); communication is only 7 ms. Trying the FlashInfer attention backend with FP8 KV cache first.",
            tools=[
                k.todo(
                    [
                        ("Profile one decode step", "completed"),
                        ("FlashInfer MLA + FP8 KV cache", "in_progress"),
                        ("Expert-parallel MoE", "pending"),
                        ("Re-run concurrency sweep", "pending"),
                    ]
                )
            ],
        ),
        A(
            tools=[
                k.sh(
                    "pkill -f sglang.launch_server; sleep 5; "
                    + launch(
                        "--mem-fraction-static 0.86 --cuda-graph-max-bs 128 --attention-backend flashinfer --kv-cache-dtype fp8_e4m3 "
                    ),
                    "[1] 6120",
                    ms=6000,
                )
            ]
        ),
        A(
            tools=[
                k.sh(
                    "for i in $(seq 1 40); do curl -sf localhost:30000/health && echo ready && break; sleep 15; done",
                    "ready",
                    ms=380000,
                )
            ]
        ),
        A(
            tools=[
                k.sh(
                    "python -m sglang.bench_serving --backend sglang --num-prompts 1 --max-concurrency 1 --random-output-len 500",
                    bench_output(rng, 14.2),
                    ms=35500,
                )
            ]
        ),
        A(
            text="FlashInfer + FP8 KV: single stream 11.0 -> **14.2 tok/s**. Now expert parallelism.",
            tools=[
                k.todo(
                    [
                        ("Profile one decode step", "completed"),
                        ("FlashInfer MLA + FP8 KV cache", "completed"),
                        ("Expert-parallel MoE", "in_progress"),
                        ("Re-run concurrency sweep", "pending"),
                    ]
                )
            ],
        ),
        A(
            tools=[
                k.sh(
                    "pkill -f sglang.launch_server; sleep 5; "
                    + launch(
                        "--mem-fraction-static 0.86 --cuda-graph-max-bs 128 --attention-backend flashinfer --kv-cache-dtype fp8_e4m3 --enable-ep-moe --ep-size 8 "
                    ),
                    "[1] 6604",
                    ms=6000,
                )
            ]
        ),
        A(
            tools=[
                k.sh(
                    "for i in $(seq 1 40); do curl -sf localhost:30000/health && echo ready && break; sleep 15; done",
                    "for i in ...: exit after 40 attempts",
                    code=1,
                    ms=600000,
                )
            ]
        ),
        A(
            tools=[
                k.sh(
                    "grep -n -E 'Error|assert' /tmp/glm5.log | tail -3",
                    "2211:AssertionError: ep_moe with nvfp4 weights requires --moe-a2a-backend deepep\n2212:[TP3] Scheduler hit an exception",
                )
            ]
        ),
        A(
            text="EP needs the DeepEP all-to-all backend for NVFP4 weights.",
            tools=[
                k.sh(
                    "pkill -f sglang.launch_server; sleep 5; "
                    + launch(
                        "--mem-fraction-static 0.84 --cuda-graph-max-bs 128 --attention-backend flashinfer --kv-cache-dtype fp8_e4m3 --enable-ep-moe --ep-size 8 --moe-a2a-backend deepep "
                    ),
                    "[1] 7011",
                    ms=6000,
                )
            ],
        ),
        A(
            tools=[
                k.sh(
                    "for i in $(seq 1 40); do curl -sf localhost:30000/health && echo ready && break; sleep 15; done",
                    "ready",
                    ms=420000,
                )
            ]
        ),
    ]
    steps += routine(k, "deepep", ["configs/glm5.yaml", "scripts/serve.sh"], 40)
    tuned = [
        (32, 702.11, 221.40, 350, 72.18),
        (64, 1391.72, 402.88, 701, 79.44),
        (128, 1518.30, 486.02, 790, 104.65),
    ]
    steps += [
        A(
            tools=[
                k.sh(
                    "for c in 32 64 128; do python -m sglang.bench_serving --backend sglang --num-prompts $((c*4)) --max-concurrency $c; done 2>&1 | grep -E 'concurrency|throughput|TPOT'",
                    "\n".join(
                        f"Max request concurrency: {c}\nTotal token throughput (tok/s): {t}\nOutput token throughput (tok/s): {o}\nMean TPOT (ms): {tp}"
                        for c, t, o, _, tp in tuned
                    ),
                    ms=540000,
                )
            ]
        ),
        A(
            text="Tuned sweep, same prompts as before:\n\n"
            + bench_table(tuned)
            + "\n\nAt concurrency 64 total throughput went 757.5 -> **1391.7 tok/s (1.8x)**, TPOT 131 -> 79 ms. Single stream is 14.2 tok/s.",
            tools=[
                k.todo(
                    [
                        ("Profile one decode step", "completed"),
                        ("FlashInfer MLA + FP8 KV cache", "completed"),
                        ("Expert-parallel MoE", "completed"),
                        ("Re-run concurrency sweep", "completed"),
                    ]
                )
            ],
        ),
    ]
    return steps


def production() -> list:
    summary = status(
        "serve GLM-5-NVFP4 on 8x RTX PRO 6000 in the LXC container, as fast as the hardware allows",
        [
            "HMM in nvidia_uvm broke CUDA init in the container (fixed on the host: uvm_disable_hmm=1)",
            "bare-metal topology gives P2P at 53 GB/s but did not change single-stream speed",
            "decode is MoE-bound; FlashInfer + FP8 KV and DeepEP expert parallelism are what helped",
        ],
        [
            "server runs with flashinfer attention, fp8 KV cache, EP=8 over DeepEP",
            "concurrency 64: 1391.7 tok/s total (1.8x), TPOT 79 ms; single stream 14.2 tok/s",
        ],
        ["server up on :30000 with the tuned flags, launched by hand"],
        [
            "capture the tuned flags in scripts/serve.sh and a systemd unit",
            "run a 30-minute load test for stability",
            "document numbers in README.md",
        ],
    )
    steps: list = [
        A(text=summary),
        A(
            text="Putting the tuned flags into the serve script.",
            tools=[
                k.edit(
                    "scripts/serve.sh",
                    "--cuda-graph-max-bs 128",
                    "--cuda-graph-max-bs 128 --attention-backend flashinfer --kv-cache-dtype fp8_e4m3 --enable-ep-moe --ep-size 8 --moe-a2a-backend deepep --mem-fraction-static 0.84",
                )
            ],
        ),
        A(
            tools=[
                k.write(
                    "deploy/glm5.service",
                    "[Unit]\nDescription=GLM-5 sglang server\nAfter=network-online.target\n\n[Service]\nExecStart=/root/glm5-lxc/scripts/serve.sh\nRestart=on-failure\nEnvironment=NCCL_P2P_LEVEL=SYS\n\n[Install]\nWantedBy=multi-user.target\n",
                )
            ]
        ),
        A(
            tools=[
                k.sh(
                    "cp deploy/glm5.service /etc/systemd/system/ && systemctl daemon-reload && pkill -f sglang.launch_server; systemctl enable --now glm5 && sleep 2 && systemctl is-active glm5",
                    "Created symlink /etc/systemd/system/multi-user.target.wants/glm5.service -> /etc/systemd/system/glm5.service.\nactive",
                )
            ]
        ),
        A(
            tools=[
                k.sh(
                    "for i in $(seq 1 40); do curl -sf localhost:30000/health && echo ready && break; sleep 15; done",
                    "ready",
                    ms=415000,
                )
            ]
        ),
        A(
            text="Starting the 30-minute load test at concurrency 64.",
            tools=[
                k.sh(
                    "python tools/load_test.py --concurrency 64 --duration 1800",
                    "requests: 11874 ok, 0 failed\nthroughput: 1372.4 tok/s total (p50), 1318.0 (p5)\nTPOT p50 80.2 ms, p99 131.7 ms\nerrors: none\nGPU memory stable at 84.1 +- 0.2 GB",
                    ms=1801000,
                )
            ],
        ),
    ]
    steps += routine(k, "readme", ["README.md", "deploy/glm5.service"], 20)
    steps += [
        A(
            tools=[
                k.edit(
                    "README.md",
                    "## Performance",
                    "## Performance\n\nGLM-5-NVFP4, 8x RTX PRO 6000, LXC: 1391.7 tok/s total at concurrency 64 (TPOT 79 ms), 14.2 tok/s single stream. 30-minute load test: 0 failures.",
                )
            ]
        ),
        A(
            text="The service is installed and stable under a 30-minute load test (1372 tok/s p50, no failures); README has the numbers."
        ),
        H(
            "Nice. Leave it running; tomorrow we look at speculative decoding for the single-stream case."
        ),
        A(text="Understood. It stays up under systemd (`glm5.service`); I won't touch it."),
    ]
    return steps


SCENARIOS = [
    Scenario(
        name="seed_milestone",
        title="GLM-5 in LXC: it finally works, mixed numbers, then make it fast",
        cwd=CWD,
        steps=[
            *getting_it_working(),
            H("", expect=("continue_after_milestone", "empty")),
            *making_it_fast(),
            Compact(
                "Summary: GLM-5-NVFP4 now serves from the LXC container on 8x RTX PRO 6000. Fixed CUDA init (HMM off on host), installed ninja, transformers 5.2.0, lowered mem fraction. First sweep matched the VM (~11 tok/s single, 806 tok/s at c=128). Tuned: flashinfer attention, fp8 KV, EP=8 with DeepEP -> 1391.7 tok/s at c=64 (1.8x), 14.2 tok/s single stream. Server running by hand on :30000.",
                auto=True,
                expect=("continue_after_milestone", "compaction"),
            ),
            *production(),
        ],
        model="claude-opus-4-8",
        start="2026-11-05T13:10:00Z",
        seconds_per_step=50,
        notes="Essay 001.",
    )
]
