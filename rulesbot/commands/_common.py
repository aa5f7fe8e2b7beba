"""Helpers shared by the command modules: settings with CLI overrides, and the one error-to-exit mapping."""

import re

import typer


def load_settings(**overrides):
    """Settings from the environment, with the non-None CLI options applied on top."""
    from pydantic import ValidationError
    from pydantic_settings import SettingsError

    from rulesbot.settings import Settings

    values = {key: value for key, value in overrides.items() if value is not None}
    try:
        return Settings(**values)
    except ValidationError as error:
        # One line naming the environment variable (the form the user wrote), never a traceback.
        first = error.errors()[0]
        field = str(first["loc"][0]) if first["loc"] else ""
        # A value given as a command-line option is named as the option, one from the environment as its variable.
        if field in values:
            where = f"--{field.replace('_', '-')}"
        else:
            where = f"RULESBOT_{field.upper()}" if field else "settings"
        message = str(first["msg"]).removeprefix("Value error, ")
        typer.echo(f"error: invalid {where}: {message}", err=True)
        raise typer.Exit(2) from None
    except SettingsError as error:  # a value pydantic-settings could not even decode
        named = re.search(r'field "(\w+)"', str(error))
        where = f"RULESBOT_{named.group(1).upper()}" if named else "settings"
        typer.echo(f"error: invalid {where}: the value cannot be read", err=True)
        raise typer.Exit(2) from None


def fail_storage(error: OSError) -> None:
    """Print a file-system error as one line (os_error_line) and exit 1 (never a traceback)."""
    typer.echo(os_error_line(error), err=True)
    raise typer.Exit(1)


def os_error_line(error: OSError) -> str:
    """One line for a file-system error: the path and the reason, and RULESBOT_DATA_DIR when the path is in it."""
    reason = error.strerror or str(error)
    if not error.filename:
        return f"error: {reason}"
    line = f"error: cannot use {error.filename}: {reason}"
    try:
        from pathlib import Path

        from rulesbot.settings import Settings

        data_dir = Path(Settings().data_dir).absolute()
        if data_dir == Path(error.filename).absolute() or data_dir in Path(error.filename).absolute().parents:
            line += "; set RULESBOT_DATA_DIR to a writable folder"
    except Exception:  # noqa: BLE001 - settings that do not validate: the line without the hint
        pass
    return line


def fail(error) -> None:
    """Print a RulesbotError on stderr and exit: 2 for bad input, 1 otherwise (never a traceback)."""
    typer.echo(f"error: {error.message}", err=True)
    raise typer.Exit(2 if error.status in (400, 404, 422) else 1)
