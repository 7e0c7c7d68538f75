"""The verification engine: complete line solving, probing, and SAT (python-sat) for the rest."""
