"""solver.play.tuning and `bananas tune`: every draw of the search space is a valid bot at the
base's pace and vocabulary, a study scores candidates on the same deals, prunes, resumes from
its storage (and refuses another setup's), varies only the knobs it is given, is the same for
the same seed, and the command runs
real games end to end, locally and on a Dask cluster."""

from __future__ import annotations

import json
from types import SimpleNamespace

import pytest
from helpers import run_cli

from solver.play.bots import PRESETS, make_bot
from solver.play.tuning import SPACE, TuneError, TuneSetup, candidate_spec, run_study, study_json

optuna = pytest.importorskip("optuna")


def extreme_trials():
    """Fixed trials at each end of every knob's range."""
    for end in (0, -1):
        params = {}
        for knob in SPACE:
            if knob.kind == "choice":
                params[knob.name] = knob.choices[end]
            else:
                value = (knob.low, knob.high)[end]
                params[knob.name] = int(value) if knob.kind == "int" else float(value)
        yield optuna.trial.FixedTrial(params)


def test_every_draw_is_a_valid_bot_at_the_base_s_pace_and_vocabulary():
    from solver.play.tuning import suggest

    setup = TuneSetup(base="hard", speed=1.0)
    for trial in extreme_trials():
        params = suggest(trial)
        bot = make_bot(candidate_spec(setup, params))
        assert bot.settings.speed == 1.0 and bot.settings.level == PRESETS["hard"].level
        for name, value in params.items():
            assert getattr(bot.settings, name) == pytest.approx(value, abs=5e-4), name


def scripted_play(calls: list):
    """A stand-in for run_tournament: the candidate wins a game when its node budget is over
    1000 (a strategy that is plainly better), whatever the deal; the calls are recorded."""

    def play(specs, games, players, seed):
        calls.append((specs[0], seed))
        budget = make_bot(specs[0]).settings.node_budget
        wins = games if budget > 1000 else 0
        return SimpleNamespace(stats=[SimpleNamespace(wins=wins, shared=0, games=games)])

    return play


def test_a_study_resumes_from_its_storage_and_refuses_another_setup(tmp_path):
    storage = f"sqlite:///{tmp_path / 'study.db'}"
    setup = TuneSetup(games=8)
    calls: list = []
    study = run_study(setup, 3, storage, "s", scripted_play(calls))
    first_params = [trial.params for trial in study.trials]
    assert len(first_params) == 3
    hard = PRESETS["hard"]
    assert {name: getattr(hard, name) for name in first_params[0]} == first_params[0]  # the base, as it is
    seeds_of = {}
    for spec, seed in calls:
        seeds_of.setdefault(spec, []).append(seed)
    assert len({tuple(seeds) for seeds in seeds_of.values()}) == 1  # every trial on the same deals
    again = run_study(setup, 5, storage, "s", scripted_play(calls))  # resumed: two more
    assert len(again.trials) == 5 and [t.params for t in again.trials[:3]] == first_params
    assert len(run_study(setup, 4, storage, "s", scripted_play(calls)).trials) == 5  # already there
    with pytest.raises(TuneError, match="another setup"):
        run_study(TuneSetup(games=8, speed=2.0), 6, storage, "s", scripted_play(calls))
    data = study_json(again, setup)
    best = data["best"]
    values = [trial["value"] for trial in data["trials"] if trial["state"] == "complete"]
    assert best is not None and best["value"] == max(values) and make_bot(best["spec"]).settings.speed == 1.0


def test_the_same_seed_gives_the_same_trials(tmp_path):
    studies = [
        run_study(TuneSetup(seed=4), 4, f"sqlite:///{tmp_path / f'{n}.db'}", "s", scripted_play([])) for n in (1, 2)
    ]
    assert [t.params for t in studies[0].trials] == [t.params for t in studies[1].trials]


def test_hopeless_trials_are_pruned(tmp_path):
    setup = TuneSetup(games=8, knobs=("node_budget", "opening"))  # the scripted score reads the budget only
    study = run_study(setup, 20, f"sqlite:///{tmp_path / 'p.db'}", "s", scripted_play([]))
    pruned = [t for t in study.trials if t.state == optuna.trial.TrialState.PRUNED]
    assert pruned and all(t.params["node_budget"] <= 1000 for t in pruned)  # only losers are cut short
    best = max((t for t in study.trials if t.value is not None), key=lambda t: t.value)
    assert best.value == 1.0 and best.params["node_budget"] > 1000  # and the search found the winners


def test_a_study_of_named_knobs_varies_only_those(tmp_path):
    setup = TuneSetup(games=8, knobs=("opening", "room"))
    study = run_study(setup, 4, f"sqlite:///{tmp_path / 'k.db'}", "s", scripted_play([]))
    assert all(set(trial.params) == {"opening", "room"} for trial in study.trials)
    assert study.trials[0].params == {"opening": PRESETS["hard"].opening, "room": PRESETS["hard"].room}
    for trial in study.trials:
        bot = make_bot(trial.user_attrs["spec"])
        assert bot.settings.node_budget == PRESETS["hard"].node_budget  # the others keep the base's values
    assert "knobs" not in TuneSetup().to_json()  # a study of every knob is stored as before
    with pytest.raises(ValueError, match="unknown knob 'nope'"):
        run_study(TuneSetup(knobs=("nope",)), 1, f"sqlite:///{tmp_path / 'n.db'}", "s", scripted_play([]))


def test_first_grid_races_score_a_candidate_against_the_reference_on_the_same_deals():
    """A race is a deal's seat laid by both bots alone; the cheaper first grid on the clock takes
    the point. The reference against itself ties every race; a lever that makes the first grid
    cheaper for no extra look (`side_words`) wins most of them, the same on every run."""
    from solver.play.tuning import race_round, race_seconds

    setup = TuneSetup(speed=2.0, against=("hard",), games=16, objective="first-grid")
    assert race_round(setup, "hard:speed=2", 0) == (4.0, 8)  # 4 deals a round, both seats: all ties, half each
    race_seconds.cache_clear()
    lever = [race_round(setup, "hard:speed=2,side_words=3", index) for index in range(2)]
    assert lever == [race_round(setup, "hard:speed=2,side_words=3", index) for index in range(2)]
    points = sum(won for won, _ in lever)
    assert sum(races for _, races in lever) == 16 and points > 8.0, lever  # a 1.6 s lever wins races


def test_a_first_grid_study_is_stored_as_such_and_finds_the_cheaper_first_grid(tmp_path):
    setup = TuneSetup(speed=2.0, against=("hard",), games=16, knobs=("side_words",), objective="first-grid")
    study = run_study(setup, 4, f"sqlite:///{tmp_path / 'f.db'}", "s", play=None)
    assert study.trials[0].value == 0.5  # hard as it is: every race a tie
    best = max((t for t in study.trials if t.value is not None), key=lambda t: t.value)
    assert best.value > 0.5 and best.params["side_words"] > 0
    assert study_json(study, setup)["setup"]["objective"] == "first-grid"
    assert "objective" not in TuneSetup().to_json()  # a study of games is stored as before
    with pytest.raises(TuneError, match="another setup"):  # the same name for games: another experiment
        run_study(TuneSetup(speed=2.0, against=("hard",), games=16, knobs=("side_words",)), 5,
                  f"sqlite:///{tmp_path / 'f.db'}", "s", scripted_play([]))  # fmt: skip


# -- the command -----------------------------------------------------------------------------------


@pytest.mark.slow  # plays real games, twice (a resume)
def test_bananas_tune_plays_real_games_resumes_and_prints_the_best_spec(tmp_path):
    storage = f"sqlite:///{tmp_path / 'tune.db'}"
    args = ["tune", "--games", "2", "--storage", storage, "--seed", "3"]
    first = run_cli(*args, "--trials", "2")
    assert first.exit_code == 0, first.output
    *_, summary, best, spec = first.stdout.splitlines()
    assert summary.endswith(": 2 trials") and best.startswith("best: trial ")
    assert spec.startswith("hard:speed=1,") and make_bot(spec).settings.speed == 1.0
    second = run_cli(*args, "--trials", "3", "--json", "-", "--plot", str(tmp_path / "plots"))
    assert second.exit_code == 0, second.output
    data = json.loads(second.stdout)
    assert data["format"] == "bananas-tune/1" and len(data["trials"]) == 3
    assert all(trial["state"] in ("complete", "pruned") for trial in data["trials"])
    assert sorted(path.name for path in (tmp_path / "plots").iterdir()) == ["history.png", "importances.png"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--trials", "0"], "--trials must be between 1"),
        (["--against", "nobody"], "unknown bot 'nobody'"),
        (["--base", "nobody"], "unknown bot 'nobody'"),
        (["--speed", "0"], "--speed must be positive"),
        (["--players", "1"], "2 or more"),
        (["--workers", "2", "--scheduler", "tcp://127.0.0.1:1"], "choose one"),
        (["--knobs", "opening,nope"], "unknown knob 'nope'"),
        (["--objective", "speed"], "'speed' is not one of"),
    ],
)
def test_bad_input_is_one_error_line(args, message, tmp_path):
    result = run_cli("tune", "--storage", f"sqlite:///{tmp_path / 'x.db'}", *args)
    assert result.exit_code == 2 and message in result.stderr and "Traceback" not in result.output
    assert not (tmp_path / "x.db").exists()  # checked before any study was made


@pytest.mark.slow
def test_bananas_tune_on_a_dask_cluster(tmp_path):
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=1, processes=True, dashboard_address=":0", silence_logs=50
    ) as cluster:
        storage = f"sqlite:///{tmp_path / 'tune.db'}"
        result = run_cli(
            "tune", "--trials", "2", "--games", "2", "--storage", storage, "--scheduler", cluster.scheduler_address
        )
    assert result.exit_code == 0, result.output
    assert make_bot(result.stdout.splitlines()[-1]).settings.speed == 1.0
