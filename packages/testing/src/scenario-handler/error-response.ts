import { errorResponse, type RequestIssue } from '@kestrel/core/internal';

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
    return errorResponse(this.status, this.code, this.message, { issues: this.issues });
  }
}
