"""Speech recogniser engines behind :class:`appliance.audio.base.Recogniser`."""
