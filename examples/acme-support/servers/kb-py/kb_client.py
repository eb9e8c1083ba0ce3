"""Small async client for the help-center API. Nothing here is exposed to the model directly."""

from __future__ import annotations

import os
from typing import Any

import httpx

KB_API_URL = os.environ.get("KB_API_URL", "https://help.acme.example/api")


class KbClient:
    def __init__(self, api_key: str | None = None) -> None:
        self._client = httpx.AsyncClient(
            base_url=KB_API_URL,
            headers={"Authorization": f"Bearer {api_key or os.environ['KB_API_KEY']}"},
            timeout=15.0,
        )

    async def search(self, query: str, limit: int, tags: list[str] | None) -> list[dict[str, Any]]:
        params: dict[str, Any] = {"q": query, "limit": limit}
        if tags:
            params["tags"] = ",".join(tags)
        resp = await self._client.get("/articles/search", params=params)
        resp.raise_for_status()
        return resp.json()["results"]

    async def get(self, article_id: str, locale: str | None = None) -> dict[str, Any]:
        resp = await self._client.get(f"/articles/{article_id}", params={"locale": locale or "en-US"})
        resp.raise_for_status()
        return resp.json()

    async def set_status(self, article_id: str, status: str, reason: str | None) -> dict[str, Any]:
        resp = await self._client.patch(f"/articles/{article_id}", json={"status": status, "reason": reason})
        resp.raise_for_status()
        return resp.json()
