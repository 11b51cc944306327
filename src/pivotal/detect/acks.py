"""Whether a short message is a bare go-on, in any of the languages people type them in.

People answer an agent in their own language and in a hurry: "oui", "vas-y", "継続",
"好的，继续吧", "계속해주세요", "contnue", "okkk". A message is a go-on when every word
is a go-on, a yes, praise, thanks, a hand-over ("your call") or filler, in English or one
of the languages below (PIVOTS.md: at most `ack_max_words` words and no word that names
work). Scripts written without spaces (Chinese, Japanese, Korean endings) are cut into
known pieces instead of words. English go-on words also match with one typo.

A go-on may also approve what is already on the table in a few more words: "OK, great.
Now implement the plan.", "yes fix them all", "apply all", "全部执行", "execute la toi".
Such a message names no new work: its verbs carry out ("implement", "apply", "do") and its
objects point back ("the plan", "them", "all", "those") at what the agent laid out. It is
a go-on when every word is a go-on word or one of these (`REFER_BACK`), up to
`approval_max_words` words.
"""

from __future__ import annotations

import unicodedata

from pivotal.detect.lexicon import ACK_WORDS, GO_ON_WORDS

# Per language: go-on verbs, yes, praise and thanks, and the filler around them. A word
# that names work ("test", "fix", "push", "déploie") is in none of these lists, and neither
# is "do that" ("fais ça", "hazlo", "mach das"): it points at one thing to do.
_BY_LANGUAGE = {
    "fr": """oui ouais ouaip d'accord d'acc dac ok vas-y vas allez allez-y y go continue
        continuez continuer poursuis poursuivez procède procede procédez procedez parfait
        super génial genial top nickel bien bon très tres merci volontiers certes exactement
        évidemment evidemment carrément carrement c'est bon marche roule on y va le la les
        s'il te vous plaît plait stp svp bien sûr sur entendu je t'en prie oké okay""",
    "es": """sí si vale dale claro adelante sigue siga seguir continúa continua continúe
        continue continuar procede proceda de acuerdo perfecto
        bueno listo genial gracias por favor va venga órale orale sale ok okey muy bien
        exacto correcto eso así asi me parece vamos está esta""",
    "de": """ja jo jap jep jawohl ok okay weiter weitermachen mach weiter los leg fortfahren
        fahr fahre fort gut sehr super passt genau klar in ordnung bitte danke gerne gern
        prima einverstanden stimmt richtig perfekt toll alles""",
    "pt": """sim ok claro continue continua continuar prossiga prossegue prosseguir pode
        seguir segue siga vai manda ver beleza tá ta bom tudo bem certo perfeito ótimo
        otimo obrigado obrigada valeu bora pois é por favor""",
    "it": """sì si ok va bene vai continua continuare procedi prosegui avanti certo perfetto
        d'accordo esatto ottimo grazie dai pure benissimo volentieri per favore""",
    "ru": """да ага ок окей хорошо ладно давай давайте продолжай продолжайте продолжить
        продолжаем дальше вперёд вперед конечно согласен согласна отлично супер понял
        поняла го спасибо угу норм верно точно пожалуйста так""",
    "nl": "ja oké prima ga door doorgaan verder graag dank je goed prima akkoord",
    "pl": "tak dobrze dalej kontynuuj jasne okej świetnie super dzięki proszę",
    "tr": "evet tamam devam et olur peki harika teşekkürler lütfen",
    # Vietnamese, with and without its tone marks (people type both): "đồng ý" (agreed),
    # "ừ" / "ờ" (yeah), "tiếp tục đi" (go on), "được rồi" (all right), "làm đi" (do it)
    "vi": """ừ ừm ờ ờm vâng dạ có đúng rồi đồng ý dong y ok oke được duoc tiếp tục tiep tuc
        đi di làm lam luôn luon nhé nhe nha nhá cảm ơn cam on tốt tot hay lắm lam quá qua
        chuẩn chuan""",
    # Indonesian / Malay: "ya", "lanjut(kan)" (go on), "boleh" (sure), "setuju" (agreed)
    "id": """ya iya yap yup oke ok lanjut lanjutkan teruskan silakan silahkan boleh setuju
        baik bagus mantap sip terima kasih makasih tolong dong aja saja""",
}
WORDS = frozenset(ACK_WORDS.union(*(set(words.split()) for words in _BY_LANGUAGE.values())))
"""Every go-on word of every language (lower case)."""

# Verbs that carry out what was laid out, and objects that point back at it. Neither
# names new work: "implement the plan" and "fix them all" approve the agent's own list.
# A noun that names a thing of the work ("tests", "login", "model") is in no list, nor a
# verb that names one operation ("push", "deploy", "revert", "run"): that is direction.
_REFER_BACK = {
    "en": """implement apply execute do doing start begin make build fix wire use take adopt
        follow handle tackle finish complete go let let's
        lets it that this those these them all everything both rest remaining plan plans
        changes change fixes steps step suggestions suggestion recommendations recommendation
        proposal proposals option options one ones above same way approach idea whole thing
        things stuff in up out too also then first now as planned suggested proposed
        recommended described outlined written two three four five implementation execution""",
    "fr": """fais faire fait le la les ça ca tout tous toutes toi exécute execute exécuter
        applique appliquer implémente implemente implémenter lance lancer et le plan
        modifications changements étapes etapes""",
    "es": """hazlo haz hacer lo la los las eso todo todos aplica aplícalo aplicalo aplicar
        implementa impleméntalo implementalo ejecuta ejecútalo ejecutalo el plan cambios
        ello por con""",
    "de": """mach machs mach's es das alles umsetzen setz um anwenden ausführen den plan
        änderungen""",
    "pt": """faça faz fazer isso tudo aplica aplique implementa implemente executa execute o
        plano""",
    "it": """fallo fai fare tutto applica implementa esegui il piano""",
}
REFER_BACK = frozenset(w for words in _REFER_BACK.values() for w in words.split())
"""Words an approval may add to a go-on without naming new work (lower case)."""
CARRY_OUT = frozenset(
    """implement apply execute do doing start begin make build fix wire use take adopt follow
    handle tackle finish complete fais faire fait exécute exécuter applique appliquer
    implémente implemente implémenter lance lancer haz hacer aplica aplicar implementa
    ejecuta umsetzen anwenden ausführen faça faz fazer aplique implemente executa fai fare
    applica esegui""".split()
)
"""The verbs among them: a bare "implement" or "fix" is an order, so an approval also needs
a word that points back or goes on ("implement it", "fix them all", "go ahead and fix")."""
_REFER_BACK_PIECES = frozenset(
    """全部 全部执行 全部執行 都 都执行 执行 執行 实施 實施 实现 實現 推进 推進 下一步 开始吧
    做吧 做 修复 修復 处理 處理 应用 應用 调整 調整 帮我 幫我 这个 這個 那个 那個 这些 這些
    全部やって やって 実行 実行して 実装 実装して 適用 適用して 全部 すべて 全て それ これ
    実施 実施して 直して 修正して 対応して 欲しい ほしい あなたが
    進めてください 進めて 按照你说的 按你说的 照你说的 按照您说的 按您说的 按照你說的 按你說的
    照你說的 按照你的计划 按你的计划 按照计划 照计划 按照你的計劃 按你的計劃 按照計劃 你说的计划
    你說的計劃 按照你说的计划 按你说的计划 照你说的计划 按照你說的計劃
    按你說的計劃 按照你的方案 按你的方案 按照方案 按你的建议 按照你的建议 照你的建议 按你的建議
    按照你的建議 来 來 办 辦 你帮我 你幫我 那你 弄一下 弄吧 搞一下 搞吧 你来 你來""".split()
)
"""The same in scripts written without spaces."""

# Pieces of go-ons in scripts written without spaces. A message in these scripts is a
# go-on when it splits into nothing but these pieces ("好的继续吧" = 好的 + 继续 + 吧).
_PIECES = {
    "zh": """继续 繼續 继续吧 继续执行 繼續執行 是 是的 对 對 对的 對的 好 好的 好吧 好啊 行 行吧
        可以 可以的 嗯 嗯嗯 没问题 沒問題 同意 接受 开始 開始 开始吧 执行 執行 执行吧 请 請 吧 啊 呀
        呢 的 按计划 按計劃 按方案 照计划 进行 進行 确认 確認 收到 明白 谢谢 謝謝
        就 这样 這樣 那 就这样 吗 嘛 哈 加油 很 好的呀 当然 當然 没错 沒錯 要 了 啦 不要放弃
        不要放棄 别放弃 別放棄""",
    "ja": """はい うん ええ お願い おねがい お願いします おねがいします します いたします
        続けて 続けてください 続行 続行して 進めて 進めてください すすめて ください 下さい どうぞ
        了解 了解です 承知 承知しました 承知いたしました 分かりました わかりました いい いいよ
        いいです いいですね 大丈夫 大丈夫です です それで そのまま よろしく よろしくお願いします
        オーケー オッケー 問題ない 問題ありません ありがとう ありがとうございます ok で じゃあ では
        それ でお願いします 是非 ぜひ そう""",
    "ko": """네 넵 예 응 어 그래 그래요 좋아 좋아요 좋습니다 좋네요 계속 진행 알겠 알겠어 알겠어요
        알겠습니다 확인 감사 감사합니다 고마워 해 해요 해줘 해줘요 해주세요 해 주세요 하세요 합시다
        하자 하십시오 해봐 해보세요 주세요 부탁 부탁해 부탁해요 부탁드립니다 드립니다 그렇게 그럼
        오케이 ㅇㅇ ㅇㅋ ㄱㄱ 고고 맞아 맞아요 맞습니다 시작 요 이대로 그대로 바로""",
}
PIECES = frozenset(
    unicodedata.normalize("NFKC", p) for words in _PIECES.values() for p in words.split()
)
"""Normalised as the messages are: NFKC turns a compatibility jamo ("ㅇㅋ", U+3147 U+314B)
into a conjoining one (U+110B U+110F)."""
_LONGEST = max(len(p) for p in PIECES | _REFER_BACK_PIECES)

_PUNCTUATION = ".,!?…;:\"'()[]{}<>*~_`«»¡¿。、，！？：；「」『』（）【】〜～・ー—–-"
"""Stripped from both ends of a word (a hyphen inside "vas-y" stays)."""
_BREAKS = str.maketrans(dict.fromkeys(",;:!?…。、", " "))
"""Marks that end a word even without a space after them ("ok,continue", "好的。继续")."""


def _split_pieces(token: str, pieces: frozenset[str] = PIECES) -> int:
    """How many known pieces `token` is made of (0 when it is not made of them only)."""
    n = len(token)
    best = [0] + [-1] * n  # best[i]: fewest pieces covering token[:i]
    for i in range(1, n + 1):
        for j in range(max(0, i - _LONGEST), i):
            if best[j] >= 0 and token[j:i] in pieces:
                count = best[j] + 1
                if best[i] < 0 or count < best[i]:
                    best[i] = count
    return max(best[n], 0)


def _squeezed(word: str) -> str:
    """Runs of one letter cut to one ("okkk", "yesss", "gooo" -> "ok", "yes", "go")."""
    out: list[str] = []
    for ch in word:
        if not out or out[-1] != ch:
            out.append(ch)
    return "".join(out)


_TARGETS = frozenset(t for t in GO_ON_WORDS if len(t) >= 5 and t.isascii())
_LONG = frozenset(t for t in _TARGETS if len(t) >= 6)
_SWAPPED = frozenset(
    t[:i] + t[i + 1] + t[i] + t[i + 2 :] for t in _TARGETS for i in range(len(t) - 1)
)
_SHORTENED = frozenset(
    t[:i] + t[i + 1 :] for t in _TARGETS for i in range(0 if t in _LONG else 1, len(t))
)
_BLANKED = frozenset(t[:i] + "\0" + t[i + 1 :] for t in _LONG for i in range(len(t)))


def near_go_on(word: str) -> bool:
    """A typo of an English go-on word ("contnue", "contiune", "procede", "coninue"): one
    letter missing, added, swapped with its neighbour or (in words of 6+ letters) wrong.
    A 5-letter word keeps its first letter ("gain" is not "again"). Asked of every short
    message that is not a go-on word for word, so the variants are worked out once."""
    n = len(word)
    if n < 4:
        return False
    if word in _SWAPPED or word in _SHORTENED:
        return True
    for i in range(n):
        if word[:i] + "\0" + word[i + 1 :] in _BLANKED:
            return True  # one letter wrong
        shorter = word[:i] + word[i + 1 :]
        if shorter in _LONG or (i and shorter in _TARGETS):
            return True  # one letter too many
    return False
    for target in GO_ON_WORDS:
        if len(target) < 5 or abs(len(target) - len(word)) > 1:
            continue
        if len(target) == len(word):
            diff = [i for i, (a, b) in enumerate(zip(word, target, strict=True)) if a != b]
            swapped = len(diff) == 2 and diff[1] == diff[0] + 1 and word[diff[0]] == target[diff[1]]
            if swapped or (len(diff) == 1 and len(target) >= 6):
                return True
        else:
            # one letter more or less; in a 5-letter word not the first ("gain" is not "again")
            short, long_ = sorted((word, target), key=len)
            start = 0 if len(target) >= 6 else 1
            if any(long_[:i] + long_[i + 1 :] == short for i in range(start, len(long_))):
                return True
    return False


def _is_spaced_script(ch: str) -> bool:
    """Han, kana or hangul: scripts whose go-ons are cut into pieces, not words."""
    code = ord(ch)
    return (
        0x3040 <= code <= 0x30FF  # hiragana, katakana
        or 0x3400 <= code <= 0x9FFF  # CJK ideographs
        or 0xAC00 <= code <= 0xD7AF  # hangul syllables
        or 0x3130 <= code <= 0x318F  # hangul compatibility jamo (ㅇㅋ as typed)
        or 0x1100 <= code <= 0x11FF  # hangul jamo (ㅇㅋ after NFKC)
        or 0xF900 <= code <= 0xFAFF
    )


def _word_count(word: str) -> int:
    """How many go-on words `word` counts for (0 when it is not a go-on)."""
    if word in WORDS or not any(ch.isalnum() for ch in word):
        return 1
    if word.isascii():
        squeezed = _squeezed(word)
        if squeezed != word and (squeezed in WORDS or near_go_on(squeezed)):
            return 1
        return 1 if near_go_on(word) else 0
    if any(_is_spaced_script(ch) for ch in word):
        return _split_pieces(word)
    return 0


def _refer_back_count(word: str) -> int:
    """How many approval words `word` counts for (0 when it is none)."""
    if word in REFER_BACK:
        return 1
    if any(_is_spaced_script(ch) for ch in word):
        return _split_pieces(word, PIECES | _REFER_BACK_PIECES)
    return 0


def is_go_on(core: str, max_words: int, approval_max_words: int = 0) -> bool:
    """Every word of `core` (wrappers already stripped, not empty) is a go-on word, or -
    up to `approval_max_words` words - a go-on word or a word that points back (`REFER_BACK`)."""
    if not core.isascii():
        core = unicodedata.normalize("NFKC", core)  # full-width "ＯＫ", "！", "，"
    count = 0
    approving = False
    pointing = False  # a word other than a carrying-out verb
    points_back = False  # a go-on word that also points back ("go ahead with the plan")
    cap = max(max_words, approval_max_words)
    for raw in core.lower().translate(_BREAKS).split():
        word = raw.strip(_PUNCTUATION)
        if not word:
            continue
        pieces = _word_count(word)
        if pieces and word in REFER_BACK and word not in CARRY_OUT:
            points_back = True
        if pieces == 0:
            pieces = _refer_back_count(word) if approval_max_words else 0
            if pieces == 0:
                return False
            approving = True
        pointing = pointing or word not in CARRY_OUT
        count += pieces
        if count > cap:
            return False
    if not approving:  # go-on words only: longer when one of them points back
        return count <= (approval_max_words if points_back else max_words)
    return pointing and count <= approval_max_words
