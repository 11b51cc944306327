"""The agent's asks, offers and plans in the languages besides English that people use.

Agents answer in the person's language: "Voulez-vous que je procède ?", "OKなら進めます",
"是否继续执行？", "진행할까요?". These patterns sit beside the English ones of `lexicon`
(kept apart: a cased non-ASCII letter sends a pattern off the fast lower-cased search, and
the English lists run over every message near a silence). They are asked only of text
near a silence, and only of a message's end (its ask) or of one message (its plan).
"""

from __future__ import annotations

import re

from pivotal.detect.casefold import fold
from pivotal.detect.compiled import compile_pattern


class Folded:
    """A case-insensitive word list searched as a case-sensitive one on lower-cased text.

    With IGNORECASE and cased letters beyond ASCII (é, ü, Cyrillic) the engine tries every
    branch at every position (0.7 ms on a 400-character tail); lower-cased text and a
    lower-case pattern let it skip to the characters a branch can start with. The lists
    are written in lower case; `casefold.fold` keeps every position, and the few texts it
    cannot fold exactly are searched with the flag instead. Compiled on first use.
    """

    __slots__ = ("source", "foreign", "_plain", "_exact")

    def __init__(self, source: str, foreign: bool = True) -> None:
        assert source == source.lower(), "write the list in lower case"
        self.source = source
        self.foreign = foreign
        """Only other languages' words: plain English text is not searched at all."""
        self._plain: re.Pattern[str] | None = None
        self._exact: re.Pattern[str] | None = None

    def search(self, text: str) -> re.Match[str] | None:
        if self.foreign and plain_english(text):
            return None  # most messages: none of these languages' letters or words
        lowered = fold(text)
        if lowered is None:
            if self._exact is None:
                self._exact = compile_pattern(self.source, re.IGNORECASE)
            return self._exact.search(text)
        if self._plain is None:
            self._plain = compile_pattern(self.source)
        return self._plain.search(lowered)


_FOREIGN = frozenset(
    """que je vous tu les des est pour une pas sur avec dans il elle nous voulez veux dois
    el los las por para una es lo quieres puedo procedo sigo continuo
    ich und der die das ist nicht mit soll wir sie du möchtest mir
    eu não para uma os posso quer você
    che il per non sono vuoi posso fammi
    """.split()
)
"""Words of the languages written in plain ASCII as often as not (French, Spanish, German,
Portuguese, Italian): a message in ASCII without any of them is not searched."""


_NON_ASCII = re.compile(r"[^\x00-\x7f]")


def plain_english(text: str) -> bool:
    """No letter beyond ASCII (arrows, ticks and dashes are not letters) and none of the
    common words of the languages that are often typed in plain ASCII."""
    if not text.isascii() and any(ch.isalpha() for ch in set(_NON_ASCII.findall(text))):
        return False
    return _FOREIGN.isdisjoint(text.lower().split())


def folded(*branches: str, foreign: bool = True) -> Folded:
    return Folded("".join(branches), foreign)


ASKS = folded(
    # fr
    r"voulez-vous|veux-tu|tu veux que|souhaitez-vous|souhaites-tu|dois-je|puis-je|"
    r"je (procède|lance|continue|m'en occupe|peux)|dites-moi|dis-moi|préférez-vous|"
    r"confirme(z)?(-moi)? (quand|si|dès que)|confirme(z)?-moi|merci de confirmer|"
    # es
    r"quieres que|quiere que|deseas que|desea que|¿(procedo|continúo|sigo|lo hago|aplico)|"
    r"te parece|le parece|dime si|avísame|prefieres|confírmame|confirma (cuando|si)|"
    # de
    r"soll ich|sollen wir|möchtest du|möchten sie|willst du|wollen sie|darf ich|"
    r"sag mir|sagen sie mir|gib bescheid|gib mir bescheid|bestätige mir|bestätige, wenn|"
    # pt / it
    r"quer que eu|deseja que eu|posso (prosseguir|continuar|seguir|aplicar)|me avise|"
    r"me confirme|confirme (quando|se)|"
    r"vuoi che|vuole che|posso procedere|procedo\?|fammi sapere|preferisci|confermami|"
    r"conferma (quando|se)|"
    # ru
    r"хотите, чтобы я|хочешь, чтобы я|продолжить\?|приступить\?|сделать это\?|"
    r"дайте знать|нужно ли|стоит ли|"
    # zh
    r"是否|要不要|需要我|要我|我可以|可以吗|好吗|行吗|吗[？?]|请确认|您希望|你希望|如果可以|如需|"
    # ja
    r"しますか|しましょうか|よろしいですか|良いですか|いいですか|ok なら|okなら|よければ|"
    r"よろしければ|教えてください|進めてもいい|進めますか|進めます|どうしますか|いかがですか|"
    # ko
    r"할까요|드릴까요|진행할까요|원하시면|괜찮을까요|괜찮으시면|알려주세요|말씀해|하시겠습니까|좋을까요|"
    # "if needed, I can also ..." (an offer)
    r"必要なら|必要であれば|如果需要|si besoin|si nécessaire|si vous voulez|si tu veux|bei bedarf|"
    r"si es necesario|si quieres|se necessário|se quiser|se necessario|se vuoi|при необходимости|"
    r"если нужно|필요하면|필요하시면",
)
"""The agent asks the person, or offers to go ahead ("OKなら…進めます": "if OK, I go on")."""

CLARIFY = folded(
    r"que voulez-vous|que souhaitez-vous|comment voulez-vous|que dois-je|quelle option|"
    r"qué quieres|cómo quieres|qué prefieres|cuál prefieres|"
    r"was soll ich|wie möchtest du|wie soll ich|welche option|"
    r"o que você quer|como prefere|qual prefere|cosa vuoi|come vuoi|quale preferisci|"
    r"что мне сделать|как поступить|что делать|какой вариант|"
    r"请告诉我|您希望我|你想要|怎么处理|如何处理|请选择|哪个|"
    r"どうしますか|どうしましょうか|ご指示|指示が必要|どちらにしますか|選んでください|"
    r"어떻게 할까요|어떻게 하시겠|알려주시면|선택해",
)
"""The agent asks what to do instead of acting."""

NEXT_STEP = folded(
    r"prochaine étape|prochaines étapes|je propose|je recommande|je suggère|"
    r"próximos? pasos?|siguiente paso|recomiendo|sugiero|propongo|"
    r"nächste schritte?|empfehl|ich schlage vor|"
    r"próximos? passos?|recomendo|sugiro|prossimi passi|prossimo passo|consiglio|suggerisco|"
    r"следующ(ий|ие) шаг|рекомендую|предлагаю|"
    r"建议|下一步|接下来|推荐|次のステップ|次は|次に|推奨|提案します|おすすめ|"
    r"다음 단계|권장|제안|추천",
)
"""The agent names its own next step ("建议：…", "次は…", "je propose …")."""

CHOICE = folded(
    r"\bou\b|\boder\b|\bили\b|还是|または|それとも|아니면|또는|quale|cuál|welche|lequel"
)
"""A question between options (silence cannot pick one)."""

PLAN = folded(
    r"étapes?|approche|options?|risques?|recommand|proposition|je propose|"
    r"pasos|enfoque|opciones|riesgos|recomiendo|propuesta|"
    r"schritte?|ansatz|optionen|risiken|empfehle|vorschlag|"
    r"passos|abordagem|opções|riscos|recomendo|proposta|passi|approccio|opzioni|rischi|"
    r"план|шаг|этап|вариант|риск|рекоменд|предлага|"
    r"计划|步骤|方案|建议|风险|选项|手順|計画|方針|ステップ|リスク|推奨|提案|予定|"
    r"단계|계획|방안|위험|권장|제안|옵션",
)
"""A plan, its steps, options or risks."""


def plan_intl(text: str) -> bool:
    """A plan in another language (asked only of text with a non-ASCII character: the
    languages whose plans it knows all write some, and most messages are English)."""
    return not text.isascii() and PLAN.search(text) is not None
