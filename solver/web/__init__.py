"""The browser game: rooms of people and bots at one table, refereed by the server, and the
engine protocol over WebSocket for other programs (`bananas serve`)."""

from solver.core.limits import Limits
from solver.web.app import create_app
from solver.web.config import WebConfig
from solver.web.uvicorn_runner import BackgroundServer

__all__ = ["BackgroundServer", "Limits", "WebConfig", "create_app"]
