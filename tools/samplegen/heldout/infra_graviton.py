# ruff: noqa: E501  (scenario data: verbatim tool output lines are long on purpose)
"""Held-out: moving a staging EKS cluster's workers to Graviton (arm64) with Terraform (Gemini CLI).

Labelled: "👍" after a researched plan (implicit approval), "k" after a run of arm64 build
failures (delegation after a dead end), "nice" after the load-test table (continue after
milestone), and an `other` pivot: the agent asked spot-or-on-demand, the person said only "ok",
and the agent chose and acted. Negatives: a directed "yes but only staging …", "ok" during the
per-deployment routine, an interrupt with a correction.
"""

from __future__ import annotations

from samplegen.heldout._kit import A, H, Interrupt, Kit, Scenario

FORMATS = ["gemini"]

CWD = "/home/tobi/infra/platform-live"
k = Kit(CWD)
sh, rd, ed, wr, todo, grep = k.sh, k.read, k.edit, k.write, k.todo, k.grep

RESEARCH = """Here's what moving `staging-eu1` workers to Graviton would involve.

**Images** (17 Deployments/StatefulSets, checked with `docker manifest inspect`)
- 14 already publish `linux/arm64` (our Go services, nginx, redis 7.2, otel-collector 0.98)
- 3 are amd64-only: `pdf-render` (our Node image, `sharp` + headless Chrome), `clamav` 0.103,
  `datadog-agent` 7.41 (arm64 exists from 7.45)

**Cost** (eu-central-1 on-demand, current 6× m6i.2xlarge)
| | instance | $/h | 6 nodes / month |
|---|---|---|---|
| now | m6i.2xlarge | 0.460 | $2,015 |
| proposed | m7g.2xlarge | 0.3876 | $1,698 (−16 %) |
| proposed, spot | m7g.2xlarge | ~0.16 | ~$700 (−65 %) |

**Plan**
1. Terraform: new managed node group `workers-arm64` (m7g.2xlarge, min 3 / max 8), tainted
   `arch=arm64:NoSchedule` so nothing lands there by accident.
2. Bump `datadog-agent` to 7.52, find an arm64 ClamAV image, rebuild `pdf-render` multi-arch.
3. Move workloads one by one: add toleration + `kubernetes.io/arch: arm64` affinity, watch rollout.
4. Load test, then scale the old group to 0 and remove it.

**Risks**: `pdf-render` native deps (sharp, Chromium) are the likely pain; PodDisruptionBudgets on
redis mean one node at a time; the cluster autoscaler needs the new group's tags.

Should I start with the Terraform plan for the new node group?"""

DEAD_END = """Status, since the last attempts went nowhere:

**Migrated to arm64 and healthy**: 13 of 17 workloads (all Go services, nginx, redis, otel-collector,
datadog-agent 7.52, clamav via `clamav/clamav-debian:1.3`).

**Stuck: `pdf-render`**
1. `docker buildx --platform linux/arm64` under QEMU → `npm ci` segfaults in `sharp` postinstall (exit 139)
2. prebuilt `sharp` binaries via `npm_config_arch=arm64` → `Something went wrong installing the "sharp" module … linux-arm64v8 … not found`
3. switched base to `node:20-bookworm` + apt `chromium` → build OK, pod crashes: `exec /usr/bin/chromium: exec format error`
   (the image still pulled `chromium` from an amd64-pinned layer)
4. `kubectl rollout status deploy/pdf-render` → timed out after 10 m, 0/2 new pods ready

**Also open**: the spot-vs-on-demand question for the new group (currently on-demand).

**Next**: stop trying to build it under emulation; either build natively on an arm64 runner or
keep `pdf-render` on a small amd64 group for now so the rest of the migration can finish."""

LOADTEST = """Load test done (k6, 15 min, same script as the quarterly test, 600 VUs):

| | m6i (amd64, last quarter) | m7g (arm64, now) |
|---|---|---|
| req/s | 2,410 | 2,455 |
| p50 | 41 ms | 38 ms |
| p99 | 198 ms | 212 ms |
| errors | 0.02 % | 0.01 % |
| node CPU avg | 61 % | 57 % |

Everything except `pdf-render` now runs on 5× m7g.2xlarge; `pdf-render` runs on one small
m6i.large. Compute cost for the cluster goes from $2,015 to $1,526 a month (−24 %)."""

WORKLOADS = [
    ("api-gateway", "deployment", "3/3", "41s"),
    ("orders", "deployment", "4/4", "58s"),
    ("billing", "deployment", "2/2", "37s"),
    ("search", "deployment", "3/3", "1m12s"),
    ("notifications", "deployment", "2/2", "33s"),
    ("auth", "deployment", "3/3", "44s"),
    ("inventory", "deployment", "2/2", "39s"),
    ("nginx-ingress", "deployment", "2/2", "51s"),
]


def move(name: str, kind: str, ready: str, took: str, say: str = "") -> list:
    """One routine workload move: patch placement, then watch the rollout."""
    patch = (
        '{"spec":{"template":{"spec":{"tolerations":[{"key":"arch","value":"arm64","effect":"NoSchedule"}],'
        '"nodeSelector":{"kubernetes.io/arch":"arm64"}}}}}'
    )
    return [
        A(
            say,
            tools=[
                sh(
                    f"kubectl -n apps patch {kind} {name} --type merge -p '{patch}'",
                    f"{kind}.apps/{name} patched",
                )
            ],
        ),
        A(
            tools=[
                sh(
                    f"kubectl -n apps rollout status {kind}/{name} --timeout=5m",
                    f'Waiting for deployment "{name}" rollout to finish: 1 of {ready.split("/")[1]} updated replicas are available...\n'
                    f'deployment "{name}" successfully rolled out',
                    ms=int(took.rstrip("s").replace("m", "")) * 1000 if "m" not in took else 72000,
                )
            ]
        ),
    ]


def steps() -> list:
    s: list = [
        H(
            "the staging cluster bill went up again. could we move the workers to graviton to save "
            "money? check what would break before touching anything"
        ),
        A(
            "Checking the node groups and which images have arm64 builds.",
            tools=[
                sh(
                    "kubectl get nodes -L node.kubernetes.io/instance-type,kubernetes.io/arch --no-headers | awk '{print $6, $7}' | sort | uniq -c",
                    "      6 m6i.2xlarge amd64",
                )
            ],
        ),
        A(
            tools=[
                sh(
                    "kubectl get deploy,sts -A -o jsonpath='{range .items[*]}{.spec.template.spec.containers[*].image}{\"\\n\"}{end}' | tr ' ' '\\n' | sort -u",
                    "clamav/clamav:0.103\ndatadog/agent:7.41.1\nghcr.io/acme/api-gateway:2.14.0\nghcr.io/acme/auth:1.9.3\n"
                    "ghcr.io/acme/billing:3.2.1\nghcr.io/acme/inventory:1.4.0\nghcr.io/acme/notifications:0.8.7\n"
                    "ghcr.io/acme/orders:5.0.2\nghcr.io/acme/pdf-render:1.12.0\nghcr.io/acme/search:2.0.0\n"
                    "nginx/nginx-ingress:3.5.1\notel/opentelemetry-collector-contrib:0.98.0\nredis:7.2-alpine",
                )
            ]
        ),
        A(
            tools=[
                sh(
                    "for i in $(kubectl get deploy,sts -A -o jsonpath='{..image}' | tr ' ' '\\n' | sort -u); do echo -n \"$i \"; docker manifest inspect $i 2>/dev/null | jq -r '[.manifests[]?.platform.architecture] | join(\",\")'; done",
                    "clamav/clamav:0.103 amd64\ndatadog/agent:7.41.1 amd64\nghcr.io/acme/api-gateway:2.14.0 amd64,arm64\n"
                    "ghcr.io/acme/auth:1.9.3 amd64,arm64\nghcr.io/acme/billing:3.2.1 amd64,arm64\nghcr.io/acme/inventory:1.4.0 amd64,arm64\n"
                    "ghcr.io/acme/notifications:0.8.7 amd64,arm64\nghcr.io/acme/orders:5.0.2 amd64,arm64\nghcr.io/acme/pdf-render:1.12.0 \n"
                    "ghcr.io/acme/search:2.0.0 amd64,arm64\nnginx/nginx-ingress:3.5.1 amd64,arm64,ppc64le,s390x\n"
                    "otel/opentelemetry-collector-contrib:0.98.0 amd64,arm64\nredis:7.2-alpine 386,amd64,arm,arm64,ppc64le,s390x",
                )
            ]
        ),
        A(
            tools=[
                rd(
                    "modules/eks/node_groups.tf",
                    'resource "aws_eks_node_group" "workers" {\n  cluster_name    = var.cluster_name\n  node_group_name = "workers"\n'
                    '  instance_types  = ["m6i.2xlarge"]\n  scaling_config {\n    desired_size = 6\n    min_size     = 3\n    max_size     = 10\n  }\n}\n',
                )
            ]
        ),
        A(
            tools=[
                sh(
                    "aws pricing get-products --service-code AmazonEC2 --region us-east-1 --filters Type=TERM_MATCH,Field=location,Value='EU (Frankfurt)' Type=TERM_MATCH,Field=instanceType,Value=m7g.2xlarge Type=TERM_MATCH,Field=operatingSystem,Value=Linux Type=TERM_MATCH,Field=preInstalledSw,Value=NA Type=TERM_MATCH,Field=capacitystatus,Value=Used Type=TERM_MATCH,Field=tenancy,Value=Shared | jq -r '.PriceList[0] | fromjson | .terms.OnDemand[].priceDimensions[].pricePerUnit.USD'",
                    "0.3876000000",
                )
            ]
        ),
        A(RESEARCH),
        H("👍", expect=("implicit_approval", "ack")),
        # ^ the person asked, the agent researched and proposed; a thumbs-up and the agent starts executing.
        A(
            "Starting with the node group.",
            tools=[
                todo(
                    [
                        ("Terraform: workers-arm64 node group (tainted)", "in_progress"),
                        ("Fix the 3 amd64-only images", "pending"),
                        ("Move workloads to arm64 one by one", "pending"),
                        ("Load test", "pending"),
                        ("Remove the old node group", "pending"),
                    ]
                )
            ],
        ),
        A(
            tools=[
                ed(
                    "modules/eks/node_groups.tf",
                    "  scaling_config {\n    desired_size = 6\n    min_size     = 3\n    max_size     = 10\n  }\n}\n",
                    "  scaling_config {\n    desired_size = 6\n    min_size     = 3\n    max_size     = 10\n  }\n}\n\n"
                    'resource "aws_eks_node_group" "workers_arm64" {\n  cluster_name    = var.cluster_name\n  node_group_name = "workers-arm64"\n'
                    '  ami_type        = "AL2023_ARM_64_STANDARD"\n  instance_types  = ["m7g.2xlarge"]\n  capacity_type   = var.arm64_capacity_type\n'
                    "  scaling_config {\n    desired_size = 3\n    min_size     = 3\n    max_size     = 8\n  }\n"
                    '  taint {\n    key    = "arch"\n    value  = "arm64"\n    effect = "NO_SCHEDULE"\n  }\n'
                    '  tags = {\n    "k8s.io/cluster-autoscaler/enabled" = "true"\n  }\n}\n',
                )
            ]
        ),
        A(
            tools=[
                sh(
                    "cd envs/staging-eu1 && terraform plan -out arm64.plan -no-color | tail -4",
                    '  # module.eks.aws_eks_node_group.workers_arm64 will be created\n  + resource "aws_eks_node_group" "workers_arm64" {\n\nPlan: 1 to add, 0 to change, 0 to destroy.',
                )
            ]
        ),
        A(
            "The plan adds one node group and changes nothing else. One choice before I apply: "
            "should the new group be spot or on-demand? Spot is ~$700/month instead of $1,698 but "
            "nodes can be reclaimed with 2 minutes' notice."
        ),
        H("ok", expect=("other", "ack")),
        # ^ an open either/or question answered with a bare "ok": the agent makes the call itself and acts — a pivot, but no archetype fits.
        A(
            "I'll take that as leaving it to me: on-demand for now, because redis and the ingress run on "
            "these nodes and staging is used for demos; spot can come later for the stateless services. Applying.",
            tools=[
                ed(
                    "envs/staging-eu1/terraform.tfvars",
                    'cluster_name = "staging-eu1"',
                    'cluster_name = "staging-eu1"\narm64_capacity_type = "ON_DEMAND"',
                )
            ],
        ),
        A(
            tools=[
                sh(
                    "cd envs/staging-eu1 && terraform plan -out arm64.plan -no-color | tail -1 && terraform apply -no-color arm64.plan | tail -3",
                    "Plan: 1 to add, 0 to change, 0 to destroy.\nmodule.eks.aws_eks_node_group.workers_arm64: Still creating... [3m10s elapsed]\n"
                    "module.eks.aws_eks_node_group.workers_arm64: Creation complete after 3m21s [id=staging-eu1:workers-arm64]\n\nApply complete! Resources: 1 added, 0 changed, 0 destroyed.",
                    ms=214000,
                )
            ]
        ),
        A(
            tools=[
                sh(
                    "kubectl get nodes -l kubernetes.io/arch=arm64 --no-headers",
                    "ip-10-40-12-88.eu-central-1.compute.internal    Ready   <none>   62s   v1.31.2-eks-94953ac\n"
                    "ip-10-40-14-201.eu-central-1.compute.internal   Ready   <none>   60s   v1.31.2-eks-94953ac\n"
                    "ip-10-40-9-17.eu-central-1.compute.internal     Ready   <none>   64s   v1.31.2-eks-94953ac",
                )
            ]
        ),
        A(
            "Three arm64 nodes are Ready. Fixing the amd64-only images before moving anything.",
            tools=[
                todo(
                    [
                        ("Terraform: workers-arm64 node group (tainted)", "completed"),
                        ("Fix the 3 amd64-only images", "in_progress"),
                        ("Move workloads to arm64 one by one", "pending"),
                        ("Load test", "pending"),
                        ("Remove the old node group", "pending"),
                    ]
                )
            ],
        ),
        H("yes but only staging, and keep the old group at min 2 until we've load tested"),
        # ^ NOT silent: a directed constraint.
        A(
            tools=[
                ed(
                    "modules/eks/node_groups.tf",
                    "    desired_size = 6\n    min_size     = 3\n    max_size     = 10",
                    "    desired_size = 6\n    min_size     = 2\n    max_size     = 10",
                )
            ]
        ),
        A(
            tools=[
                sh(
                    "cd envs/staging-eu1 && terraform apply -auto-approve -no-color | tail -1",
                    "Apply complete! Resources: 0 added, 1 changed, 0 destroyed.",
                    ms=41000,
                )
            ]
        ),
        A(
            "Old group min is 2; nothing touches prod (the module change only applies where `envs/staging-eu1` pins it). Now datadog.",
            tools=[
                sh(
                    "helm -n monitoring upgrade datadog datadog/datadog --reuse-values --set agents.image.tag=7.52.0 --wait | tail -2",
                    "STATUS: deployed\nREVISION: 19",
                    ms=95000,
                )
            ],
        ),
        A(
            tools=[
                sh(
                    "kubectl -n apps set image deploy/clamav clamav=clamav/clamav-debian:1.3 && kubectl -n apps rollout status deploy/clamav --timeout=5m",
                    'deployment.apps/clamav image updated\ndeployment "clamav" successfully rolled out',
                    ms=88000,
                )
            ]
        ),
        A(
            "Datadog 7.52 and ClamAV 1.3 both have arm64 manifests. `pdf-render` needs a multi-arch build; trying buildx with QEMU.",
            tools=[
                sh(
                    "cd ~/src/pdf-render && docker buildx build --platform linux/amd64,linux/arm64 -t ghcr.io/acme/pdf-render:1.12.1 --push .",
                    "#14 [linux/arm64 5/8] RUN npm ci --omit=dev\n#14 41.20 npm ERR! code 139\n#14 41.20 npm ERR! path /app/node_modules/sharp\n"
                    "#14 41.20 npm ERR! command failed\n#14 41.20 npm ERR! command sh -c (node install/libvips && node install/dll-copy && prebuild-install) || (node install/can-compile && node-gyp rebuild && node install/dll-copy)\n"
                    '#14 41.21 npm ERR! Segmentation fault (core dumped)\n------\nERROR: failed to solve: process "/bin/sh -c npm ci --omit=dev" did not complete successfully: exit code: 139',
                    code=1,
                    ms=212000,
                )
            ],
        ),
        A(
            "`sharp`'s install segfaults under QEMU. While I think about that, I'll move the workloads "
            "that are ready. Starting with api-gateway.",
            tools=[
                todo(
                    [
                        ("Terraform: workers-arm64 node group (tainted)", "completed"),
                        ("Fix the 3 amd64-only images", "in_progress"),
                        ("Move workloads to arm64 one by one", "in_progress"),
                        ("Load test", "pending"),
                        ("Remove the old node group", "pending"),
                    ]
                )
            ],
        ),
    ]
    for i, (name, kind, ready, took) in enumerate(WORKLOADS[:4]):
        s += move(name, kind, ready, took, say=f"{name} next." if i else "")
    s += [
        H("ok"),
        # ^ NOT a pivot: routine one-by-one moves continue unchanged.
    ]
    for j, (name, kind, ready, took) in enumerate(WORKLOADS[4:]):
        s += move(name, kind, ready, took)
        if j == 1:
            s.append(H("yep"))
            # ^ NOT a pivot: a second ack in the middle of the one-by-one workload moves.
    s += [
        A(
            "Redis is a StatefulSet with a PDB (maxUnavailable 1); moving it pod by pod.",
            tools=[
                sh(
                    'kubectl -n apps patch sts redis --type merge -p \'{"spec":{"template":{"spec":{"tolerations":[{"key":"arch","value":"arm64","effect":"NoSchedule"}],"nodeSelector":{"kubernetes.io/arch":"arm64"}}}}}\' && kubectl -n apps rollout status sts/redis --timeout=10m',
                    "statefulset.apps/redis patched\nWaiting for 1 pods to be ready...\npartitioned roll out complete: 3 new pods have been updated...",
                    ms=241000,
                )
            ],
        ),
        A(
            tools=[
                sh(
                    "kubectl get pods -A -o wide --field-selector=status.phase=Running --no-headers | awk '{print $8}' | xargs -n1 kubectl get node -o jsonpath='{.metadata.labels.kubernetes\\.io/arch}{\"\\n\"}' | sort | uniq -c",
                    "     11 amd64\n     38 arm64",
                )
            ]
        ),
        A(
            "13 of 17 workloads are on arm64 now. Back to `pdf-render`: trying the prebuilt `sharp` binaries instead of compiling under QEMU.",
            tools=[
                ed(
                    "/home/tobi/src/pdf-render/Dockerfile",
                    "RUN npm ci --omit=dev",
                    "RUN npm_config_arch=arm64 npm_config_platform=linux npm ci --omit=dev",
                )
            ],
        ),
        A(
            tools=[
                sh(
                    "cd ~/src/pdf-render && docker buildx build --platform linux/arm64 -t ghcr.io/acme/pdf-render:1.12.1-arm64 --load .",
                    '#14 12.71 sharp: Installation error: Something went wrong installing the "sharp" module\n'
                    "#14 12.71 sharp: Prebuilt libvips 8.14.5 binaries are not yet available for linux-arm64v8\n"
                    'ERROR: failed to solve: process "/bin/sh -c npm_config_arch=arm64 npm_config_platform=linux npm ci --omit=dev" did not complete successfully: exit code: 1',
                    code=1,
                    ms=64000,
                )
            ]
        ),
        A(
            "sharp 0.32 has no prebuilt libvips for arm64. Switching the base image to Debian bookworm with system Chromium and libvips.",
            tools=[
                ed(
                    "/home/tobi/src/pdf-render/Dockerfile",
                    "FROM node:20-alpine",
                    "FROM node:20-bookworm-slim\nRUN apt-get update && apt-get install -y --no-install-recommends chromium libvips-dev && rm -rf /var/lib/apt/lists/*",
                )
            ],
        ),
        A(
            tools=[
                sh(
                    "cd ~/src/pdf-render && docker buildx build --platform linux/amd64,linux/arm64 -t ghcr.io/acme/pdf-render:1.12.1 --push . 2>&1 | tail -2",
                    "#22 pushing manifest for ghcr.io/acme/pdf-render:1.12.1@sha256:5be0c6a1f0e5d2d3a4f8b81a2f06cf1e9d0b9a3c4b2e9f1a77c0c2d0e8a9b7f1 done\n#22 DONE 9.8s",
                    ms=688000,
                )
            ]
        ),
        A(
            tools=[
                sh(
                    'kubectl -n apps set image deploy/pdf-render pdf-render=ghcr.io/acme/pdf-render:1.12.1 && kubectl -n apps patch deploy pdf-render --type merge -p \'{"spec":{"template":{"spec":{"tolerations":[{"key":"arch","value":"arm64","effect":"NoSchedule"}],"nodeSelector":{"kubernetes.io/arch":"arm64"}}}}}\' && kubectl -n apps rollout status deploy/pdf-render --timeout=10m',
                    'deployment.apps/pdf-render image updated\ndeployment.apps/pdf-render patched\nWaiting for deployment "pdf-render" rollout to finish: 0 of 2 updated replicas are available...\n'
                    "error: timed out waiting for the condition",
                    code=1,
                    ms=600000,
                )
            ]
        ),
        A(
            tools=[
                sh(
                    "kubectl -n apps logs deploy/pdf-render --tail=3",
                    "Found 2 pods, using pod/pdf-render-6f7d9c8b5-x2kqv\n[pdf-render] launching browser\nexec /usr/bin/chromium: exec format error",
                )
            ]
        ),
        A(
            "The build pushed, but the pod can't exec Chromium (`exec format error`): the arm64 image "
            "contains an amd64 Chromium binary from a cached layer. Three build strategies failed and the "
            "rollout timed out. I don't have a reliable way to build this under emulation."
        ),
        H("k", expect=("delegation_after_dead_end", "ack")),
        # ^ after three failed builds and a timed-out rollout a one-letter ack; the agent summarises and changes approach alone.
        A(DEAD_END),
        A(
            "Unblocking the migration first: rolling `pdf-render` back and giving it a tiny amd64 group.",
            tools=[
                sh(
                    "kubectl -n apps rollout undo deploy/pdf-render && kubectl -n apps rollout status deploy/pdf-render --timeout=5m",
                    'deployment.apps/pdf-render rolled back\ndeployment "pdf-render" successfully rolled out',
                    ms=47000,
                )
            ],
        ),
        A(
            tools=[
                ed(
                    "modules/eks/node_groups.tf",
                    '  node_group_name = "workers"\n  instance_types  = ["m6i.2xlarge"]\n  scaling_config {\n    desired_size = 6\n    min_size     = 2\n    max_size     = 10\n  }',
                    '  node_group_name = "workers"\n  instance_types  = ["m6i.large"]\n  scaling_config {\n    desired_size = 1\n    min_size     = 1\n    max_size     = 2\n  }',
                )
            ]
        ),
        A(
            tools=[
                sh(
                    "cd envs/staging-eu1 && terraform plan -no-color | tail -2",
                    '  ~ instance_types = ["m6i.2xlarge"] -> ["m6i.large"] # forces replacement\nPlan: 1 to add, 0 to change, 1 to destroy.',
                )
            ]
        ),
        A(
            "Changing the instance type replaces the group, which would evict `pdf-render` at once. Creating a separate `workers-amd64-small` group instead and leaving the old one to drain.",
            tools=[
                ed(
                    "modules/eks/node_groups.tf",
                    '  node_group_name = "workers"\n  instance_types  = ["m6i.large"]\n  scaling_config {\n    desired_size = 1\n    min_size     = 1\n    max_size     = 2\n  }',
                    '  node_group_name = "workers"\n  instance_types  = ["m6i.2xlarge"]\n  scaling_config {\n    desired_size = 6\n    min_size     = 2\n    max_size     = 10\n  }',
                )
            ],
        ),
        A(
            tools=[
                sh(
                    "cd envs/staging-eu1 && terraform apply -auto-approve -no-color -target=module.eks.aws_eks_node_group.workers_amd64_small | tail -1",
                    "Apply complete! Resources: 1 added, 0 changed, 0 destroyed.",
                    ms=201000,
                )
            ]
        ),
        A(
            tools=[
                sh(
                    'kubectl -n apps patch deploy pdf-render --type merge -p \'{"spec":{"template":{"spec":{"nodeSelector":{"eks.amazonaws.com/nodegroup":"workers-amd64-small"}}}}}\' && kubectl -n apps rollout status deploy/pdf-render --timeout=5m',
                    'deployment.apps/pdf-render patched\ndeployment "pdf-render" successfully rolled out',
                    ms=52000,
                )
            ]
        ),
        A(
            tools=[
                sh(
                    "kubectl -n apps get pods -o wide --no-headers | awk '{print $7}' | sort | uniq -c",
                    "      1 ip-10-40-3-77.eu-central-1.compute.internal\n     12 ip-10-40-12-88.eu-central-1.compute.internal\n"
                    "     13 ip-10-40-14-201.eu-central-1.compute.internal\n     12 ip-10-40-9-17.eu-central-1.compute.internal",
                )
            ]
        ),
        A(
            "Everything except `pdf-render` is on arm64, `pdf-render` on one m6i.large. Running the load test against staging.",
            tools=[
                todo(
                    [
                        ("Terraform: workers-arm64 node group (tainted)", "completed"),
                        ("Fix the 3 amd64-only images", "completed"),
                        ("Move workloads to arm64 one by one", "completed"),
                        ("Load test", "in_progress"),
                        ("Remove the old node group", "pending"),
                    ]
                )
            ],
        ),
        A(
            tools=[
                sh(
                    "k6 run --vus 600 --duration 15m loadtest/quarterly.js --summary-export /tmp/k6.json | tail -8",
                    "     http_req_duration..............: avg=54.1ms   min=4.9ms   med=38.2ms   max=1.41s   p(90)=101.3ms p(95)=139.8ms p(99)=212.4ms\n"
                    "     http_req_failed................: 0.01%   ✓ 221       ✗ 2209410\n     http_reqs......................: 2209631 2455.1/s\n"
                    "     iteration_duration.............: avg=243.9ms  min=21.4ms  med=201.1ms max=2.3s    p(90)=455ms   p(95)=601ms\n"
                    "     vus............................: 600     min=600     max=600\n     vus_max........................: 600     min=600     max=600",
                    ms=905000,
                )
            ]
        ),
        A(
            tools=[
                sh(
                    "kubectl top nodes -l kubernetes.io/arch=arm64 --no-headers",
                    "ip-10-40-12-88.eu-central-1.compute.internal    4611m   57%   18011Mi   56%\nip-10-40-14-201.eu-central-1.compute.internal   4490m   56%   17250Mi   54%\n"
                    "ip-10-40-9-17.eu-central-1.compute.internal     4702m   58%   17922Mi   56%",
                )
            ]
        ),
        A(
            LOADTEST,
            tools=[
                todo(
                    [
                        ("Terraform: workers-arm64 node group (tainted)", "completed"),
                        ("Fix the 3 amd64-only images", "completed"),
                        ("Move workloads to arm64 one by one", "completed"),
                        ("Load test", "completed"),
                        ("Remove the old node group", "pending"),
                    ]
                )
            ],
        ),
        H("nice", expect=("continue_after_milestone", "ack")),
        # ^ results reported, a one-word reaction; the agent moves from migrating to decommissioning and hardening.
        A(
            "Next phase: retire the old group, make the setup reproducible, and write down what's left for prod.",
            tools=[
                todo(
                    [
                        ("Drain and delete the m6i.2xlarge group", "in_progress"),
                        ("Cluster autoscaler: scale-down test on workers-arm64", "pending"),
                        ("Native arm64 build for pdf-render (CI runner)", "pending"),
                        ("Runbook for the prod rollout", "pending"),
                    ]
                )
            ],
        ),
        A(
            tools=[
                sh(
                    "for n in $(kubectl get nodes -l eks.amazonaws.com/nodegroup=workers -o name); do kubectl drain $n --ignore-daemonsets --delete-emptydir-data --timeout=5m; done 2>&1 | tail -3",
                    "node/ip-10-40-7-12.eu-central-1.compute.internal drained\nnode/ip-10-40-8-140.eu-central-1.compute.internal drained\nnode/ip-10-40-6-99.eu-central-1.compute.internal drained",
                    ms=380000,
                )
            ]
        ),
        A(
            tools=[
                ed(
                    "modules/eks/node_groups.tf",
                    'resource "aws_eks_node_group" "workers" {',
                    'removed {\n  from = aws_eks_node_group.workers\n}\n\nresource "aws_eks_node_group" "workers_legacy_unused" {',
                )
            ]
        ),
        A(
            tools=[
                sh(
                    "cd envs/staging-eu1 && terraform plan -no-color | tail -1",
                    "Plan: 0 to add, 0 to change, 1 to destroy.",
                )
            ]
        ),
        Interrupt(),
        H(
            "wait — don't destroy it yet, just scale to 0. finance wants one more week of the old bill for comparison"
        ),
        # ^ NOT silent: an interrupt with an explicit change of plan.
        A(
            "Understood: scale to 0 instead of destroying.",
            tools=[
                ed(
                    "modules/eks/node_groups.tf",
                    'removed {\n  from = aws_eks_node_group.workers\n}\n\nresource "aws_eks_node_group" "workers_legacy_unused" {',
                    'resource "aws_eks_node_group" "workers" {',
                ),
                ed(
                    "modules/eks/node_groups.tf",
                    "    desired_size = 6\n    min_size     = 2\n    max_size     = 10",
                    "    desired_size = 0\n    min_size     = 0\n    max_size     = 10",
                ),
            ],
        ),
        A(
            tools=[
                sh(
                    "cd envs/staging-eu1 && terraform apply -auto-approve -no-color | tail -1",
                    "Apply complete! Resources: 0 added, 1 changed, 0 destroyed.",
                    ms=63000,
                )
            ]
        ),
        A(tools=[write_runbook()]),
        A(
            "Old group scaled to 0 (kept for a week), runbook in `docs/runbooks/graviton-prod.md`. The "
            "native arm64 build for `pdf-render` needs an arm64 CI runner; I've left that as the first "
            "item in the runbook.",
            tools=[
                todo(
                    [
                        ("Drain and delete the m6i.2xlarge group", "completed"),
                        ("Cluster autoscaler: scale-down test on workers-arm64", "pending"),
                        ("Native arm64 build for pdf-render (CI runner)", "pending"),
                        ("Runbook for the prod rollout", "completed"),
                    ]
                )
            ],
        ),
    ]
    return s


def write_runbook():
    return wr(
        "docs/runbooks/graviton-prod.md",
        "# Moving prod workers to Graviton\n\n1. arm64 CI runner for pdf-render (native build, no QEMU)\n"
        "2. `workers-arm64` group, tainted, on-demand\n3. datadog 7.52+, clamav-debian 1.3\n"
        "4. move workloads in this order: api-gateway, orders, billing, search, notifications, auth, inventory, nginx-ingress, redis\n"
        "5. k6 quarterly.js, compare with the last quarter (staging: p99 212 ms vs 198 ms)\n",
    )


SCENARIOS = [
    Scenario(
        name="heldout-graviton-rollout",
        title="Move staging EKS workers to Graviton",
        cwd=CWD,
        steps=steps(),
        model="gemini-3-pro-preview",
        start="2026-11-18T08:40:00Z",
        seconds_per_step=50,
        notes="pivots: implicit_approval (thumbs up), other (ok to an either/or), delegation_after_dead_end (k), continue_after_milestone (nice)",
    )
]
