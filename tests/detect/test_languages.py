"""Go-ons in the languages people answer agents in, with the typos they make.

Each case is a paraphrase written for this test (not a line from any session): the
lexicon must know the words of a language, not one person's message.
"""

from __future__ import annotations

import pytest

from pivotal.detect.acks import near_go_on
from pivotal.detect.config import PivotConfig
from pivotal.detect.silence import classify_text
from pivotal.model import Silence

CFG = PivotConfig()

GO_ONS = {
    "zh": [
        "继续",
        "繼續",
        "是的",
        "好的",
        "好",
        "嗯嗯",
        "可以",
        "好的，继续吧",
        "没问题。",
        "按计划",
    ],
    "ja": [
        "はい",
        "お願いします",
        "はい、お願いします。",
        "続けてください",
        "了解です",
        "OKです",
        "実施して",  # "carry it out"
        "あなたが実施してください",  # "you carry it out, please"
        "直してほしい",  # "I'd like you to fix it" (what was laid out)
    ],
    "ko": ["네", "넵", "계속", "계속해주세요", "좋아요", "진행해 주세요", "알겠습니다"],
    "fr": ["oui", "ouais", "vas-y", "d'accord", "ok, vas-y", "continue", "parfait merci"],
    "es": [
        "sí",
        "dale",
        "vale",
        "adelante",
        "sí, por favor",
        "sigue",
        "de acuerdo",
        "me parece bien",  # "sounds good to me"
        "me parece correcto, adelante",
        "está bien, vamos",
    ],
    "de": ["ja", "weiter", "mach weiter", "passt", "ja bitte", "in Ordnung", "leg los"],
    "pt": ["sim", "pode seguir", "beleza", "claro", "continua", "tá bom"],
    "ru": ["да", "давай", "продолжай", "хорошо", "да, давай", "ок"],
    "it": ["sì", "vai", "va bene", "procedi", "avanti", "perfetto grazie"],
    "vi": ["đồng ý", "ừ", "ừ đúng rồi", "tiếp tục đi", "tiep tuc di", "được", "ok làm đi"],
    "id": ["ya", "lanjut", "iya, lanjutkan", "boleh", "setuju", "oke sip"],
    "ko+": ["ㄱㄱ", "고고", "ㅇㅋ", "ㅇㅇ"],  # jamo: NFKC changes them; they were missed
}


@pytest.mark.parametrize(
    "text", [t for texts in GO_ONS.values() for t in texts], ids=lambda t: t.encode().hex()[:16]
)
def test_a_go_on_in_another_language_is_an_ack(text: str) -> None:
    assert classify_text(text, CFG) is Silence.ACK


@pytest.mark.parametrize(
    "text",
    [
        "contnue",  # a letter left out
        "contiune",  # two letters swapped
        "conitnue",
        "proceeed",  # a letter doubled
        "procede",
        "go ahed",
        "resuem",
        "okkk",
        "yesss pls",
        "ＯＫ",  # typed with a full-width keyboard
        "ok,continue",
    ],
)
def test_a_hurried_english_go_on_is_an_ack(text: str) -> None:
    assert classify_text(text, CFG) is Silence.ACK


@pytest.mark.parametrize(
    "text",
    [
        "继续修复测试",  # "continue fixing the tests": names the work
        "テストを実行してください",  # "please run the tests"
        "corrige le test",
        "ajoute un bouton",
        "hazlo con pytest",  # "do it with pytest": names how
        "2",  # picking option 2 of a list is a choice, not a go-on
        "A",  # picking option A
        "vamos con la opción A",
        "２",
        "gain",  # a word, not "again" missing its first letter
        "context",
        "做计划",  # "make a plan"
        "sửa lỗi đăng nhập đi",  # "fix the login bug": names the work
        "tambahkan tombol simpan",  # "add a save button"
        "按照你说的改数据库",  # "change the database as you said": names what
        "你帮我弄一下登录页",  # "do the login page for me": names what
        "你好",  # "hello": no go-on
        "me parece mal",  # "I don't like it"
        "¿por qué?",  # "why?"
        "que estabas haciendo?",  # "what were you doing?"
        "直してテストを書いて",  # "fix it and write tests": names more work
    ],
)
def test_direction_in_any_language_is_not_silent(text: str) -> None:
    assert classify_text(text, CFG) is None


def test_typo_tolerance_stays_narrow() -> None:
    assert near_go_on("contnue") and near_go_on("procede")
    # a different word one letter away from a short go-on word is not a typo of it
    assert not near_go_on("doing") and not near_go_on("text") and not near_go_on("gain")


@pytest.mark.parametrize(
    "message",
    [
        "J'ai préparé les trois fichiers. Voulez-vous que je les installe maintenant ?",
        "Voulez-vous que je continue",  # written without accents or a question mark
        "Die Migration ist vorbereitet. Soll ich sie jetzt ausführen",
        "La migración está lista. ¿Quieres que la aplique?",
        "Tudo pronto. Quer que eu faça o deploy agora",
        "Ho preparato la patch. Vuoi che la applichi",
        "План готов. Хотите, чтобы я начал",
        "迁移脚本已经准备好了。是否继续执行",
        "準備ができました。OKなら、そのままデプロイまで進めます。",
        "마이그레이션 준비가 끝났습니다. 진행할까요",
    ],
)
def test_the_agents_ask_in_another_language_is_found(message: str) -> None:
    from pivotal.detect.asks import question_to_person

    assert question_to_person(message)


@pytest.mark.parametrize(
    "message",
    [
        "The staging build is up at https://staging.example.net.\n\nConfirm when it looks right"
        " and I'll promote it!",
        "Le correctif est déployé en recette. Confirmez-moi que tout s'affiche bien !",
        "Las tablas ya están migradas. Confírmame cuando hayas revisado los datos.",
        "Il branch è pronto. Confermami se posso unirlo.",
        "A versão está no ar. Me confirme quando puder publicar.",
    ],
)
def test_an_imperative_confirm_addressed_to_the_person_is_an_ask(message: str) -> None:
    """ "Confirm when it's good to merge!" asks the person as surely as "Shall I merge?"."""
    from pivotal.detect.asks import question_to_person

    assert question_to_person(message)


@pytest.mark.parametrize(
    "message",
    [
        "I'll confirm once the nightly run is green, then tag the release.",
        "The logs confirm that the cache was cold. Rebuilt it and reran: 240 ms.",
        "Je confirme : le cache était froid, la seconde exécution prend 240 ms.",
    ],
)
def test_confirming_something_oneself_asks_nothing(message: str) -> None:
    from pivotal.detect.asks import question_to_person

    assert question_to_person(message) == ""


def test_plain_english_is_not_searched_for_other_languages_words() -> None:
    from pivotal.detect.lexicon_intl import ASKS, CHOICE

    assert CHOICE.search("callbacks for ou and the rest") is None  # "ou" is French for "or"
    assert ASKS.search("I deployed the fix; the graphs look normal again.") is None
    assert CHOICE.search("Tu préfères la version A ou la version B ?") is not None


def _one_typo_apart(word: str, target: str) -> bool:
    """The plain definition near_go_on implements with precomputed variants."""
    if len(word) == len(target):
        diff = [i for i, (a, b) in enumerate(zip(word, target, strict=True)) if a != b]
        if len(diff) == 1:
            return len(target) >= 6
        return (
            len(diff) == 2
            and diff[1] == diff[0] + 1
            and (word[diff[0]], word[diff[1]]) == (target[diff[1]], target[diff[0]])
        )
    if abs(len(word) - len(target)) != 1:
        return False
    short, long_ = sorted((word, target), key=len)
    start = 0 if len(target) >= 6 else 1
    return any(long_[:i] + long_[i + 1 :] == short for i in range(start, len(long_)))


def test_typo_variants_agree_with_the_plain_definition() -> None:
    from pivotal.detect.acks import _TARGETS

    words = ["contnue", "contiune", "continue", "gain", "agian", "proced", "proceeds", "ahed"]
    words += [t[:i] + t[i + 1 :] for t in _TARGETS for i in range(len(t))]
    words += [t[:i] + "x" + t[i:] for t in _TARGETS for i in range(len(t) + 1)]
    words += [t[:i] + "z" + t[i + 1 :] for t in _TARGETS for i in range(len(t))]
    for word in words:
        expected = len(word) >= 4 and any(_one_typo_apart(word, t) for t in _TARGETS)
        assert near_go_on(word) is expected, word


def test_keep_moving_is_keep_going() -> None:
    assert classify_text("keep moving", CFG) is Silence.ACK
    assert classify_text("keep moving the tests to pytest", CFG) is None


def test_a_lone_start_or_begin_is_a_go_ahead() -> None:
    """Said alone after a plan ("start", "Begin."), it starts what is on the table; with an
    object it names the work."""
    for text in ("start", "Begin.", "start!", "ok start"):
        assert classify_text(text, CFG) is Silence.ACK, text
    for text in ("start the migration", "begin with the parser", "start over in rust"):
        assert classify_text(text, CFG) is None, text


def test_accept_in_chinese_and_idk_hand_the_choice_over() -> None:
    """接受 (accept) approves like 同意 (agree); "idk" gives the choice back like "your call"."""
    for text in ("接受", "好的，接受", "idk", "idk, your call"):
        assert classify_text(text, CFG) is Silence.ACK, text
    for text in ("接受这个改动但是先写测试", "idk why the build fails"):
        assert classify_text(text, CFG) is None, text


def test_go_on_words_that_also_point_back_make_a_longer_go_ahead() -> None:
    """Five go-on words, one pointing back at what is on the table, approve it as "go ahead"
    does; five go-on words that point at nothing stay over the limit, and work named stays
    direction."""
    for text in (
        "Go ahead with the plan",
        "ok that looks good to me",
        "yes go on with the next one",
    ):
        assert classify_text(text, CFG) is Silence.ACK, text
    for text in ("ok ok ok ok ok", "go ahead with the login page", "ok go ahead and fix the bug"):
        assert classify_text(text, CFG) is None, text


def test_going_on_with_the_work_in_other_words() -> None:
    """ "continue working", "keep trying", "do all three", 可以了 / 可以执行了 (fine / fine to
    carry it out now), 请继续，不要放弃 (go on, don't give up) say go on and name no work."""
    for text in (
        "continue working",
        "keep trying",
        "continue implementing",
        "do all three",
        "可以了",
        "可以执行了",
        "请继续，不要放弃",
    ):
        assert classify_text(text, CFG) is Silence.ACK, text
    for text in ("continue working on the parser", "keep trying the other port", "放弃这个方案"):
        assert classify_text(text, CFG) is None, text
