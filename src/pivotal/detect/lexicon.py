"""The words and patterns the rules look for, kept apart from the rules.

Every pattern is compiled once. They are deliberately broad (pivots are
phrased in many ways) and are only ever applied to capped text.
"""

from __future__ import annotations

import re

# --- silence -------------------------------------------------------------

WRAPPER_TAG = re.compile(r"</?[A-Za-z][\w:-]*(?:\s[^<>]*)?/?>")
"""An XML-like tag (`<conversation_data>`, `</user_query>`): a wrapper, not content."""

ACK_WORDS = frozenset(
    """
    ok okay okey okie k kk ok. yes yep yeah yup ya y sure alright allright right fine
    continue cont proceed resume go on ahead keep going carry next please pls plz
    do it that this so then and just now again sounds good great cool nice perfect
    thanks thank you thx ty lgtm agreed agree approved approve confirm confirmed
    got understood roger ack noted same with the plan as planned onwards onward forward
    let's lets us yes, mhm hmm uh huh np good yea aye affirmative for looks makes sense
    try ship works work all g2g yess yesss kay okk oki
    """.split()
)

PUNCT_ONLY = re.compile(r"^[\s.!?…,;:\-–—~*+👍🙏✅👌🚀]*$")

# --- human direction -----------------------------------------------------

PROPOSAL = re.compile(
    r"\?|\b(should|shall|could|can|would) (we|you|i)\b|\bwhat about\b|\bhow about\b|"
    r"\bwhat if\b|\bdo you think\b|\bis it (worth|possible|feasible)\b|\bworth\b|"
    r"\bmaybe (we|you)\b|\bconsider\b|\bpropos|\bidea\b|\bthoughts\b|\bwonder\b|"
    r"\bcheck (if|whether)\b|\blook into\b|\binvestigate\b|\bresearch\b|\bfeasib|"
    r"\bwe (could|should|might|may)\b|\bperhaps\b|\bhow hard\b|\bthinking (of|about)\b|"
    r"\bwould it be\b|\bwould be (nice|good|better)\b|\bwhat'?s the (best|right) way\b",
    re.IGNORECASE,
)

# --- agent narrative -----------------------------------------------------

FAIL_NARRATIVE = re.compile(
    r"\bFAIL(ED|S|URE)?\b|\b[A-Z]\w*(Error|Exception)\b|(?i:\bfail(ed|s|ing|ure)\b|"
    r"\b(an|the|same|this|that|with|raises?|raised|throws?|hit) errors?\b|"
    r"\berrors? (out|when|while|during|in|on)\b|\berror:|\bcrash(ed|es|ing)\b|"
    r"\btimed? ?out\b|\btime-out\b|\bOOM\b|"
    r"\bout of memory\b|\bdidn'?t (work|help)\b|\bdoesn'?t work\b|\bnot working\b|"
    r"\bstill (failing|broken|not|hangs|stuck)\b|\bno luck\b|\bdead end\b|\bbroken\b|"
    r"\bhang(s|ing)\b|\bstuck\b|\bregress(ed|ion)\b|\bworse than\b|\bslower than\b|"
    r"\bno improvement\b|\bincompatible\b|\bunsupported\b|\bnot supported\b|\babandon(ed)?\b|"
    r"\bgave up\b|\bsegfault|\bdid not (work|start)\b|\bno response\b|\bnot respond|"
    r"\bunresponsive\b|\bunclear (whether|if)\b|\bunknown whether\b)"
)
"""Failure in the agent's own words (a bare "error" or "crash" is too common in plans)."""

FAIL_OUTPUT = re.compile(
    r"Traceback \(most recent call last\)|\bKilled\b|\bFAILED\b|Segmentation fault|core dumped|"
    r"^\s*[A-Z]\w*(Error|Exception)\b|(?i:\btimed? ?out\b|\btimeout\b|\bOOM\b|out of memory|"
    r"\bpanic(ked)?\b|CUDA error|NCCL error|^\s*error\b|\bFatal\b|\bcrashed\b|"
    r"command not found|No such file or directory|Exit code:? [1-9]|exited with code [1-9]|"
    r"exit status [1-9]|Connection refused)",
    re.MULTILINE,
)

SUCCESS_OUTPUT = re.compile(
    r"\b[1-9]\d* passed\b|\ball tests pass|\bOK \(|(?<!un)\bsuccess(ful(ly)?)?\b|"
    r"(?<!not )(?<!n't )(?<!never )\b(ready|healthy)\b|"
    r"\bBUILD SUCCESSFUL\b|\bcompleted successfully\b|\bListening on\b|\bUvicorn running\b|"
    r"\bserver (is )?(up|running|started|ready)\b|\b200 OK\b",
    re.IGNORECASE,
)

MILESTONE_STRONG = re.compile(
    r"\bfinally\b|\bbreakthrough\b|\bmilestone\b|\b(it|this|now|everything) works\b|"
    r"\bworks now\b|\bnow work(s|ing)\b|\b(is|now) working\b|\bworking (now|end[- ]to[- ]end)\b|"
    r"\ball (\d+ )?tests (now )?pass|\btests? (now )?pass(es|ed|ing)?\b|\b[1-9]\d* passed\b|"
    r"\bserver (is )?(up|running|ready|healthy|live)\b|\bup and running\b|\bis (up|live|ready)\b|"
    r"\bbenchmark results?\b|\bresults? (are in|below|so far)\b|\bsuccessfully\b|"
    r"\bgreen\b|\bunblocked\b|\bachiev(ed|es)\b|\bgenerat(ing|es) coherent\b|"
    r"\bboots?\b.*\bclean|\bloads? (fine|cleanly|correctly)\b|✅|\d\s?[x×] faster\b|"
    r"\bspeed-?up (of|is)\b|\b(is|are|went|dropped|fell|now) down to\b|\bdown (to|from) [~≈]?\d|"
    r"\bimproved (from|to|by)\b|\bcut (it )?(from|to|by) [~≈]?\d|\b(reached|hit|met|beat) the "
    r"(target|goal)\b|\bunder the [\w %.]{0,20}target\b|\btarget (met|reached)\b",
    re.IGNORECASE,
)

MILESTONE_WEAK = re.compile(
    r"\b(done|complete[d]?|fixed|resolved|implemented|merged|deployed|shipped|landed)\b",
    re.IGNORECASE,
)

ANNOUNCE = re.compile(
    r"(^|[.!]\s+)(now |next,? |then )?(let me|let's|i'?ll|i will|i'?m going to|going to|running|"
    r"checking|profiling|launching|trying|testing|measuring|looking|starting|moving on|"
    r"re-?running|installing|building|waiting|polling)\b[^.!?]*[.:]?\s*$",
    re.IGNORECASE,
)
"""The agent's last sentence announces its next step: it was still working."""

PLAN = re.compile(
    r"\bplan\b|\bsteps?\b|\bapproach\b|\brisks?\b|\boptions?\b|\brecommend|\bproposal\b|"
    r"\bwould (need|require)\b|\bwe'?d need\b|\bupgrade path\b|\bmigration\b|\bfeasib|"
    r"\btrade-?offs?\b|\bpros\b|\bcons\b|\bhere'?s what\b|\bnext steps?\b|\bbackup\b|"
    r"\bcompatib|\bsupport(s|ed)?\b|\bfindings?\b|\bverdict\b|\bworth it\b",
    re.IGNORECASE,
)

ASKS_PERSON = re.compile(
    r"\b(would|do) you (like|want|prefer)\b|\bshould i\b|\bshall i\b|\bwant me to\b|"
    r"\blet me know\b|\bhow would you like\b|\bwhat would you like\b|\bwhich (one|option)\b|"
    r"\bcould you (clarify|tell|confirm)\b|\bcan you (clarify|confirm)\b|"
    r"\bplease (confirm|advise)\b|"
    r"\bready (to proceed|when you are)\b|\bproceed\?|\bgo ahead\?|\bwhat should\b|"
    r"\bwhat do you want\b|\bhow should i\b|\bwhat'?s next\b|\bwhat next\b",
    re.IGNORECASE,
)

CLARIFY = re.compile(
    r"\bwhat would you like\b|\bwhat do you want\b|\bhow would you like (me )?to proceed\b|"
    r"\bcould you (clarify|tell me|let me know)\b|\bcan you clarify\b|\bwhat should i\b|"
    r"\bnot sure what you\b|\bunclear what you\b|\bdid you mean\b|\bwhat('?s| is) next\b|"
    r"\blet me know (what|how|if)\b|\bhow can i help\b|\bwhat can i (do|help)\b|"
    r"\banything else\b|\bwaiting for (your|further) (input|instructions?)\b|"
    r"\bplease (advise|clarify)\b|"
    r"\bwhich (would you|do you|option)\b|\bshould i (continue|proceed|go ahead)\b",
    re.IGNORECASE,
)

DUMP_HEADINGS = re.compile(
    r"^\s{0,3}(#{1,6}\s+|\*\*|__)?\s*(\d+[.)]\s*)?(goal|goals|objective|discoveries|findings|"
    r"accomplished|completed|done|current (state|status)|status|state|files|relevant files|"
    r"next steps?|remaining|todo|to do|in progress|not yet done|instructions|context|summary|"
    r"key (facts|decisions|results)|results|performance|problems?|issues|blockers|"
    r"what (we|i) (did|know|tried)|tried|experiments?|hardware|environment|plan)\b",
    re.IGNORECASE | re.MULTILINE,
)

HEADING_LINE = re.compile(
    r"^\s{0,3}(#{1,6}\s+\S|\*\*[^*\n]{2,60}\*\*:?\s*$|[A-Z][\w /&-]{2,40}:\s*$)", re.MULTILINE
)

SUMMARY_OPENING = re.compile(
    r"^\s*(this session is being continued|another language model started|"
    r"here is (a|the) (summary|status)|summary of|status (update|summary|report)|"
    r"<state_snapshot>|## (summary|status|goal)|# (summary|status|goal))",
    re.IGNORECASE,
)

STOPWORDS = frozenset(
    """
    the and for with that this from have has was were are not but you your our its into
    then than now let lets will would should could can just also all any some more most
    what when where which while there here they them their about after before again still
    only over under very been being into onto out use using used run running ran get got
    need needs make makes made see seems like look looks check checking file files line
    lines code test tests output result results error errors value values set new one two
    first last next done work works working try trying tried it's i'll we'll that's let's
    """.split()
)

CODE_BLOCK = re.compile(r"```.*?(```|$)", re.DOTALL)
"""A fenced code block (aider puts the command it runs there, after the prose)."""
