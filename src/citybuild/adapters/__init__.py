"""Framework adapters (extras): ``citybuild.adapters.openspiel`` (``pip install ".[openspiel]"``)
and ``citybuild.adapters.pettingzoo`` (``pip install ".[pettingzoo]"``).

Importing this package imports no framework; each adapter module imports its own.
"""
