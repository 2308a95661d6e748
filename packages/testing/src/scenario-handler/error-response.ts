/** One reason a request body was refused, pointing into the body. */
export interface RequestIssue {
  readonly path: readonly (string | number)[];
  readonly message: string;
}

/** PROTOCOL.md's error body for a request that failed (not a run outcome). */
export function errorResponse(status: number, code: string, message: string, issues?: readonly RequestIssue[]): Response {
  const error = issues === undefined ? { code, message } : { code, message, issues };
  return jsonResponse(status, { error });
}

export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers },
  });
}

/** Thrown inside the handler to answer with an error body; caught once at the top. */
export class RequestError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly issues?: readonly RequestIssue[],
  ) {
    super(message);
  }

  toResponse(): Response {
    return errorResponse(this.status, this.code, this.message, this.issues);
  }
}
