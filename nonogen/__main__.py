import gc

gc.disable()  # until the command line is read (cli.console enables it): start-up leaves no garbage to collect

from .cli import console  # noqa: E402 - after the collector stopped

console()
