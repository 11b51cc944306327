# ruff: noqa: E501  (scenario data: verbatim tool output lines are long on purpose)
"""Ordinary sessions: silences that are not pivots (hard negatives), and one pivot phrased plainly.

- quiet_start: an empty message opens the session (no work before it) -> not a pivot.
- silence_then_question: an empty message after which the agent only asks what to do next and
  nothing changes -> not a pivot.
- routine_acks: "ok" in the middle of unchanged work, a synthetic continuation nudge on its own,
  command wrappers and a system reminder, an interrupt, and "ok, now run the tests" (directed)
  -> no pivots.
- go_ahead_plan: "Would it make sense to …?", a plan, then "go ahead" -> implicit_approval / ack
  (the proposal was on the table, the agent executes it); the later "thanks" is not a pivot.
"""

from __future__ import annotations

from samplegen.dsl import A, H, Interrupt, Meta, Nudge, Scenario
from samplegen.scenarios._lib import Kit, pytest_out, routine

# --- quiet_start ---------------------------------------------------------------------------
q = Kit("/home/dev/src/cachetools-lite", "quiet_start")
quiet_start = Scenario(
    name="quiet_start",
    title="Session opens with an empty message",
    cwd=q.cwd,
    steps=[
        H(""),  # session start: nothing before it, not a pivot
        A(text="Hi! I'm in `/home/dev/src/cachetools-lite`. What would you like to work on?"),
        H("tests/test_ttl.py::test_expiry is flaky on CI, can you find out why?"),
        A(
            reasoning="Run it several times to see the failure rate.",
            tools=[
                q.sh(
                    "python -m pytest -q tests/test_ttl.py::test_expiry --count 20 -p no:randomly",
                    "....F.....F.........\nFAILED tests/test_ttl.py::test_expiry - assert 1 == 0\n2 failed, 18 passed in 4.12s",
                    1,
                )
            ],
        ),
        A(
            tools=[
                q.read(
                    "tests/test_ttl.py",
                    "def test_expiry():\n    c = TTLCache(ttl=0.05)\n    c['a'] = 1\n    time.sleep(0.05)\n    assert len(c) == 0",
                )
            ]
        ),
        A(
            tools=[
                q.read(
                    "src/cachetools_lite/ttl.py",
                    "def __len__(self):\n    now = time.monotonic()\n    return sum(1 for _, exp in self._data.values() if exp > now)",
                )
            ]
        ),
        A(
            text="The test sleeps exactly the TTL; with `exp > now` an entry whose expiry equals `now` (coarse clock) is still counted. Using `>=` semantics for expiry and a fake clock in the test.",
            tools=[q.edit("src/cachetools_lite/ttl.py", "if exp > now)", "if exp > now + 0.0)")],
        ),
        A(
            tools=[
                q.edit("tests/test_ttl.py", "    time.sleep(0.05)\n", "    clock.advance(0.051)\n")
            ]
        ),
        *routine(q, "ttl", ["src/cachetools_lite/ttl.py", "tests/test_ttl.py"], 8),
        A(
            tools=[
                q.sh(
                    "python -m pytest -q tests/test_ttl.py --count 50 -p no:randomly",
                    "50 passed in 1.91s",
                )
            ]
        ),
        A(text="Fixed: the test now drives a fake clock, 50/50 runs pass."),
    ],
    model="claude-sonnet-4-6",
    start="2026-11-03T16:05:00Z",
    seconds_per_step=30,
)

# --- silence_then_question -----------------------------------------------------------------
s = Kit("/home/dev/src/invoice-api", "silence_then_question")
text, _ = pytest_out(s.rng, 212, [])
silence_then_question = Scenario(
    name="silence_then_question",
    title="Silence answered by a question; nothing changes",
    cwd=s.cwd,
    steps=[
        H("Bump pydantic to 2.11 and fix whatever breaks."),
        A(
            tools=[
                s.sh(
                    "uv add 'pydantic==2.11.4' 2>&1 | tail -2",
                    "Resolved 41 packages in 312ms\n + pydantic==2.11.4",
                )
            ]
        ),
        A(
            tools=[
                s.sh(
                    "uv run pytest -q",
                    "FAILED tests/test_models.py::test_invoice_roundtrip - pydantic_core._pydantic_core.ValidationError: 1 validation error for Invoice\n1 failed, 211 passed in 9.80s",
                    1,
                )
            ]
        ),
        A(
            tools=[
                s.read(
                    "app/models.py",
                    "class Invoice(BaseModel):\n    class Config:\n        orm_mode = True",
                )
            ]
        ),
        A(
            text="`orm_mode` is gone in v2; it is `model_config = ConfigDict(from_attributes=True)`.",
            tools=[
                s.edit(
                    "app/models.py",
                    "    class Config:\n        orm_mode = True",
                    "    model_config = ConfigDict(from_attributes=True)",
                )
            ],
        ),
        *routine(s, "pydantic", ["app/models.py", "app/schemas.py"], 6),
        A(tools=[s.sh("uv run pytest -q", text)]),
        A(text="Done: pydantic 2.11.4, one config migrated, all 212 tests pass."),
        H(""),  # not a pivot: the agent only asks, nothing changes
        A(
            text="Is there anything else you'd like me to do? I could look at the deprecation warnings next, or stop here."
        ),
        H("Stop here, thanks."),
        A(text="Okay, stopping. Nothing is left running."),
    ],
    model="claude-sonnet-4-6",
    start="2026-11-04T10:30:00Z",
    seconds_per_step=30,
)

# --- routine_acks --------------------------------------------------------------------------
r = Kit("/home/dev/src/billing", "routine_acks")
routine_acks = Scenario(
    name="routine_acks",
    title="Acks, nudges, wrappers and an interrupt inside routine work",
    cwd=r.cwd,
    steps=[
        Meta(
            "<command-name>/model</command-name>\n            <command-message>model</command-message>\n            <command-args>sonnet</command-args>"
        ),
        Meta("<local-command-stdout>Set model to claude-sonnet-4-6</local-command-stdout>"),
        H("Rename `calc_total` to `compute_total` everywhere, including tests and docs."),
        A(
            tools=[
                r.grep(
                    "calc_total",
                    ".",
                    "billing/invoice.py:12:def calc_total(lines):\nbilling/api.py:40:    total = calc_total(lines)\ntests/test_invoice.py:8:    assert calc_total([]) == 0\ndocs/api.md:21:`calc_total(lines)` returns the sum",
                )
            ]
        ),
        A(
            tools=[
                r.edit("billing/invoice.py", "def calc_total(lines):", "def compute_total(lines):")
            ]
        ),
        A(
            tools=[
                r.edit(
                    "billing/api.py", "total = calc_total(lines)", "total = compute_total(lines)"
                )
            ]
        ),
        H("ok"),  # not a pivot: routine rename continues unchanged
        A(
            tools=[
                r.edit(
                    "tests/test_invoice.py",
                    "assert calc_total([]) == 0",
                    "assert compute_total([]) == 0",
                )
            ]
        ),
        Meta(
            "<system-reminder>\nThe user opened the file docs/api.md in the IDE.\n</system-reminder>"
        ),
        A(
            tools=[
                r.edit(
                    "docs/api.md",
                    "`calc_total(lines)` returns the sum",
                    "`compute_total(lines)` returns the sum",
                )
            ]
        ),
        *routine(r, "invoice", ["billing/invoice.py", "billing/api.py"], 6),
        A(
            text="Renamed in 4 files. Now the full test suite.",
            tools=[r.sh("python -m pytest -q", "", ms=600000)],
        ),
        Interrupt(),
        H("don't run the full suite, it takes 10 minutes; just tests/test_invoice.py"),
        A(tools=[r.sh("python -m pytest -q tests/test_invoice.py", "14 passed in 0.61s")]),
        A(text="14 passed. The rename is complete."),
        Nudge(),  # synthetic continuation on its own: never a pivot
        A(text="Nothing left to do for the rename."),
        H("ok, now run the tests"),  # directed (names new work): not silent
        A(
            tools=[
                r.sh(
                    "python -m pytest -q -x --ignore=tests/slow",
                    "302 passed, 3 skipped in 48.20s",
                    ms=48500,
                )
            ]
        ),
        A(text="302 passed, 3 skipped (slow tests excluded)."),
    ],
    model="claude-sonnet-4-6",
    start="2026-11-06T14:00:00Z",
    seconds_per_step=25,
)

# --- go_ahead_plan -------------------------------------------------------------------------
g = Kit("/home/dev/src/notify-worker", "go_ahead_plan")
go_ahead_plan = Scenario(
    name="go_ahead_plan",
    title="'Would it make sense to…?', a plan, then 'go ahead'",
    cwd=g.cwd,
    steps=[
        H(
            "The worker loses jobs when it restarts. Would it make sense to move the queue from Redis lists to Redis streams with consumer groups?"
        ),
        A(
            tools=[
                g.grep(
                    "lpush|brpop|rpoplpush",
                    "worker",
                    "worker/queue.py:18:        self.r.lpush(self.key, payload)\nworker/queue.py:25:        _, payload = self.r.brpop(self.key, timeout=5)",
                )
            ]
        ),
        A(
            tools=[
                g.read(
                    "worker/queue.py",
                    "class Queue:\n    def put(self, payload):\n        self.r.lpush(self.key, payload)\n\n    def get(self):\n        _, payload = self.r.brpop(self.key, timeout=5)\n        return payload",
                )
            ]
        ),
        A(tools=[g.sh("redis-cli INFO server | grep redis_version", "redis_version:7.2.4")]),
        A(
            text="Yes, it fits. `BRPOP` removes the job before it is processed, so a crash loses it.\n\n**Plan**\n1. `XADD notify * payload …` in `put`.\n2. Consumer group `workers`; `XREADGROUP … >` in `get`, `XACK` after success.\n3. On start, `XAUTOCLAIM` entries idle > 60 s so crashed jobs are retried.\n4. Migration: drain the old list once at start-up.\n\n**Risks**: duplicate delivery after a crash (handlers must be idempotent; the email handler already dedupes by message id); stream growth (add `MAXLEN ~ 100000`).\n\nNothing changed yet."
        ),
        H("go ahead", expect=("implicit_approval", "ack")),
        A(
            text="Implementing the stream-based queue.",
            tools=[
                g.write(
                    "worker/queue.py",
                    "class Queue:\n    def put(self, payload):\n        self.r.xadd(self.key, {'payload': payload}, maxlen=100000, approximate=True)\n\n    def get(self):\n        resp = self.r.xreadgroup('workers', self.name, {self.key: '>'}, count=1, block=5000)\n        ...\n",
                )
            ],
        ),
        A(
            tools=[
                g.edit(
                    "worker/main.py",
                    "q = Queue(r, 'notify')",
                    "q = Queue(r, 'notify')\nq.ensure_group()\nq.reclaim_idle(60_000)\nq.drain_legacy_list('notify:list')",
                )
            ]
        ),
        *routine(g, "queue", ["worker/queue.py", "worker/main.py"], 8),
        A(tools=[g.sh("python -m pytest -q tests/test_queue.py", "9 passed in 0.44s")]),
        A(
            tools=[
                g.sh(
                    "python tools/crash_test.py --kill-after 3",
                    "enqueued 100, killed worker after 3s, restarted\nprocessed 100/100, duplicates 2 (deduped), lost 0",
                )
            ]
        ),
        A(
            text="Done: streams with a consumer group; a crash test loses 0 of 100 jobs (2 duplicates, deduped)."
        ),
        H("thanks"),
        A(text="You're welcome."),
    ],
    model="claude-opus-4-8",
    start="2026-11-07T09:15:00Z",
    seconds_per_step=35,
)

SCENARIOS = [quiet_start, silence_then_question, routine_acks, go_ahead_plan]
