#!/usr/bin/env node
// Acme tickets MCP server: lets the support agent search, read, open and update Helpdesk tickets.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";

import { HelpdeskClient } from "./helpdesk.js";

const token = process.env.TICKETS_API_TOKEN;
if (!token) {
  console.error("TICKETS_API_TOKEN is not set");
  process.exit(1);
}
const helpdesk = new HelpdeskClient(token);

const server = new McpServer({
  name: "acme-tickets",
  version: "1.4.2",
});

const asText = (value: unknown) => ({
  content: [{ type: "text" as const, text: JSON.stringify(value, null, 2) }],
});

server.tool(
  "search_tickets",
  "Search customer support tickets by keyword and return the matching items with their status and last update.",
  {
    query: z.string().describe("Keywords to match against ticket subject and body, e.g. 'refund double charge'."),
    status: z
      .enum(["open", "pending", "solved", "closed"])
      .optional()
      .describe("Only return tickets in this status. Omit to search all statuses."),
    limit: z.number().int().min(1).max(100).default(20).describe("Maximum number of tickets to return (1-100)."),
  },
  async ({ query, status, limit }) => asText(await helpdesk.search({ query, status, limit })),
);

server.tool(
  "create_ticket",
  "Open a new support ticket on behalf of a customer. Use only when no existing ticket covers the issue; search_tickets first.",
  {
    subject: z.string().max(150).describe("One-line summary of the customer's problem."),
    body: z.string().describe("Full description of the problem, including what the customer already tried."),
    customer_email: z.string().email().describe("Email address of the customer the ticket is for."),
    priority: z
      .enum(["low", "normal", "high", "urgent"])
      .default("normal")
      .describe("Ticket priority. Use 'urgent' only for outages or payment failures affecting many users."),
    tags: z.array(z.string()).optional().describe("Routing tags such as 'billing' or 'shipping'."),
  },
  async ({ subject, body, customer_email, priority, tags }) =>
    asText(await helpdesk.create({ subject, body, customerEmail: customer_email, priority, tags })),
);

server.registerTool(
  "get_ticket",
  {
    title: "Get ticket",
    description: "Fetch one ticket by its ID, including the full comment thread between the customer and support agents.",
    inputSchema: {
      ticket_id: z.string().describe("Helpdesk ticket ID, e.g. 'T-48213'."),
    },
    annotations: { readOnlyHint: true },
  },
  async ({ ticket_id }) => asText(await helpdesk.get(ticket_id)),
);

server.registerTool(
  "update_ticket_status",
  {
    title: "Update ticket status",
    description:
      "Change the status of an existing ticket, optionally adding an internal note explaining why. Does not notify the customer.",
    inputSchema: {
      ticket_id: z.string().describe("Helpdesk ticket ID, e.g. 'T-48213'."),
      status: z.enum(["open", "pending", "solved", "closed"]).describe("The new status."),
      note: z.string().optional().describe("Internal note visible to agents only."),
    },
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
  },
  async ({ ticket_id, status, note }) => asText(await helpdesk.setStatus(ticket_id, status, note)),
);

async function main() {
  const transport = new StdioServerTransport();
  await server.connect(transport);
  console.error("acme-tickets MCP server running on stdio");
}

main().catch((err) => {
  console.error("fatal:", err);
  process.exit(1);
});
