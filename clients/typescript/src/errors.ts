import type { ErrorBody, ErrorCode, Violation } from "./types.js";

/** A request the referee refused (4xx, 5xx): the status and the answer's error body. */
export class RefereeError extends Error {
  override readonly name = "RefereeError";
  /** The stable code: `illegal-action`, `inconsistent-state`, `forbidden`, `bad-request`, ... */
  readonly error: ErrorCode;
  /** Each broken rule: its rule id (`rule`) and a message naming the offending thing. */
  readonly violations: readonly Violation[];

  constructor(
    readonly status: number,
    readonly body: ErrorBody,
  ) {
    super(`${status} ${body.error}: ${body.message}`);
    this.error = body.error;
    this.violations = body.violations;
  }

  /** The rule ids of the violations, in order. */
  get rules(): string[] {
    return this.violations.map((v) => v.rule);
  }
}

/** No answer could be read: the referee is unreachable, the call timed out or was aborted,
 * or the answer was cut off or is not JSON. Its `cause` is the underlying failure. */
export class RefereeUnreachable extends Error {
  override readonly name = "RefereeUnreachable";

  constructor(
    readonly url: string,
    cause: unknown,
  ) {
    super(`${url}: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
}

/** The error answer of a refusal, as sent, or one made up for an answer that is not the
 * contract's error body (a proxy's HTML page, say). */
export function errorBody(status: number, text: string, statusText: string): ErrorBody {
  try {
    const data: unknown = JSON.parse(text);
    if (isErrorBody(data)) return data;
  } catch {
    // not JSON: made up below
  }
  return {
    error: status >= 500 ? "internal-error" : "bad-request",
    message: text.slice(0, 500) || statusText,
    violations: [],
  };
}

function isErrorBody(data: unknown): data is ErrorBody {
  if (typeof data !== "object" || data === null) return false;
  const body = data as Record<string, unknown>;
  return typeof body.error === "string" && typeof body.message === "string" && Array.isArray(body.violations);
}
