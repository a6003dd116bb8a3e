"""The human game at the terminal (``citybuild play GAME --human SEAT``): the board before each
decision, commands to look around (``board``, ``moves [filter]``, ``more``, ``undo``, ``hint``,
``help``), moves read whatever their case, a clear line for every refusal, and the chance events
the human may see announced. Nothing here knows a game: boards are drawn by the spec's
``board_text`` hook and announcements written by its ``announce`` hook."""

from citybuild.terminal.human import HumanSeat, colour_wanted
from citybuild.terminal.story import story_lines

__all__ = ["HumanSeat", "colour_wanted", "story_lines"]
