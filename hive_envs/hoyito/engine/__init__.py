"""The Hoyito II rules engine: compiled kernels over one flat int32 state (`kernels`), the validated
rule options (`options.HoyitoOptions`) and the Python face `game.HoyitoGame`, which implements the
game protocol of `hive_envs.core.game`. No gymnasium / pettingzoo / torch imports here."""
