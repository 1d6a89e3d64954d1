"""Kozel: an online domino club — Goat, Donkey and their relatives."""
