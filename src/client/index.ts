export { ApiClient, buildUrl, type ClientOptions, type RetryNotice } from './api-client.js';
export { ApiError, NetworkError, apiErrorFrom, type FieldError } from './errors.js';
export { paginate, hasNextPage, type PaginateOptions } from './paginate.js';
export { parseRateLimit } from './rate-limit.js';
export { redactToken } from './redact.js';
export { DEFAULT_RETRY, type RetryPolicy } from './retry.js';
export type * from './types.js';
