"""The fit behind `weights.json`: the solver, the cross-validation, and what the file holds.

The solver and the folds are tested on small data built here, where the right answer is
known; the shipped file is checked against the signals the detector can measure, so a
signal added without a place in the fit (or a weight for a signal that no longer exists)
fails here.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))

from fitting.crossval import (  # noqa: E402
    Judged,
    Verdict,
    bar_for_precision,
    cross_validate,
    held_out,
    pooled,
    tally,
)
from fitting.labelled import NOT_PIVOT, Example, Labelled  # noqa: E402
from fitting.logistic import fit  # noqa: E402
from fitting.model import BIAS, NAMES, SIGNS, SILENCES  # noqa: E402

from pivotal.detect import PivotConfig, PivotTracker  # noqa: E402
from pivotal.detect.fitted import load  # noqa: E402
from pivotal.readers import find_sessions, read_session  # noqa: E402

SAMPLES = Path(__file__).resolve().parents[2] / "sample_sessions"


def _data(seed: int = 1) -> tuple[np.ndarray, np.ndarray]:
    """y depends on column 0 (up) and column 1 (down); column 2 is noise."""
    rng = np.random.default_rng(seed)
    x = rng.random((400, 3))
    logit = 4 * x[:, 0] - 4 * x[:, 1]
    y = (rng.random(400) < 1 / (1 + np.exp(-logit))).astype(float)
    return np.hstack([np.ones((400, 1)), x]), y


def test_the_solver_finds_the_directions_and_is_deterministic() -> None:
    x, y = _data()
    w = np.ones(len(y))
    beta = fit(x, y, w, 1.0, [0, 0, 0, 0], [True, False, False, False])
    assert beta[1] > 2 and beta[2] < -2 and abs(beta[3]) < 1
    again = fit(x, y, w, 1.0, [0, 0, 0, 0], [True, False, False, False])
    assert np.array_equal(beta, again)


def test_a_sign_the_definition_forbids_is_held_at_zero() -> None:
    x, y = _data()
    w = np.ones(len(y))
    # column 1 can only count for a pivot: the data want it negative, so it stays at 0
    beta = fit(x, y, w, 1.0, [0, 0, 1, 0], [True, False, False, False])
    assert beta[2] == 0.0 and beta[1] > 0


def test_a_larger_penalty_shrinks_the_weights_but_not_the_intercept() -> None:
    x, y = _data()
    w = np.ones(len(y))
    small = fit(x, y, w, 0.1, [0, 0, 0, 0], [True, False, False, False])
    large = fit(x, y, w, 100.0, [0, 0, 0, 0], [True, False, False, False])
    assert np.abs(large[1:]).sum() < np.abs(small[1:]).sum()


def test_a_centre_holds_a_weight_the_data_do_not_speak_to_and_yields_where_they_do() -> None:
    x, y = _data()
    x = np.hstack([x, np.zeros((len(y), 1))])  # column 4: never seen in these data
    w = np.ones(len(y))
    centre = np.array([0.0, -3.0, 0.0, 0.0, 2.5])
    free = [True, False, False, False, False]
    beta = fit(x, y, w, 1.0, [0, 0, 0, 0, 0], free, center=centre)
    plain = fit(x, y, w, 1.0, [0, 0, 0, 0, 0], free)
    assert plain[4] == 0.0 and abs(beta[4] - 2.5) < 1e-9  # unseen: stays at the centre
    assert beta[1] > 2  # seen: the data overrule the centre's -3


def _example(group: str, value: float, pivot: bool, name: str = "plan laid out") -> Example:
    return Example(
        "realworld",
        group,
        f"{group}.jsonl",
        "codex",
        0,
        "ack",
        "implicit_approval" if pivot else NOT_PIVOT,
        True,
        {"silence: ack": 1.0, name: value},
    )


def test_a_group_is_judged_by_weights_fitted_without_it() -> None:
    """A signal seen only in one repository teaches its fold nothing: the held-out group's
    confidence is the same with or without the signal."""
    examples = [_example(f"r{i}", 1.0, i % 2 == 0) for i in range(10)]
    lonely = _example("alone", 1.0, True, name="step gate")
    sets = {"realworld": Labelled(examples=[*examples, lonely])}
    from fitting.model import train

    judged = cross_validate("realworld", sets, lambda ex: train(ex, 0.5, 1.0, 1.0), ["realworld"])
    by_group = {v.example.group: v.confidence for v in judged.verdicts}
    plain = _example("alone", 1.0, True)
    plain.features = {"silence: ack": 1.0}
    model = train(examples, 0.5, 1.0, 1.0)
    assert by_group["alone"] == pytest.approx(float(model.confidences([plain])[0]))


def test_a_held_out_set_is_judged_by_one_fit_that_never_saw_it() -> None:
    """Nothing of a held-out set reaches the fit: its silences are judged as a fit on the
    other sets alone judges them, and naming it among the training sets is refused."""
    from fitting.model import train

    examples = [_example(f"r{i}", 1.0, i % 2 == 0) for i in range(10)]
    other = [_example(f"o{i}", 1.0, True, name="step gate") for i in range(4)]
    for e in other:
        e.set = "heldout2"
    sets = {"realworld": Labelled(examples=examples), "heldout2": Labelled(examples=other)}

    def fit(ex: list[Example]):  # type: ignore[no-untyped-def]
        return train(ex, 0.5, 1.0, 1.0)

    judged = held_out("heldout2", sets, fit, ["realworld"])
    expected = fit(examples).confidences(other)
    assert [v.confidence for v in judged.verdicts] == pytest.approx(list(expected))
    with pytest.raises(ValueError):
        held_out("heldout2", sets, fit, ["realworld", "heldout2"])


def test_the_bar_is_the_best_recall_at_the_precision_asked() -> None:
    judged = Judged("x")
    for confidence, pivot in [(0.9, True), (0.8, True), (0.7, False), (0.6, True), (0.5, False)]:
        judged.verdicts.append(Verdict(_example("g", 1.0, pivot), confidence, "implicit_approval"))
    judged.missed = 1  # a labelled pivot no silence matched: a miss at every bar
    bar, t = bar_for_precision(judged, 0.75)
    assert bar == 0.6 and (t.tp, t.fp, t.fn) == (3, 1, 1)
    assert tally(judged, 0.85).recall == pytest.approx(1 / 4)


def test_pooled_sets_are_judged_as_one_with_every_miss_counted() -> None:
    """The bars come from every real set together: a bar precise on one set alone may stop
    wrongly on the other (the shipped bar did: P 0.91 on one real set, 0.33 on a newer one)."""
    first, second = _curve([(0.9, True), (0.8, True), (0.6, True)]), _curve([(0.85, False)])
    second.missed, second.missed_by_format["codex"] = 2, 2
    together = pooled("real", [first, second])
    assert len(together.verdicts) == 4 and together.missed == 2
    assert (tally(first, 0.8).precision, tally(together, 0.8).precision) == (1.0, 2 / 3)
    assert tally(together, 0.6, "codex").fn == 2  # the second set's misses, by its format
    bar, t = bar_for_precision(together, 0.85)
    assert bar == 0.9 and (t.tp, t.fp, t.fn) == (1, 0, 4)


def _curve(points: list[tuple[float, bool]]) -> Judged:
    judged = Judged("x")
    for confidence, pivot in points:
        judged.verdicts.append(Verdict(_example("g", 1.0, pivot), confidence, "implicit_approval"))
    return judged


def test_low_is_the_bar_at_precision_095_when_one_is_above_normal() -> None:
    from fit_detector import bars, low_bar

    # pooled P by bar: 0.9-0.7 1.00 (3 of 6 found), 0.6 0.75, 0.5 0.80, 0.4 0.83, 0.3 0.86
    # (6 of 6), 0.2 0.75
    points = [(0.9, True), (0.8, True), (0.7, True), (0.6, False), (0.5, True), (0.4, True)]
    judged = _curve([*points, (0.3, True), (0.2, False)])
    levels = bars(judged)
    assert (levels["normal"], levels["low"]) == (0.3, 0.7)
    assert low_bar(judged, 0.3) == (0.7, "precision 0.95")
    # a normal bar that is itself at 0.95: low is the best such bar strictly above it
    assert low_bar(judged, 0.7) == (0.8, "precision 0.95")


def test_without_a_bar_at_095_low_is_the_most_precise_bar_above_normal() -> None:
    """A wrong stop at the top (a clamped confidence of 1): no bar reaches 0.95, and `low`
    still stops at fewer silences than `normal`, here even a little less precisely."""
    from fit_detector import bars, low_bar

    # pooled P by bar: 1.0 none found, 0.9 0.50, 0.8 0.67, 0.75 0.75, 0.7 0.80, 0.6 0.83,
    # 0.55 0.86, 0.5 0.88 (7 of 7), 0.4 0.78
    points = [(1.0, False), (0.9, True), (0.8, True), (0.75, True), (0.7, True), (0.6, True)]
    judged = _curve([*points, (0.55, True), (0.5, True), (0.4, False)])
    levels = bars(judged)
    assert (levels["normal"], levels["low"]) == (0.5, 0.55)
    assert low_bar(judged, 0.5) == (0.55, "highest precision above normal")
    low, normal = tally(judged, 0.55), tally(judged, 0.5)
    assert low.precision < normal.precision and low.tp + low.fp < normal.tp + normal.fp


def test_with_no_pivot_found_above_normal_low_is_a_fixed_step_above_it() -> None:
    from fit_detector import LOW_STEP, bars, low_bar

    # a wrong stop above six pivots of one confidence: normal 0.8 (P 0.86), and the one bar
    # above it finds no pivot
    judged = _curve([(0.9, False), *[(0.8, True)] * 6])
    assert LOW_STEP == 0.05
    assert low_bar(judged, 0.8) == (pytest.approx(0.85), "normal + 0.05")
    assert bars(judged)["low"] == 0.85
    # a normal bar of 1 leaves no stricter bar: the fit refuses to write weights
    with pytest.raises(SystemExit):
        bars(_curve([(1.0, True)] * 3))


def test_the_shipped_weights_name_only_signals_the_fit_knows() -> None:
    fitted = load()
    assert set(fitted.weights) <= set(SIGNS) | set(SILENCES)
    assert set(SILENCES) <= set(fitted.weights)  # every kind of silence carries the base
    assert BIAS not in fitted.weights
    assert fitted.possible <= fitted.levels["high"] <= fitted.levels["normal"]
    assert fitted.levels["normal"] <= fitted.levels["low"]


def test_every_signal_the_detector_measures_has_a_place_in_the_fit() -> None:
    seen: set[str] = set()
    for path in sorted(SAMPLES.glob("*/*.jsonl")):
        for ref in find_sessions([path]).refs:
            tracker = PivotTracker(PivotConfig.for_sensitivity(1.0))
            tracker.update(read_session(ref).turns, 0)
            for _, judgement in tracker.judgements():
                seen.update(judgement.features or {})
    assert len(seen) > 20
    assert seen <= set(NAMES) | set(SILENCES), seen - set(NAMES) - set(SILENCES)


def test_a_confidence_is_the_sum_of_its_listed_weights() -> None:
    """The promise `--explain`, the JSON and the panel rest on, on every pivot and possible
    pivot of every sample."""
    checked = 0
    for path in sorted(SAMPLES.glob("*/*.jsonl")):
        for ref in find_sessions([path]).refs:
            tracker = PivotTracker()
            tracker.update(read_session(ref).turns, 0)
            weights = load().weights
            for pivot in tracker.all_pivots():
                total = sum(s.weight for s in pivot.signals)
                assert pivot.confidence == round(max(0.0, min(1.0, total)), 3)
                for signal in pivot.signals:
                    key = f"silence: {pivot.silence}" if signal.name == "silence" else signal.name
                    assert signal.weight == round(weights[key] * signal.value, 3)
                checked += 1
    assert checked >= 20


def test_a_real_label_matches_by_any_of_its_ids_else_by_any_of_its_lines() -> None:
    """As the corpus's own score.py matches: message id (or another id), else the line (or
    another line). The labels are made up: the corpus itself is not needed."""
    from fitting.labelled import _real_matches, repository

    from pivotal.model import Role, SourceRef, Turn

    def turn(message_id: str | None, line: int | None) -> Turn:
        return Turn(0, Role.USER, message_id=message_id, source=SourceRef(line=line))

    by_id = {"message_id": "u1", "alt_ids": ["b1"], "line": None}
    by_line = {"message_id": None, "line": 40, "alt_lines": [41]}
    assert _real_matches(turn("b1", 7), by_id) and _real_matches(turn("u1", None), by_id)
    assert not _real_matches(turn("u2", 7), by_id)
    assert _real_matches(turn(None, 41), by_line) and not _real_matches(turn(None, 42), by_line)
    assert repository("codex/owner__repo__rollout-2025.jsonl") == "owner__repo"


def test_every_real_set_weighs_as_real_and_a_second_one_is_read_beside_the_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`realextra` (more real sessions, labelled by the project, kept beside the repository)
    is read from each of its subfolders in `realworld`'s layout, and weighs as real in a fit:
    the own sets' share is counted against both real sets."""
    import shutil

    from fitting import labelled
    from fitting.model import own_weight

    folder = tmp_path / "realextra" / "claude"
    (folder / "claude-code").mkdir(parents=True)
    saved = "claude-code/someone__repo__go_ahead_plan.jsonl"
    shutil.copy(SAMPLES / "claude" / "go_ahead_plan.jsonl", folder / saved)
    header = "\t".join(
        ("saved_path", "format", "repo", "path_in_repo", "commit_if_known", "size_bytes")
        + ("real_or_fixture", "notes")
    )
    row = f"{saved}\tclaude-code\tsomeone/repo\tx.jsonl\t\t1\treal\t"
    (folder / "MANIFEST.tsv").write_text(f"{header}\n{row}\n", encoding="utf-8")
    label = {
        "file": saved,
        "format": "claude-code",
        "line": 15,
        "message_id": "c0bbe99b-a986-4aff-8eb3-89c134f5ed3b",
        "text": "go ahead",
        "silence": "ack",
        "label": "implicit_approval",
        "sure": True,
    }
    (folder / "labels.json").write_text(json.dumps([label]), encoding="utf-8")
    for name in labelled.EXTRA_ROOTS:  # each kept apart set is read from its own folder
        monkeypatch.setitem(labelled.EXTRA_ROOTS, name, tmp_path / name)
    shutil.copytree(tmp_path / "realextra", tmp_path / "realextra3")
    assert set(labelled.load(["realextra2", "realextra3"])) == {"realextra3"}
    assert {e.set for e in labelled.load(["realextra3"])["realextra3"].examples} == {"realextra3"}

    extra = labelled.load(["realextra"])["realextra"]
    assert {e.set for e in extra.examples} == {"realextra"}
    assert [e.label for e in extra.examples if e.pivot] == ["implicit_approval"]
    assert {e.group for e in extra.examples} == {"someone__repo"}

    real = [_example(f"r{i}", 1.0, False) for i in range(2)]
    more = [_example(f"x{i}", 1.0, False) for i in range(2)]
    own = [_example(f"o{i}", 1.0, False) for i in range(2)]
    for e in more:
        e.set = "realextra"
    for e in own:
        e.set = "tuning"
    assert own_weight([*real, *more, *own], 1.0) == pytest.approx(2.0)


def test_a_mixture_takes_the_higher_of_its_two_tables_less_the_offset() -> None:
    """The second table counts `offset` less: it decides a silence only where it is surer
    by more than that (and the result stays a confidence in [0, 1])."""
    from fitting.model import Mixture, Model

    def example(milestone: float) -> Example:
        values = {"silence: ack": 1.0, "milestone": milestone}
        return Example("realworld", "g", "f", "claude-code", 0, "ack", NOT_PIVOT, True, values)

    beta_main = np.zeros(len(NAMES))  # a confidence of 0.5 whatever the values
    beta_other = np.zeros(len(NAMES))
    beta_other[NAMES.index("milestone")] = 8.0  # + 1.0 per unit of `milestone`
    mixture = Mixture(Model(beta_main, None), Model(beta_other, None), 0.25)
    got = mixture.confidences([example(0.0), example(0.5), example(1.0)])
    # 0.5 vs 0.25; 0.5 vs 0.75; 0.5 vs 1.5 - 0.25 (clamped to 1)
    assert got.tolist() == [0.5, 0.75, 1.0]
