import type { ErrorCode } from "@/lib/errors";
import { agentTotalRefusal, type AgentLimits } from "./limits";
import { lineRefusal, type Quote } from "./price";

/**
 * What a checkout session still needs before it can be completed: every missing or blocking
 * thing at once, never only the first, each with its code (the one completing would answer),
 * the parameter as a path into the session, a severity and how to resolve it. Database-free:
 * `sessions.ts` reads what it needs and asks here.
 */

/**
 * Who can resolve it (the severities of UCP's messages): `recoverable`, the caller, by updating
 * the session; `requires_buyer_input` and `requires_buyer_review`, only the buyer, signed in, in
 * a browser (the session needs escalation); `unrecoverable`, nobody through this session.
 */
export type RequirementSeverity = "recoverable" | "requires_buyer_input" | "requires_buyer_review" | "unrecoverable";

export interface Requirement {
  code: ErrorCode;
  /** The parameter, as a path into the session: `lines[2]`, `buyer.email`, `shipping_address`, `payment`. */
  path: string;
  severity: RequirementSeverity;
  /** What is wrong and how to resolve it, in a sentence or two. */
  message: string;
}

/** An agent's standing, read for the session (completion reads it again under the holder's lock). */
export type AgentStanding =
  | { marketplace: "off" }
  | { marketplace: "on"; holder: "off" }
  | ({ marketplace: "on"; holder: "on" } & AgentLimits);

export interface SessionFacts {
  quote: Quote;
  /** An account holder's session (else a guest's). */
  accountHolder: boolean;
  email: string | null;
  hasShippingAddress: boolean;
  /** How it will be paid: the account's default method (`saved`: whether there is one), or a card given at completion. */
  payment: { kind: "saved"; available: boolean } | { kind: "card" } | null;
  /** For an agent's session: the marketplace's and the holder's switches and limits. */
  agent: AgentStanding | null;
}

export function requirementsOf(facts: SessionFacts): Requirement[] {
  const out: Requirement[] = [];
  const { quote } = facts;
  if (quote.lines.length === 0) {
    out.push({ code: "cart_empty", path: "lines", severity: "recoverable", message: "There is nothing to buy: add at least one line." });
  }
  for (const line of quote.lines) {
    if (line.purchasable) continue;
    const refusal = lineRefusal(line);
    out.push({ code: refusal.code, path: refusal.param!, severity: "recoverable", message: `${refusal.message} Change or remove this line.` });
  }
  if (!facts.accountHolder && !facts.email) {
    out.push({ code: "parameter_missing", path: "buyer.email", severity: "recoverable", message: "Give the buyer's e-mail address: the confirmation is sent there." });
  }
  if (!facts.hasShippingAddress) {
    out.push({ code: "shipping_address_missing", path: "shipping_address", severity: "recoverable", message: "Give a shipping address." });
  }
  if (facts.payment === null || (facts.payment.kind === "saved" && !facts.payment.available)) {
    out.push({
      code: "payment_method_missing",
      path: "payment",
      severity: "recoverable",
      message: facts.accountHolder
        ? "The account has no default payment method: pay with a card given when completing, or its holder sets one on /account."
        : "Choose how to pay: a card given when completing.",
    });
  }
  if (facts.agent) out.push(...agentRequirements(facts.agent, quote.total_cents));
  return out;
}

function agentRequirements(agent: AgentStanding, totalCents: number): Requirement[] {
  if (agent.marketplace === "off") {
    return [{ code: "agentic_checkout_disabled", path: "", severity: "unrecoverable", message: "The marketplace does not let agents place orders at the moment." }];
  }
  if (agent.holder === "off") {
    return [
      {
        code: "agentic_purchasing_off",
        path: "",
        severity: "requires_buyer_input",
        message: "The account holder has not let agents place orders: they turn on \"Let agents place orders\" on /account/agents.",
      },
    ];
  }
  // The scope is the completing token's, not the session's: only the limits are checked here.
  const refusal = agentTotalRefusal(totalCents, agent, ["checkout"]);
  if (!refusal) return [];
  return [{ code: refusal.code, path: "", severity: "requires_buyer_input", message: `${refusal.message} The holder can raise it on /account/agents.` }];
}

/** A session's state as its doors show it. */
export type SessionStatus = "incomplete" | "requires_escalation" | "ready_for_complete" | "completed" | "canceled" | "expired";

/** The state of an open session: what its requirements leave. */
export function openStatus(requirements: ReadonlyArray<Requirement>): "incomplete" | "requires_escalation" | "ready_for_complete" {
  if (requirements.some((r) => r.severity === "requires_buyer_input" || r.severity === "requires_buyer_review")) return "requires_escalation";
  return requirements.length ? "incomplete" : "ready_for_complete";
}
