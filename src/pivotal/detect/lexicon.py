"""The words and patterns the rules look for, kept apart from the rules.

Every pattern is compiled once. They are deliberately broad (pivots are
phrased in many ways) and are only ever applied to capped text.
"""

from __future__ import annotations

import re

from pivotal.detect.lazyre import lazy

# --- silence -------------------------------------------------------------

WRAPPER_TAG = lazy(r"</?[A-Za-z][\w:-]*(?:\s[^<>]*)?/?>")
"""An XML-like tag (`<conversation_data>`, `</user_query>`): a wrapper, not content."""

# A go-on carries no direction when every word is one of these (PIVOTS.md: "≤ 4 words, no
# noun phrase that names new work"). Grouped by what the word does; a word outside every
# group (a noun, a tool, a file, a verb naming work such as "fix" or "push") is direction.
_GO_ON = """
    continue cont proceed resume go on ahead keep going moving carry next onwards onward forward
    do it try retry ship again more start begin working trying implementing building coding
    weiter weitermachen continua continuar continuez avanti seguir sigue продолжай дальше
    继续 続けて
"""
_ASSENT = """
    ok okay okey okie k kk yes yep yeah yup ya y yea yess yesss aye sure alright allright
    right fine agreed agree approved approve confirm confirmed affirmative mhm hmm uh huh np
    understood roger ack noted got it g2g kay okk oki indeed absolutely definitely correct
    exactly sgtm lgtm same plan as planned +1
    oui ja si sí vale dale claro da да ок ага давай 好 好的 嗯 是 行 はい
"""
"""English and a few other languages' yes (people type go-ons in their own language)."""
_PRAISE = """
    good great cool nice perfect awesome excellent amazing neat sweet brilliant wonderful
    sounds looks makes sense works work well done
"""
_THANKS = "thanks thank you thx ty cheers"
_DEFERRAL = """
    your call choice decide decision up to you whatever think best judgement judgment
    discretion pick choose prefer see fit idk dunno
"""
"""Handing the decision to the agent ("your call", "up to you", "you decide")."""
_FILLER = """
    that this these those so then and just now please pls plz let's lets us with the for
    at all me we i with on of
"""

ACK_WORDS = frozenset(" ".join((_GO_ON, _ASSENT, _PRAISE, _THANKS, _DEFERRAL, _FILLER)).split())
GO_ON_WORDS = frozenset(_GO_ON.split())
"""Typos of these still read as go-ons ("contiune")."""


# --- human direction -----------------------------------------------------

PROPOSAL = lazy(
    r"\?|\b(should|shall|could|can|would) (we|you|i)\b|\bwhat about\b|\bhow about\b|"
    r"\bwhat if\b|\bdo you think\b|\bis it (worth|possible|feasible)\b|\bworth\b|"
    r"\bmaybe (we|you)\b|\bconsider\b|\bpropos|\bidea\b|\bthoughts\b|\bwonder\b|"
    r"\bcheck (if|whether)\b|\blook into\b|\binvestigate\b|\bresearch\b|\bfeasib|"
    r"\bwe (could|should|might|may)\b|\bperhaps\b|\bhow hard\b|\bthinking (of|about)\b|"
    r"\bwould it be\b|\bwould be (nice|good|better)\b|\bwhat'?s the (best|right) way\b",
    re.IGNORECASE,
)

# --- agent narrative -----------------------------------------------------
# The lists below run over every agent message near a silence. Where a branch would open
# with a group of words, the words are spelled out as branches of their own
# (`\bit works\b|\bthis works\b`, not `\b(it|this) works\b`): the engine passes over a
# branch whose first letter is not there with one test, but enters every group it meets,
# at every word of the message.

FAIL_NARRATIVE = lazy(
    # `\bFAIL(ED|S|URE)?\b|\b[A-Z]\w*(Error|Exception)\b`, opening with the capital the
    # engine can skip to in C (the look-behind after it is the word start)
    r"[A-Z](?<!\w[A-Z])(?:(?<=F)AIL(ED|S|URE)?\b|\w*(Error|Exception)\b)|"
    r"(?i:\bfail(ed|s|ing)\b|"
    # a plan's "failure handling", "failure modes" name work to do, not a failure (no
    # look-behind: the word lists are searched from the gaps between words, `wordgap`)
    r"\bfailure\b(?! (handling|handler|cases?|modes?|"
    r"paths?|scenarios?|recovery|rates?|thresholds?|injection|messages?|states?|conditions?|"
    r"callbacks?|hooks?)\b)|"
    r"\ban errors?\b|\bthe errors?\b|\bsame errors?\b|\bthis errors?\b|\bthat errors?\b|"
    r"\bwith errors?\b|\braises? errors?\b|\braised errors?\b|\bthrows? errors?\b|"
    r"\bhit errors?\b|"
    r"\berrors? (out|when|while|during|in|on)\b|\berror:|\bcrash(ed|es|ing)\b|"
    r"\btimed? ?out\b|\btime-out\b|\bOOM\b|"
    r"\bout of memory\b|\bdidn'?t (work|help)\b|\bdoesn'?t work\b|\bnot working\b|"
    r"\bstill (failing|broken|not|hangs|stuck)\b|\bno luck\b|\bdead end\b|\bbroken\b|"
    r"\bhang(s|ing)\b|\bstuck\b|\bregress(ed|ion)\b|\bworse than\b|\bslower than\b|"
    r"\bno improvement\b|\bincompatible\b|\bunsupported\b|\bnot supported\b|\babandon(ed)?\b|"
    r"\bgave up\b|\bsegfault|\bdid not (work|start)\b|\bno response\b|\bnot respond|"
    r"\bunresponsive\b|\bunclear (whether|if)\b|\bunknown whether\b|"
    r"\bout of ideas\b|\bno (more|other|further) ideas\b|\bran out of\b|\brun out of\b|"
    r"\bnothing (has |I tried )?(worked|helped)\b|\bnone of (them|these|those|it) "
    r"(worked|helped)\b|\bwent nowhere\b|\bresisting\b|\bnot sure (yet )?why\b|"
    r"\bdon'?t (know|understand) why\b|\bno (reliable |good )?way to\b|"
    r"\bdon'?t have a (reliable |good )?way to\b|"
    r"\btried the obvious\b|\bno (measurable |real |visible )?(change|difference|effect)\b|"
    r"\bdidn'?t (budge|move the needle|make a difference|change anything)\b|"
    r"\bno dice\b|\bno joy\b|\bsame (error|failure|crash|result) (again|as before)\b)"
)
"""Failure in the agent's own words (a bare "error" or "crash" is too common in plans)."""

FAIL_OUTPUT = lazy(
    r"Traceback \(most recent call last\)|\bKilled\b|\bFAILED\b|Segmentation fault|core dumped|"
    r"^\s*[A-Z]\w*(Error|Exception)\b|(?i:\btimed? ?out\b|\btimeout\b|\bOOM\b|out of memory|"
    r"\bpanic(ked)?\b|CUDA error|NCCL error|^\s*error\b(?!:\s*\(none\))|\bFatal\b|\bcrashed\b|"
    r"command not found|No such file or directory|Exit code:? [1-9]|exited with code [1-9]|"
    r"exit status [1-9]|Connection refused)",
    re.MULTILINE,
)

INCONCLUSIVE = lazy(
    r"timed? ?out|timeout|can'?t tell|cannot tell|no idea (why|whether)|out of ideas|"
    r"still (loading|waiting|starting|running|pending|not)|not (yet )?ready|"
    r"no response|hasn'?t (responded|started|finished|come up)|may have crashed|waiting for|"
    r"unclear (whether|if)|not sure (whether|if)|unknown|no output|gave up waiting|did not finish|"
    r"didn'?t finish|exceeded",
    re.IGNORECASE,
)
"""The last action ended without a verdict (in its output's end or the agent's words)."""

SUCCESS_OUTPUT = lazy(
    r"\b[1-9]\d* passed\b|\ball tests pass|\bOK \(|\bsuccess(ful(ly)?)?\b|"
    r"\bready(?<!not ready)(?<!n't ready)(?<!never ready)\b|"
    r"\bhealthy(?<!not healthy)(?<!n't healthy)(?<!never healthy)\b|"
    r"\bBUILD SUCCESSFUL\b|\bcompleted successfully\b|\bListening on\b|\bUvicorn running\b|"
    r"\bserver (is )?(up|running|started|ready)\b|\b200 OK\b",
    re.IGNORECASE,
)
"""A check that passed. ("unsuccessful" has no word start before its "success"; "not ready"
is ruled out by looking back from the end of "ready", so every branch opens with a letter.)"""

MILESTONE_STRONG = lazy(
    r"\bfinally\b|\bbreakthrough\b|\bmilestone\b|"
    r"\bit works\b|\bthis works\b|\bnow works\b|\beverything works\b|"
    r"\bworks now\b|\bnow work(s|ing)\b|\bis working\b|\bnow working\b|"
    r"\bworking (now|end[- ]to[- ]end)\b|"
    r"\ball (\d+ )?tests (now )?pass|\b[1-9]\d* passed\b|"
    r"\b(tests?|build|builds|check|checks|suite|ci|pipeline|lint|job|jobs|runs?) (now |all )?"
    r"(pass(es|ed|ing)?|succeed(s|ed)?|(is |are )?green)\b|"
    r"\bserver (is )?(up|running|ready|healthy|live)\b|\bup and running\b|\bis (up|live|ready)\b|"
    r"\bbenchmark results?\b|\bresults? (are in|below|so far)\b|\bsuccessfully\b|"
    r"\bgreen\b|\bunblocked\b|\b0 (failures|errors|failed)\b|\bzero (failures|errors)\b|"
    r"\bno (more|remaining) (failures|errors)\b|\bit'?s alive\b|\bsucceed(ed|s)\b|"
    r"\bachiev(ed|es)\b|\bgenerat(ing|es) coherent\b|"
    r"\bboots?\b[^\n]{0,60}\bclean|\bloads? (fine|cleanly|correctly)\b|✅|\d\s?[x×] faster\b|"
    r"\bspeed-?up (of|is)\b|\bis down to\b|\bare down to\b|\bwent down to\b|"
    r"\bdropped down to\b|\bfell down to\b|\bnow down to\b|\bdown (to|from) [~≈]?\d|"
    r"\bimproved (from|to|by)\b|\bcut (it )?(from|to|by) [~≈]?\d|"
    r"\breached the (target|goal)\b|\bhit the (target|goal)\b|\bmet the (target|goal)\b|"
    r"\bbeat the (target|goal)\b|\bunder the [\w %.]{0,20}target\b|\btarget (met|reached)\b",
    re.IGNORECASE,
)

MILESTONE_WEAK = lazy(
    r"\b(done|complete[d]?|fixed|resolved|implemented|merged|deployed|shipped|landed)\b",
    re.IGNORECASE,
)

ANNOUNCE = lazy(
    r"(^|[.!]\s+)(now |next,? |then )?(let me|let's|i'?ll|i will|i'?m going to|going to|running|"
    r"checking|profiling|launching|trying|testing|measuring|looking|starting|moving on|"
    r"re-?running|installing|building|waiting|polling)\b[^.!?]*[.:]?\s*$",
    re.IGNORECASE,
)
"""The agent's last sentence announces its next step: it was still working."""

PLAN = lazy(
    r"\bplan\b|\bsteps?\b|\bapproach\b|\brisks?\b|\boptions?\b|\brecommend|\bproposal\b|"
    r"\bwould (need|require)\b|\bwe'?d need\b|\bupgrade path\b|\bmigration\b|\bfeasib|"
    r"\btrade-?offs?\b|\bpros\b|\bcons\b|\bhere'?s what\b|\bnext steps?\b|\bbackup\b|"
    r"\bcompatib|\bsupport(s|ed)?\b|\bfindings?\b|\bverdict\b|\bworth it\b",
    re.IGNORECASE,
)

ASKS_PERSON = lazy(
    r"\b(would|do) you (like|want|prefer)\b|\bshould i\b|\bshall i\b|\bwant me to\b|"
    r"\blet me know\b|\bhow would you like\b|\bwhat would you like\b|\bwhich (one|option)\b|"
    r"\bcould you (clarify|tell|confirm)\b|\bcan you (clarify|confirm)\b|"
    r"\bplease (confirm|advise)\b|(?:^|[.!\n]\s*)confirm (when|once|if|that)\b|"
    r"\bready (to proceed|when you are)\b|\bproceed\?|\bgo ahead\?|\bwhat should\b|"
    r"\bwhat do you want\b|\bhow should i\b|\bwhat'?s next\b|\bwhat next\b|"
    r"\bif you('d)? (like|want)\b|\bif needed\b|\bif you need\b",
    re.IGNORECASE,
)

API_ERROR = lazy(
    r"\bapi error\b|\brequest timed out\b|\busage limit\b|\blimit reached\b|"
    r"\brate limit|\boverloaded\b|\bno capacity available\b|\bquota\b|"
    r"\bconnection error\b|\bprevious query still processing\b",
    re.IGNORECASE,
)
"""The harness failed, not the work: an API error, a usage limit, a timeout of the model."""
INTERRUPT = lazy(
    r"\binterrupted by user\b|\brequest cancell?ed\b|\boperation cancell?ed\b|"
    r"\bcancell?ed by user\b",
    re.IGNORECASE,
)
"""The person stopped the agent."""

OUT_OF_IDEAS = lazy(
    r"\bout of (ideas|options)\b|\bno (other |further |more |new )?(ideas?|options) (left|now|"
    r"right now|at the moment)\b|"
    r"\bi (have|'ve got) no (other |further |more )?(ideas?|idea what)\b|"
    r"\bi (do not|don'?t) know (why|what|how|which|where)\b|\bnot sure (why|what|how|which) "
    r"(to|is|it|this|route|approach|way)\b|\bi'?m (stuck|at a loss|out of)\b|\bat a loss\b|"
    r"\bnothing (else|more) (to try|i can try)\b|\bran out of (ideas|options|things)\b|"
    r"\bcan'?t figure out\b|\bno clear (next step|way forward|path)\b|\bdead end\b|"
    r"je ne sais (pas|plus)|plus d'idées?|no sé (por qué|qué)|sin ideas|weiß nicht (warum|wie|was)|"
    r"keine idee|不知道(为什么|怎么)|没有头绪|没办法了|わかりません|手詰まり",
    re.IGNORECASE,
)
"""The agent says it has no next step: PIVOTS.md's dead end ("the agent has no next step")."""
NEXT_STEP = lazy(
    r"\bnext steps?\b|\bnext,? (i'?ll|we'?ll|i will|we will|let'?s|let me|i can|we can|"
    r"we should|i'?d|i would)\b|\bi (would |can |could )?(recommend|suggest|propose)\b|"
    r"\brecommend(ed|ation)\b|\bsuggested (fix|change|next)\b|\bthe fix (is|would be)\b|"
    r"\bto fix (this|it|that)\b|\bi can (now )?(apply|fix|add|run|update|change|implement|"
    r"rerun|re-run|retry|sync|install)\b|\bshould i\b|\bshall i\b|\bwant me to\b|"
    r"\b(would|do) you (like|want) me to\b",
    re.IGNORECASE,
)
"""The agent names its own next step: an offer, a recommendation, "next, I'll ..."."""

CLARIFY = lazy(
    r"\bwhat would you like\b|\bwhat do you want\b|\bhow would you like (me )?to proceed\b|"
    r"\bcould you (clarify|tell me|let me know)\b|\bcan you clarify\b|\bwhat should i\b|"
    r"\bnot sure what you\b|\bunclear what you\b|\bdid you mean\b|\bwhat('?s| is) next\b|"
    r"\blet me know (what|how|if)\b|\bhow can i help\b|\bwhat can i (do|help)\b|"
    r"\banything else\b|\bwaiting for (your|further) (input|instructions?)\b|"
    r"\bplease (advise|clarify)\b|"
    r"\bwhich (would you|do you|option)\b|\bshould i (continue|proceed|go ahead)\b",
    re.IGNORECASE,
)

DUMP_HEADINGS = lazy(
    r"^\s{0,3}(#{1,6}\s+|\*\*|__)?\s*(\d+[.)]\s*)?(goal|goals|objective|discoveries|findings|"
    r"accomplished|completed|done|current (state|status)|status|state|files|relevant files|"
    r"next steps?|remaining|todo|to do|in progress|not yet done|instructions|context|summary|"
    r"key (facts|decisions|results)|results|performance|problems?|issues|blockers|"
    r"what (we|i) (did|know|tried)|tried|experiments?|hardware|environment|plan|"
    r"where (we are|things stand|this stands|i am)|next phase|recap|what (didn'?t|did not) work|"
    r"what works|open|stuck|broken|failing|approach|new approach|options|risks?|progress|"
    r"so far|background|decisions|learnings|lessons|known issues|constraints|what changed)\b",
    re.IGNORECASE | re.MULTILINE,
)

HEADING_LINE = lazy(
    r"^\s{0,3}(#{1,6}\s+\S|\*\*[^*\n]{2,60}\*\*|[A-Z][\w /&-]{2,40}:\s*$)", re.MULTILINE
)

SUMMARY_OPENING = lazy(
    r"^\s*(this session is being continued|another language model started|"
    r"here is (a|the) (summary|status)|summary of|status (update|summary|report)|"
    r"<state_snapshot>|## (summary|status|goal)|# (summary|status|goal))",
    re.IGNORECASE,
)

NEXT_PHASE = lazy(
    r"\b(next|new) (phase|stage)\b|"
    r"\bnow that (it|this|that|we|everything|the \w+) (works?|is (up|green|fixed|working|done)|"
    r"are (green|done)|pass(es)?)\b|\bwith (that|this|it) (done|working|green|in place),|"
    r"\bmoving on to\b",
    re.IGNORECASE,
)
"""The agent announces that one piece of work is over and another begins."""

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
