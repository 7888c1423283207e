"""The Durak bots: ``easy`` (lowest card), ``medium`` (heuristics), ``hard`` (search)."""

from ai.base import register_bots, register_warm_up
from ai.durak.easy import EasyDurakBot
from ai.durak.hard import HardDurakBot
from ai.durak.medium import MediumDurakBot

register_bots("durak", easy=EasyDurakBot, medium=MediumDurakBot, hard=HardDurakBot)


def _load_the_learned_models() -> None:
    # numpy, imported on first use (see ``hard._endgame``)
    from ai.durak import hand_model, value

    value.default_judge()
    hand_model.default()


register_warm_up(_load_the_learned_models)

from ai.durak.review import judge  # noqa: E402
from ai.review import register_judge  # noqa: E402

register_judge("durak", judge)
