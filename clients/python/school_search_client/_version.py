# The package's version (read by hatchling, see pyproject.toml); it follows the contract's
# info.version, like the TypeScript package's.
__version__ = "1.6.0"
