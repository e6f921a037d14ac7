"""The appliance service: one asyncio process that supervises every component.

``openclaw run`` builds an :class:`~appliance.service.appliance.Appliance`: the event bus, the live
state the status page shows, the supervisor with its components (the index writer queue, the inbox
watcher, the answer worker, the voice front end, presence, LEDs and buttons, the web server, the
systemd watchdog) and the question pipeline that connects them. ``ports.py`` holds the small
interfaces the pipeline needs from the other parts; ``parts.py`` adapts the real packages to them.
"""
