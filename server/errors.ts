/** Every error leaves the server as { error: { status, code, message, parameter? } }. */
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { ErrorResponse } from '../lib/schema-types.js';

export class ApiError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    readonly code: string,
    message: string,
    readonly parameter?: string,
  ) {
    super(message);
  }

  toBody(): ErrorResponse {
    const error: ErrorResponse['error'] = { status: this.status, code: this.code, message: this.message };
    if (this.parameter) error.parameter = this.parameter;
    return { error };
  }
}

export const badRequest = (code: string, message: string, parameter?: string) => new ApiError(400, code, message, parameter);
export const notFound = (code: string, message: string, parameter?: string) => new ApiError(404, code, message, parameter);
