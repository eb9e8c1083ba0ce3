// Thin client for Acme's internal Helpdesk REST API. No MCP code lives here.

const BASE_URL = process.env.HELPDESK_API_URL ?? "https://helpdesk.acme.internal/api/v2";

export type TicketStatus = "open" | "pending" | "solved" | "closed";
export type TicketPriority = "low" | "normal" | "high" | "urgent";

export interface Ticket {
  id: string;
  subject: string;
  status: TicketStatus;
  priority: TicketPriority;
  customerEmail: string;
  tags: string[];
  updatedAt: string;
}

export class HelpdeskClient {
  constructor(private readonly token: string) {}

  private async request<T>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await fetch(`${BASE_URL}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${this.token}`,
        "content-type": "application/json",
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!res.ok) {
      throw new Error(`Helpdesk API ${method} ${path} failed: ${res.status} ${res.statusText}`);
    }
    return (await res.json()) as T;
  }

  search(params: { query: string; status?: TicketStatus; limit: number }): Promise<Ticket[]> {
    const qs = new URLSearchParams({ q: params.query, limit: String(params.limit) });
    if (params.status) qs.set("status", params.status);
    return this.request("GET", `/tickets?${qs}`);
  }

  get(id: string): Promise<Ticket & { comments: { author: string; body: string }[] }> {
    return this.request("GET", `/tickets/${encodeURIComponent(id)}?include=comments`);
  }

  create(input: {
    subject: string;
    body: string;
    customerEmail: string;
    priority: TicketPriority;
    tags?: string[];
  }): Promise<Ticket> {
    return this.request("POST", "/tickets", input);
  }

  setStatus(id: string, status: TicketStatus, note?: string): Promise<Ticket> {
    return this.request("PATCH", `/tickets/${encodeURIComponent(id)}`, { status, note });
  }
}
