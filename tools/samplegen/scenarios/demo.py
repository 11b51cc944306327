# ruff: noqa: E501  (scenario data: verbatim tool output lines are long on purpose)
"""The bundled demo: one of each archetype and a compaction, short enough to enjoy.

Story: serving a 32B model on a 2-GPU workstation. Labels (one line of rationale each):
- empty after the first benchmark table: continue_after_milestone — the server finally
  answers, the numbers are mixed (works, below the 40 tok/s target), and the agent then
  synthesises and starts a new phase, "make it fast".
- empty after the failed tuning runs and the timed-out poll: delegation_after_dead_end —
  three attempts failed, the last launch never answered; afterwards a status summary and the
  agent acting alone.
- empty after "Should we switch to the FP8 checkpoint?" and the plan: implicit_approval —
  the proposal was researched and laid out with risks, nothing executed; then the agent does it.
Not a pivot: the automatic compaction while the agent is editing the launch script (the same
work continues); "ok" while the server loads; "thanks" at the end.
"""

from __future__ import annotations

from samplegen.dsl import A, Compact, H, Scenario
from samplegen.scenarios._lib import Kit, bench_output, bench_table, poll_log, status, traceback

CWD = "/home/dev/work/qwen-serve"
k = Kit(CWD, "demo")
rng = k.rng


def launch(extra: str = "") -> str:
    return f"nohup vllm serve Qwen/Qwen3-32B --tensor-parallel-size 2 --port 8000 {extra}> /tmp/vllm.log 2>&1 &"


rows = [
    (1, 31.20, 31.20, 33, 32.05),
    (8, 201.66, 188.40, 214, 42.46),
    (32, 512.08, 470.91, 533, 67.95),
]

steps = [
    H(
        "Get Qwen3-32B serving with vLLM on the two GPUs and measure single-stream speed. The target is 40 tok/s."
    ),
    A(
        reasoning="Check GPUs and what's already on port 8000.",
        text="Checking the GPUs and the port first.",
        tools=[
            k.sh(
                "nvidia-smi --query-gpu=index,name,memory.used,memory.total --format=csv,noheader",
                "0, NVIDIA RTX 6000 Ada Generation, 3 MiB, 49140 MiB\n1, NVIDIA RTX 6000 Ada Generation, 3 MiB, 49140 MiB",
            )
        ],
    ),
    A(tools=[k.sh(launch(), "[1] 7712")]),
    A(
        tools=[
            k.sh(
                "sleep 20; tail -5 /tmp/vllm.log",
                "OSError: [Errno 98] Address already in use: ('0.0.0.0', 8000)",
                ms=20300,
            )
        ]
    ),
    A(
        text="Port 8000 is taken.",
        tools=[
            k.sh(
                "ss -ltnp | grep :8000",
                'LISTEN 0 4096 0.0.0.0:8000 0.0.0.0:* users:(("python3",pid=1804,fd=7))',
            )
        ],
    ),
    A(tools=[k.sh("ps -o pid,cmd -p 1804", "  PID CMD\n 1804 python3 -m http.server 8000")]),
    A(
        text="A forgotten `http.server`. Stopping it and relaunching.",
        tools=[k.sh("kill 1804; " + launch(), "[1] 7790")],
    ),
    H("ok"),  # not a pivot: the launch just carries on
    A(
        tools=[
            k.sh(
                "sleep 90; tail -3 /tmp/vllm.log",
                traceback(
                    "worker/model_runner.py",
                    "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.25 GiB. GPU 1 has a total capacity of 47.99 GiB of which 612.00 MiB is free.",
                ),
                ms=90200,
            )
        ]
    ),
    A(
        text="OOM while allocating the KV cache at the default 32k context. Limiting `--max-model-len` to 16384.",
        tools=[k.sh(launch("--max-model-len 16384 --gpu-memory-utilization 0.92 "), "[1] 7955")],
    ),
    A(
        tools=[
            k.sh(
                "for i in $(seq 1 30); do curl -sf localhost:8000/health && echo ready && break; sleep 10; done",
                "ready",
                ms=150000,
            )
        ]
    ),
    A(
        tools=[
            k.sh(
                'curl -s localhost:8000/v1/completions -d \'{"model":"Qwen/Qwen3-32B","prompt":"The capital of France is","max_tokens":8}\' | jq -r .choices[0].text',
                " Paris. It is also the largest",
            )
        ]
    ),
    A(
        tools=[
            k.read(
                "bench.py",
                "import argparse, asyncio, time\nfrom openai import AsyncOpenAI\n\nPROMPTS = [l.strip() for l in open('prompts.txt')]\n\nasync def one(client, prompt):\n    t0 = time.perf_counter()\n    r = await client.completions.create(model=MODEL, prompt=prompt, max_tokens=256)\n    return r.usage.completion_tokens, time.perf_counter() - t0",
            )
        ]
    ),
    A(tools=[k.sh("wc -l prompts.txt", "120 prompts.txt")]),
    A(tools=[k.sh("python bench.py --concurrency 1,8,32", bench_table(rows), ms=240000)]),
    A(
        text="**It works.** The server answers correctly and scales with concurrency:\n\n"
        + bench_table(rows)
        + "\n\nBut single stream is **31.2 tok/s**, below the 40 tok/s target: a mixed result."
    ),
    H("", expect=("continue_after_milestone", "empty")),
    A(
        text="## Where we are\nServing works; throughput scales 16x from 1 to 32 streams, so the box is fine for batch traffic. Single-stream speed is the gap: 31.2 vs 40 tok/s, i.e. per-token latency 32 ms vs 25 ms.\n\n## Next phase: make single-stream fast\n1. CUDA graphs for all decode batch sizes (check they are not disabled).\n2. Speculative decoding with a small draft model.\n3. Re-measure with the same script."
    ),
    A(
        tools=[
            k.todo(
                [
                    ("CUDA graphs on decode", "in_progress"),
                    ("Speculative decoding (draft 0.6B)", "pending"),
                    ("Re-measure", "pending"),
                ]
            )
        ]
    ),
    A(
        tools=[
            k.sh(
                "grep -n -i 'cuda graph\\|enforce_eager' /tmp/vllm.log | head -3",
                "41:INFO Capturing cudagraphs for decoding. Batch sizes: [1, 2, 4, 8, 16, 32, 64, 128, 256]\n57:INFO Graph capturing finished in 21 secs",
            )
        ]
    ),
    A(
        text="Graphs are already on. Trying speculative decoding with Qwen3-0.6B as the draft.",
        tools=[
            k.todo(
                [
                    ("CUDA graphs on decode", "completed"),
                    ("Speculative decoding (draft 0.6B)", "in_progress"),
                    ("Re-measure", "pending"),
                ]
            )
        ],
    ),
    A(
        tools=[
            k.sh(
                "pkill -f 'vllm serve'; sleep 5; "
                + launch(
                    '--max-model-len 16384 --gpu-memory-utilization 0.92 --speculative-config \'{"model":"Qwen/Qwen3-0.6B","num_speculative_tokens":5}\' '
                ),
                "[1] 8301",
                ms=6000,
            )
        ]
    ),
    A(
        tools=[
            k.sh(
                "sleep 120; tail -4 /tmp/vllm.log",
                "ValueError: Draft model vocab size 151936 does not match target vocab size 152064",
                ms=120100,
            )
        ]
    ),
    A(
        text="Attempt 1 **failed**: the 0.6B draft has a different vocabulary size. Trying n-gram (prompt lookup) speculation, which needs no draft model.",
        tools=[
            k.sh(
                "pkill -f 'vllm serve'; sleep 5; "
                + launch(
                    '--max-model-len 16384 --gpu-memory-utilization 0.92 --speculative-config \'{"method":"ngram","num_speculative_tokens":4,"prompt_lookup_max":4}\' '
                ),
                "[1] 8544",
                ms=6000,
            )
        ],
    ),
    A(
        tools=[
            k.sh(
                "for i in $(seq 1 30); do curl -sf localhost:8000/health && echo ready && break; sleep 10; done",
                "ready",
                ms=140000,
            )
        ]
    ),
    A(tools=[k.sh("python bench.py --concurrency 1", bench_output(rng, 29.4), ms=60000)]),
    A(
        text="Attempt 2 **failed** to help: n-gram speculation gives 29.4 tok/s (worse; acceptance is low on chat prompts). Trying EAGLE with the published Qwen3-32B head.",
        tools=[
            k.sh(
                "pkill -f 'vllm serve'; sleep 5; "
                + launch(
                    '--max-model-len 16384 --gpu-memory-utilization 0.95 --speculative-config \'{"method":"eagle3","model":"Tengyunw/qwen3_32b_eagle3","num_speculative_tokens":4}\' '
                ),
                "[1] 8790",
                ms=6000,
            )
        ],
    ),
    A(
        tools=[
            k.sh(
                "sleep 60; tail -2 /tmp/vllm.log",
                "INFO Loading drafter model...\nINFO Loading weights took 14.21 seconds",
                ms=60100,
            )
        ]
    ),
    A(
        text="Weights are loading. Polling for readiness.",
        tools=[
            k.timeout(
                'for i in $(seq 1 20); do curl -sf localhost:8000/health && break; echo "[poll $i/20] not ready"; sleep 20; done',
                poll_log(20, "http://127.0.0.1:8000/health"),
                400000,
            )
        ],
    ),
    A(
        text="The EAGLE launch has not answered after 20 polls (~6m40s). I don't know yet whether it is still capturing graphs or stuck."
    ),
    H("", expect=("delegation_after_dead_end", "empty")),
    A(
        text=status(
            "single-stream Qwen3-32B at >= 40 tok/s on 2x RTX 6000 Ada",
            [
                "CUDA graphs were already on",
                "the 0.6B draft has a different vocab size (151936 vs 152064)",
                "n-gram speculation is slower on chat prompts (29.4 tok/s)",
            ],
            ["server works: 31.2 tok/s single stream, 512 tok/s at 32 streams"],
            [
                "EAGLE-3 launch started ~8 minutes ago, never answered /health",
                "gpu-memory-utilization raised to 0.95 for the drafter",
            ],
            [
                "look at the log and GPU memory to see why EAGLE is stuck",
                "if it is memory: give the drafter room by lowering max-model-len",
                "measure",
            ],
        )
    ),
    A(
        tools=[
            k.sh(
                "tail -3 /tmp/vllm.log; nvidia-smi --query-gpu=memory.used --format=csv,noheader",
                "INFO Capturing cudagraphs for decoding. Batch sizes: [1, 2, 4, ... 256]\nWARNING Insufficient memory for cudagraph capture at batch size 256, retrying with smaller pool\nWARNING Insufficient memory for cudagraph capture at batch size 256, retrying with smaller pool\n47101 MiB\n47890 MiB",
            )
        ]
    ),
    A(
        text="It is looping on CUDA graph capture at batch 256 for lack of memory. Capping graph batch sizes and context.",
        tools=[
            k.sh(
                "pkill -f 'vllm serve'; sleep 5; "
                + launch(
                    '--max-model-len 12288 --gpu-memory-utilization 0.95 --max-num-seqs 64 --speculative-config \'{"method":"eagle3","model":"Tengyunw/qwen3_32b_eagle3","num_speculative_tokens":4}\' '
                ),
                "[1] 9120",
                ms=6000,
            )
        ],
    ),
    A(
        tools=[
            k.sh(
                "for i in $(seq 1 30); do curl -sf localhost:8000/health && echo ready && break; sleep 10; done",
                "ready",
                ms=170000,
            )
        ]
    ),
    A(tools=[k.sh("python bench.py --concurrency 1", bench_output(rng, 44.8), ms=50000)]),
    A(
        text="EAGLE-3 now runs: **44.8 tok/s** single stream (was 31.2), above the 40 tok/s target.",
        tools=[
            k.todo(
                [
                    ("CUDA graphs on decode", "completed"),
                    ("Speculative decoding (draft 0.6B)", "completed"),
                    ("Re-measure", "completed"),
                ]
            )
        ],
    ),
    A(
        text="Saving the working flags in `serve.sh`.",
        tools=[
            k.write(
                "serve.sh",
                '#!/usr/bin/env bash\nexec vllm serve Qwen/Qwen3-32B --tensor-parallel-size 2 --port 8000 \\\n  --max-model-len 12288 --gpu-memory-utilization 0.95 --max-num-seqs 64 \\\n  --speculative-config \'{"method":"eagle3","model":"Tengyunw/qwen3_32b_eagle3","num_speculative_tokens":4}\'\n',
            )
        ],
    ),
    A(tools=[k.sh("chmod +x serve.sh && bash -n serve.sh && echo ok", "ok")]),
    Compact(
        "Summary: Qwen3-32B on vLLM, 2x RTX 6000 Ada. Fixed port clash and OOM (max-model-len). Baseline 31.2 tok/s single stream; draft-0.6B failed (vocab), n-gram slower (29.4); EAGLE-3 stuck on graph capture until max-num-seqs 64 and max-model-len 12288 -> 44.8 tok/s. serve.sh written with those flags.",
        auto=True,
    ),
    # not a pivot: the same serve.sh work continues
    A(tools=[k.edit("serve.sh", "--max-num-seqs 64", "--max-num-seqs 64 --disable-log-requests")]),
    A(text="serve.sh is final."),
    H("Add a systemd unit so it survives reboots, and a short README section with the numbers."),
    A(
        tools=[
            k.write(
                "deploy/qwen-serve.service",
                "[Unit]\nDescription=Qwen3-32B vLLM server\nAfter=network-online.target\n\n[Service]\nExecStart=/home/dev/work/qwen-serve/serve.sh\nRestart=on-failure\nUser=dev\n\n[Install]\nWantedBy=multi-user.target\n",
            )
        ]
    ),
    A(
        tools=[
            k.sh(
                "sudo cp deploy/qwen-serve.service /etc/systemd/system/ && sudo systemctl daemon-reload && pkill -f 'vllm serve'; sudo systemctl enable --now qwen-serve && sleep 3 && systemctl is-active qwen-serve",
                "Created symlink /etc/systemd/system/multi-user.target.wants/qwen-serve.service -> /etc/systemd/system/qwen-serve.service.\nactive",
            )
        ]
    ),
    A(
        tools=[
            k.sh(
                "for i in $(seq 1 30); do curl -sf localhost:8000/health && echo ready && break; sleep 10; done",
                "ready",
                ms=165000,
            )
        ]
    ),
    A(
        tools=[
            k.read(
                "README.md",
                "# qwen-serve\n\nvLLM serving for Qwen3-32B on the workstation.\n\n## Usage\n\n    ./serve.sh",
            )
        ]
    ),
    A(
        tools=[
            k.edit(
                "README.md",
                "## Usage\n\n    ./serve.sh",
                "## Usage\n\n    sudo systemctl start qwen-serve   # or ./serve.sh\n\n## Performance\n\n| Setup | Single stream | 32 streams |\n|---|---|---|\n| BF16, no speculation | 31.2 tok/s | 512 tok/s |\n| BF16 + EAGLE-3 | 44.8 tok/s | - |",
            )
        ]
    ),
    A(
        tools=[
            k.sh(
                "git add -A && git commit -qm 'serve: EAGLE-3, systemd unit, README numbers' && git log --oneline -1",
                "4f1c2ab serve: EAGLE-3, systemd unit, README numbers",
            )
        ]
    ),
    A(
        text="The service now starts on boot (`qwen-serve.service`), README has the numbers, committed as 4f1c2ab."
    ),
    H("Should we switch to the FP8 checkpoint? It would free memory for longer context."),
    A(
        tools=[
            k.sh(
                "huggingface-cli scan-cache | grep -i qwen3-32b",
                "Qwen/Qwen3-32B      model   65.5G   2 weeks ago",
            )
        ]
    ),
    A(
        tools=[
            k.sh(
                "curl -s https://huggingface.co/api/models/Qwen/Qwen3-32B-FP8 | jq '{id, sha, safetensors: .safetensors.total}'",
                '{\n  "id": "Qwen/Qwen3-32B-FP8",\n  "sha": "9c2a1f0",\n  "safetensors": 32762184704\n}',
            )
        ]
    ),
    A(
        tools=[
            k.grep(
                "fp8",
                "/opt/venv/lib/python3.12/site-packages/vllm/model_executor/layers/quantization/fp8.py",
                "fp8.py:112:        # Ada (sm_89) supports FP8 via Marlin / cutlass w8a8\nfp8.py:118:        if capability < 89: raise ValueError('FP8 requires sm_89+')",
            )
        ]
    ),
    A(
        text="Yes, it looks worthwhile.\n\n**Findings**\n- Qwen3-32B-FP8 is 32.8 GB vs 65.5 GB: about 16 GB per GPU freed.\n- Ada (sm_89) runs FP8 with the cutlass w8a8 kernels in our vLLM.\n\n**Plan**\n1. Download Qwen/Qwen3-32B-FP8 (33 GB).\n2. Point serve.sh at it; raise max-model-len to 32768.\n3. Re-run the same benchmark and a quick quality check (10 prompts, compare answers).\n\n**Risks**: the EAGLE-3 head was trained on the BF16 model, so acceptance may drop; FP8 can change outputs slightly. Rollback is one line in serve.sh.\n\nNothing changed yet."
    ),
    H("", expect=("implicit_approval", "empty")),
    A(
        text="Downloading the FP8 checkpoint.",
        tools=[
            k.sh(
                "huggingface-cli download Qwen/Qwen3-32B-FP8 --quiet && echo done",
                "done",
                ms=412000,
            )
        ],
    ),
    A(tools=[k.edit("serve.sh", "vllm serve Qwen/Qwen3-32B ", "vllm serve Qwen/Qwen3-32B-FP8 ")]),
    A(tools=[k.edit("serve.sh", "--max-model-len 12288", "--max-model-len 32768")]),
    A(
        tools=[
            k.sh(
                "sudo systemctl restart qwen-serve; for i in $(seq 1 30); do curl -sf localhost:8000/health && echo ready && break; sleep 10; done",
                "ready",
                ms=160000,
            )
        ]
    ),
    A(
        tools=[
            k.sh(
                "python bench.py --concurrency 1,8,32",
                bench_table(
                    [
                        (1, 47.30, 47.30, 50, 21.14),
                        (8, 266.02, 247.13, 280, 32.37),
                        (32, 702.51, 648.88, 731, 49.31),
                    ]
                ),
                ms=230000,
            )
        ]
    ),
    A(
        tools=[
            k.sh(
                "python quality_check.py --n 10 --ref answers_bf16.jsonl",
                "10 prompts: 9 identical, 1 reworded (same answer)\nmean accept length: 3.1 (was 3.4)",
            )
        ]
    ),
    A(
        tools=[
            k.edit(
                "README.md",
                "| BF16 + EAGLE-3 | 44.8 tok/s | - |",
                "| BF16 + EAGLE-3 | 44.8 tok/s | - |\n| FP8 + EAGLE-3, 32k context | 47.3 tok/s | 702 tok/s |",
            )
        ]
    ),
    A(
        tools=[
            k.sh(
                "git commit -qam 'serve: FP8 checkpoint, 32k context' && git log --oneline -1",
                "a90d3e7 serve: FP8 checkpoint, 32k context",
            )
        ]
    ),
    A(
        text="FP8 is in: **47.3 tok/s** single stream, 702 tok/s at 32 streams, context 32k, answers match on 10/10 prompts (one reworded). EAGLE acceptance dipped 3.4 -> 3.1 as expected."
    ),
    H("thanks"),
    A(text="You're welcome. `serve.sh` has the final flags; rollback to BF16 is the model name."),
]

SCENARIOS = [
    Scenario(
        name="demo",
        title="Serving Qwen3-32B: it works, a dead end, a proposal (demo)",
        cwd=CWD,
        steps=steps,
        model="claude-opus-4-8",
        start="2026-11-10T14:00:00Z",
        seconds_per_step=40,
        notes="Bundled demo: every archetype once, plus a compaction.",
    )
]
