"""Training options: one typed dataclass whose fields are the YAML keys.

`load_config(path, overrides)` reads a YAML file, applies `--key value` overrides from the
command line, and rejects unknown keys, values of the wrong type and values outside a key's
allowed range with a ValueError naming the key (machinery: hive_envs/training/config_keys.py). Every
field's meaning is in its `doc` metadata and its allowed values in `allowed` (both printed by
`--help`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from hive_envs.games import GAMES
from hive_envs.training.config_keys import (
    FOLDER_NAME,
    NOT_EMPTY,
    SEED,
    KeyedConfig,
    Rule,
    above,
    at_least,
    between,
    check_fields,
    key,
    one_of,
    reject,
    zero_or_at_least,
)
from hive_envs.training.network_choice import (
    NETWORK,
    check_network,
    config_network_spec,
    network_config_keys,
    network_options,
)

GAME = Rule("a game of hive_envs.games (hive, hoyito, or one added with register_game)", lambda v: v in GAMES)
MAX_SPEC = 1000
"""The longest player spec a config holds (a ``uhp:`` command line with its paths is far shorter)."""
PLAYER_SPEC = Rule(
    f"a player spec, not empty, at most {MAX_SPEC} characters", lambda v: 0 < len(v) <= MAX_SPEC
)
TEACHER_SPEC = Rule(
    f"'' (none) or a player spec of at most {MAX_SPEC} characters", lambda v: len(v) <= MAX_SPEC
)


@dataclass
class TrainConfig(KeyedConfig):
    # --- run ---
    name: str = key("run", "run name; outputs go to <runs_dir>/<name>/", FOLDER_NAME)
    runs_dir: str = key("runs", "directory holding one folder per run", NOT_EMPTY)
    seed: int = key(
        1, "seed of torch, numpy and the games (reproducible on one device and thread count)", SEED
    )
    device: str = key(
        "auto", "'cpu', 'cuda', or 'auto' (cuda when available, else cpu)", one_of("auto", "cpu", "cuda")
    )
    num_threads: int = key(0, "torch CPU threads; 0 = leave torch's default", at_least(0))
    # --- game ---
    game: str = key("hoyito", "the game's name in hive_envs.games ('hoyito', 'hive', ...)", GAME)
    game_options: dict = key({}, "options of the game (e.g. holes_per_row: 6), as the env takes them")
    env: str = key(
        "",
        "train on a PettingZoo AEC env instead (through hive_envs.core.aec_batch; sets game 'aec'): "
        "'pettingzoo:ID' of hive_envs' registry, 'pettingzoo.classic.NAME', 'hive_envs.NAME', or "
        "'MODULE:FACTORY' only with --trust-env-module MODULE:FACTORY on the command line; '' = none",
    )
    env_options: dict = key({}, "env: keyword options of its factory (e.g. holes_per_row: 12)")
    # --- network (hive_envs/training/network_choice.py; --help lists the kinds and their options) ---
    network: str = key(
        "mlp",
        "the network kind: 'mlp' (flattened observation), 'hexconv' (hex-torus planes) or one of the "
        "game's own kinds (its definition's agents.networks)",
        NETWORK,
    )
    hidden_sizes: list[int] = key(
        [256, 256], "the mlp trunk's hidden widths (mlp and the kinds built on it)", at_least(1)
    )
    conv_channels: int = key(
        64, "the hex-convolution trunk's channels (hexconv and the kinds built on it)", at_least(1)
    )
    conv_blocks: int = key(4, "the hex-convolution trunk's residual blocks (0 = stem only)", at_least(0))
    network_options: dict = key(
        {},
        "the network kind's own options, checked by its options class (e.g. features: 2); {} = its defaults",
    )
    init_from_rule: bool = key(
        False,
        "start the network's heads from its kind's hand-written rule (a network whose options give it a "
        "rule value, e.g. a game's lookahead kind with features 2)",
    )
    # --- budget ---
    total_steps: int = key(1_000_000, "stop after this many env steps (plies over all games)", at_least(1))
    time_limit_minutes: float = key(
        0.0,
        "also a training wall-time budget (periodic evaluations included): an update or an "
        "evaluation starts only if the longest one so far would end within it (hive_envs/training/budget.py); "
        "0 = no limit",
        at_least(0),
    )
    # --- rollouts ---
    num_games: int = key(128, "games played at once in the batch", between(1, 65_536))
    rollout_steps: int = key(64, "batch steps per rollout (one ply in every game each)", at_least(1))
    # --- PPO ---
    learning_rate: float = key(3e-4, "Adam learning rate", above(0))
    anneal_lr: bool = key(True, "decay the learning rate linearly to 0 over total_steps")
    gamma: float = key(1.0, "discount per own decision (final reward only, so 1.0 is natural)", between(0, 1))
    gae_lambda: float = key(0.95, "GAE lambda along each seat's own decisions", between(0, 1))
    shaping_coef: float = key(
        0.0,
        "potential-based reward shaping weight (0 = off); the potential is the game's "
        "progress measure (Hive: Queen margin); leaves the objective unchanged (hive_envs/training/selfplay.py)",
        at_least(0),
    )
    update_epochs: int = key(4, "passes over each rollout", at_least(1))
    num_minibatches: int = key(4, "minibatches per pass", at_least(1))
    clip_coef: float = key(0.2, "PPO ratio clip", above(0))
    clip_value: bool = key(True, "clip the value update as PPO2 does")
    vf_coef: float = key(0.5, "value loss weight", at_least(0))
    ent_coef: float = key(0.01, "entropy bonus weight (entropy over legal actions)", at_least(0))
    max_grad_norm: float = key(0.5, "gradient norm clip", above(0))
    norm_adv: bool = key(True, "normalise advantages per minibatch")
    # --- opponents ---
    pool_share: float = key(
        0.2,
        "share of games played against a past checkpoint (rest: self-play)",
        between(0, 1, high_open=True),
    )
    pool_size: int = key(10, "past policies kept in the opponent pool (oldest dropped)", at_least(0))
    pool_add_every: int = key(10, "add the current policy to the pool every this many updates", at_least(1))
    pool_players: list[str] = key(
        [],
        "player specs that join the opponent pool beside the past policies (e.g. alphabeta:1; any "
        "spec of hive_envs.players)",
        PLAYER_SPEC,
    )
    pool_player_share: float = key(
        0.5,
        "share of the pool rollouts played against one of pool_players (the rest: a past policy; "
        "all of them while the pool holds no past policy yet)",
        between(0, 1),
    )
    # --- imitation (search in the loop) ---
    teacher: str = key(
        "",
        "a player spec (e.g. alphabeta:2) whose move is asked for a share of the learner's "
        "decisions; its cross-entropy under the policy is added to the loss ('' = none)",
        TEACHER_SPEC,
    )
    teacher_share: float = key(0.25, "share of the learner's decisions the teacher labels", between(0, 1))
    teacher_coef: float = key(1.0, "weight of the teacher's cross-entropy in the loss", at_least(0))
    # --- search at play time (saved in every checkpoint as its "search") ---
    search_prior_temperature: float = key(
        1.0,
        "how PATH@N of this run's checkpoints searches: PUCT's prior temperature (softmax of the "
        "logits / T; 1 = the policy as it is; hive_envs/agents/search.py); pretrained.py export "
        "copies it into the model card",
        above(0),
    )
    search_rule_value_share: float = key(
        0.0,
        "how PATH@N of this run's checkpoints searches: the share of a leaf's value taken from the "
        "network's rule value instead of its value head (needs a network with a rule value, as "
        "init_from_rule does)",
        between(0, 1),
    )
    # --- expert iteration (training/expert_iteration.py; PPO ignores these) ---
    exit_expert: str = key(
        "puct",
        "expert iteration: what plays the self-play moves and gives the policy its targets: 'puct' "
        "(the batched PUCT search of the network, its visit distribution) or 'alphabeta' (the game's "
        "alpha-beta searcher scores every legal move exit_expert_depth plies deep, the target is the "
        "softmax of the scores / exit_expert_temperature; hive_envs/training/alphabeta_expert.py)",
        one_of("puct", "alphabeta"),
    )
    exit_expert_depth: int = key(
        10,
        "expert iteration with exit_expert 'alphabeta': plies each move's score looks ahead, the move "
        "included (as alphabeta:D's root search)",
        at_least(2),
    )
    exit_expert_temperature: float = key(
        8.0,
        "expert iteration with exit_expert 'alphabeta': the target's softmax temperature in the "
        "searcher's score units (Hoyito: 16 per counter; smaller: sharper)",
        above(0),
    )
    exit_expert_workers: int = key(
        1,
        "expert iteration with exit_expert 'alphabeta': processes that score a self-play step's positions "
        "(1: the trainer's own; more share the games out, one core each; the scores are the same)",
        at_least(1),
    )
    exit_simulations: int = key(
        32, "expert iteration: PUCT simulations per self-play move (the batched search)", at_least(1)
    )
    exit_sample_plies: int = key(
        8,
        "expert iteration: the first this many plies of each self-play game are sampled in proportion "
        "to the visits, or to the alpha-beta expert's target (the rest: the most visited move, or a "
        "best-scored one)",
        at_least(0),
    )
    exit_noise_alpha: float = key(
        0.3, "expert iteration: Dirichlet noise on the root priors, its alpha", above(0)
    )
    exit_noise_fraction: float = key(
        0.25, "expert iteration: the noise's weight in the root priors (0 = none)", between(0, 1)
    )
    exit_buffer_size: int = key(
        20000,
        "expert iteration: finished self-play positions kept for training (oldest dropped)",
        at_least(1),
    )
    exit_batch_size: int = key(256, "expert iteration: positions per gradient step", at_least(1))
    # --- outputs ---
    checkpoint_every: int = key(
        50, "write a checkpoint every this many updates (and at the end)", at_least(1)
    )
    eval_every: int = key(25, "evaluate vs eval_opponents every this many updates; 0 = never", at_least(0))
    eval_games: int = key(100, "games per periodic evaluation (half in each seat)", at_least(2))
    eval_opponents: list[str] = key(
        ["random", "greedy"],
        "player specs the evaluations play against (greedy is skipped for a game without it)",
        PLAYER_SPEC,
    )
    eval_opening_plies: int = key(
        2,
        "every pair of evaluation games (one per seat) starts from the same random opening of this "
        "many plies, a different one per pair (the arena's opening book), so that deterministic "
        "players do not repeat one game",
        at_least(0),
    )
    eval_sample: bool = key(
        False,
        "the periodic evaluations sample moves from the policy instead of playing argmax (the "
        "final evaluation always reports argmax play first)",
    )
    final_eval_games: int = key(
        400, "games per opponent in the evaluation printed at the end; 0 = none", zero_or_at_least(2)
    )
    final_eval_sampled: bool = key(
        True, "the final evaluation also reports sampled play, beside argmax play (never instead)"
    )

    def __post_init__(self) -> None:
        check_fields(self)
        if self.env:
            self._use_env()
        elif self.env_options:
            reject(self, "env_options", self.env_options, "{} without env")
        check_network(self)
        if self.search_rule_value_share and not network_options(self).rule_value:
            reject(
                self,
                "search_rule_value_share",
                self.search_rule_value_share,
                f"0 unless the network has a rule value (network {self.network!r} with network_options "
                f"{self.network_options!r} has none)",
            )
        if self.num_minibatches > self.min_trained_decisions:
            reject(
                self,
                "num_minibatches",
                self.num_minibatches,
                f"<= {self.min_trained_decisions}, the fewest decisions an update trains on: "
                f"{self.num_games - self.pool_games} self-play games x rollout_steps {self.rollout_steps}",
            )

    def _use_env(self) -> None:
        """``env`` names the game: game 'aec' with options {env, env_options} (as checkpoints record it)."""
        from hive_envs.core.aec_source import AecOptions, check_env_name

        try:
            check_env_name(self.env)
        except ValueError as error:
            raise ValueError(f"config key 'env': {error}") from None
        try:
            AecOptions(self.env, self.env_options)
        except ValueError as error:
            raise ValueError(f"config key 'env_options': {error}") from None
        options = {"env": self.env, "env_options": dict(self.env_options)}
        if self.game_options and (self.game != "aec" or self.game_options != options):
            reject(self, "game_options", self.game_options, "{} with env (the env's options are env_options)")
        self.game, self.game_options = "aec", options

    @property
    def pool_games(self) -> int:
        """Games of each rollout played against a past policy from the pool (when it has one)."""
        return round(self.pool_share * self.num_games)

    @property
    def min_trained_decisions(self) -> int:
        """Every decision of a self-play game is trained (pool games add the learner's only)."""
        return (self.num_games - self.pool_games) * self.rollout_steps

    def network_spec(self) -> dict[str, Any]:
        """The network spec without the game's ``rules`` (`game_lookup.network_spec` adds them)."""
        return config_network_spec(self)

    def search(self) -> dict[str, float]:
        """A checkpoint's ``search``: how ``PATH@N`` of it searches (hive_envs/agents/checkpoint.py)."""
        return {
            "prior_temperature": self.search_prior_temperature,
            "rule_value_share": self.search_rule_value_share,
        }


KEYS = network_config_keys(TrainConfig)
config_from_dict, load_config, describe_keys = KEYS.from_dict, KEYS.load, KEYS.describe
"""`config_from_dict(values)`: a config of a dict of YAML keys; `load_config(path, overrides)`: of a
YAML file plus `--key value` overrides (unknown keys and bad values raise ValueError naming the key);
`describe_keys()`: the ``--help`` listing (`network_choice.network_config_keys`)."""
