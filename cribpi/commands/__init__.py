"""One module per ``cribpi`` subcommand, each with ``add_parser(subparsers)``.

The parser it adds sets ``run=`` to a function taking the parsed arguments and returning
an exit code. Errors derived from :class:`cribpi.exc.CribpiError` become exit code 2.
"""
