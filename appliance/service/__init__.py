"""The appliance service: one asyncio process that supervises every component.

``openclaw run`` builds an :class:`~appliance.service.appliance.Appliance`: the event bus, the live
state the status page shows, the supervisor with its components (audio, answer worker, camera, presence,
inbox watcher, LEDs and buttons, web server) and the question pipeline that connects them.
"""
