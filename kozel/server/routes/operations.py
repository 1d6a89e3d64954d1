"""What the club's operators ask: its health, and which process owns which table."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Response

from kozel.server.errors import ClubError
from kozel.server.routes.common import Clubbed, SignedIn

router = APIRouter()


@router.get("/api/health")
async def health(response: Response, club: Clubbed) -> dict[str, Any]:
    """``ok``, or ``degraded`` (503) with the services that do not answer; with what
    password hashing costs this process (``hashing``: passwords waiting for its one
    hashing thread, hashes done and refused, the last minute's longest wait and busy
    time) and how long its event loop was stalled in the last minute (``loop``)."""
    missing = await club.missing()
    load = {"hashing": club.hasher.stats(), "loop": club.stalls.stats()}
    if missing:
        response.status_code = 503
        return {"status": "degraded", "missing": missing, "node": club.node, **load}
    return {"status": "ok", "node": club.node, **load}


@router.get("/api/admin/tables")
async def admin_tables(found: SignedIn, club: Clubbed) -> dict[str, Any]:
    """Which process owns which table (for the club's administrators)."""
    if not club.accounts.is_admin(found[0]):
        raise ClubError(403, "admins_only", "only the club's administrators may see this")
    return await club.ownership.overview()
