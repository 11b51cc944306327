"""A language-model training run that diverges: four failed fixes, a silent hand-off, then a milestone."""
# ruff: noqa: E501  (session text: long literal lines are what the agents wrote)

from __future__ import annotations

from samplegen.dsl import Compact, H, Nudge, Scenario
from samplegen.heldout2._kit import a, ed, gr, hang, rd, sh, todo

CWD = "/mnt/work/lm-1b3"
RUN = "runs/1b3-c4mix-v2"


def poll(step: int, loss: float, gnorm: float, tps: int, note: str = "") -> object:
    return a(
        note or f"Step {step}: loss {loss:.3f}, grad-norm {gnorm:.2f}.",
        sh(
            f"tail -n 3 {RUN}/train.log",
            f"step {step - 200} | loss {loss + 0.011:.4f} | gnorm {gnorm * 0.97:.3f} | lr 2.9e-04 | {tps} tok/s\n"
            f"step {step - 100} | loss {loss + 0.004:.4f} | gnorm {gnorm * 1.02:.3f} | lr 2.9e-04 | {tps + 140} tok/s\n"
            f"step {step} | loss {loss:.4f} | gnorm {gnorm:.3f} | lr 2.9e-04 | {tps - 90} tok/s",
        ),
    )


first_watch = [poll(11_000 + 600 * i, 2.61 - 0.012 * i, 0.41 + 0.01 * i, 184_300) for i in range(5)]
lr_watch = [poll(13_400 + 350 * i, 2.52 - 0.008 * i, 0.36 + 0.02 * i, 184_100) for i in range(5)]
qk_watch = [poll(13_300 + 300 * i, 2.53 - 0.01 * i, 0.33 + 0.01 * i, 181_700) for i in range(3)]
recovery_watch = [
    poll(14_200 + 800 * i, 2.47 - 0.013 * i, 0.38 + 0.004 * (i % 3), 183_900) for i in range(9)
]
scale_watch = [
    poll(
        300 + 400 * i,
        3.91 - 0.17 * i,
        0.92 - 0.05 * i,
        738_500,
        f"Full run, step {300 + 400 * i}: loss {3.91 - 0.17 * i:.3f}, throughput ~738k tok/s on 32 GPUs.",
    )
    for i in range(8)
]

steps = [
    H(
        "the 1.3B run on the c4+code mix keeps blowing up around step 14k (loss goes NaN). "
        "config is configs/1b3_c4mix.yaml, run dir runs/1b3-c4mix-v2. figure it out"
    ),
    a(
        "Looking at the config and the log around the blow-up.",
        rd(
            f"{CWD}/configs/1b3_c4mix.yaml",
            "model: {d_model: 2048, n_layers: 24, n_heads: 16}\noptim: {lr: 3.0e-4, warmup: 2000, betas: [0.9, 0.95], wd: 0.1, clip: null}\nprecision: bf16\nbatch_tokens: 1048576\ndata: {mix: {c4: 0.7, code: 0.3}, shards: /mnt/data/c4mix-v2}",
        ),
        sh(
            f"grep -n 'nan\\|inf' {RUN}/train.log | head -5",
            "14187:step 14180 | loss nan | gnorm inf | lr 2.9e-04 | 183112 tok/s",
        ),
        todo(("Find why loss goes NaN at ~14k", "in_progress")),
    ),
    a(
        "",
        sh(
            f"sed -n '14170,14187p' {RUN}/train.log",
            "step 14100 | loss 2.4712 | gnorm 0.392 | ...\nstep 14140 | loss 2.4690 | gnorm 0.402\nstep 14160 | loss 2.5138 | gnorm 3.871\nstep 14170 | loss 4.0921 | gnorm 48.22\nstep 14180 | loss nan | gnorm inf",
        ),
        think="Sudden spike over ~20 steps, not slow drift. Could be LR, a bad batch, or attention logit growth.",
    ),
    a(
        "A sharp spike over ~20 steps. First attempt: no gradient clipping is set, so clip at 1.0 and resume from the step-13000 checkpoint.",
        ed(f"{CWD}/configs/1b3_c4mix.yaml", "clip: null", "clip: 1.0"),
        sh(
            f"sbatch scripts/train.sbatch --config configs/1b3_c4mix.yaml --resume {RUN}/ckpt/step_13000",
            "Submitted batch job 884120",
        ),
        todo(("Attempt 1: grad clip 1.0", "in_progress")),
    ),
    *first_watch,
    a(
        "Attempt 1 result.",
        sh(
            f"grep -m1 -n 'nan' {RUN}/train.log.884120",
            "1941:step 14940 | loss nan | gnorm 1.000 (clipped from inf)",
        ),
        todo(("Attempt 1: grad clip 1.0", "FAILED"), ("Attempt 2: lr 1.5e-4", "in_progress")),
    ),
    a(
        "Clipping only delayed it to step 14940. Attempt 2: halve the peak LR.",
        ed(f"{CWD}/configs/1b3_c4mix.yaml", "lr: 3.0e-4", "lr: 1.5e-4"),
        sh(
            f"sbatch scripts/train.sbatch --config configs/1b3_c4mix.yaml --resume {RUN}/ckpt/step_13000",
            "Submitted batch job 884163",
        ),
    ),
    *lr_watch,
    a(
        "",
        sh(
            "sleep 1500; grep -m1 'nan' runs/1b3-c4mix-v2/train.log.884163",
            "step 15220 | loss nan | gnorm inf",
        ),
        todo(
            ("Attempt 2: lr 1.5e-4", "FAILED"), ("Attempt 3: fp32 attention logits", "in_progress")
        ),
    ),
    a(
        "Still NaN, at 15220. Attempt 3: compute the attention softmax in fp32 (bf16 logits can overflow if they grow).",
        gr(
            "softmax",
            f"{CWD}/lm/attention.py",
            "lm/attention.py:61:        probs = torch.softmax(scores, dim=-1)",
        ),
        ed(
            f"{CWD}/lm/attention.py",
            "probs = torch.softmax(scores, dim=-1)",
            "probs = torch.softmax(scores.float(), dim=-1).to(q.dtype)",
        ),
        sh(
            f"sbatch scripts/train.sbatch --config configs/1b3_c4mix.yaml --resume {RUN}/ckpt/step_13000",
            "Submitted batch job 884201",
        ),
    ),
    a(
        "",
        sh(
            "sleep 600; tail -n 4 runs/1b3-c4mix-v2/train.log.884201",
            "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 3.00 GiB. GPU 5 has a total capacity of 79.10 GiB of which 1.21 GiB is free.\nsrun: error: gpu-a17: task 5: Exited with exit code 1",
            code=1,
        ),
        todo(
            ("Attempt 3: fp32 attention logits", "FAILED (OOM)"),
            ("Attempt 4: qk-layernorm", "in_progress"),
        ),
    ),
    a(
        "fp32 scores don't fit at this micro-batch. Attempt 4: QK-layernorm, which bounds the logits without the memory cost.",
        ed(
            f"{CWD}/lm/attention.py",
            "probs = torch.softmax(scores.float(), dim=-1).to(q.dtype)",
            "probs = torch.softmax(scores, dim=-1)",
        ),
        ed(
            f"{CWD}/configs/1b3_c4mix.yaml",
            "model: {d_model: 2048, n_layers: 24, n_heads: 16}",
            "model: {d_model: 2048, n_layers: 24, n_heads: 16, qk_norm: true}",
        ),
        sh(
            f"sbatch scripts/train.sbatch --config configs/1b3_c4mix.yaml --resume {RUN}/ckpt/step_13000",
            "Submitted batch job 884240",
        ),
    ),
    *qk_watch,
    a(
        "",
        hang(
            "python scripts/wait_for_step.py --job 884240 --step 14500 --timeout 1800",
            "waiting... step 13420\nwaiting... step 13880\nwaiting... step 14160\nwaiting... step 14160\nwaiting... step 14160\nTimeoutError: no progress for 900 s",
            ms=1_800_000,
        ),
    ),
    a(
        "The qk-norm run stopped making progress at step 14160 — no NaN in the log, no exit either; the job is still RUNNING in squeue but the log hasn't moved for 15 minutes.\n\n"
        "Tally: clip 1.0 → NaN at 14940; lr 1.5e-4 → NaN at 15220; fp32 softmax → OOM; qk-norm → stuck at 14160, unknown why. Every attempt fails in the same 14.1k–15.2k window.",
        sh("squeue -j 884240 -o '%i %T %M'", "JOBID STATE TIME\n884240 RUNNING 41:07"),
    ),
    # Dead end: four failed or inconclusive attempts, the last poll timed out; the person sends nothing.
    H("", expect=("delegation_after_dead_end", "empty")),
    a(
        "Stepping back.\n\n**Goal:** stable 1.3B run past 14k on c4+code.\n\n**What failed:**\n- grad clip 1.0 → NaN at 14940\n- lr 1.5e-4 → NaN at 15220\n- fp32 softmax → OOM on GPU 5\n- qk-norm → hung at 14160 (job alive, no log progress)\n\n"
        "**Discovery:** four different optimiser/model changes all fail inside the same step window, and the hang is at 14160, exactly where the original run's spike started. "
        "That points at the **data**, not the optimiser: with a fixed seed, steps 14.1k–15.2k see the same shards.\n\n**Next:** map steps 14100–14200 to shards and inspect them.",
        todo(
            ("Map failing step window to data shards", "in_progress"), ("Inspect shards", "pending")
        ),
    ),
    a(
        "",
        sh("scancel 884240"),
        sh(
            "python scripts/step_to_shard.py --config configs/1b3_c4mix.yaml --steps 14100:14200",
            "steps 14100-14159: c4/shard-03311.jsonl.zst, code/shard-00871.jsonl.zst\nsteps 14160-14200: code/shard-00872.jsonl.zst",
        ),
    ),
    a(
        "",
        sh(
            "python scripts/shard_stats.py /mnt/data/c4mix-v2/code/shard-00872.jsonl.zst",
            "docs: 48211\nmean_len_tokens: 1893\nmax_len_tokens: 1048576\ndocs_over_64k_tokens: 1\nmax_token_id: 50431 (vocab 50304)\nunique_tokens_in_longest_doc: 2",
        ),
    ),
    a(
        "Found it. `code/shard-00872` has one document of 1,048,576 tokens made of just 2 distinct tokens (a minified base64 blob), and token ids up to 50431 — above the 50304 vocab. "
        "Out-of-range ids index past the embedding table; the hang at 14160 is an NCCL collective waiting on a rank that hit a device-side assert.",
        sh(
            "python scripts/shard_stats.py --all /mnt/data/c4mix-v2 --only-bad > /tmp/bad_shards.txt; wc -l < /tmp/bad_shards.txt",
            "3",
        ),
        todo(
            ("Map failing step window to data shards", "completed"),
            ("Inspect shards", "completed"),
            ("Filter bad docs + rebuild shards", "in_progress"),
        ),
    ),
    a(
        "Three shards are bad. Adding a filter (token id < vocab, max 32k tokens per doc, >= 16 distinct tokens per 1k) to the packer and rebuilding just those shards.",
        ed(
            f"{CWD}/lm/data/pack.py",
            "def keep(doc):\n    return len(doc) > 0",
            "def keep(doc, vocab: int = 50304):\n    if not doc or len(doc) > 32_768 or max(doc) >= vocab:\n        return False\n    return len(set(doc[:1024])) >= 16",
        ),
        sh(
            "python scripts/repack.py --shards $(cut -f1 /tmp/bad_shards.txt) --out /mnt/data/c4mix-v3",
            "repacked 3 shards: dropped 7 docs (1,301,442 tokens)",
        ),
    ),
    a(
        "Reverting the LR change (kept clip 1.0 and qk-norm as cheap insurance) and resuming from step 13000 on the fixed data.",
        ed(f"{CWD}/configs/1b3_c4mix.yaml", "lr: 1.5e-4", "lr: 3.0e-4"),
        ed(
            f"{CWD}/configs/1b3_c4mix.yaml",
            "shards: /mnt/data/c4mix-v2",
            "shards: /mnt/data/c4mix-v3",
        ),
        sh(
            f"sbatch scripts/train.sbatch --config configs/1b3_c4mix.yaml --resume {RUN}/ckpt/step_13000",
            "Submitted batch job 884377",
        ),
    ),
    *recovery_watch[:4],
    Nudge(),  # Deliberate negative: a harness nudge alone, inside routine monitoring.
    *recovery_watch[4:7],
    # Deliberate negative: an ack in the middle of unchanged monitoring work.
    H("k"),
    *recovery_watch[7:],
    a(
        "Evaluating the step-20000 checkpoint.",
        sh(
            f"python eval/run.py --ckpt {RUN}/ckpt/step_20000 --tasks val_c4,val_code,hellaswag",
            "val_c4 ppl 10.42\nval_code ppl 4.87\nhellaswag acc_norm 0.412",
        ),
        todo(
            ("Filter bad docs + rebuild shards", "completed"),
            ("Train past 20k stable", "completed"),
        ),
    ),
    a(
        "It works: the run went through the old failure window and is past **20,000 steps** with no spikes.\n\n| metric | value |\n|---|---|\n| train loss @20k | 2.361 |\n| val_c4 ppl | 10.42 |\n| val_code ppl | 4.87 |\n| hellaswag acc_norm | 0.412 |\n| throughput | 184k tok/s on 8×H100 |\n\n"
        "Root cause was data: 7 degenerate documents in 3 shards (out-of-vocab ids, a 1M-token blob)."
    ),
    # A compaction right after the milestone; the agent then starts a new phase (scaling out) on its own.
    Compact(
        "## Summary\n\n**Goal:** train the 1.3B model on c4+code (configs/1b3_c4mix.yaml) without divergence, then scale to the full run.\n\n"
        "**Discoveries:** NaN/hang at ~14.1k was caused by 3 bad code shards (token ids ≥ vocab 50304, a 1,048,576-token two-token doc). Optimiser changes (clip, LR, fp32 softmax, qk-norm) only moved or masked it.\n\n"
        "**Accomplished:** filter in lm/data/pack.py; repacked shards into /mnt/data/c4mix-v3; run 884377 stable past 20k (loss 2.361, val_c4 ppl 10.42, hellaswag 0.412).\n\n"
        "**Current state:** job 884377 still running on 8 GPUs.\n\n**Next steps:** scan the whole dataset with the new filter, then launch the 4-node (32 GPU) full run from scratch on c4mix-v3.",
        expect=("continue_after_milestone", "compaction"),
    ),
    a(
        "Scanning every shard with the new filter before the full run.",
        sh("python scripts/shard_stats.py --all /mnt/data/c4mix-v3 --only-bad | wc -l", "0"),
        todo(
            ("Full-dataset filter scan", "completed"),
            ("4-node config", "in_progress"),
            ("Launch full run", "pending"),
        ),
    ),
    a(
        "Writing the 4-node config: global batch stays 1M tokens, so micro-batch per GPU drops from 16 to 4.",
        ed(
            f"{CWD}/configs/1b3_c4mix.yaml",
            "batch_tokens: 1048576",
            "batch_tokens: 1048576\nnodes: 4\nmicro_batch: 4",
        ),
        sh(
            "python scripts/check_config.py configs/1b3_c4mix.yaml",
            "world_size=32 micro_batch=4 grad_accum=4 seq_len=2048 -> 1,048,576 tokens/step OK",
        ),
    ),
    a(
        "Launching from scratch on 4 nodes.",
        sh(
            "sbatch --nodes 4 scripts/train.sbatch --config configs/1b3_c4mix.yaml --run runs/1b3-c4mix-v3-full",
            "Submitted batch job 884512",
        ),
        todo(
            ("4-node config", "completed"),
            ("Launch full run", "completed"),
            ("Watch first 2k steps", "in_progress"),
        ),
    ),
    *scale_watch,
    H(
        "continue but skip the hellaswag eval on the intermediate checkpoints, it eats an hour of a node"
    ),
    a(
        "Dropping hellaswag from the periodic eval; keeping the two perplexity sets.",
        ed(
            f"{CWD}/configs/1b3_c4mix.yaml",
            "eval_tasks: [val_c4, val_code, hellaswag]",
            "eval_tasks: [val_c4, val_code]",
        ),
        sh("scontrol update job=884512 comment='eval: ppl only'"),
    ),
    a(
        "Done; takes effect at the next eval (step 4000). The full run is at step 2300 with loss 3.06 and ~738k tok/s.",
        todo(("Watch first 2k steps", "completed")),
    ),
]

SCENARIOS = [
    Scenario(
        name="h2_training_divergence",
        title="1.3B training run goes NaN at step 14k",
        cwd=CWD,
        steps=steps,
        start="2026-11-04T07:40:00Z",
        seconds_per_step=90,
    )
]
FORMATS = ["opencode", "claude", "gemini"]
