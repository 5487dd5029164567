"""A synthetic but realistic multi-session agent log for the memory replay benchmark.

Seeded. Four users chat with a dev-ops assistant over ten days: greeting-only sessions,
status chatter ("any update?" / "still running"), and work sessions on concrete tasks
(a service, a problem, numbers) where the assistant uses tools, the user comes back to a
task later and re-asks, and decisions are logged, real ones (often with reasons) mixed with
status lines ("git clone success"). Every turn knows its ground truth: the real fact it
carries (if any) and whether it repeats something already said to that user.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

__all__ = ["Decision", "Session", "Turn", "generate_log"]

SERVICES = [
    "billing", "search", "ingest", "auth", "mailer", "reports", "checkout", "inventory",
    "notifications", "analytics", "gateway", "scheduler", "pricing", "media",
]  # fmt: skip

# Each problem: the question and four follow-up facts (user line, assistant line), with slots.
PROBLEMS: list[dict[str, object]] = [
    {
        "q": (
            "The {svc} pods keep getting OOMKilled in production.",
            "kubectl shows the {svc} container hitting its {mem}Mi memory limit during the "
            "nightly batch; the heap grows with the report size.",
        ),
        "facts": [
            (
                "Raised the limit, what else?",
                "Set JVM -Xmx to {pct}% of the limit so the {svc} "
                "heap leaves room for off-heap buffers.",
            ),
            (
                "It still spikes at 02:00.",
                "The 02:00 spike is the {svc} export job loading all "
                "{n} rows at once; page it in chunks of {chunk}.",
            ),
            (
                "How do we alert on it?",
                "Added a Prometheus rule: {svc} working set above {pct}% "
                "of the limit for 5 minutes pages the on-call.",
            ),
            (
                "Did the chunking help?",
                "Peak memory of {svc} dropped from {mem}Mi to {mem2}Mi after chunking the export.",
            ),
        ],
    },
    {
        "q": (
            "Our {svc} TLS certificate expires soon, how do we rotate it?",
            "The {svc} certificate is issued by cert-manager from the {issuer} issuer and "
            "expires in {days} days; renewal failed because the DNS-01 solver lacks rights.",
        ),
        "facts": [
            (
                "Which permission is missing?",
                "The solver's IAM role needs route53:ChangeResource"
                "RecordSets on the {zone} hosted zone.",
            ),
            (
                "Granted it.",
                "Renewal for {svc} succeeded; the new certificate is valid until "
                "day {days2} and the ingress picked it up without a restart.",
            ),
            (
                "Can we avoid this next time?",
                "Enabled a cert-manager alert when any certificate, "
                "including {svc}, has under {warn} days left.",
            ),
            (
                "Who owns the issuer?",
                "The {issuer} issuer is owned by the platform team; "
                "changes go through the infra-{n} repository.",
            ),
        ],
    },
    {
        "q": (
            "The {svc} database migration is stuck.",
            "Migration {n} on the {svc} database is waiting on an ACCESS EXCLUSIVE lock held "
            "by a long-running analytics query (pid {pid}).",
        ),
        "facts": [
            (
                "Can we kill the query?",
                "Terminated pid {pid}; migration {n} on {svc} completed in {secs} seconds.",
            ),
            (
                "How to prevent it?",
                "Set lock_timeout to {lt}s in the {svc} migration runner so "
                "a blocked migration fails fast instead of queuing writes.",
            ),
            (
                "The analytics team complained.",
                "Moved the analytics queries for {svc} to the "
                "read replica {replica}, so migrations no longer contend with them.",
            ),
            (
                "Is the schema consistent now?",
                "Verified with the schema diff: {svc} production matches migration {n}; no drift.",
            ),
        ],
    },
    {
        "q": (
            "Latency of the {svc} API doubled since yesterday's release.",
            "Traces show p95 of {svc} went from {lat}ms to {lat2}ms; the new release added an "
            "N+1 query in the {endpoint} endpoint.",
        ),
        "facts": [
            (
                "Where exactly?",
                "The {endpoint} handler of {svc} loads {n} related records one "
                "by one; a single joined query fixes it.",
            ),
            (
                "Deployed the fix.",
                "p95 latency of {svc} is back to {lat}ms after the joined "
                "query shipped in release {rel}.",
            ),
            (
                "Add a guard?",
                "Added an integration test asserting the {endpoint} endpoint of "
                "{svc} issues at most {q} SQL queries.",
            ),
            (
                "Can we catch this earlier?",
                "The canary for {svc} now compares p95 latency with "
                "the baseline and rolls back above {pct}% regression.",
            ),
        ],
    },
    {
        "q": (
            "The {svc} CI pipeline takes {mins} minutes, can we speed it up?",
            "Most of the {svc} pipeline is the test stage; {n} integration tests run serially "
            "against a fresh database each.",
        ),
        "facts": [
            (
                "Parallelise them?",
                "Split the {svc} integration tests into {shards} shards; the "
                "test stage went from {mins} to {mins2} minutes.",
            ),
            (
                "Docker build is slow too.",
                "Enabled BuildKit layer caching for {svc}; the image "
                "build takes {secs} seconds instead of {secs2}.",
            ),
            (
                "Flaky tests?",
                "Three {svc} tests depend on wall-clock time; quarantined them "
                "under the flaky marker and filed ticket OPS-{ticket}.",
            ),
            (
                "Total now?",
                "The whole {svc} pipeline now runs in {mins2} minutes on average over "
                "the last {n} runs.",
            ),
        ],
    },
    {
        "q": (
            "The {svc} queue has a backlog of {n} messages.",
            "The {svc} consumers are throttled: {cons} consumers each process {rate} "
            "messages per second while producers publish {rate2} per second.",
        ),
        "facts": [
            (
                "Scale them up?",
                "Scaled {svc} consumers to {cons2} with an HPA on queue depth; "
                "the backlog drains in about {mins} minutes.",
            ),
            (
                "Why did producers spike?",
                "A retry storm in {svc}: failed messages were "
                "requeued without backoff; added exponential backoff capped at {secs}s.",
            ),
            (
                "Dead letters?",
                "Messages failing {tries} times now go to the {svc}-dlq queue "
                "with the error attached.",
            ),
            (
                "Backlog status?",
                "The {svc} queue depth has stayed under {depth} for the last {hours} hours.",
            ),
        ],
    },
    {
        "q": (
            "A customer says {svc} emails arrive twice.",
            "The {svc} worker acknowledges messages after sending, and a rebalance at "
            "{time} redelivered {n} messages that had already been sent.",
        ),
        "facts": [
            (
                "Make it idempotent?",
                "The {svc} worker now stores a send key per message in "
                "Redis for {hours} hours and skips keys it has seen.",
            ),
            (
                "How many customers were hit?",
                "{n} customers received duplicate {svc} emails between {time} and {time2}.",
            ),
            (
                "Tell support.",
                "Drafted the support note for the {svc} duplicate emails with "
                "the affected window and the fix in release {rel}.",
            ),
            (
                "Any duplicates since?",
                "Zero duplicate sends from {svc} in {days} days since the idempotency key shipped.",
            ),
        ],
    },
    {
        "q": (
            "Disk usage on the {svc} nodes is at {pct}%.",
            "The {svc} nodes keep {days} days of debug logs in /var/log/{svc}; log rotation "
            "is configured but compression is off.",
        ),
        "facts": [
            (
                "Clean it up.",
                "Enabled gzip compression in logrotate for {svc}; disk usage "
                "fell from {pct}% to {pct2}%.",
            ),
            (
                "Do we need debug logs?",
                "Switched {svc} production to info level; debug stays "
                "available per request with the X-Debug header.",
            ),
            (
                "Ship them elsewhere?",
                "{svc} logs now ship to Loki with {days2} days "
                "retention; local retention is {keep} days.",
            ),
            (
                "Alert before it fills?",
                "Node exporter alert on {svc} nodes fires at {warn}% disk usage.",
            ),
        ],
    },
    {
        "q": (
            "Users get 502 errors from {svc} behind the gateway.",
            "The gateway's upstream timeout is {secs}s but the {svc} {endpoint} endpoint "
            "takes up to {secs2}s for large accounts.",
        ),
        "facts": [
            (
                "Raise the timeout?",
                "Raised the gateway timeout for the {svc} {endpoint} route "
                "only, to {secs3}s; other routes keep {secs}s.",
            ),
            (
                "Make it faster instead?",
                "The slow part of {svc} {endpoint} is a full scan of "
                "the events table; added an index on (account_id, created_at).",
            ),
            ("Still 502s?", "502s from {svc} dropped from {n} per hour to {n2} after the index."),
            (
                "Long term?",
                "Planned to make {svc} {endpoint} asynchronous: return 202 and poll a job id.",
            ),
        ],
    },
    {
        "q": (
            "The {svc} cron job did not run last night.",
            "The {svc} CronJob was suspended after the cluster upgrade to {k8s}; the "
            "upgrade reset suspend to true on {n} jobs.",
        ),
        "facts": [
            (
                "Resume it.",
                "Resumed the {svc} CronJob and triggered a manual run; it finished "
                "in {mins} minutes.",
            ),
            (
                "Other jobs affected?",
                "{n} CronJobs were suspended by the upgrade; {svc} and "
                "{svc2} were the only production ones.",
            ),
            (
                "Detect missed runs?",
                "Added a dead-man's-switch check: {svc} pings the monitor "
                "after each run and alerts if {hours} hours pass without one.",
            ),
            (
                "Upgrade notes?",
                "Documented in the {k8s} upgrade runbook that suspended flags "
                "must be verified for {svc}.",
            ),
        ],
    },
    {
        "q": (
            "Secrets for {svc} are in plain environment variables.",
            "The {svc} deployment reads DATABASE_URL and API keys from a ConfigMap; the "
            "audit flagged it as finding SEC-{ticket}.",
        ),
        "facts": [
            (
                "Move them to Vault?",
                "The {svc} pods now read secrets through the Vault agent "
                "injector from path secret/{svc}/prod.",
            ),
            (
                "Rotate the leaked ones?",
                "Rotated the {svc} database password and {n} API "
                "keys; old credentials were revoked at {time}.",
            ),
            (
                "Who can read them?",
                "Only the {svc}-prod service account and the on-call group "
                "can read secret/{svc}/prod.",
            ),
            (
                "Close the finding.",
                "Sent the evidence for SEC-{ticket} to security; the {svc} finding is closed.",
            ),
        ],
    },
    {
        "q": (
            "The {svc} cache hit rate dropped to {pct}%.",
            "After the key format change in release {rel}, {svc} writes keys with a version "
            "prefix but still reads without it.",
        ),
        "facts": [
            (
                "Fix the reads.",
                "{svc} now reads the versioned keys; the hit rate recovered "
                "to {pct2}% within an hour.",
            ),
            (
                "Memory on Redis?",
                "The orphaned unversioned {svc} keys used {mem}Mi; they "
                "expire with their {hours}h TTL.",
            ),
            (
                "Test for it?",
                "Added a contract test that reads back every {svc} cache key "
                "right after writing it.",
            ),
            ("Dashboards?", "The {svc} dashboard now shows hit rate per key prefix."),
        ],
    },
]

GREETINGS = [
    "Hello", "Hi, what can you do?", "Hello! What can you do?", "hey there", "Good morning!",
    "Hi again", "hello, are you there?", "Hi! What can you help me with?",
]  # fmt: skip
INTROS = [
    "Hi! I can help with deployments, incidents, CI and infrastructure. What do you need?",
    "Hello! I can look at logs, run checks and help you fix production issues.",
    "Hi there, I can help with your services, pipelines and infrastructure questions.",
]
STATUS_ASKS = [
    "status?", "any update?", "is it done yet?", "how's the build going?", "still running?",
    "update please", "where are we?",
]  # fmt: skip
STATUS_REPLIES = [
    "The build is still running.", "Still in progress.", "The deploy is running, almost done.",
    "All checks passed so far.", "Nothing new yet, still running.",
]  # fmt: skip
THANKS = ["thanks", "ok thanks", "great, thank you", "ok", "perfect", "cool, trying that now"]
STATUS_DECISIONS = [
    "git clone success", "Build completed.", "Tests passed", "Deploy started", "Status: done",
    "Checked logs, confirmed.", "Task completed successfully.", "Status update: in progress",
    "Pipeline finished", "Done!", "Update: deploy completed, checks passed",
]  # fmt: skip
DECISIONS = [
    ("Raise the {svc} memory limit to {mem2}Mi", "the nightly batch needs headroom"),
    ("Keep {svc} on the {issuer} issuer and automate DNS-01 rights", "manual renewals failed"),
    ("Run {svc} migrations with lock_timeout {lt}s", "blocked migrations queued writes"),
    ("Block releases of {svc} when the endpoint query count grows", "an N+1 doubled latency"),
    ("Shard the {svc} integration tests into {shards} jobs", "CI took {mins} minutes"),
    ("Autoscale {svc} consumers on queue depth", "the backlog reached {n} messages"),
    ("Make {svc} sends idempotent with a Redis key", "customers got duplicate emails"),
    ("Ship {svc} logs to Loki and keep {keep} days locally", "nodes ran out of disk"),
    ("Give the {svc} {endpoint} route its own gateway timeout", "large accounts hit 502s"),
    ("Verify CronJob suspend flags after every cluster upgrade", "{svc} silently stopped"),
    ("Serve {svc} secrets from Vault only", "the audit flagged plain env vars"),
    ("Version {svc} cache keys on both read and write", "the hit rate collapsed"),
]


@dataclass
class Turn:
    """One chat turn and its ground truth."""

    user_id: str
    session_id: str
    turn_no: int
    ts: float
    user: str
    assistant: str
    tools: list[str]
    kind: str  # greeting | status | work | chatter
    fact: str | None = None  # real fact id this turn carries
    repeat: bool = False  # says again something already said to this user
    since_last: float | None = None  # seconds since it was last said (repeats only)


@dataclass
class Decision:
    """One logged decision and its ground truth."""

    user_id: str
    session_id: str
    ts: float
    text: str
    reasons: list[str]
    real: bool
    item: str | None = None


@dataclass
class Session:
    """A session: its turns and decisions in order."""

    user_id: str
    session_id: str
    start: float
    turns: list[Turn] = field(default_factory=list)
    decisions: list[Decision] = field(default_factory=list)


def _slots(rng: random.Random, svc: str) -> dict[str, object]:
    other = rng.choice([s for s in SERVICES if s != svc])
    mem = rng.choice([256, 384, 512, 768, 1024])
    return {
        "svc": svc, "svc2": other, "mem": mem, "mem2": mem * 2, "pct": rng.randint(70, 95),
        "pct2": rng.randint(30, 60), "n": rng.randint(3, 9000), "n2": rng.randint(0, 5),
        "chunk": rng.choice([500, 1000, 5000]), "issuer": rng.choice(["letsencrypt", "corp-ca"]),
        "days": rng.randint(3, 14), "days2": rng.randint(60, 90), "warn": rng.randint(7, 21),
        "zone": f"{svc}.example.com", "pid": rng.randint(1000, 99999), "secs": rng.randint(5, 60),
        "secs2": rng.randint(61, 240), "secs3": rng.randint(241, 300), "lt": rng.randint(2, 10),
        "replica": f"pg-{svc}-ro-{rng.randint(1, 3)}", "lat": rng.randint(40, 120),
        "lat2": rng.randint(200, 400), "endpoint": rng.choice(["/orders", "/export", "/search",
        "/invoices", "/users"]), "rel": f"v{rng.randint(2, 9)}.{rng.randint(0, 30)}",
        "q": rng.randint(2, 6), "mins": rng.randint(25, 60), "mins2": rng.randint(8, 20),
        "shards": rng.randint(3, 8), "ticket": rng.randint(100, 999), "cons": rng.randint(2, 4),
        "cons2": rng.randint(8, 20), "rate": rng.randint(20, 50), "rate2": rng.randint(200, 500),
        "tries": rng.randint(3, 5), "depth": rng.randint(50, 200), "hours": rng.randint(6, 48),
        "time": f"{rng.randint(0, 23):02d}:{rng.randint(0, 59):02d}", "time2": "the fix",
        "keep": rng.randint(2, 5), "k8s": f"1.{rng.randint(27, 31)}",
    }  # fmt: skip


@dataclass
class _Task:
    task_id: str
    problem: int
    slots: dict[str, object]
    next_fact: int = 0


def generate_log(total_turns: int = 1000, *, seed: int = 7, users: int = 4) -> list[Session]:
    """Sessions (chronological per user) whose turns add up to exactly ``total_turns``."""
    rng = random.Random(seed)
    clock = {f"user-{u}": 1_800_000_000.0 + rng.uniform(0, 3600) for u in range(users)}
    tasks: dict[str, list[_Task]] = {u: [] for u in clock}
    said: dict[str, dict[str, float]] = {u: {} for u in clock}  # group -> last time said
    sessions: list[Session] = []
    produced = 0
    counter = 0
    while produced < total_turns:
        user = rng.choice(sorted(clock))
        clock[user] += rng.expovariate(1 / (3.5 * 3600))  # a session every ~3.5 h
        counter += 1
        sess = Session(user, f"{user}-s{counter:04d}", clock[user])
        now = clock[user]

        def add(
            u: str,
            a: str,
            kind: str,
            *,
            group: str,
            tools: list[str] | None = None,
            fact: str | None = None,
            s: Session = sess,
            who: str = user,
        ) -> None:
            nonlocal now
            now += rng.uniform(20, 240)
            s.turns.append(
                Turn(
                    who,
                    s.session_id,
                    len(s.turns) + 1,
                    now,
                    u,
                    a,
                    tools or [],
                    kind,
                    fact,
                    repeat=group in said[who],
                    since_last=now - said[who][group] if group in said[who] else None,
                )
            )
            said[who][group] = now

        roll = rng.random()
        if roll < 0.30:  # greeting-only session
            add(rng.choice(GREETINGS), rng.choice(INTROS), "greeting", group="greeting")
            if rng.random() < 0.3:
                add(rng.choice(THANKS), "Anytime!", "chatter", group="thanks")
        elif roll < 0.45:  # status chatter
            for _ in range(rng.randint(1, 3)):
                add(rng.choice(STATUS_ASKS), rng.choice(STATUS_REPLIES), "status", group="status")
            if rng.random() < 0.8:
                sess.decisions.append(
                    Decision(user, sess.session_id, now, rng.choice(STATUS_DECISIONS), [], False)
                )
        else:  # work session: a new task or back to an earlier one
            if tasks[user] and rng.random() < 0.35:
                task = rng.choice(tasks[user])
            else:
                used = {t.task_id for t in tasks[user]}
                while True:  # a task id names one task: never two tasks on one (svc, problem)
                    svc, prob = rng.choice(SERVICES), rng.randrange(len(PROBLEMS))
                    if f"{user}:{svc}:{prob}" not in used:
                        break
                task = _Task(f"{user}:{svc}:{prob}", prob, _slots(rng, svc))
                tasks[user].append(task)
            spec = PROBLEMS[task.problem]
            q_user, q_asst = spec["q"]
            if rng.random() < 0.3:
                add(rng.choice(GREETINGS), rng.choice(INTROS), "greeting", group="greeting")
            add(
                q_user.format(**task.slots),
                q_asst.format(**task.slots),
                "work",
                group=f"{task.task_id}:q",
                tools=["kubectl"],
                fact=f"{task.task_id}:q",
            )
            facts = spec["facts"]
            for _ in range(rng.randint(1, 3)):
                if rng.random() < 0.35:
                    add(rng.choice(THANKS), "Sure.", "chatter", group="thanks")
                if rng.random() < 0.2:
                    add(
                        rng.choice(STATUS_ASKS),
                        rng.choice(STATUS_REPLIES),
                        "status",
                        group="status",
                    )
                if task.next_fact < len(facts):
                    fu, fa = facts[task.next_fact]
                    fid = f"{task.task_id}:f{task.next_fact}"
                    task.next_fact += 1
                    tools = ["shell"] if rng.random() < 0.6 else []
                    remember = rng.random() < 0.1
                    user_text = ("Remember this: " if remember else "") + fu.format(**task.slots)
                    add(
                        user_text, fa.format(**task.slots), "work", group=fid, tools=tools, fact=fid
                    )
            if rng.random() < 0.6:
                text, why = DECISIONS[task.problem]
                reasons = [why.format(**task.slots)] if rng.random() < 0.7 else []
                sess.decisions.append(
                    Decision(
                        user,
                        sess.session_id,
                        now,
                        text.format(**task.slots),
                        reasons,
                        True,
                        task.task_id,
                    )
                )
            if rng.random() < 0.5:
                sess.decisions.append(
                    Decision(user, sess.session_id, now, rng.choice(STATUS_DECISIONS), [], False)
                )
        if produced + len(sess.turns) > total_turns:
            sess.turns = sess.turns[: total_turns - produced]
        produced += len(sess.turns)
        if sess.turns:
            sessions.append(sess)
    return sorted(sessions, key=lambda s: s.start)
