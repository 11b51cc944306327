# ruff: noqa: E501  (scenario data: verbatim tool output lines are long on purpose)
"""Validation scenarios in the samples' DSL, written (and labelled) before the detector saw them.

Five short sessions outside the essays' domain: a Kubernetes deploy dead end, a speech model
reaching its target ("👍"), a logical-replication proposal, routine acks around a choice
question, and a manual compaction after a speed-up. They are emitted in every format by the
sample writers and checked like the tuning samples.
"""

from __future__ import annotations

import sys
from pathlib import Path

TOOLS = Path(__file__).resolve().parents[2] / "tools"
sys.path.insert(0, str(TOOLS))
from samplegen.dsl import A, Compact, H, Scenario  # noqa: E402
from samplegen.scenarios._lib import Kit, routine, status  # noqa: E402


def s1() -> Scenario:
    k = Kit("/home/dev/shop-api", "v_s1")
    steps = [
        H("The staging deploy of shop-api fails since yesterday. Find out why and get it green."),
        A(
            text="Looking at the last pipeline run.",
            tools=[
                k.sh(
                    "gh run view 8812 --log-failed | tail -20",
                    "deploy\tError: container exited with code 137\ndeploy\tReadiness probe failed: HTTP probe failed with statuscode: 503",
                    0,
                )
            ],
        ),
        A(
            tools=[
                k.sh(
                    "kubectl -n staging describe pod shop-api-7c9f | tail -15",
                    "Last State: Terminated\n  Reason: OOMKilled\n  Exit Code: 137\nRestart Count: 14",
                    0,
                )
            ]
        ),
        A(
            text="The pod is OOMKilled at 512Mi. Raising the limit to 1Gi.",
            tools=[k.edit("deploy/staging/values.yaml", "memory: 512Mi", "memory: 1Gi")],
        ),
        A(
            tools=[
                k.sh(
                    "helm upgrade shop-api deploy/chart -f deploy/staging/values.yaml -n staging",
                    'Release "shop-api" has been upgraded.',
                    0,
                )
            ]
        ),
        A(
            tools=[
                k.sh(
                    "kubectl -n staging rollout status deploy/shop-api --timeout=180s",
                    'Waiting for deployment "shop-api" rollout to finish: 0 of 2 updated replicas are available...\nerror: timed out waiting for the condition',
                    1,
                )
            ]
        ),
        A(
            tools=[
                k.sh(
                    "kubectl -n staging logs deploy/shop-api --tail=20",
                    "Traceback (most recent call last):\n  File \"/app/main.py\", line 12, in <module>\n    from shop.payments import client\nImportError: cannot import name 'client' from 'shop.payments'",
                    0,
                )
            ]
        ),
        A(
            text="Now it is an import error, not memory. The payments module was refactored in yesterday's merge.",
            tools=[
                k.grep(
                    "from shop.payments import",
                    "shop",
                    "shop/main.py:12:from shop.payments import client\nshop/orders.py:4:from shop.payments import client",
                )
            ],
        ),
        A(
            tools=[
                k.edit(
                    "shop/main.py",
                    "from shop.payments import client",
                    "from shop.payments.client import PaymentsClient as client",
                )
            ]
        ),
        A(
            tools=[
                k.sh(
                    "helm upgrade shop-api deploy/chart -f deploy/staging/values.yaml -n staging --set image.tag=$(git rev-parse --short HEAD)",
                    'Release "shop-api" has been upgraded.',
                    0,
                )
            ]
        ),
        A(
            tools=[
                k.timeout(
                    "kubectl -n staging rollout status deploy/shop-api --timeout=300s",
                    'Waiting for deployment "shop-api" rollout to finish: 1 of 2 updated replicas are available...',
                    300000,
                )
            ]
        ),
        A(
            text="The rollout is still hanging at 1 of 2 replicas after 5 minutes. I don't know yet whether the second pod is crash-looping or just slow to pass its readiness probe."
        ),
        H("", expect=("delegation_after_dead_end", "empty")),
        A(
            text=status(
                "get shop-api staging deploys green again",
                [
                    "pods were OOMKilled at 512Mi",
                    "payments refactor broke `from shop.payments import client`",
                ],
                ["memory limit raised to 1Gi", "import fixed in main.py"],
                ["rollout stuck at 1/2 replicas", "orders.py still uses the old import"],
                ["check the second pod's logs", "fix orders.py", "redeploy"],
            )
        ),
        A(
            tools=[
                k.sh(
                    "kubectl -n staging get pods -l app=shop-api",
                    "shop-api-5d7b-x2k  1/1 Running\nshop-api-5d7b-q8n  0/1 CrashLoopBackOff",
                    0,
                )
            ]
        ),
        A(
            tools=[
                k.edit(
                    "shop/orders.py",
                    "from shop.payments import client",
                    "from shop.payments.client import PaymentsClient as client",
                )
            ]
        ),
        A(tools=[k.sh("pytest -q tests/test_orders.py", "12 passed in 1.9s", 0)]),
        A(
            tools=[
                k.sh(
                    "helm upgrade shop-api deploy/chart -n staging --set image.tag=abc123",
                    "upgraded",
                    0,
                )
            ]
        ),
        A(
            text="Both pods are Running now and the probe passes.",
            tools=[
                k.sh(
                    "kubectl -n staging rollout status deploy/shop-api",
                    'deployment "shop-api" successfully rolled out',
                    0,
                )
            ],
        ),
        H("thanks"),
        A(text="You're welcome!"),
    ]
    return Scenario(name="v_dead_end_k8s", title="k8s dead end", cwd=k.cwd, steps=steps)


def s2() -> Scenario:
    k = Kit("/home/dev/asr", "v_s2")
    steps = [H("Fine-tune the small Whisper model on our call-center set until WER is under 15%.")]
    for lr, wer in ((1e-4, 31.2), (3e-5, 24.8)):
        steps.append(
            A(
                tools=[
                    k.sh(
                        f"python train.py --lr {lr} --epochs 3",
                        f"epoch 3: train loss 0.81, eval WER {wer}%",
                        0,
                    )
                ]
            )
        )
        steps.append(A(text=f"lr={lr}: WER {wer}%. Not there yet."))
    steps += [
        A(
            text="Adding SpecAugment and 2 more epochs.",
            tools=[k.edit("train.py", "augment=False", "augment=True")],
        ),
        A(
            tools=[
                k.sh(
                    "python train.py --lr 3e-5 --epochs 5 --augment",
                    "epoch 5: train loss 0.52, eval WER 13.9%",
                    0,
                )
            ]
        ),
        A(
            tools=[
                k.sh(
                    "python eval.py --split test",
                    "test WER 14.2% (n=2,400 utterances), RTF 0.08x",
                    0,
                )
            ]
        ),
        A(
            text="We're there: test WER **14.2%** (under the 15% target), down from 31.2% with the first run. Real-time factor 0.08."
        ),
        H("👍", expect=("continue_after_milestone", "ack")),
        A(
            text="## Where we are\n**Goal**: WER under 15% — reached (14.2% test).\n\n**Next steps**\n1. Export to CTranslate2 for faster inference\n2. Quantize to int8 and re-check WER\n3. Package the model for the serving team"
        ),
        A(tools=[k.sh("pip install ctranslate2", "Successfully installed ctranslate2-4.5.0", 0)]),
        A(
            tools=[
                k.sh(
                    "ct2-transformers-converter --model out/whisper-small-ft --output_dir out/ct2 --quantization int8",
                    "Converted",
                    0,
                )
            ]
        ),
        A(
            tools=[
                k.sh("python eval.py --split test --backend ct2", "test WER 14.4%, RTF 0.02x", 0)
            ]
        ),
        A(text="int8 CTranslate2: WER 14.4%, 4x faster."),
    ]
    return Scenario(name="v_milestone_asr", title="asr milestone", cwd=k.cwd, steps=steps)


def s3() -> Scenario:
    k = Kit("/srv/pg", "v_s3")
    steps = [
        H("Replica lag spikes every night during the batch import."),
        A(
            tools=[
                k.sh(
                    "psql -c 'select now()-pg_last_xact_replay_timestamp()' -h replica",
                    " 00:04:12.55",
                    0,
                )
            ]
        ),
        A(text="Lag is 4 minutes right now during the import."),
        H(
            "Could we use logical replication for just the tables the app reads, instead of streaming the whole cluster?"
        ),
        A(tools=[k.sh("psql -c 'select version()'", "PostgreSQL 16.4", 0)]),
        A(
            tools=[
                k.sh(
                    "psql -c \"select relname, pg_size_pretty(pg_total_relation_size(oid)) from pg_class where relname in ('orders','customers','import_staging')\"",
                    "orders 41 GB\ncustomers 3 GB\nimport_staging 220 GB",
                    0,
                )
            ]
        ),
        A(tools=[k.read("docs/db-topology.md", "replica serves orders + customers only")]),
        A(
            text="It fits: the replica only needs `orders` and `customers` (44 GB); the import writes 220 GB into `import_staging`, which is what floods the WAL stream.\n\n**Plan**\n1. `CREATE PUBLICATION app_pub FOR TABLE orders, customers` on the primary\n2. build a fresh subscriber, initial copy ~40 min\n3. switch the app's read DSN\n4. retire the physical replica\n\n**Risks**: sequences are not replicated; DDL must be applied on both sides."
        ),
        H("", expect=("implicit_approval", "empty")),
        A(
            text="Creating the publication on the primary.",
            tools=[
                k.sh(
                    "psql -h primary -c 'CREATE PUBLICATION app_pub FOR TABLE orders, customers'",
                    "CREATE PUBLICATION",
                    0,
                )
            ],
        ),
        A(
            tools=[
                k.sh(
                    "psql -h sub1 -c \"CREATE SUBSCRIPTION app_sub CONNECTION 'host=primary dbname=shop' PUBLICATION app_pub\"",
                    "CREATE SUBSCRIPTION",
                    0,
                )
            ]
        ),
        A(
            tools=[
                k.sh(
                    "sleep 600; psql -h sub1 -c 'select srsubstate from pg_subscription_rel'",
                    "r\nr",
                    0,
                )
            ]
        ),
        A(text="Initial copy done, both tables in state `r` (ready)."),
    ]
    return Scenario(name="v_approval_pg", title="pg approval", cwd=k.cwd, steps=steps)


def s4() -> Scenario:
    k = Kit("/home/dev/cli", "v_s4")
    steps = [
        H("Add a --json flag to every subcommand of the CLI."),
        A(
            tools=[
                k.grep(
                    "@cli.command",
                    "src",
                    "src/cli.py:10\nsrc/cli.py:30\nsrc/cli.py:55\nsrc/cli.py:80",
                )
            ]
        ),
        A(
            text="Four subcommands. Starting with `list`.",
            tools=[k.edit("src/cli.py", "def list_cmd():", "def list_cmd(as_json: bool):")],
        ),
        A(tools=[k.sh("pytest -q tests/test_list.py", "6 passed", 0)]),
        H("continue"),
        A(tools=[k.edit("src/cli.py", "def show_cmd():", "def show_cmd(as_json: bool):")]),
        A(tools=[k.sh("pytest -q tests/test_show.py", "5 passed", 0)]),
        A(text="`show` done. Moving on to `export`."),
        H("ok"),
        A(tools=[k.edit("src/cli.py", "def export_cmd():", "def export_cmd(as_json: bool):")]),
        A(tools=[k.sh("pytest -q tests/test_export.py", "4 passed", 0)]),
        A(
            text="Which output shape do you prefer for `export --json`: one object per line, or a single array?"
        ),
        H(""),
        A(
            text="Sorry, I didn't get a reply. Should I use JSON lines or an array for `export --json`?"
        ),
        H("json lines"),
        A(
            tools=[
                k.edit("src/cli.py", "json.dumps(rows)", "'\\n'.join(json.dumps(r) for r in rows)")
            ]
        ),
        A(tools=[k.sh("pytest -q", "27 passed", 0)]),
        A(text="All four subcommands accept --json; 27 tests pass."),
    ]
    return Scenario(name="v_routine_cli", title="routine cli", cwd=k.cwd, steps=steps)


def s5() -> Scenario:
    k = Kit("/home/dev/render", "v_s5")
    steps = [H("Speed up the tile renderer; it takes 9 s per frame.")]
    steps.append(
        A(
            tools=[
                k.sh(
                    "python -m cProfile -s cumtime render.py --frame 1 | head -8",
                    "9.12 s total\n  6.80 s shade_pixel\n  1.90 s load_textures",
                    0,
                )
            ]
        )
    )
    steps.append(
        A(
            text="shade_pixel is 75% of the time. Vectorising it with numpy.",
            tools=[k.edit("render/shade.py", "for x in range(w):", "xs = np.arange(w)")],
        )
    )
    steps += routine(k, "shade", ["render/shade.py", "render/tiles.py"], 12)
    steps.append(
        A(
            tools=[
                k.sh(
                    "python bench.py --frames 20", "mean 1.31 s/frame (was 9.12 s), 6.9x faster", 0
                )
            ]
        )
    )
    steps.append(
        A(text="Frame time is down to **1.31 s** from 9.12 s (6.9x). Textures now dominate.")
    )
    steps.append(
        Compact(
            "Summary: tile renderer sped up from 9.12 s to 1.31 s per frame by vectorising shade_pixel; textures now dominate (1.9 s in the old profile).",
            auto=False,
            expect=("continue_after_milestone", "compaction"),
        )
    )
    steps.append(
        A(
            text=status(
                "make the tile renderer fast",
                ["shade_pixel was 75% of frame time"],
                ["vectorised shading: 9.12 s -> 1.31 s/frame"],
                ["texture loading is now the bottleneck"],
                ["cache decoded textures", "load textures in a thread pool"],
            )
        )
    )
    steps.append(
        A(
            tools=[
                k.edit(
                    "render/textures.py",
                    "def load(path):",
                    "@lru_cache(maxsize=256)\ndef load(path):",
                )
            ]
        )
    )
    steps.append(A(tools=[k.sh("python bench.py --frames 20", "mean 0.74 s/frame", 0)]))
    steps.append(A(text="Texture cache: 0.74 s/frame."))
    return Scenario(name="v_compaction_render", title="render compaction", cwd=k.cwd, steps=steps)


def scenarios() -> list[Scenario]:
    return [s1(), s2(), s3(), s4(), s5()]
