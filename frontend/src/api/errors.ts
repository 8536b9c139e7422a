// ApiError is what every transport throws, built from the API's error shape
// (ErrorBody in types.gen.ts, docs/api.md): {error, error_type, provider,
// timestamp, details}.

/** Error types the UI treats specially. */
export const NOT_IMPLEMENTED = 'NotImplementedError';
export const UNAUTHENTICATED = 'AuthenticationError';
export const RATE_LIMITED = 'RateLimitError';
export const INTERNAL = 'InternalError';
export const NETWORK = 'NetworkError';

/** ApiError carries the server's error shape to the components. */
export class ApiError extends Error {
  /** error_type of the shape, e.g. ProviderError, NotImplementedError. */
  readonly type: string;
  readonly provider?: string;
  readonly details?: Record<string, unknown>;
  /** HTTP status, 0 when the request never got an answer. */
  readonly status: number;
  readonly timestamp?: string;

  constructor(
    message: string,
    type: string,
    opts: { provider?: string; details?: Record<string, unknown>; status?: number; timestamp?: string } = {},
  ) {
    super(message);
    this.name = 'ApiError';
    this.type = type;
    this.provider = opts.provider || undefined;
    this.details = opts.details && Object.keys(opts.details).length > 0 ? opts.details : undefined;
    this.status = opts.status ?? 0;
    this.timestamp = opts.timestamp;
  }

  /** notAvailable reports whether the backend does not have this capability yet (501). */
  get notAvailable(): boolean {
    return this.type === NOT_IMPLEMENTED || this.status === 501;
  }
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** typeForStatus names an error whose body carried no error_type. */
function typeForStatus(status: number): string {
  switch (status) {
    case 400:
      return 'ValidationError';
    case 401:
      return UNAUTHENTICATED;
    case 404:
      return 'NotFoundError';
    case 429:
      return RATE_LIMITED;
    case 501:
      return NOT_IMPLEMENTED;
    default:
      return status >= 500 ? INTERNAL : 'BaseError';
  }
}

/**
 * errorFromBody turns a non-2xx answer into an ApiError. body is the parsed
 * JSON (or the raw text when it was not JSON). Both the error shape and the
 * unhandled shape {error: 'Internal server error', message} are understood.
 */
export function errorFromBody(status: number, body: unknown): ApiError {
  if (isRecord(body)) {
    const type = typeof body.error_type === 'string' && body.error_type ? body.error_type : typeForStatus(status);
    let message = typeof body.error === 'string' && body.error ? body.error : `Request failed (HTTP ${status})`;
    // The unhandled shape puts the useful text in message.
    if (typeof body.message === 'string' && body.message && !body.error_type) {
      message = `${message}: ${body.message}`;
    }
    return new ApiError(message, type, {
      provider: typeof body.provider === 'string' ? body.provider : undefined,
      details: isRecord(body.details) ? body.details : undefined,
      timestamp: typeof body.timestamp === 'string' ? body.timestamp : undefined,
      status,
    });
  }
  const text = typeof body === 'string' ? body.trim() : '';
  const message = text && text.length < 200 && !text.startsWith('<') ? text : `Request failed (HTTP ${status})`;
  return new ApiError(message, typeForStatus(status), { status });
}

/**
 * errorFromJSONString parses the JSON string the Wails ErrorFormatter emits
 * (app/errors.go); anything that is not the shape becomes a BaseError.
 */
export function errorFromJSONString(raw: string): ApiError {
  try {
    const body: unknown = JSON.parse(raw);
    if (isRecord(body)) return errorFromBody(0, body);
  } catch {
    // not JSON: fall through
  }
  return new ApiError(raw || 'Unknown error', 'BaseError');
}

/** toApiError normalises anything thrown into an ApiError. */
export function toApiError(e: unknown): ApiError {
  if (e instanceof ApiError) return e;
  if (e instanceof Error) return new ApiError(e.message, NETWORK);
  return new ApiError(String(e), NETWORK);
}
