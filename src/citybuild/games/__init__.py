"""The built-in games; each is registered through the ``citybuild.games`` entry points."""
