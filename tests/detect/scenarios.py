"""The three essays as literal turn lists, plus the hard negatives of PIVOTS.md."""

from __future__ import annotations

from .helpers import DUMP, B, bash, edit, read, tool


def prelude(b: B) -> None:
    b.human(
        "Deploy the model with sglang on the 8 GPUs and get EAGLE-3 speculative decoding going."
    )
    b.agent("I'll start by checking the environment.", bash("nvidia-smi", "8x RTX PRO 6000"))
    b.agent("", read("/srv/eagle-fast-verify.md", "# plan\n1. NCCL tuning\n2. FlashInfer fusion"))


def dead_end() -> tuple[B, int]:
    """Essay 000: failures, a poll that timed out, then an empty message."""
    b = B()
    prelude(b)
    b.human("Try the NCCL tuning experiments from the plan, Tree first.")
    b.agent(
        "Launching with NCCL_ALGO=Tree.",
        bash("NCCL_ALGO=Tree python -m sglang.launch_server --model k2 &", "started pid 4242"),
    )
    b.agent(
        "",
        bash(
            "sleep 60; tail -50 server.log",
            "Traceback (most recent call last):\n  ...\nRuntimeError: NCCL error: invalid usage "
            "during CUDA graph capture",
            exit_code=1,
        ),
    )
    b.agent(
        "NCCL Tree FAILED: it crashes during CUDA graph capture.",
        tool(
            "TodoWrite",
            {
                "todos": [
                    {"content": "NCCL Tree", "status": "FAILED"},
                    {"content": "Fewer channels + flashinfer fusion", "status": "in_progress"},
                ]
            },
            "ok",
        ),
    )
    b.agent("", edit("/srv/sglang/python/sglang/srt/layers/communicator.py"))
    b.agent(
        "Launching fewer channels + FlashInfer fusion.",
        bash(
            "NCCL_MAX_NCHANNELS=2 python -m sglang.launch_server --model k2 &", "started pid 4300"
        ),
    )
    b.agent(
        "Polling for readiness.",
        bash(
            "for i in $(seq 1 23); do curl -s localhost:30000/health && break; sleep 20; done",
            "curl: (7) Failed to connect to localhost port 30000: Connection refused\n"
            "polling timed out after 23 attempts",
            exit_code=124,
        ),
    )
    anchor = b.human("<conversation_data>\n\n</conversation_data>")
    b.summary(DUMP, role=__import__("pivotal.model", fromlist=["Role"]).Role.ASSISTANT)
    b.nudge()
    b.agent(
        "Let me check whether the server crashed.",
        bash("tail -100 server.log", "OOM: out of memory"),
    )
    b.agent(
        "",
        bash(
            "pkill -f launch_server; NCCL_MAX_NCHANNELS=2 python -m sglang.launch_server &",
            "started",
        ),
    )
    b.agent("", bash("curl -s localhost:30000/health", "ok"))
    return b, anchor


MILESTONE_TABLE = """The server is finally up and generating coherent text. Benchmark results:

| Concurrency | Total tok/s | Output tok/s | TPOT (ms) |
|---|---|---|---|
| 32 | 438.67 | 130.54 | 114.58 |
| 64 | 757.54 | 219.15 | 131.18 |
| 128 | 806.04 | 272.61 | 171.79 |

Single stream: 11 tok/s, about the same as the VM baseline, so slower than I hoped."""


def milestone() -> tuple[B, int]:
    """Essay 001: a breakthrough with a benchmark table, then an empty message."""
    b = B()
    prelude(b)
    b.human("Migrate to the LXC container and get the server running.")
    b.agent(
        "", bash("pip install transformers==5.2.0", "Successfully installed transformers-5.2.0")
    )
    b.agent("", bash("python -m sglang.launch_server --model glm5 &", "started"))
    b.agent("", bash("sleep 600; curl -s localhost:30000/health", "server is ready"))
    b.agent(
        "",
        bash(
            "python -m sglang.bench_serving --concurrency 32,64,128",
            "Output token throughput (tok/s): 272.61",
        ),
    )
    b.agent(MILESTONE_TABLE)
    anchor = b.human("")
    b.agent(
        "Status summary and plan for making it fast.\n\n" + DUMP.replace("Deploy", "Serve GLM-5")
    )
    b.agent("", read("/home/u/research/moe-tuning.md", "MoE kernel tuning is critical"))
    b.agent(
        "",
        bash("python benchmark/kernels/fused_moe/tuning_fused_moe.py --tp 8", "best config saved"),
    )
    b.agent("", edit("configs/E=256,N=256,device_name=RTX_PRO_6000.json"))
    return b, anchor


def approval() -> tuple[B, int]:
    """Essay 004: the person proposed a CUDA 13 upgrade, the agent researched, empty message."""
    b = B()
    prelude(b)
    b.agent("EAGLE-3 is at 54.1 tok/s, slower than the 89.5 tok/s baseline.")
    b.human("Should we update cuda to 13 with more proper support for sm120?")
    b.agent(
        "Let me check what is installed.", bash("nvcc --version", "Cuda compilation tools 12.8")
    )
    b.agent("", tool("WebSearch", {"query": "CUDA 13 sm120 support sglang"}, "CUDA 13.0 adds ..."))
    b.agent("", bash("pip show torch sgl-kernel", "Version: 2.9.0+cu128"))
    b.agent(
        "Findings: CUDA 13 supports SM120 natively. Upgrade path: back up the venv, install the "
        "toolkit, rebuild sgl-kernel and flashinfer. Risks: ABI incompatibilities, SGLang "
        "rebuild. Shall I proceed with the upgrade?"
    )
    anchor = b.human("")
    b.agent("Backing up the environment first.", bash("cp -a /opt/venv /opt/venv.bak", ""))
    b.agent("", bash("apt-get install -y cuda-toolkit-13-0", "Setting up cuda-toolkit-13-0"))
    b.agent(
        "",
        bash(
            "pip install --upgrade torch --index-url https://download.pytorch.org/cu130",
            "Successfully installed torch",
        ),
    )
    return b, anchor
