"""Which of the table's parts the terminal simulator draws and reads."""

from __future__ import annotations

from cribpi.hal import Parts
from cribpi.hal.sim import SimDisplay, SimPegboard

__all__ = ["sim_parts", "has_sim_keys"]


def sim_parts(parts: Parts) -> tuple[SimPegboard | None, SimDisplay | None]:
    """The simulated pegboard and first simulated display among ``parts`` (None: not simulated)."""
    pegboard = _unwrapped(parts.pegboard)
    displays = [_unwrapped(d) for d in parts.displays]
    return (pegboard if isinstance(pegboard, SimPegboard) else None,
            next((d for d in displays if isinstance(d, SimDisplay)), None))


def _unwrapped(part: object) -> object:
    """The part itself under a wrapper that keeps it as ``part`` (the daemon's guarded parts)."""
    return getattr(part, "part", part)


def has_sim_keys(parts: Parts) -> bool:
    """The keys come from the terminal: the sim backend gives the inputs."""
    return "sim" in dict(parts.backends).get("inputs", "").split("+")
