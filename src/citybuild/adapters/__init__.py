"""Framework adapters (extras): ``citybuild.adapters.openspiel`` (``pip install "citybuild[openspiel]"``)
and ``citybuild.adapters.pettingzoo`` (``pip install "citybuild[pettingzoo]"``).

Importing this package imports no framework; each adapter module imports its own.
"""
