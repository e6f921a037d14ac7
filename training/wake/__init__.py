"""The "open claw" wake model: its synthetic clips, voices, fitting and the contrast stage.

``python -m training.wake.train`` writes the keyword head, ``python -m training.wake.contrast`` the
contrast stage; both read the clips :mod:`training.wake.clips` makes.
"""
