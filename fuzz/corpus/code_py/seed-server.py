"""Acme knowledge-base MCP server.

Gives the support agent read access to help-center articles and lets it draft replies that cite
them. Run with `uv run server.py` (stdio).
"""

from typing import Annotated, Literal, Optional

from mcp.server.fastmcp import Context, FastMCP
from pydantic import Field

from kb_client import KbClient

mcp = FastMCP("kb")
kb = KbClient()


@mcp.tool(
    name="kb_search_articles",
    description="Search help-center knowledge base articles by keyword and return the matching items with their title and last update.",
)
async def search_articles(query: str, limit: int = 10, tags: Optional[list[str]] = None) -> list[dict]:
    return await kb.search(query, limit, tags)


@mcp.tool()
async def get_article(
    article_id: Annotated[str, Field(description="Knowledge-base article ID, e.g. 'KB-1042'.")],
    locale: Optional[str] = None,
) -> dict:
    """Get an article."""
    return await kb.get(article_id, locale)


@mcp.tool()
async def suggest_reply(
    ticket_text: str,
    article_ids: list[str],
    ctx: Context,
    tone: Literal["friendly", "formal"] = "friendly",
) -> str:
    """Draft a reply to a customer that answers their question using the given knowledge-base articles.

    The draft is returned to the agent for review; nothing is sent to the customer.

    Args:
        ticket_text: The customer's latest message, verbatim.
        article_ids: IDs of the articles the reply should cite, most relevant first.
        tone: Writing style of the reply.
    """
    await ctx.info(f"drafting reply from {len(article_ids)} articles")
    articles = [await kb.get(article_id) for article_id in article_ids]
    links = "\n".join(f"- {a['title']}: {a['url']}" for a in articles)
    greeting = "Hi there!" if tone == "friendly" else "Hello,"
    return f"{greeting}\n\nThanks for reaching out. These articles should help:\n{links}\n"


@mcp.tool()
async def set_article_status(
    article_id: str,
    status: Literal["draft", "published"],
    reason: Optional[str] = None,
) -> dict:
    """Publish a knowledge-base article or move it back to draft.

    Use this when an article is wrong or outdated and must be hidden from customers until fixed.

    Args:
        article_id: Knowledge-base article ID, e.g. 'KB-1042'.
        status: "published" makes the article visible on the help center; "draft" hides it.
        reason: Why the status changed; stored in the article's audit log.
    """
    return await kb.set_status(article_id, status, reason)


def main() -> None:
    mcp.run()


if __name__ == "__main__":
    main()
