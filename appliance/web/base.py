"""What the status page needs from the running appliance: read-only views and admin actions."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Protocol


class ApplianceControl(Protocol):
    """The appliance as the web app sees it. Admin actions are only reached after the token check."""

    def healthy(self) -> tuple[bool, list[str]]:
        """(all critical components running, names of the ones that are not)."""

    async def sources(self) -> dict[str, list[dict[str, Any]]]:
        """Indexed sources by namespace."""

    async def upload(self, namespace: str, filename: str, staged: Path) -> dict[str, Any]:
        """Move an uploaded file into the namespace's inbox and index it.

        ``staged`` is the complete upload, written under the data directory (same file system as the
        inbox); it is moved, not copied, or left for the caller to delete when refused.
        """

    async def reindex(self, namespace: str | None) -> dict[str, Any]:
        """Re-index every inbox file (of one namespace or all)."""

    async def forget(self, namespace: str, source: str) -> dict[str, Any]:
        """Remove a source from the index (and its inbox file)."""

    async def set_room(self, room: str | None) -> dict[str, Any]:
        """Hold a room manually; None returns to presence."""

    async def restart(self, component: str) -> dict[str, Any]:
        """Restart a supervised component."""
