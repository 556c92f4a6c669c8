// The two ways verifying a token can fail, and what the HTTP host answers for each: a token found bad is a 401 (the
// client should get a new one); a verification that could not be done (keys unreachable, an introspection endpoint
// down) is a 503, never a 401 that would make a client throw away a good token.

/** The token is bad: malformed, badly signed, expired, not yet valid, or not issued for this server. */
export class InvalidTokenError extends Error {
  override readonly name = 'InvalidTokenError';

  /** `description` goes to the client as `error_description`: say what is wrong, never quote the token. */
  constructor(description: string, options?: { cause?: unknown }) {
    super(description, options);
  }
}

/** The token could not be verified right now; the client should keep it and retry. */
export class AuthUnavailableError extends Error {
  override readonly name = 'AuthUnavailableError';
}
