"""Exports for other programs and for play: playable HTML pages, game-ready models."""
