"""The Rummy bots: ``easy`` (melds at once, sheds its highest card), ``medium`` (heuristics:
keeps promising cards, feeds the opponent nothing, holds melds while it is safe) and ``hard``
(tracks every public card and searches sampled hidden hands).

The modules with one job each:

- ``situation``: the seat's view and legal list as card bitmasks;
- ``tracking``: what the public log tells about the discard pile and the opponent's hand;
- ``plan``: the best arrangement of a hand into melds, layoffs and promising pairs;
- ``policy``: Medium's decisions on bitmasks, also the opponent model in Hard's worlds;
- ``worlds``: sampled hidden hands and stock orders (determinization) for Hard;
- ``playout``: a lean copy of the rules that plays sampled worlds quickly;
- ``rollout``: turns of a sampled world played with Medium's policy;
- ``lookahead``: what each possible next draw makes of a kept hand, and the chance of winning.
"""

from ai.base import register_bots
from ai.rummy.easy import EasyRummyBot
from ai.rummy.hard import HardRummyBot
from ai.rummy.medium import MediumRummyBot

register_bots("rummy", easy=EasyRummyBot, medium=MediumRummyBot, hard=HardRummyBot)

from ai.review import register_judge  # noqa: E402
from ai.rummy.review import considers, judge  # noqa: E402

register_judge("rummy", judge, considers)
