"""Packaging glue: installs the top-level engine/ and knowledge/ folders inside the rulesbot package.

The repository keeps the layout the project asked for (rulesbot/, engine/, knowledge/); installed, they are
`rulesbot`, `rulesbot.engine` and `rulesbot.packs`, so `pip install` users get the engine and the packs.
Everything else lives in pyproject.toml.
"""

from setuptools import find_namespace_packages, setup

_MAPPED = {"rulesbot.engine": "engine", "rulesbot.packs": "knowledge"}
_SKIP = ["*__pycache__*", "*.egg-info*"]


def _packages() -> list[str]:
    packages = find_namespace_packages(include=["rulesbot", "rulesbot.*"], exclude=_SKIP)
    for name, folder in _MAPPED.items():
        packages.append(name)
        packages += [f"{name}.{sub}" for sub in find_namespace_packages(where=folder, exclude=_SKIP)]
    return packages


setup(packages=_packages(), package_dir={"rulesbot": "rulesbot", **_MAPPED})
