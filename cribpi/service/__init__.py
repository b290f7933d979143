"""cribpi as a systemd service: the notify protocol, logging for journald, the files that
``cribpi install`` puts in place, the backups and the health checks of ``cribpi doctor``."""
